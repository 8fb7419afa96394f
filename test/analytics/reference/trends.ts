import {
  AGGREGATED_DISPLAYS,
  orderedEntities,
  type Entity,
  type TrendParams,
} from '../../../src/contract/analytics.ts';
import {
  addWall,
  bucketStarts,
  DAY_MS,
  formatDay,
  fromWall,
  parseDateParam,
  toWall,
  truncWall,
} from '../../../server/analytics/query/dates.ts';
import { evaluateFormula, parseFormula } from '../../../server/analytics/engines/formula.ts';
import type { AnalyticsProject, ReferenceEvent } from '../../../server/analytics/types.ts';
import { parseHogql } from '../../../server/analytics/hogql/parser.ts';
import { matchesGroup, matchesTestAccounts, numberOf, textOf, type FilterContext } from './filters.ts';
import { propertyNumberOf } from '../../../server/analytics/query/properties.ts';
import { aggregateOf, valueText, type RefEnv } from './hogql.ts';
import { sessionOf, sessionsOf, sessionText } from './sessions.ts';
import { actorOf, byGroup, groupPropertiesOf, referenceGroups, type RefGroups } from './groups.ts';

/**
 * Trends in plain TypeScript, written for clarity, not speed: for every series, filter the
 * events with simple loops, put each in its bucket, apply the math. The engine's SQL must give
 * the same numbers bucket by bucket. Date parsing and the formula parser are shared with the
 * engine (they have their own hand-worked tests); everything else is computed here again.
 */

export interface RefSeries {
  label: string;
  breakdown_value: string | number | string[] | null;
  compare_label: 'current' | 'previous' | null;
  days: string[];
  data: number[];
  aggregated_value: number | null;
}

const OTHER = '$$_posthog_breakdown_other_$$';
const NONE = '$$_posthog_breakdown_null_$$';

/** One breakdown: `breakdown` (+ its bins), or an entry of `breakdowns`. */
interface RefPart {
  type: string;
  key: string;
  groupIndex: number;
  bins: number | null;
}

function partsOf(params: TrendParams): RefPart[] {
  if (params.breakdowns?.length) {
    return params.breakdowns.map((b) => ({
      type: b.type,
      key: b.property,
      groupIndex: b.group_type_index ?? 0,
      bins: b.histogram_bin_count ?? null,
    }));
  }
  if (typeof params.breakdown !== 'string') return [];
  return [
    {
      type: params.breakdown_type,
      key: params.breakdown,
      groupIndex: params.breakdown_group_type_index ?? 0,
      bins: params.breakdown_histogram_bin_count ?? null,
    },
  ];
}

/** `[10.0,20.0]`: a bin as Python prints its floats. */
const binName = (lo: number, hi: number) => {
  const f = (n: number) => (Number.isInteger(n) ? n.toFixed(1) : String(n));
  return `[${f(lo)},${f(hi)}]`;
};

/**
 * N equal-width bins over [min, max], their edges floored to hundredths (in whole hundredths, so
 * 0.29 stays 0.29), the last one a hundredth above max's; bins that collapse merge.
 */
export function binsOf(numbers: number[], n: number): { lo: number; hi: number; name: string }[] {
  if (numbers.length === 0) return [];
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  const hundredths: number[] = [];
  for (let i = 0; i < n; i++) hundredths.push(Math.floor((min + (i * (max - min)) / n) * 100 + 1e-9));
  hundredths.push(Math.floor(max * 100 + 1e-9) + 1);
  const edges = hundredths.filter((h, i) => i === 0 || h > Math.max(...hundredths.slice(0, i))).map((h) => h / 100);
  const bins = [];
  for (let i = 0; i + 1 < edges.length; i++)
    bins.push({ lo: edges[i]!, hi: edges[i + 1]!, name: binName(edges[i]!, edges[i + 1]!) });
  return bins;
}

