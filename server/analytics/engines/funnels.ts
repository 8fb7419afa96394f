import {
  ANALYTICS_LIMITS,
  encodeAnalyticsQuery,
  funnelWindow,
  orderedEntities,
  cohortIdOf,
  type Entity,
  type FunnelParams,
  type PropertyFilter,
  type FunnelStep,
  type FunnelTimeToConvert,
  type FunnelTrendsSeries,
} from '../../../src/contract/analytics.ts';
import type { FunnelActor, FunnelStepQuery } from '../../../src/contract/persons.ts';
import {
  bucketStarts,
  DAY_MS,
  formatDay,
  formatLabel,
  HOUR_MS,
  MIN_INSTANT,
  resolveDateRange,
  toWall,
} from '../query/dates.ts';
import { AnalyticsParamError } from '../errors.ts';
import {
  analysisParams,
  bucketWallSql,
  checkFilterRegexes,
  entityMatchSql,
  eventNameInSql,
  eventRowsSql,
  matchMaskSql,
} from './funnels-events.ts';
import { andAll, propertyGroupSql, testAccountSql } from '../query/filters.ts';
import { countIndexedAttempts, type IndexedFunnel } from '../person-index/person-index-walk.ts';
import type { ColumnType } from '../store/db-types.ts';
import { countAttempts, slicer, type CountedAttempts, type FunnelPassOptions, type FunnelRows } from './funnel-pass.ts';
import { funnelRowsSql } from './funnels-sql.ts';
import { readPersonsPage } from '../store/persons.ts';
import { DEFAULT_COLUMNS, propertyText, readsColumn, SqlParams, type PropertySource } from '../query/properties.ts';
import {
  binRangeSql,
  breakdownOf,
  breakdownsOf,
  breakdownSql,
  breakdownValueSql,
  rawBreakdown,
  withEdges,
  type Breakdown,
  groupOfValue,
  groupValue,
  joinedBreakdownSql,
} from '../query/breakdowns.ts';
import { cohortSplitOf, restrictedTo } from '../query/cohort-breakdown.ts';
import type { QueryContext } from '../types.ts';
import { aggregationOf, groupTypesFor, readGroupsPage } from '../query/groups.ts';

/**
 * Funnels (docs/api.md, "Funnels"). Where the rules are silent, this engine decides:
 * - Events take part when inside [start of date_from's `interval` bucket, date_to] and passing
 *   the global filters. A person's events are ordered by timestamp; at one instant by the first
 *   step each matches (events matching none first), then uuid: a later step at the same instant
 *   counts as converted, as in the production service.
 * - strict: "the very next event" is the next of all the person's kept events (any name).
 * - unordered: the anchor is any event matching a step; each step's first matching event at or
 *   after it within the window counts (one event listed as two steps satisfies both).
 * - A person's counted attempt: the furthest one; ties → the first start, in every order type
 *   (docs/api.md: conversion times come from it). Exclusions are
 *   checked on that attempt: an excluded event strictly between the from- and to-step events,
 *   or (to-step not reached) after the from-step and within the window from the from-step.
 * - Months in the window are calendar months in UTC (Jan 31 + 1 month = Feb 28/29).
 * - breakdown: the step-1 event's property (event) or the person's property (person) of the
 *   counted attempt, as text; top `breakdown_limit` values by persons entering, the rest
 *   "Other", missing "None"; groups ordered values (by size, then text), Other, None. Bins
 *   span the numbers of the events that may start an attempt (withBinEdges).
 * - converted_people_url / dropped_people_url: the persons listing of the step
 *   (`/api/projects/:id/persons/funnel/?<params>&funnel_step=k`, dropped: `-k`, as the
 *   production service's), served by {@link computeFunnelPersons}; dropped_people_url is null
 *   on step 1.
 * - time_to_convert: seconds from step funnel_from_step (default the first) to funnel_to_step
 *   (default the last) of the persons who reached the latter; bins = ceil(cbrt(n)) (≤ 60) of equal
 *   whole-second width from the fastest conversion.
 */

export type FunnelResultBody = FunnelStep[] | FunnelStep[][] | FunnelTrendsSeries[] | FunnelTimeToConvert;

/** Most buckets of the trends viz (as trends). */
const INTERVAL_MS = { hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS, month: 28 * DAY_MS } as const;

