import type { Interval, RetentionCohort, RetentionParams } from '../../../src/contract/analytics.ts';
import { addWall, formatInstant, fromWall, MIN_INSTANT, parseDateParam, toWall, truncWall } from '../query/dates.ts';
import { AnalyticsParamError } from '../errors.ts';
import {
  analysisParams,
  bucketWallSql,
  checkFilterRegexes,
  entityMatchSql,
  eventRowsSql,
  num,
} from './funnels-events.ts';
import { aggregationOf } from '../query/groups.ts';
import {
  binRangeSql,
  breakdownOf,
  breakdownsOf,
  breakdownSql,
  breakdownValueSql,
  groupValue,
  joinedBreakdownSql,
  rawBreakdown,
  withEdges,
  type BreakdownSql,
} from '../query/breakdowns.ts';
import type { SqlParams } from '../query/properties.ts';
import { BREAKDOWN_NULL_VALUE, BREAKDOWN_OTHER_VALUE } from './trends-types.ts';
import type { QueryContext } from '../types.ts';

/**
 * Retention (docs/api.md, "Retention"), in the production service's shape: one cohort per
 * period, `{date, label: "<Period> <i>", values: [{count}, …]}`, a triangle (cohort i has
 * total_intervals - i values). Where the rules are silent:
 * - The last cohort is the period (project time zone, project week start) holding `date_to`
 *   (default now); `date_from` is not used: `total_intervals` periods end there.
 * - first-time: a person's cohort is the period of their first target event ever (all time,
 *   global filters applied); recurring: every period in which they did the target event.
 * - values[0] = cohort size; values[j] = cohort persons doing the returning event in period i+j.
 * - breakdown: a person's place in a cohort is counted under the breakdown value of the target
 *   event that put them there (first-time: their first; recurring: their first in that period;
 *   ties by uuid). The `breakdown_limit` values with the most places come first (then by text),
 *   then None, then Other; each group has all the cohorts, each row its `breakdown_value`.
 *   Several breakdowns (a list, ranked by its joined text) and bins work the same; bins span the
 *   numbers of the places' values.
 */

const INTERVAL: Record<RetentionParams['period'], Interval> = {
  Hour: 'hour',
  Day: 'day',
  Week: 'week',
  Month: 'month',
};

