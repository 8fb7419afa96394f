import {
  ANALYTICS_LIMITS, encodeAnalyticsQuery, funnelWindow, orderedEntities,
  type Entity, type FunnelParams, type FunnelStep, type FunnelTimeToConvert, type FunnelTrendsSeries,
} from '../../src/contract/analytics.ts';
import type { FunnelPerson, FunnelStepQuery } from '../../src/contract/persons.ts';
import { bucketStarts, DAY_MS, formatDay, formatLabel, HOUR_MS, MIN_INSTANT, resolveDateRange, toWall } from './dates.ts';
import { AnalyticsParamError } from './errors.ts';
import { bucketWallSql, checkFilterRegexes, entityMatchSql, eventNameInSql, eventRowsSql, num } from './funnels-events.ts';
import { funnelCtes, stepsSelect, timesSelect, trendsSelect } from './funnels-sql.ts';
import { parseProps } from './persons.ts';
import { materializedReady, propertyText, SqlParams } from './properties.ts';
import type { QueryContext } from './types.ts';

/**
 * Funnels (API-DECISIONS "Funnels"). Where the rules are silent, this engine decides:
 * - Events take part when inside [start of date_from's `interval` bucket, date_to] and passing
 *   the global filters. A person's events are ordered by timestamp; at one instant by the first
 *   step each matches (events matching none first), then uuid: a later step at the same instant
 *   counts as converted, as in the production service.
 * - strict: "the very next event" is the next of all the person's kept events (any name).
 * - unordered: the anchor is any event matching a step; each step's first matching event at or
 *   after it within the window counts (one event listed as two steps satisfies both).
 * - A person's counted attempt: the furthest one; ties → the first start, in every order type
 *   (API-DECISIONS: conversion times come from it). Exclusions are
 *   checked on that attempt: an excluded event strictly between the from- and to-step events,
 *   or (to-step not reached) after the from-step and within the window from the from-step.
 * - Months in the window are calendar months in UTC (Jan 31 + 1 month = Feb 28/29).
 * - breakdown: the step-1 event's property (event) or the person's property (person) of the
 *   counted attempt, as text; top `breakdown_limit` values by persons entering, the rest
 *   "Other", missing "None"; groups ordered values (by size, then text), Other, None.
 * - converted_people_url / dropped_people_url: the persons listing of the step
 *   (`/api/projects/:id/persons/funnel/?<params>&funnel_step=k`, dropped: `-k`, as the
 *   production service's), served by {@link computeFunnelPersons}; dropped_people_url is null
 *   on step 1.
 * - time_to_convert: seconds from step 1 to the last step; bins = ceil(cbrt(n)) (≤ 60) of equal
 *   whole-second width from the fastest conversion.
 */

export type FunnelResultBody = FunnelStep[] | FunnelStep[][] | FunnelTrendsSeries[] | FunnelTimeToConvert;

/** Most buckets of the trends viz (as trends). */
const INTERVAL_MS = { hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS, month: 28 * DAY_MS } as const;

const UNSUPPORTED_BREAKDOWN = 'Only event and person property breakdowns are supported.';

export interface Prepared {
  params: SqlParams;
  ctes: string;
  steps: Entity[];
  range: { from: number; to: number };
}

/**
 * The statement parts of a funnel: `ev` (its events with their persons) and `counted` (each
 * person's step times) CTEs, parameters, steps, range. `ev` holds only the events a funnel
 * reads unless `everyEvent` (correlation reads the persons' other events from it).
 */