export interface Prepared {
  params: SqlParams;
  /** `ev AS NOT MATERIALIZED (…), evp AS …`: the funnel's events with their persons' keys (schema.ts), and those of them the per-person aggregate reads. */
  ev: string;
  /** Parameters for another statement reading `ev`: those `ev` uses, and room for more. */
  evParams(): SqlParams;
  /** The statement whose rows feed the per-person pass, their column types, and which optional columns it has. */
  rows: {
    sql: string;
    types: ColumnType[];
    exclusions: boolean;
    breakdown: boolean;
    byBucket: boolean;
    breakdownLimit: number;
  };
  pass: FunnelPassOptions;
  steps: Entity[];
  range: { from: number; to: number };
  /** The funnel as the person index (or its group type's) answers it (person-index.ts), when names alone decide its steps and nothing else filters. */
  indexed: IndexedFunnel | null;
  /** The group type the funnel counts (its actors' keys are that type's groups'); null: persons. */
  groupIndex: number | null;
}

/**
 * The statement parts of a funnel: `ev` (its events with their persons), the rows of the
 * per-person pass, parameters, steps, range. `ev` holds only the events a funnel reads unless
 * `everyEvent` (correlation reads the persons' other events from it).
 */
export async function prepare(p: FunnelParams, ctx: QueryContext, { everyEvent = false } = {}): Promise<Prepared> {
  const steps = orderedEntities(p);
  const events = p.events ?? [];
  const attrOf = (e: Entity) => {
    const i = events.indexOf(e);
    return i >= 0 ? `events__${i}__id` : 'actions';
  };
  const groupTypes = await groupTypesFor(ctx);
  const groupIndex = aggregationOf(p, groupTypes);
  // Several breakdowns, and a binned one, are one text per event, as a HogQL breakdown is (breakdowns.ts).
  const multiple = p.breakdowns?.length || p.breakdown_histogram_bin_count ? breakdownsOf(p, groupTypes) : null;
  const spec = multiple ? null : breakdownOf(p, groupTypes);
  await checkFilterRegexes(ctx, [
    { group: p.properties, attr: 'properties' },
    ...events.map((e, i) => ({ group: e.properties, attr: `events__${i}__properties` })),
  ]);
  const range = await resolveDateRange(p, ctx, p.interval);
  if (range.from < MIN_INSTANT) throw new AnalyticsParamError('date_from', 'Enter a valid date.');
  if (p.funnel_viz_type === 'trends' && (range.to - range.from) / INTERVAL_MS[p.interval] > ANALYTICS_LIMITS.buckets) {
    throw new AnalyticsParamError(
      'interval',
      `Too many ${p.interval} intervals in the date range: choose a larger interval or a shorter range.`,
    );
  }
  const several = multiple ? await withBinEdges(p, multiple, ctx, steps, attrOf, range, groupIndex) : null;
  const params = await analysisParams(ctx);
  const stepSql = steps.map((s) => entityMatchSql(s, params, attrOf(s)));
  const exclusions = (p.exclusions ?? []).map((x, i) =>
    entityMatchSql({ ...x, properties: undefined }, params, `exclusions__${i}__id`),
  );
  const breakdown = several ? '' : spec === null ? null : spec.key;
  // The breakdown's text is needed only on the rows that reach the pass (about one in ten of
  // `ev`'s): `ev.bd` carries what it is read from, a materialized column as it is, else the
  // JSON, and the pass's statement extracts the text there (`breakdownText`). Session and
  // HogQL breakdowns read more than one JSON: their text is computed in `ev`.
  const source: PropertySource = p.breakdown_type === 'person' ? 'person' : 'event';
  const computed = several
    ? several.multi
      ? joinedBreakdownSql(several, params)
      : breakdownSql(several, params)
    : spec !== null && (spec.type === 'session' || spec.type === 'hogql' || spec.type === 'group')
      ? breakdownValueSql(spec, params)
      : null;
  const column = computed !== null || (breakdown !== null && readsColumn(params, source, breakdown));
  const bd =
    breakdown === null
      ? 'NULL::VARCHAR'
      : computed
        ? computed.sql
        : column
          ? propertyText(params, source, breakdown)
          : DEFAULT_COLUMNS[source];
  const bucket =
    p.funnel_viz_type === 'trends'
      ? bucketWallSql(p.interval, ctx.project.week_start_day, ctx.project.timezone, params, range)
      : 'NULL::BIGINT';
  const columns = [
    `${matchMaskSql(stepSql, params)} AS sm`,
    `${matchMaskSql(exclusions, params)} AS xm`,
    `${bd} AS bd`,
    `${bucket} AS bucket`,
  ];
  // Only events of the steps' and exclusions' names take part (strict funnels read every event:
  // any of them breaks a chain): filtered by name up front, the cheapest test there is.
  const named = [...steps, ...(p.exclusions ?? [])];
  const byName =
    !everyEvent && p.funnel_order_type !== 'strict' && named.every((s) => s.id !== null)
      ? [eventNameInSql([...new Set(named.map((s) => String(s.id)))], params)]
      : [];
  const rowsOf = (where: string[]) =>
    eventRowsSql({
      params,
      ctx,
      range,
      properties: p.properties,
      filterTestAccounts: p.filter_test_accounts,
      columns,
      where,
      needPerson:
        stepSql.some((s) => s.person) ||
        (breakdown !== null && p.breakdown_type === 'person') ||
        computed?.person === true,
      needSession: stepSql.some((s) => s.session) || computed?.session === true,
      groupIndex,
    });
  const base = rowsOf(byName);
  // The per-person aggregate (funnels-sql.ts) reads only the events of the steps that start or
  // advance an attempt, filtered by their names too (a strict funnel's ev holds every event).
  const aggregated = p.funnel_order_type === 'unordered' ? steps : steps.slice(0, 2);
  const aggregatedBase = aggregated.every((s) => s.id !== null)
    ? rowsOf([eventNameInSql([...new Set(aggregated.map((s) => String(s.id)))], params)])
    : null;
  const evCount = params.values.length;
  const pass: FunnelPassOptions = {
    steps: steps.length,
    order: p.funnel_order_type,
    window: funnelWindow(p),
    exclusions: (p.exclusions ?? []).map((x) => ({ from: x.funnel_from_step, to: x.funnel_to_step })),
  };
  const breakdownText =
    breakdown === null || column ? 'bd' : propertyText(params, source, breakdown, { event: 'bd', person: 'bd' });
  const layout = { breakdown: breakdown !== null, byBucket: p.funnel_viz_type === 'trends' };
  const rows = {
    ...funnelRowsSql({ ...pass, exclusions: [...pass.exclusions], ...layout, breakdownText }, params),
    ...layout,
    exclusions: pass.exclusions.length > 0,
    breakdownLimit: p.breakdown_limit,
  };
  // ev is not materialized: reading it again (the aggregate, the cut, exclusions) costs less than storing every row.
  const ev = `ev AS NOT MATERIALIZED (${base}),\n    evp AS NOT MATERIALIZED (${aggregatedBase ?? 'SELECT * FROM ev'})`;
  // Names alone decide the steps, no filter applies and no breakdown or bucket is read: the
  // person index holds all such a funnel needs.
  // Cohort filters alone (ANDed) keep it there: they pick whole persons, which the index walks one by one.
  const scratch = new SqlParams();
  const cohortsOnly =
    p.properties?.type === 'AND' && p.properties.values.every((v) => !('values' in v) && v.type === 'cohort')
      ? p.properties
      : null;
  const unfiltered =
    andAll(
      propertyGroupSql(cohortsOnly ? undefined : p.properties, scratch),
      testAccountSql(ctx.project, p.filter_test_accounts, scratch),
    ).sql === 'true';
  const byNames = stepSql.every((s, k) => s.name !== null || (steps[k]!.id === null && s.sql === '(true)'));
  // By a group type, its own index (person-index.ts): the same walk, with groups for persons. A
  // cohort filter there picks events by their persons, which that index does not hold: SQL.
  const cohorts = cohortsOnly?.values.length ? (cohortsOnly.values as PropertyFilter[]) : null;
  const indexed =
    !everyEvent &&
    (groupIndex === null || cohorts === null) &&
    unfiltered &&
    byNames &&
    breakdown === null &&
    !layout.byBucket
      ? {
          steps: steps.map((s) => (s.id === null ? null : String(s.id))),
          exclusions: (p.exclusions ?? []).map((x) => (x.id === null ? null : String(x.id))),
          range,
          pass,
          persons: cohorts ? await cohortPersons(ctx, cohorts) : undefined,
          groupIndex,
        }
      : null;
  return { params, ev, evParams: () => params.prefix(evCount), rows, pass, steps, range, indexed, groupIndex };
}

