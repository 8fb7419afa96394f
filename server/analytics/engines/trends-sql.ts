import { isPropertyMath, type Interval, type MathType, type PropertyGroup } from '../../../src/contract/analytics.ts';
import { bucketMsSql } from '../query/bucket-sql.ts';
import { DAY_MS } from '../query/dates.ts';
import { andAll, propertyGroupSql, testAccountSql } from '../query/filters.ts';
import { propertyNumber, propertyText, SqlParams, type HogqlEnv } from '../query/properties.ts';
import { binRangeSql, breakdownSql, rawBreakdown, type Breakdown } from '../query/breakdowns.ts';
import { hogqlSql, type HogqlColumns } from '../hogql/index.ts';
import { sessionJoinSql } from '../query/sessions.ts';
import type { AnalyticsProject } from '../types.ts';
import { PERSON_JOIN_SQL, PERSON_KEY_SQL } from '../store/schema.ts';
import type { TrendSeriesSpec } from './trends-types.ts';
import { groupKeyColumn } from '../query/groups.ts';

/**
 * The SQL of one trend period: a single scan of the project's events in the range, each event
 * tagged with the series it belongs to (an event may feed several series: one row per series
 * via `unnest`), grouped by series × bucket × breakdown value. Breakdown values are ranked per
 * series by event count (ties: by value) in the same statement; values past the limit become
 * "Other" (kind 2), missing/null/empty values "None" (kind 1).
 */

export interface PeriodQuery {
  from: number;
  /** Exclusive end instant. */
  toExclusive: number;
  interval: Interval;
  /** One value for the whole range instead of buckets. */
  aggregate: boolean;
}

export interface TrendQueryInput {
  project: AnalyticsProject;
  series: readonly TrendSeriesSpec[];
  /** Global `properties` filter. */
  properties: PropertyGroup | undefined;
  filterTestAccounts: boolean | undefined;
  /** Binned parts need their `edges` (binRangeQuery) before the period's statements. */
  breakdown: Breakdown | null;
  breakdownLimit: number;
  /** Every event of the project has its materialized property columns filled (properties.ts). */
  materialized?: boolean;
  /** What HogQL expressions read besides the row (zone, week start, clock). */
  env?: HogqlEnv;
  /** The project's group types by index (groups.ts). */
  groupTypes?: readonly string[];
  /**
   * Aggregate by the groups of this type instead of persons (docs/api.md, "Groups"): unique
   * counts count group keys, and events without a group of the type do not count at all.
   */
  groupIndex?: number | null;
}

export interface TrendRow {
  si: number;
  /** Bucket start as wall time (ms); 0 for aggregated queries. */
  bucket: number;
  /** 0 = a ranked value, 1 = None, 2 = Other; 0 without breakdown. */
  kind: number;
  bval: string | string[] | null;
  /** Rank of the value (1 = most events) for kind 0. */
  rn: number | null;
  [aggregate: `a${number}`]: number | null;
}

/** The aggregate SQL of a math over the per-row columns (`person_id`, `sess`, `mv`), restricted by `f`. */
function aggregateSql(math: MathType, f: string): string {
  const q = (p: number) => `coalesce(quantile_cont(mv, ${p}) ${f}, 0)`;
  switch (math) {
    case 'total':
      return `count(*) ${f}`;
    case 'unique_session':
      return `count(DISTINCT sess) ${f}`;
    case 'sum':
      return `coalesce(sum(mv) ${f}, 0)`;
    case 'avg':
      return `coalesce(avg(mv) ${f}, 0)`;
    case 'min':
      return `coalesce(min(mv) ${f}, 0)`;
    case 'max':
      return `coalesce(max(mv) ${f}, 0)`;
    case 'median':
      return q(0.5);
    case 'p90':
      return q(0.9);
    case 'p95':
      return q(0.95);
    case 'p99':
      return q(0.99);
    // dau (weekly_active / monthly_active are computed by activeQuery).
    default:
      return `count(DISTINCT person_id) ${f}`;
  }
}

/** The aggregate SQL of a series' math (a HogQL math reads `x`'s event columns). */
function mathSql(series: TrendSeriesSpec, f: string, params: SqlParams): string {
  if (series.math !== 'hogql') return aggregateSql(series.math, f);
  return hogqlSql(series.mathHogql ?? '', 'aggregate', params, 'math_hogql', X_COLUMNS, f ? ` ${f}` : '').sql;
}

/** Maths whose value over a group follows from partial aggregates of its parts. */
const COMBINABLE = new Set<MathType>(['total', 'sum', 'avg', 'min', 'max']);

