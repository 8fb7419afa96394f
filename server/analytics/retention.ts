import type { Interval, RetentionCohort, RetentionParams } from '../../src/contract/analytics.ts';
import { addWall, formatInstant, fromWall, MIN_INSTANT, parseDateParam, toWall, truncWall } from './dates.ts';
import { AnalyticsParamError } from './errors.ts';
import { analysisParams, bucketWallSql, checkFilterRegexes, entityMatchSql, eventRowsSql, num } from './funnels-events.ts';
import { aggregationOf } from './groups.ts';
import type { QueryContext } from './types.ts';

/**
 * Retention (docs/api.md, "Retention"), in the production service's shape: one cohort per
 * period, `{date, label: "<Period> <i>", values: [{count}, …]}`, a triangle (cohort i has
 * total_intervals - i values). Where the rules are silent:
 * - The last cohort is the period (project time zone, project week start) holding `date_to`
 *   (default now); `date_from` is not used: `total_intervals` periods end there.
 * - first-time: a person's cohort is the period of their first target event ever (all time,
 *   global filters applied); recurring: every period in which they did the target event.
 * - values[0] = cohort size; values[j] = cohort persons doing the returning event in period i+j.
 */

const INTERVAL: Record<RetentionParams['period'], Interval> = { Hour: 'hour', Day: 'day', Week: 'week', Month: 'month' };

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

  const params = await analysisParams(ctx);
  const groupIndex = aggregationOf(p, params.groupTypes);
  const target = entityMatchSql(p.target_entity, params, 'target_entity__id');
  const returning = entityMatchSql(p.returning_entity, params, 'returning_entity__id');
  const firstTime = p.retention_type === 'retention_first_time';
  const bucket = bucketWallSql(interval, weekStart, tz, params, range);
  const base = eventRowsSql({
    params, ctx, range: firstTime ? null : range,
    properties: p.properties, filterTestAccounts: p.filter_test_accounts,
    columns: [`${target.sql} AS tg`, `${returning.sql} AS rt`, `${bucket} AS bucket`],
    needPerson: target.person || returning.person,
    needSession: target.session === true || returning.session === true,
    where: firstTime ? [] : [`(${target.sql} OR ${returning.sql})`],
    groupIndex,
  });
  const from = `${params.add(range.from)}::BIGINT`;
  const to = `${params.add(range.to)}::BIGINT`;
  const inRange = `ts >= ${from} AND ts <= ${to}`;
  const cohorts = firstTime
    ? `SELECT person_id, arg_min(bucket, ts) AS bucket FROM ev WHERE tg GROUP BY person_id HAVING min(ts) >= ${from} AND min(ts) <= ${to}`
    : `SELECT DISTINCT person_id, bucket FROM ev WHERE tg AND ${inRange}`;
  const sql = `WITH ev AS (${base}),
    cohorts AS (${cohorts}),
    returns AS (SELECT DISTINCT person_id, bucket FROM ev WHERE rt AND ${inRange})
    SELECT c.bucket AS cohort, r.bucket AS period, count(*) AS n
      FROM cohorts c JOIN returns r ON r.person_id = c.person_id AND r.bucket > c.bucket GROUP BY ALL
    UNION ALL SELECT bucket, bucket, count(*) FROM cohorts GROUP BY ALL`;
  const rows = await ctx.db.all<{ cohort: unknown; period: unknown; n: unknown }>(sql, params.values);

  const index = new Map(starts.map((s, i) => [s, i]));
  const table = starts.map((_, i) => new Array<number>(n - i).fill(0));
  for (const r of rows) {
    const i = index.get(num(r.cohort) ?? NaN);
    const j = index.get(num(r.period) ?? NaN);
    if (i === undefined || j === undefined || j < i) continue;
    table[i]![j - i] = num(r.n) ?? 0;
  }
  return starts.map((wall, i) => ({
    date: formatInstant(fromWall(wall, tz), tz),
    label: `${p.period} ${i}`,
    values: table[i]!.map((count) => ({ count })),
  }));
}