/**
 * The breakdown with each binned part's edges: equal-width bins over the finite numbers among
 * the events that may start an attempt (a first step's; unordered: any step's) in range, after
 * the global filters, whose value an attempt takes (docs/api.md, "Breakdowns").
 */
async function withBinEdges(
  p: FunnelParams,
  b: Breakdown,
  ctx: QueryContext,
  steps: Entity[],
  attrOf: (e: Entity) => string,
  range: { from: number; to: number },
  groupIndex: number | null,
): Promise<Breakdown> {
  if (!b.parts.some((part) => part.bins)) return b;
  const params = await analysisParams(ctx);
  const starts = p.funnel_order_type === 'unordered' ? steps : steps.slice(0, 1);
  const stepSql = starts.map((s) => entityMatchSql(s, params, attrOf(s)));
  const raw = breakdownSql(rawBreakdown(b), params);
  const rows = eventRowsSql({
    params,
    ctx,
    range,
    properties: p.properties,
    filterTestAccounts: p.filter_test_accounts,
    columns: [`${matchMaskSql(stepSql, params)} AS sm`, `${raw.sql} AS bv`],
    needPerson: stepSql.some((s) => s.person) || raw.person,
    needSession: stepSql.some((s) => s.session) || raw.session,
    groupIndex,
  });
  const sql = binRangeSql(b, 'bv', `FROM (${rows}) WHERE sm <> 0`);
  const [row] = await ctx.db.all<Record<string, number | null>>(sql, params.values);
  return withEdges(b, row);
}