export async function prepare(p: FunnelParams, ctx: QueryContext, { everyEvent = false } = {}): Promise<Prepared> {
  const steps = orderedEntities(p);
  const events = p.events ?? [];
  const attrOf = (e: Entity) => {
    const i = events.indexOf(e);
    return i >= 0 ? `events__${i}__id` : 'actions';
  };
  if (p.breakdown !== undefined && p.breakdown !== null) {
    if (p.breakdown_type !== 'event' && p.breakdown_type !== 'person') throw new AnalyticsParamError('breakdown_type', UNSUPPORTED_BREAKDOWN);
    if (typeof p.breakdown !== 'string') throw new AnalyticsParamError('breakdown', UNSUPPORTED_BREAKDOWN);
  }
  if (p.aggregation_group_type_index) throw new AnalyticsParamError('aggregation_group_type_index', 'Groups are not supported.');
  await checkFilterRegexes(ctx, [
    { group: p.properties, attr: 'properties' },
    ...events.map((e, i) => ({ group: e.properties, attr: `events__${i}__properties` })),
  ]);
  const range = await resolveDateRange(p, ctx, p.interval);
  if (range.from < MIN_INSTANT) throw new AnalyticsParamError('date_from', 'Enter a valid date.');
  if (p.funnel_viz_type === 'trends' && (range.to - range.from) / INTERVAL_MS[p.interval] > ANALYTICS_LIMITS.buckets) {
    throw new AnalyticsParamError('interval', `Too many ${p.interval} intervals in the date range: choose a larger interval or a shorter range.`);
  }
  const params = new SqlParams();
  params.materialized = await materializedReady(ctx.db, ctx.project.id);
  const stepSql = steps.map((s) => entityMatchSql(s, params, attrOf(s)));
  const exclusions = (p.exclusions ?? []).map((x, i) => entityMatchSql({ ...x, properties: undefined }, params, `exclusions__${i}__id`));
  const breakdown = typeof p.breakdown === 'string' ? p.breakdown : null;
  const bd = breakdown === null ? 'NULL::VARCHAR' : propertyText(params, p.breakdown_type === 'person' ? 'person' : 'event', breakdown);
  const bucket = p.funnel_viz_type === 'trends'
    ? bucketWallSql(p.interval, ctx.project.week_start_day, ctx.project.timezone, params, range)
    : 'NULL::BIGINT';
  const columns = [
    ...stepSql.map((s, k) => `${s.sql} AS s${k}`),
    ...exclusions.map((x, i) => `${x.sql} AS x${i}`),
    `${bd} AS bd`, `${bucket} AS bucket`,
  ];
  // Only events of the steps' and exclusions' names take part (strict funnels read every event:
  // any of them breaks a chain): filtered by name up front, the cheapest test there is.
  const named = [...steps, ...(p.exclusions ?? [])];
  const byName = !everyEvent && p.funnel_order_type !== 'strict' && named.every((s) => s.id !== null)
    ? [eventNameInSql([...new Set(named.map((s) => String(s.id)))], params)]
    : [];
  const base = eventRowsSql({
    params, ctx, range, properties: p.properties, filterTestAccounts: p.filter_test_accounts, columns, where: byName,
    needPerson: stepSql.some((s) => s.person) || (breakdown !== null && p.breakdown_type === 'person'),
  });
  const ctes = funnelCtes({
    steps: steps.length,
    order: p.funnel_order_type,
    window: funnelWindow(p),
    exclusions: (p.exclusions ?? []).map((x) => ({ from: x.funnel_from_step, to: x.funnel_to_step })),
    breakdownLimit: p.breakdown_limit,
    breakdown: breakdown !== null,
    byBucket: p.funnel_viz_type === 'trends',
  }, params);
  // ev is read again for exclusions: scanning it twice costs less than storing every row.
  return { params, ctes: `WITH ev AS NOT MATERIALIZED (${base}),\n${ctes}`, steps, range };
}

/** Orders breakdown groups: values by size then text, then Other, then None. */
function orderGroups<T extends { grp: string; kind: number; size: number }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => a.kind - b.kind || b.size - a.size || (a.grp < b.grp ? -1 : a.grp > b.grp ? 1 : 0));
}

/** The persons-listing URL of a step (1-based; negative: dropped off there), in the production service's shape. */
export function peopleUrl(projectId: number, p: FunnelParams, step: number, breakdownValue: string | null): string {
  const query = new URLSearchParams(encodeAnalyticsQuery({ ...p, funnel_viz_type: 'steps', insight: 'FUNNELS' }));
  query.set('funnel_step', String(step));
  if (breakdownValue !== null) query.set('funnel_step_breakdown', breakdownValue);
  return `/api/projects/${projectId}/persons/funnel/?${query.toString()}`;
}

async function stepsResult(p: FunnelParams, ctx: QueryContext, prep: Prepared): Promise<FunnelStep[] | FunnelStep[][]> {
  const n = prep.steps.length;
  const rows = await ctx.db.all<Record<string, unknown>>(`${prep.ctes}\n${stepsSelect(n)}`, prep.params.values);
  const groups = orderGroups(rows.map((r) => ({ ...r, grp: String(r.grp), kind: Number(r.kind), size: num(r.c0) ?? 0 })));
  const breakdown = typeof p.breakdown === 'string';
  const build = (r: Record<string, unknown> | undefined, value: string | null): FunnelStep[] =>
    prep.steps.map((s, k) => {
      const step: FunnelStep = {
        action_id: s.id,
        name: s.name ?? (s.id === null ? 'All events' : String(s.id)),
        custom_name: s.custom_name ?? null,
        order: k,
        count: r ? (num(r[`c${k}`]) ?? 0) : 0,
        type: s.type,
        average_conversion_time: k === 0 || !r ? null : num(r[`a${k}`]),
        median_conversion_time: k === 0 || !r ? null : num(r[`m${k}`]),
        converted_people_url: peopleUrl(ctx.project.id, p, k + 1, value),
        dropped_people_url: k === 0 ? null : peopleUrl(ctx.project.id, p, -(k + 1), value),
      };
      if (breakdown) Object.assign(step, { breakdown: value, breakdown_value: value });
      return step;
    });
  if (!breakdown) return build(groups[0], null);
  return groups.map((g) => build(g, g.grp));
}