/** {@link aggregateSql} of a combinable math over partial rows (n rows, s sum, c count, lo min, hi max of mv). */
function combineSql(math: MathType, f: string): string {
  switch (math) {
    case 'total':
      return `coalesce(sum(n) ${f}, 0)`;
    case 'sum':
      return `coalesce(sum(s) ${f}, 0)`;
    case 'avg':
      return `coalesce(sum(s) ${f} / nullif(sum(c) ${f}, 0), 0)`;
    case 'min':
      return `coalesce(min(lo) ${f}, 0)`;
    case 'max':
      return `coalesce(max(hi) ${f}, 0)`;
    default:
      throw new Error(`${math} is not combinable`);
  }
}

/** Property columns as the `tagged` CTE names them. */
const TAGGED = { event: 'ep', person: 'pp' };

const personJoin = (needsPersonProps: boolean) => `
  ${PERSON_JOIN_SQL}${
    needsPersonProps
      ? `
  LEFT JOIN persons p ON p.team_id = e.team_id AND p.id = ${PERSON_KEY_SQL}`
      : ''
  }`;

interface Shared {
  params: SqlParams;
  where: string;
  joins: string;
  /** What unique counts count: the person's UUID, or the group's key. */
  actor: string;
  seriesConds: string[];
  bval: string;
  /** The persons table is joined as `p`. */
  personProps: boolean;
}

/** Whether a math expression reads the person (its properties or id). */
function hogqlReadsPerson(expr: string): boolean {
  const c = hogqlSql(expr, 'aggregate', new SqlParams(), 'math_hogql');
  return c.person || c.personKey;
}

/** The columns of `x` (trendQuery) a math expression reads inside its aggregates. */
const X_COLUMNS: HogqlColumns = {
  event: 'x.ep',
  person: 'x.pp',
  eventName: 'x.h_event',
  distinctId: 'x.h_did',
  timestamp: 'x.h_ts',
  personId: 'x.h_pid',
};

function shared(
  input: TrendQueryInput,
  series: readonly TrendSeriesSpec[],
  from: number,
  toExclusive: number,
  extraPerson: boolean,
): Shared {
  const params = new SqlParams();
  params.materialized = input.materialized === true;
  if (input.env) params.env = input.env;
  if (input.groupTypes) params.groupTypes = input.groupTypes;
  const team = params.add(input.project.id);
  const byGroup = input.groupIndex !== null && input.groupIndex !== undefined;
  const groupKey = byGroup ? groupKeyColumn(input.groupIndex!) : null;
  const global = andAll(
    propertyGroupSql(input.properties, params),
    testAccountSql(input.project, input.filterTestAccounts, params),
  );
  const seriesFilters = series.map((s) =>
    andAll(
      s.event === null ? { sql: 'true', person: false } : { sql: `e.event = ${params.add(s.event)}`, person: false },
      propertyGroupSql(s.properties, params),
    ),
  );
  const breakdown = input.breakdown ? breakdownSql(input.breakdown, params) : null;
  const mathPerson = series.some((x) => x.mathHogql !== null && hogqlReadsPerson(x.mathHogql));
  const needsPersonProps =
    global.person || seriesFilters.some((f) => f.person) || breakdown?.person === true || mathPerson;
  const person = extraPerson || needsPersonProps || global.personKey === true || seriesFilters.some((f) => f.personKey);
  const session = global.session === true || seriesFilters.some((f) => f.session) || breakdown?.session === true;
  const names = series.every((s) => s.event !== null) ? [...new Set(series.map((s) => s.event as string))] : [];
  const where = [
    `e.team_id = ${team}`,
    `e.timestamp >= CAST(${params.add(new Date(from).toISOString())} AS TIMESTAMPTZ)`,
    `e.timestamp < CAST(${params.add(new Date(toExclusive).toISOString())} AS TIMESTAMPTZ)`,
    names.length > 0 ? `e.event IN (${names.map((n) => params.add(n)).join(', ')})` : 'true',
    global.sql,
    groupKey ? `${groupKey} IS NOT NULL` : 'true',
  ].join(' AND ');
  const bval = breakdown ? breakdown.sql : 'NULL::VARCHAR';
  const joins = `${person ? personJoin(needsPersonProps) : ''}${
    session
      ? `
  ${sessionJoinSql(params, team)}`
      : ''
  }`;
  return {
    params,
    where,
    joins,
    actor: groupKey ?? PERSON_KEY_SQL,
    seriesConds: seriesFilters.map((f) => f.sql),
    bval,
    personProps: needsPersonProps,
  };
}

/**
 * `si` of each row: the single series; a CASE on the event name when every series is a plain,
 * distinct event (an event feeds at most one series); else one row per matching series.
 */