/** Whether a person (integer key) passes every cohort filter of `filters`, from the cohorts' stored members. */
async function cohortPersons(ctx: QueryContext, filters: readonly PropertyFilter[]): Promise<(key: number) => boolean> {
  const tests: ((key: number) => boolean)[] = [];
  for (const f of filters) {
    const rows = await ctx.db.all<{ k: number }>(
      'SELECT person_key AS k FROM cohort_people WHERE cohort_id = $1 AND person_key IS NOT NULL',
      [cohortIdOf(f.value)],
    );
    const members = new Set(rows.map((r) => Number(r.k)));
    tests.push(f.operator === 'not_in' ? (k) => !members.has(k) : (k) => members.has(k));
  }
  return (key) => tests.every((t) => t(key));
}

/**
 * The counted attempts and their breakdown groups: attempt c is in groups[group[c]], whose
 * `grp` is its label and `kind` 0 a value, 1 Other, 2 None.
 */
export interface CountedPersons extends CountedAttempts {
  group: Int32Array;
  groups: { grp: string; kind: 0 | 1 | 2 }[];
}

/** Orders text as DuckDB does (by code point, i.e. UTF-8 bytes), not by UTF-16 unit. */
function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i += 1;
  }
  return a.length - b.length;
}

/** The counted attempts of the rows the funnel's SQL cut reads (funnels-sql.ts). */
async function countedFromSql(ctx: QueryContext, prep: Prepared): Promise<CountedAttempts> {
  const read = await ctx.db.columns(`WITH ${prep.ev},\n${prep.rows.sql}`, prep.params.values, prep.rows.types);
  const [person, ts, steps, uuid, ...rest] = read.columns as [
    Int32Array,
    Float64Array,
    Int32Array,
    Uint32Array,
    ...(Int32Array | Float64Array | (string | null)[])[],
  ];
  const { exclusions, breakdown, byBucket } = prep.rows;
  const input: FunnelRows = {
    rows: read.rows,
    person,
    ts,
    steps,
    uuid,
    excl: exclusions ? (rest.shift() as Int32Array) : null,
    role: exclusions ? (rest.shift() as Int32Array) : null,
    bd: breakdown ? (rest.shift() as (string | null)[]) : null,
    bucket: byBucket ? (rest.shift() as Float64Array) : null,
  };
  // The attempts are copied out of the rows (their texts are not kept buffers): the rows' memory
  // goes back for the next funnel once the pass is over, or has failed.
  try {
    return await countAttempts(input, prep.pass, ctx.checkpoint);
  } finally {
    read.release();
  }
}