async function trendsResult(p: FunnelParams, ctx: QueryContext, prep: Prepared): Promise<FunnelTrendsSeries[]> {
  const rows = await ctx.db.all<Record<string, unknown>>(`${prep.ctes}\n${trendsSelect(prep.steps.length)}`, prep.params.values);
  const tz = ctx.project.timezone;
  const starts = bucketStarts(toWall(prep.range.from, tz), toWall(prep.range.to, tz), p.interval, ctx.project.week_start_day);
  const index = new Map(starts.map((s, i) => [s, i]));
  const series = new Map<string, { grp: string; kind: number; size: number; entered: number[]; converted: number[] }>();
  for (const r of rows) {
    const grp = String(r.grp);
    const s = series.get(grp) ?? { grp, kind: Number(r.kind), size: 0, entered: starts.map(() => 0), converted: starts.map(() => 0) };
    const i = index.get(num(r.bucket) ?? NaN);
    if (i !== undefined) {
      s.entered[i] = num(r.entered) ?? 0;
      s.converted[i] = num(r.converted) ?? 0;
      s.size += s.entered[i]!;
    }
    series.set(grp, s);
  }
  const breakdown = typeof p.breakdown === 'string';
  const list = breakdown ? orderGroups([...series.values()]) : [series.get('None') ?? { grp: 'None', kind: 2, size: 0, entered: starts.map(() => 0), converted: starts.map(() => 0) }];
  return list.map((s) => ({
    data: s.entered.map((e, i) => conversionRate(s.converted[i]!, e)),
    days: starts.map((w) => formatDay(w, p.interval)),
    labels: starts.map((w) => formatLabel(w, p.interval)),
    count: s.size,
    ...(breakdown ? { breakdown_value: s.grp } : {}),
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

/** One page of the persons behind a funnel step, and whether more follow. */
export interface FunnelPersonsPage {
  people: FunnelPerson[];
  more: boolean;
}

/**
 * The persons who reached step `funnel_step` (1-based), or with `-k` reached step k − 1 but not
 * step k: the same counted persons as the steps result (so a page per step adds up to its
 * count), in one breakdown group when the funnel has a breakdown, ordered by person id.
 */
export async function computeFunnelPersons(q: FunnelParams & FunnelStepQuery, ctx: QueryContext, page: { limit: number; offset: number }): Promise<FunnelPersonsPage> {
  const prep = await prepare({ ...q, funnel_viz_type: 'steps' }, ctx);
  const n = prep.steps.length;
  const k = Math.abs(q.funnel_step);
  if (k > n) throw new AnalyticsParamError('funnel_step', `This funnel has ${n} step${n === 1 ? '' : 's'}.`);
  if (q.funnel_step === -1) throw new AnalyticsParamError('funnel_step', 'Nobody drops off before the first step: use 1 to list who entered.');
  const { params } = prep;
  const reached = q.funnel_step > 0 ? `len(times) >= ${params.add(k)}::INTEGER` : `len(times) = ${params.add(k - 1)}::INTEGER`;
  const group = typeof q.breakdown === 'string' && q.funnel_step_breakdown !== undefined ? ` AND grp = ${params.add(q.funnel_step_breakdown)}` : '';
  const team = params.add(ctx.project.id);
  const rows = await ctx.db.all<{ id: string; properties: string | null; created_at: number | null; is_identified: boolean | null; distinct_ids: string[] | null }>(
    `${prep.ctes},
    sel AS (SELECT k.person_id FROM counted c JOIN person_keys k ON k.team_id = ${team} AND k.key = c.person_id
      WHERE ${reached}${group} ORDER BY k.person_id LIMIT ${params.add(page.limit + 1)}::BIGINT OFFSET ${params.add(page.offset)}::BIGINT)
    SELECT sel.person_id::VARCHAR AS id, p.properties::VARCHAR AS properties, epoch_ms(p.created_at)::DOUBLE AS created_at, p.is_identified,
      (SELECT list(d.distinct_id ORDER BY d.distinct_id) FROM person_distinct_ids d WHERE d.team_id = ${team} AND d.person_id = sel.person_id) AS distinct_ids
    FROM sel LEFT JOIN persons p ON p.team_id = ${team} AND p.id = sel.person_id
    ORDER BY sel.person_id`,
    params.values);
  const people = rows.slice(0, page.limit).map((r): FunnelPerson => {
    const properties = parseProps(r.properties);
    const distinctIds = r.distinct_ids ?? [];
    return {
      id: r.id,
      uuid: r.id,
      name: typeof properties.email === 'string' && properties.email !== '' ? properties.email : (distinctIds[0] ?? r.id),
      distinct_ids: distinctIds,
      properties,
      created_at: r.created_at === null ? null : new Date(r.created_at).toISOString(),
      is_identified: r.is_identified ?? false,
    };
  });
  return { people, more: rows.length > page.limit };
}

/** Computes a funnel for validated params. Throws DateParamError / FilterParamError (→ 400). */
export async function computeFunnel(p: FunnelParams, ctx: QueryContext): Promise<FunnelResultBody> {
  const prep = await prepare(p, ctx);
  if (p.funnel_viz_type === 'trends') return trendsResult(p, ctx, prep);
  if (p.funnel_viz_type === 'time_to_convert') {
    const rows = await ctx.db.all<{ seconds: unknown }>(`${prep.ctes}\n${timesSelect(prep.steps.length)}`, prep.params.values);
    return timeToConvertBins(rows.map((r) => num(r.seconds) ?? 0));
  }
  return stepsResult(p, ctx, prep);
}