function seriesColumn(
  conds: string[],
  series: readonly TrendSeriesSpec[],
  params: SqlParams,
): { select: string; filter: string } {
  if (conds.length === 1) return { select: '0 AS si', filter: conds[0]! };
  const names = series.map((x) => x.event);
  const plain =
    series.every((x) => x.event !== null && !x.properties?.values.length) && new Set(names).size === names.length;
  if (plain) {
    return {
      select: `CASE e.event ${names.map((n, i) => `WHEN ${params.add(n)} THEN ${i}`).join(' ')} END AS si`,
      filter: 'true',
    };
  }
  const items = conds.map((c, i) => `CASE WHEN ${c} THEN ${i} END`);
  return { select: `unnest([${items.join(', ')}]) AS si`, filter: `(${conds.join(' OR ')})` };
}

/**
 * CTE `ranked(si, bval, rn)` and the kind/bval expressions using it (`x` = the grouped rows).
 * Values rank by their rows (`size`: count(*) over tagged rows, or the sum of partial counts).
 */
function rankingSql(params: SqlParams, limit: number, hasBreakdown: boolean, source = 'x', size = 'count(*)') {
  if (!hasBreakdown) return { cte: '', join: '', kind: '0', bval: 'NULL::VARCHAR', rn: 'NULL::BIGINT' };
  const lim = params.add(limit);
  return {
    cte: `, ranked AS (
      SELECT si, bval, row_number() OVER (PARTITION BY si ORDER BY ${size} DESC, bval) AS rn
      FROM ${source} WHERE bval IS NOT NULL GROUP BY si, bval)`,
    join: 'LEFT JOIN ranked r ON r.si = x.si AND r.bval = x.bval',
    kind: `CASE WHEN x.bval IS NULL THEN 1 WHEN r.rn <= ${lim} THEN 0 ELSE 2 END`,
    bval: `CASE WHEN r.rn <= ${lim} THEN x.bval END`,
    rn: `CASE WHEN r.rn <= ${lim} THEN r.rn END`,
  };
}

/**
 * The main statement for series `indexes` (all but the active-user maths): columns `a<i>` hold
 * the aggregate of series i's math.
 */
export function trendQuery(
  input: TrendQueryInput,
  period: PeriodQuery,
  indexes: readonly number[],
): { sql: string; params: unknown[] } {
  const series = indexes.map((i) => input.series[i]!);
  const hogql = series.some((x) => x.math === 'hogql');
  const needsPerson = series.some((x) => x.math === 'dau') || hogql;
  // Groups are read from the event itself: the person's join only for what reads the person.
  const byGroup = input.groupIndex !== null && input.groupIndex !== undefined;
  const s = shared(input, series, period.from, period.toExclusive, hogql || (needsPerson && !byGroup));
  const { params } = s;
  const bucket = period.aggregate
    ? '0'
    : bucketMsSql(
        period.interval,
        input.project.week_start_day,
        'e.timestamp',
        (v) => params.add(v),
        input.project.timezone,
        period.from,
        period.toExclusive - 1,
      );
  const tag = seriesColumn(s.seriesConds, series, params);
  const mathProps = series.map((x) =>
    x.mathProperty && isPropertyMath(x.math) ? propertyNumber(params, 'event', x.mathProperty, TAGGED) : 'NULL',
  );
  const mv = mathProps.every((m) => m === 'NULL')
    ? 'NULL::DOUBLE'
    : mathProps.length === 1
      ? mathProps[0]!
      : `CASE si ${mathProps.map((m, i) => `WHEN ${i} THEN ${m}`).join(' ')} END`;
  const sess = series.some((x) => x.math === 'unique_session')
    ? `nullif(${propertyText(params, 'event', '$session_id')}, '')`
    : 'NULL::VARCHAR';
  const person = needsPerson ? s.actor : 'NULL::UUID';
  const tagged = `tagged AS (
      SELECT ${bucket} AS bucket, ${tag.select}, ${s.bval} AS bval, ${person} AS person_id,
             ${sess} AS sess, e.properties AS ep${s.personProps ? ', p.properties AS pp' : ''}${
               hogql
                 ? `,
             e.event AS h_event, e.distinct_id AS h_did, e.timestamp AS h_ts, ${PERSON_KEY_SQL} AS h_pid`
                 : ''
             }
      FROM events e ${s.joins}
      WHERE ${s.where} AND ${tag.filter}
    ),
    x AS (SELECT bucket, si, bval, person_id, sess, ${mv} AS mv${hogql ? `, ep, h_event, h_did, h_ts, h_pid${s.personProps ? ', pp' : ''}` : ''} FROM tagged WHERE si IS NOT NULL)`;
  const filter = (i: number) => (series.length === 1 ? '' : `FILTER (WHERE x.si = ${i})`);
  if (series.every((x) => COMBINABLE.has(x.math))) {
    // Partial aggregates per (series, bucket, value) first: the ranking and the final groups
    // read those few rows instead of every event row twice.
    const rank = rankingSql(params, input.breakdownLimit, input.breakdown !== null, 'g', 'sum(n)');
    const sql = `
    WITH ${tagged},
    g AS (SELECT si, bucket, bval, count(*) AS n, sum(mv) AS s, count(mv) AS c, min(mv) AS lo, max(mv) AS hi FROM x GROUP BY si, bucket, bval)
    ${rank.cte}
    SELECT x.si AS si, x.bucket AS bucket, ${rank.kind} AS kind, ${rank.bval} AS bval, ${rank.rn} AS rn, ${series.map((x, i) => `${combineSql(x.math, filter(i))} AS a${i}`).join(', ')}
    FROM g x ${rank.join}
    GROUP BY ALL`;
    return { sql, params: params.values };
  }
  const rank = rankingSql(params, input.breakdownLimit, input.breakdown !== null);
  const sql = `
    WITH ${tagged}
    ${rank.cte}
    SELECT x.si AS si, x.bucket AS bucket, ${rank.kind} AS kind, ${rank.bval} AS bval, ${rank.rn} AS rn, ${series.map((x, i) => `${mathSql(x, filter(i), params)} AS a${i}`).join(', ')}
    FROM x ${rank.join}
    GROUP BY ALL`;
  return { sql, params: params.values };
}