export async function computeRetention(p: RetentionParams, ctx: QueryContext): Promise<RetentionCohort[]> {
  await checkFilterRegexes(ctx, [
    { group: p.properties, attr: 'properties' },
    { group: p.target_entity.properties, attr: 'target_entity__properties' },
    { group: p.returning_entity.properties, attr: 'returning_entity__properties' },
  ]);
  const { timezone: tz, week_start_day: weekStart } = ctx.project;
  const interval = INTERVAL[p.period];
  const now = ctx.now.getTime();
  const parsed = p.date_to ? parseDateParam(p.date_to, { now, timeZone: tz, weekStart, role: 'to' }) : now;
  const dateTo = parsed === null ? now : parsed;
  if (dateTo === undefined || dateTo < MIN_INSTANT) throw new AnalyticsParamError('date_to', 'Enter a valid date.');

  const n = p.total_intervals;
  const last = truncWall(toWall(dateTo, tz), interval, weekStart);
  const starts = Array.from({ length: n }, (_, i) => addWall(last, interval, i - (n - 1)));
  const range = { from: fromWall(starts[0]!, tz), to: fromWall(addWall(last, interval, 1), tz) - 1 };

  const groupTypes = (await analysisParams(ctx)).groupTypes;
  const groupIndex = aggregationOf(p, groupTypes);
  // Several breakdowns, and a binned one, are one text per event, as in funnels (breakdowns.ts).
  const multiple = p.breakdowns?.length || p.breakdown_histogram_bin_count ? breakdownsOf(p, groupTypes) : null;
  const single = multiple ? null : breakdownOf(p, groupTypes);
  const firstTime = p.retention_type === 'retention_first_time';

  /** `ev` (the events with their value `bv`) and `c0` (each place in a cohort, with the value of the event that made it). */
  const places = (params: SqlParams, bv: BreakdownSql | null) => {
    const target = entityMatchSql(p.target_entity, params, 'target_entity__id');
    const returning = entityMatchSql(p.returning_entity, params, 'returning_entity__id');
    const bucket = bucketWallSql(interval, weekStart, tz, params, range);
    const base = eventRowsSql({
      params,
      ctx,
      range: firstTime ? null : range,
      properties: p.properties,
      filterTestAccounts: p.filter_test_accounts,
      columns: [
        `${target.sql} AS tg`,
        `${returning.sql} AS rt`,
        `${bucket} AS bucket`,
        `${bv?.sql ?? 'NULL::VARCHAR'} AS bv`,
      ],
      needPerson: target.person || returning.person || Boolean(bv?.person),
      needSession: target.session === true || returning.session === true || Boolean(bv?.session),
      where: firstTime ? [] : [`(${target.sql} OR ${returning.sql})`],
      groupIndex,
    });
    const from = `${params.add(range.from)}::BIGINT`;
    const to = `${params.add(range.to)}::BIGINT`;
    const inRange = `ts >= ${from} AND ts <= ${to}`;
    // The breakdown value of the event that put the person in the cohort (first by time, then uuid).
    const value = 'first(bv ORDER BY ts, uuid)';
    const cohorts = firstTime
      ? `SELECT person_id, arg_min(bucket, ts) AS bucket, ${value} AS bv FROM ev WHERE tg GROUP BY person_id HAVING min(ts) >= ${from} AND min(ts) <= ${to}`
      : `SELECT person_id, bucket, ${value} AS bv FROM ev WHERE tg AND ${inRange} GROUP BY person_id, bucket`;
    return { with: `ev AS (${base}),\n    c0 AS (${cohorts})`, inRange };
  };

  // Bins span the numbers of the values the places in cohorts take (docs/api.md, "Retention").
  let bd = multiple;
  if (bd?.parts.some((part) => part.bins)) {
    const params = await analysisParams(ctx);
    const raw = places(params, breakdownSql(rawBreakdown(bd), params));
    const [row] = await ctx.db.all<Record<string, number | null>>(
      `WITH ${raw.with}\n${binRangeSql(bd, 'bv', 'FROM c0')}`,
      params.values,
    );
    bd = withEdges(bd, row);
  }
  const params = await analysisParams(ctx);
  const bv = bd
    ? bd.multi
      ? joinedBreakdownSql(bd, params)
      : breakdownSql(bd, params)
    : single
      ? breakdownValueSql(single, params)
      : null;
  const { with: placesSql, inRange } = places(params, bv);
  // Groups: 'v:<value>' for the top values by places, 'none' without a value, 'other' past the limit.
  const limit = `${params.add(p.breakdown_limit)}::BIGINT`;
  const sql = `WITH ${placesSql},
    ranked AS (SELECT bv, row_number() OVER (ORDER BY count(*) DESC, bv) AS rk FROM c0 WHERE bv IS NOT NULL GROUP BY bv),
    cohorts AS (SELECT c0.person_id, c0.bucket, CASE WHEN c0.bv IS NULL THEN 'none' WHEN r.rk <= ${limit} THEN 'v:' || c0.bv ELSE 'other' END AS g,
      coalesce(r.rk, 0) AS rk FROM c0 LEFT JOIN ranked r ON r.bv = c0.bv),
    returns AS (SELECT DISTINCT person_id, bucket FROM ev WHERE rt AND ${inRange})
    SELECT c.g, min(c.rk) AS rk, c.bucket AS cohort, r.bucket AS period, count(*) AS n
      FROM cohorts c JOIN returns r ON r.person_id = c.person_id AND r.bucket > c.bucket GROUP BY c.g, c.bucket, r.bucket
    UNION ALL SELECT g, min(rk), bucket, bucket, count(*) FROM cohorts GROUP BY g, bucket`;
  const rows = await ctx.db.all<{ g: string; rk: unknown; cohort: unknown; period: unknown; n: unknown }>(
    sql,
    params.values,
  );

  const index = new Map(starts.map((s, i) => [s, i]));
  const tables = new Map<string, { rank: number; table: number[][] }>();
  if (!bv) tables.set('none', { rank: 0, table: starts.map((_, i) => new Array<number>(n - i).fill(0)) });
  for (const r of rows) {
    const i = index.get(num(r.cohort) ?? NaN);
    const j = index.get(num(r.period) ?? NaN);
    if (i === undefined || j === undefined || j < i) continue;
    let group = tables.get(r.g);
    if (!group)
      tables.set(
        r.g,
        (group = { rank: num(r.rk) ?? 0, table: starts.map((_, k) => new Array<number>(n - k).fill(0)) }),
      );
    group.table[i]![j - i] = num(r.n) ?? 0;
  }
  // Ranked values, then None, then Other (as trends order their breakdown values).
  const order = (g: string, rank: number) => (g === 'none' ? 1e12 : g === 'other' ? 2e12 : rank);
  // Several breakdowns: a value is the list of the parts' values, Other's once per part.
  const parts = bd?.multi ? bd.parts.length : 0;
  const valueOf = (g: string) =>
    g === 'none'
      ? BREAKDOWN_NULL_VALUE
      : g === 'other'
        ? parts
          ? groupValue('', 1, parts)
          : BREAKDOWN_OTHER_VALUE
        : groupValue(g.slice(2), 0, parts);
  const groups = [...tables].sort(([a, x], [b, y]) => order(a, x.rank) - order(b, y.rank));
  return groups.flatMap(([g, { table }]) =>
    starts.map((wall, i) => ({
      date: formatInstant(fromWall(wall, tz), tz),
      label: `${p.period} ${i}`,
      values: table[i]!.map((count) => ({ count })),
      ...(bv ? { breakdown_value: valueOf(g) } : {}),
    })),
  );
}