/**
 * Every person's counted attempt (funnel-pass.ts), labelled with its breakdown group: the top
 * `breakdown_limit` values by persons counted (then text), the rest "Other", missing "None".
 */
export async function countedPersons(ctx: QueryContext, prep: Prepared): Promise<CountedPersons> {
  const byPerson = prep.indexed ? (ctx.personIndex?.(prep.indexed.groupIndex) ?? null) : null;
  const counted = byPerson
    ? await countIndexedAttempts(byPerson, prep.indexed!, ctx.checkpoint)
    : await countedFromSql(ctx, prep);
  const group = new Int32Array(counted.count);
  if (!counted.bd) return { ...counted, group, groups: [{ grp: 'None', kind: 2 }] };
  const sizes = new Map<string, number>();
  for (const v of counted.bd) if (v !== null) sizes.set(v, (sizes.get(v) ?? 0) + 1);
  const top = [...sizes]
    .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
    .slice(0, prep.rows.breakdownLimit)
    .map(([v]) => v);
  const groups: CountedPersons['groups'] = [
    { grp: 'None', kind: 2 },
    { grp: 'Other', kind: 1 },
    ...top.map((v) => ({ grp: v, kind: 0 as const })),
  ];
  const index = new Map(top.map((v, i) => [v, i + 2]));
  counted.bd.forEach((v, c) => {
    group[c] = v === null ? 0 : (index.get(v) ?? 1);
  });
  return { ...counted, group, groups };
}

/** Orders breakdown groups: values by size then text, then Other, then None. */
function orderGroups<T extends { grp: string; kind: number; size: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => a.kind - b.kind || b.size - a.size || (a.grp < b.grp ? -1 : a.grp > b.grp ? 1 : 0));
}

/** The persons-listing URL of a step (1-based; negative: dropped off there), in the production service's shape. */
export function peopleUrl(
  projectId: number,
  p: FunnelParams,
  step: number,
  breakdownValue: string | string[] | null,
): string {
  const query = new URLSearchParams(encodeAnalyticsQuery({ ...p, funnel_viz_type: 'steps', insight: 'FUNNELS' }));
  query.set('funnel_step', String(step));
  if (breakdownValue !== null)
    query.set(
      'funnel_step_breakdown',
      typeof breakdownValue === 'string' ? breakdownValue : JSON.stringify(breakdownValue),
    );
  return `/api/projects/${projectId}/persons/funnel/?${query.toString()}`;
}