/**
 * The range of each binned part of the breakdown (`lo<i>`, `hi<i>`: the least and greatest
 * finite number) over the period's events of any series: the bins' span (docs/api.md).
 */
export function binRangeQuery(input: TrendQueryInput, period: PeriodQuery): { sql: string; params: unknown[] } {
  const b = input.breakdown!;
  const s = shared({ ...input, breakdown: rawBreakdown(b) }, input.series, period.from, period.toExclusive, false);
  const sql = binRangeSql(
    b,
    s.bval,
    `FROM events e ${s.joins}
      WHERE ${s.where} AND (${s.seriesConds.join(' OR ')})`,
  );
  return { sql, params: s.params.values };
}

/**
 * Distinct persons active in the `days` local days ending at each bucket's end (weekly_active =
 * 7, monthly_active = 30), for one series: window [bucket end − days, bucket end) in wall time,
 * events up to the range's end. An aggregated query has one window: the `days` days ending
 * with the local day of the range's end. `buckets` are the bucket starts (wall ms).
 */
export function activeQuery(
  input: TrendQueryInput,
  period: PeriodQuery,
  index: number,
  days: number,
  buckets: readonly number[],
): { sql: string; params: unknown[] } {
  const series = [input.series[index]!];
  const lookback = (days + 2) * DAY_MS;
  const s = shared(
    input,
    series,
    period.from - lookback,
    period.toExclusive,
    input.groupIndex === null || input.groupIndex === undefined,
  );
  const { params } = s;
  const tz = params.add(input.project.timezone);
  const unit = period.interval === 'hour' && !period.aggregate ? 'hour' : 'day';
  const rank = rankingSql(params, input.breakdownLimit, input.breakdown !== null, 'in_range');
  const windows = period.aggregate
    ? `SELECT 0::BIGINT AS bucket, date_trunc('day', timezone(${tz}, CAST(${params.add(new Date(period.toExclusive - 1).toISOString())} AS TIMESTAMPTZ))) + INTERVAL 1 DAY AS wend`
    : `SELECT epoch_ms(b) AS bucket, b + INTERVAL 1 ${period.interval} AS wend
       FROM unnest(generate_series(make_timestamp(${params.add((buckets[0] ?? 0) * 1000)}), make_timestamp(${params.add((buckets[buckets.length - 1] ?? 0) * 1000)}), INTERVAL 1 ${period.interval})) AS t(b)`;
  const sql = `
    WITH src AS (
      SELECT e.timestamp AS ts, ${s.actor} AS person_id, ${s.bval} AS bval
      FROM events e ${s.joins}
      WHERE ${s.where} AND ${s.seriesConds[0]}
    ),
    in_range AS (SELECT 0 AS si, bval FROM src WHERE ts >= CAST(${params.add(new Date(period.from).toISOString())} AS TIMESTAMPTZ)),
    x AS (SELECT DISTINCT 0 AS si, date_trunc('${unit}', timezone(${tz}, ts)) AS t, person_id, bval FROM src)
    ${rank.cte},
    w AS (${windows})
    SELECT 0 AS si, w.bucket AS bucket, ${rank.kind} AS kind, ${rank.bval} AS bval, ${rank.rn} AS rn, count(DISTINCT x.person_id) AS a0
    FROM w JOIN x ON x.t >= w.wend - INTERVAL ${days} DAY AND x.t < w.wend
    ${rank.join}
    GROUP BY ALL`;
  return { sql, params: params.values };
}