/** Tuples in order, element by element (several breakdowns' values rank ties so). */
function compareValues(a: string, b: string, multi: boolean): number {
  const x: string[] = multi ? (JSON.parse(a) as string[]) : [a];
  const y: string[] = multi ? (JSON.parse(b) as string[]) : [b];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The math of one series over the events of one bucket. */
function applyMath(entity: Entity, events: ReferenceEvent[], env: RefEnv): number {
  const numbers = () =>
    events.map((e) => numberOf(e.properties, entity.math_property ?? '')).filter((n): n is number => n !== null);
  switch (entity.math) {
    case 'total':
      return events.length;
    case 'dau':
    case 'weekly_active':
    case 'monthly_active':
      return new Set(events.map(actorOf)).size;
    case 'unique_session': {
      const sessions = new Set<string>();
      for (const e of events) {
        const s = textOf(e.properties, '$session_id');
        if (s !== null && s !== '') sessions.add(s);
      }
      return sessions.size;
    }
    case 'sum':
      return numbers().reduce((a, b) => a + b, 0);
    case 'avg': {
      const n = numbers();
      return n.length === 0 ? 0 : n.reduce((a, b) => a + b, 0) / n.length;
    }
    case 'min': {
      const n = numbers();
      return n.length === 0 ? 0 : Math.min(...n);
    }
    case 'max': {
      const n = numbers();
      return n.length === 0 ? 0 : Math.max(...n);
    }
    case 'median':
      return quantile(numbers(), 0.5);
    case 'p90':
      return quantile(numbers(), 0.9);
    case 'p95':
      return quantile(numbers(), 0.95);
    case 'p99':
      return quantile(numbers(), 0.99);
    case 'hogql':
      return aggregateOf(parseHogql(entity.math_hogql ?? ''), events, env);
  }
}

interface Options {
  events: readonly ReferenceEvent[];
  project: AnalyticsProject;
  now: Date;
  /** The project's cohorts: id → name and persons (cohort filters and breakdowns read them). */
  cohorts?: ReadonlyMap<number, { name: string; members: ReadonlySet<string> }>;
  /** The project's groups (computed from `events` when absent). */
  groups?: RefGroups;
  /** Only these events count (a cohort breakdown's run). */
  only?: (e: ReferenceEvent) => boolean;
}

/**
 * A cohort breakdown: the trend of each listed cohort's persons ("all": everyone), labelled with
 * the cohort's name, breakdown_value its id; series i of every cohort together, in list order.
 */
function cohortTrends(params: TrendParams, o: Options): RefSeries[] {
  const listed = Array.isArray(params.breakdown) ? params.breakdown : [params.breakdown];
  const runs = listed.map((id) => {
    const all = id === 'all';
    const cohort = all ? null : o.cohorts!.get(Number(id))!;
    const run = referenceTrends(
      { ...params, breakdown: undefined, breakdown_type: 'event' },
      { ...o, ...(cohort ? { only: (e: ReferenceEvent) => cohort.members.has(e.person_id) } : {}) },
    );
    return run.map((s) => ({
      ...s,
      label: cohort ? cohort.name : 'all users',
      breakdown_value: cohort ? Number(id) : 'all',
    }));
  });
  const out: RefSeries[] = [];
  for (let i = 0; i < (runs[0]?.length ?? 0); i++) for (const run of runs) out.push(run[i]!);
  return out;
}

/** date_from and date_to as exact instants (date_from before any bucket snapping). */
function resolveRange(params: TrendParams, o: Options): { from: number; to: number } {
  const base = { now: o.now.getTime(), timeZone: o.project.timezone, weekStart: o.project.week_start_day };
  const first = o.events.length === 0 ? o.now.getTime() : Math.min(...o.events.map((e) => e.timestamp));
  const from = parseDateParam(params.date_from ?? '-7d', { ...base, role: 'from' });
  const to = params.date_to ? parseDateParam(params.date_to, { ...base, role: 'to' }) : o.now.getTime();
  return { from: from === null ? first : from!, to: to === null ? o.now.getTime() : to! };
}

/**
 * The reference trend: series in response order. The current period runs from the start of the
 * bucket holding date_from to date_to; compare's previous period is as many buckets, from the
 * one holding date_from − (date_to − date_from) (hours in real time, longer intervals on the
 * local calendar), each bucket whole.
 */
export function referenceTrends(params: TrendParams, o: Options): RefSeries[] {
  if (params.breakdown_type === 'cohort' && params.breakdown !== undefined && params.breakdown !== null)
    return cohortTrends(params, o);
  const tz = o.project.timezone;
  const week = o.project.week_start_day;
  const range = resolveRange(params, o);
  // Bucket starts as wall times, then back to instants: the first instant of a wall time.
  const instantOf = (wall: number) => fromWall(wall, tz);
  const firstBucket = truncWall(toWall(range.from, tz), params.interval, week);
  const current = {
    from: instantOf(firstBucket),
    toExclusive: range.to + 1,
    label: params.compare ? ('current' as const) : null,
  };
  const periods: { from: number; toExclusive: number; label: 'current' | 'previous' | null }[] = [current];
  if (params.compare) {
    let n = 0;
    for (let b = firstBucket; b <= toWall(range.to, tz); b = addWall(b, params.interval, 1)) n += 1;
    // The span back from date_from: in real time for hours, on the local calendar otherwise.
    const fromWall_ = toWall(range.from, tz);
    const anchor =
      params.interval === 'hour'
        ? toWall(range.from - (range.to - range.from), tz)
        : fromWall_ - (toWall(range.to, tz) - fromWall_);
    const prev = truncWall(anchor, params.interval, week);
    periods.push({
      from: instantOf(prev),
      toExclusive: instantOf(addWall(prev, params.interval, n)),
      label: 'previous',
    });
  }
  const aggregate = AGGREGATED_DISPLAYS.includes(params.display);
  const entities = orderedEntities(params);
  const parts = partsOf(params);
  const multi = (params.breakdowns?.length ?? 0) > 0;
  const breakdownKey = parts.length > 0 ? 'on' : null;
  const env: RefEnv = { timeZone: tz, weekStart: week, now: o.now.getTime() };
  // Aggregated by a group type, only the events with such a group count, each for its group.
  const refGroups = o.groups ?? referenceGroups(o.events);
  const fctx: FilterContext = {
    sessions: sessionsOf(o.events),
    env,
    ...(o.cohorts ? { cohorts: new Map([...o.cohorts].map(([id, c]) => [id, c.members])) } : {}),
    groups: refGroups,
  };
  const hogqlParts = parts.map((p) => (p.type === 'hogql' ? parseHogql(p.key) : null));
  const partText = (i: number, e: ReferenceEvent): string | null => {
    const p = parts[i]!;
    let t: string | null;
    if (hogqlParts[i]) t = valueText(hogqlParts[i], e, env);
    else if (p.type === 'group') t = textOf(groupPropertiesOf(e, refGroups, p.groupIndex), p.key);
    else if (p.type === 'session') {
      const s = sessionOf(fctx.sessions, e);
      t = s === null ? null : sessionText(s, p.key);
    } else t = textOf(p.type === 'person' ? e.person_properties : e.properties, p.key);
    return t === '' ? null : t;
  };
  const numberIn = (t: string | null) => (t === null ? null : propertyNumberOf({ v: t }, 'v'));
  const gi = params.aggregation_group_type_index;
  const pool = gi === null || gi === undefined ? o.events : byGroup(o.events, refGroups, gi);
  const matchesEntity = (entity: Entity, e: ReferenceEvent) =>
    (o.only === undefined || o.only(e)) &&
    (entity.id === null || e.event === String(entity.id)) &&
    matchesGroup(e, params.properties, fctx) &&
    matchesTestAccounts(e, o.project, params.filter_test_accounts) &&
    matchesGroup(e, entity.properties, fctx);
  // Bins span the numbers of the current period's events of any series; a compared period keeps them.
  const binned = parts.map((p, i) => {
    if (p.bins === null) return null;
    const seen = pool.filter(
      (e) =>
        e.timestamp >= current.from && e.timestamp < current.toExclusive && entities.some((en) => matchesEntity(en, e)),
    );
    return binsOf(
      seen.map((e) => numberIn(partText(i, e))).filter((n): n is number => n !== null),
      p.bins,
    );
  });
  const partValue = (i: number, e: ReferenceEvent): string | null => {
    const t = partText(i, e);
    const bins = binned[i];
    if (!bins) return t;
    const n = numberIn(t);
    return n === null ? null : (bins.find((b) => n >= b.lo && n < b.hi)?.name ?? null);
  };
  const out: RefSeries[] = [];

  for (const period of periods) {
    const buckets = bucketStarts(
      toWall(period.from, tz),
      toWall(period.toExclusive - 1, tz),
      params.interval,
      o.project.week_start_day,
    );
    const days = buckets.map((b) => formatDay(b, params.interval));
    // For each series: key → data (one value per bucket, or one value when aggregated).
    const perSeries: { keys: string[]; data: Map<string, number[]> }[] = [];

    for (const entity of entities) {
      const matches = (e: ReferenceEvent) => matchesEntity(entity, e);
      const valueOf = (e: ReferenceEvent): string | null => {
        if (breakdownKey === null) return null;
        // Several breakdowns: every combination is a value, a missing part reads as None.
        if (multi) return JSON.stringify(parts.map((_, i) => partValue(i, e) ?? NONE));
        return partValue(0, e);
      };
      const inRange = pool.filter((e) => e.timestamp >= period.from && e.timestamp < period.toExclusive && matches(e));
      // Rank values by event count, ties by value.
      const counts = new Map<string, number>();
      for (const e of inRange) {
        const v = valueOf(e);
        if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      const ranked = [...counts].sort((a, b) => b[1] - a[1] || compareValues(a[0], b[0], multi)).map(([v]) => v);
      const top = ranked.slice(0, params.breakdown_limit);
      const keyOf = (e: ReferenceEvent) => {
        if (breakdownKey === null) return 'all';
        const v = valueOf(e);
        return v === null ? 'none' : top.includes(v) ? `v:${v}` : 'other';
      };

      const windows: { start: number; end: number }[] = [];
      const active = entity.math === 'weekly_active' ? 7 : entity.math === 'monthly_active' ? 30 : 0;
      const groups = new Map<string, ReferenceEvent[][]>();
      const slots = aggregate ? 1 : buckets.length;
      const put = (e: ReferenceEvent, slot: number) => {
        const key = keyOf(e);
        if (!groups.has(key))
          groups.set(
            key,
            Array.from({ length: slots }, () => []),
          );
        groups.get(key)![slot]!.push(e);
      };
      if (active > 0) {
        if (aggregate) {
          const end = addWall(truncWall(toWall(period.toExclusive - 1, tz), 'day'), 'day', 1);
          windows.push({ start: end - active * DAY_MS, end });
        } else {
          for (const b of buckets) {
            const end = addWall(b, params.interval, 1);
            windows.push({ start: end - active * DAY_MS, end });
          }
        }
        for (const e of pool) {
          if (e.timestamp >= period.toExclusive || !matches(e)) continue;
          const wall = toWall(e.timestamp, tz);
          windows.forEach((w, slot) => {
            if (wall >= w.start && wall < w.end) put(e, slot);
          });
        }
      } else {
        for (const e of inRange) {
          put(
            e,
            aggregate
              ? 0
              : buckets.indexOf(truncWall(toWall(e.timestamp, tz), params.interval, o.project.week_start_day)),
          );
        }
      }
      if (breakdownKey === null && !groups.has('all'))
        groups.set(
          'all',
          Array.from({ length: slots }, () => []),
        );
      const keys = [...groups.keys()].sort((a, b) => rankOf(a, top) - rankOf(b, top));
      const data = new Map<string, number[]>();
      for (const key of keys)
        data.set(
          key,
          groups.get(key)!.map((evs) => applyMath(entity, evs, env)),
        );
      perSeries.push({ keys, data });
    }

    const emit = (label: string, key: string, values: number[]) => {
      const cumulative = params.display === 'ActionsLineGraphCumulative' && !aggregate;
      let total = 0;
      out.push({
        label,
        breakdown_value:
          breakdownKey === null
            ? null
            : key === 'none'
              ? NONE
              : key === 'other'
                ? multi
                  ? parts.map(() => OTHER)
                  : OTHER
                : multi
                  ? (JSON.parse(key.slice(2)) as string[])
                  : key.slice(2),
        compare_label: period.label,
        days,
        data: aggregate ? [] : cumulative ? values.map((v) => (total += v)) : values,
        aggregated_value: aggregate ? values[0]! : null,
      });
    };
    const labelOf = (key: string, fallback: string) =>
      key === 'none'
        ? 'None'
        : key === 'other'
          ? 'Other'
          : key === 'all'
            ? fallback
            : multi
              ? (JSON.parse(key.slice(2)) as string[]).map((v) => (v === NONE ? 'None' : v)).join(' · ')
              : key.slice(2);

    // `formulas` when it has any, else `formula`: one series per formula and breakdown value.
    const listed = (params.formulas ?? []).filter((f) => f.trim() !== '');
    const formulas = listed.length > 0 ? listed : params.formula ? [params.formula] : [];
    if (formulas.length > 0) {
      const keys: string[] = [];
      for (const s of perSeries) for (const k of s.keys) if (!keys.includes(k)) keys.push(k);
      const slots = aggregate ? 1 : buckets.length;
      for (const text of formulas) {
        const formula = parseFormula(text, entities.length);
        for (const key of keys) {
          const values = Array.from({ length: slots }, (_, j) =>
            evaluateFormula(
              formula,
              perSeries.map((s) => s.data.get(key)?.[j] ?? 0),
            ),
          );
          const label = labelOf(key, text);
          emit(formulas.length > 1 && key !== 'all' ? `${text} · ${label}` : label, key, values);
        }
      }
    } else {
      entities.forEach((entity, i) => {
        const name = entity.custom_name || entity.name || (entity.id === null ? 'All events' : String(entity.id));
        for (const key of perSeries[i]!.keys) emit(labelOf(key, name), key, perSeries[i]!.data.get(key)!);
      });
    }
  }
  return out;
}

function rankOf(key: string, top: string[]): number {
  if (key === 'none') return 1e9;
  if (key === 'other') return 2e9;
  return key === 'all' ? 0 : top.indexOf(key.slice(2));
}