/** The middle value of sorted numbers (the mean of the two middle ones for an even count). */
const medianOf = (sorted: Float64Array) => {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function stepsResult(p: FunnelParams, ctx: QueryContext, prep: Prepared): Promise<FunnelStep[] | FunnelStep[][]> {
  const n = prep.steps.length;
  const c = await countedPersons(ctx, prep);
  const stats = c.groups.map((g) => ({
    ...g,
    size: 0,
    counts: new Array<number>(n).fill(0),
    gaps: prep.steps.map((): number[] => []),
    sorted: [] as Float64Array[],
  }));
  // Hundreds of thousands of persons: the tally and each step's sort take turns with other requests.
  const turn = slicer(ctx.checkpoint);
  for (let i = 0; i < c.count; i++) {
    if ((i & 0xffff) === 0) await turn();
    const g = stats[c.group[i]!]!;
    g.size += 1;
    const reached = c.reached[i]!;
    for (let k = 0; k < reached; k++) {
      g.counts[k]! += 1;
      if (k > 0) g.gaps[k]!.push((c.times[i * n + k]! - c.times[i * n + k - 1]!) / 1000);
    }
  }
  const groups = orderGroups(stats.filter((g) => g.size > 0));
  for (const g of groups) {
    for (let k = 0; k < n; k++) {
      // A typed array sorts numbers natively, without a comparator call per pair.
      g.sorted[k] = k === 0 ? new Float64Array(0) : Float64Array.from(g.gaps[k]!).sort();
      await turn();
    }
  }
  const parts = p.breakdowns?.length ?? 0;
  const breakdown = typeof p.breakdown === 'string' || parts > 0;
  const build = (g: (typeof stats)[number] | undefined, value: string | string[] | null): FunnelStep[] =>
    prep.steps.map((s, k) => {
      const gaps = g?.sorted[k] ?? new Float64Array(0);
      const step: FunnelStep = {
        action_id: s.id,
        name: s.name ?? (s.id === null ? 'All events' : String(s.id)),
        custom_name: s.custom_name ?? null,
        order: k,
        count: g ? g.counts[k]! : 0,
        type: s.type,
        average_conversion_time: gaps.length === 0 ? null : gaps.reduce((x, y) => x + y, 0) / gaps.length,
        median_conversion_time: gaps.length === 0 ? null : medianOf(gaps),
        converted_people_url: peopleUrl(ctx.project.id, p, k + 1, value),
        dropped_people_url: k === 0 ? null : peopleUrl(ctx.project.id, p, -(k + 1), value),
      };
      if (breakdown) Object.assign(step, { breakdown: value, breakdown_value: value });
      return step;
    });
  if (!breakdown) return build(groups[0], null);
  return groups.map((g) => build(g, groupValue(g.grp, g.kind, parts)));
}

async function trendsResult(p: FunnelParams, ctx: QueryContext, prep: Prepared): Promise<FunnelTrendsSeries[]> {
  const tz = ctx.project.timezone;
  const starts = bucketStarts(
    toWall(prep.range.from, tz),
    toWall(prep.range.to, tz),
    p.interval,
    ctx.project.week_start_day,
  );
  const index = new Map(starts.map((s, i) => [s, i]));
  const c = await countedPersons(ctx, prep);
  const series = c.groups.map((g) => ({ ...g, size: 0, entered: starts.map(() => 0), converted: starts.map(() => 0) }));
  for (let i = 0; i < c.count; i++) {
    const s = series[c.group[i]!]!;
    const b = index.get(c.bucket![i]!);
    if (b === undefined) continue;
    s.entered[b]! += 1;
    s.size += 1;
    if (c.reached[i] === c.steps) s.converted[b]! += 1;
  }
  const parts = p.breakdowns?.length ?? 0;
  const breakdown = typeof p.breakdown === 'string' || parts > 0;
  const list = breakdown ? orderGroups(series.filter((s) => s.size > 0)) : [series[0]!];
  return list.map((s) => ({
    data: s.entered.map((e, i) => conversionRate(s.converted[i]!, e)),
    days: starts.map((w) => formatDay(w, p.interval)),
    labels: starts.map((w) => formatLabel(w, p.interval)),
    count: s.size,
    ...(breakdown ? { breakdown_value: groupValue(s.grp, s.kind, parts) } : {}),
  }));
}

/** Percent converted, two decimals; 0 when nobody entered. */
export const conversionRate = (converted: number, entered: number): number =>
  entered === 0 ? 0 : Math.round((converted / entered) * 10_000) / 100;

/** time_to_convert histogram of conversion times (seconds). */
export function timeToConvertBins(seconds: number[]): FunnelTimeToConvert {
  if (seconds.length === 0) return { bins: [], average_conversion_time: null };
  const sorted = [...seconds].sort((a, b) => a - b);
  const min = Math.floor(sorted[0]!);
  const max = sorted[sorted.length - 1]!;
  const count = Math.min(60, Math.max(1, Math.ceil(Math.cbrt(sorted.length))));
  const width = Math.max(1, Math.ceil((max - min) / count));
  const bins: [number, number][] = Array.from({ length: count }, (_, i) => [min + i * width, 0]);
  for (const s of sorted) bins[Math.min(count - 1, Math.floor((s - min) / width))]![1] += 1;
  return { bins, average_conversion_time: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

/** A page of a step's actors: persons, or the groups of a funnel aggregated by a group type. */
export interface FunnelPersonsPage {
  people: FunnelActor[];
  more: boolean;
}

/**
 * The persons who reached step `funnel_step` (1-based), or with `-k` reached step k − 1 but not
 * step k: the same counted persons as the steps result (so a page per step adds up to its
 * count), in one breakdown group when the funnel has a breakdown, ordered by person id. A funnel
 * aggregated by a group type lists its counted groups the same way, ordered by key.
 */
export async function computeFunnelPersons(
  q: FunnelParams & FunnelStepQuery,
  ctx: QueryContext,
  page: { limit: number; offset: number },
): Promise<FunnelPersonsPage> {
  const split = cohortSplitOf(q, ctx.cohorts);
  if (split) {
    // A cohort breakdown's group is its cohort: the persons of the funnel restricted to it.
    const c = split.find((x) => String(x.value) === q.funnel_step_breakdown) ?? { value: 'all' as const, label: '' };
    return computeFunnelPersons(restrictedTo(q, c), ctx, page);
  }
  const prep = await prepare({ ...q, funnel_viz_type: 'steps' }, ctx);
  const n = prep.steps.length;
  const k = Math.abs(q.funnel_step);
  if (k > n) throw new AnalyticsParamError('funnel_step', `This funnel has ${n} step${n === 1 ? '' : 's'}.`);
  if (q.funnel_step === -1)
    throw new AnalyticsParamError('funnel_step', 'Nobody drops off before the first step: use 1 to list who entered.');
  const params = new SqlParams();
  const c = await countedPersons(ctx, prep);
  const parts = q.breakdowns?.length ?? 0;
  // The group asked for, when the funnel has a breakdown (several: a JSON list of their values).
  const wanted =
    (typeof q.breakdown === 'string' || parts > 0) && q.funnel_step_breakdown !== undefined
      ? groupOfValue(q.funnel_step_breakdown, parts)
      : undefined;
  const keys: number[] = [];
  for (let i = 0; i < c.count; i++) {
    const inGroup = wanted === undefined || c.groups[c.group[i]!]!.grp === wanted;
    if (inGroup && (q.funnel_step > 0 ? c.reached[i]! >= k : c.reached[i] === k - 1)) keys.push(c.person[i]!);
  }
  // Aggregated by a group type, the keys are its groups' (funnels-events.ts): those are listed.
  if (prep.groupIndex !== null) return readGroupsPage(ctx.db, ctx.project.id, keys, page);
  const team = params.add(ctx.project.id);
  return readPersonsPage(
    ctx.db,
    team,
    `SELECT k.person_id FROM person_keys k
      WHERE k.team_id = ${team} AND k.key IN (SELECT unnest(from_json(${params.add(JSON.stringify(keys))}::JSON, '["INTEGER"]')))`,
    params,
    page,
  );
}

/** Computes a funnel for validated params. Throws DateParamError / FilterParamError (→ 400). */
export async function computeFunnel(p: FunnelParams, ctx: QueryContext): Promise<FunnelResultBody> {
  const split = p.funnel_viz_type === 'time_to_convert' ? null : cohortSplitOf(p, ctx.cohorts);
  if (split) {
    const runs: (FunnelStep[] | FunnelTrendsSeries[])[] = [];
    for (const c of split) {
      const run = (await computeFunnel(restrictedTo(p, c), ctx)) as FunnelStep[] | FunnelTrendsSeries[];
      runs.push(
        p.funnel_viz_type === 'trends'
          ? (run as FunnelTrendsSeries[]).map((s) => ({ ...s, breakdown_value: c.value }))
          : (run as FunnelStep[]).map((s) => ({ ...s, breakdown: c.value, breakdown_value: c.value })),
      );
    }
    return p.funnel_viz_type === 'trends' ? (runs.flat() as FunnelTrendsSeries[]) : (runs as FunnelStep[][]);
  }
  if (p.funnel_viz_type === 'time_to_convert' && p.breakdown_type === 'cohort')
    return computeFunnel({ ...p, breakdown: undefined, breakdown_type: 'event' }, ctx);
  const prep = await prepare(p, ctx);
  if (p.funnel_viz_type === 'trends') return trendsResult(p, ctx, prep);
  if (p.funnel_viz_type === 'time_to_convert') {
    const c = await countedPersons(ctx, prep);
    const n = c.steps;
    const from = p.funnel_from_step ?? 0;
    const to = p.funnel_to_step ?? n - 1;
    const seconds: number[] = [];
    for (let i = 0; i < c.count; i++)
      if (c.reached[i]! > to) seconds.push((c.times[i * n + to]! - c.times[i * n + from]!) / 1000);
    return timeToConvertBins(seconds);
  }
  return stepsResult(p, ctx, prep);
}
