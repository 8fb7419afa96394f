import type { PathEdge, PathParams } from '../../src/contract/analytics.ts';
import { resolveDateRange } from './dates.ts';
import { AnalyticsParamError } from './errors.ts';
import { checkRegexes } from './filters.ts';
import { checkFilterRegexes, eventRowsSql, num } from './funnels-events.ts';
import { propertyText, SqlParams } from './properties.ts';
import type { QueryContext } from './types.ts';

/**
 * Paths (API-DECISIONS "Paths"). Where the rules are silent:
 * - Events in [date_from, date_to] passing the global filters and `include_event_types`
 *   (`custom_event` = names not starting with `$`; empty = all). Item: `$current_url` of a
 *   `$pageview`, `$screen_name` of a `$screen`, else the event name (also when that property
 *   is missing).
 * - `local_path_cleaning_filters`, in order: every match of `regex` (RE2, as the production
 *   service's ClickHouse) is replaced by `alias`, literally. `path_replacements` would apply the
 *   project's rules: projects here have none. `exclude_events` drops events whose name or
 *   cleaned item is listed.
 * - Per person, in (timestamp, uuid) order, a session ends after a gap over 30 minutes;
 *   consecutive repeats of one item in a session collapse into the first.
 * - `start_point`: a session's path starts at its first occurrence (sessions without it are
 *   left out); `end_point`: it ends at the first occurrence at or after the start (likewise).
 *   `step_limit` keeps the first items (only an end point: the last items, ending there).
 * - Edge `value` = distinct persons; `average_conversion_time` = mean milliseconds between the
 *   two items over every occurrence (the production service's unit for paths). Edges are
 *   ordered by value desc, then source, then target; `edge_limit` keeps the first ones.
 */

const SESSION_GAP_MS = 30 * 60_000;

function eventTypeSql(types: PathParams['include_event_types'], params: SqlParams): string[] {
  if (!types || types.length === 0) return [];
  const parts = types.map((t, i) => {
    if (t === 'hogql') throw new AnalyticsParamError(`include_event_types__${i}`, 'HogQL path items are not supported.');
    return t === 'custom_event' ? `NOT starts_with(e.event, ${params.add('$')})` : `e.event = ${params.add(t)}`;
  });
  return [`(${parts.join(' OR ')})`];
}

function itemSql(p: PathParams, params: SqlParams): string {
  const pageview = params.add('$pageview');
  const screen = params.add('$screen');
  let item = `CASE WHEN e.event = ${pageview} THEN coalesce(${propertyText(params, 'event', '$current_url', { event: 'e.properties', person: 'p.properties' })}, e.event)
    WHEN e.event = ${screen} THEN coalesce(${propertyText(params, 'event', '$screen_name')}, e.event) ELSE e.event END`;
  for (const rule of p.local_path_cleaning_filters ?? []) {
    // RE2 rewrite strings treat backslash as an escape: double it so the alias stays literal.
    item = `regexp_replace(${item}, ${params.add(rule.regex)}, ${params.add(rule.alias.replace(/\\/g, '\\\\'))}, 'g')`;
  }
  return item;
}

export async function computePaths(p: PathParams, ctx: QueryContext): Promise<PathEdge[]> {
  await checkFilterRegexes(ctx, [{ group: p.properties, attr: 'properties' }]);
  await checkRegexes(ctx.db, (p.local_path_cleaning_filters ?? []).map((r, i) => ({ pattern: r.regex, attr: `local_path_cleaning_filters__${i}__regex` })));
  const range = await resolveDateRange(p, ctx);
  const params = new SqlParams();
  const base = eventRowsSql({
    params, ctx, range, properties: p.properties, filterTestAccounts: p.filter_test_accounts,
    columns: [`${itemSql(p, params)} AS item`],
    where: eventTypeSql(p.include_event_types, params),
  });
  const excluded = (p.exclude_events ?? []).map((x) => params.add(x));
  const keep = excluded.length === 0 ? 'true' : `NOT (item IN (${excluded.join(', ')}) OR event IN (${excluded.join(', ')}))`;
  const start = p.start_point ? params.add(p.start_point) : null;
  const end = p.end_point ? params.add(p.end_point) : null;
  const limit = `${params.add(p.step_limit)}::BIGINT`;
  const gap = `${params.add(SESSION_GAP_MS)}::BIGINT`;
  const srn = start ? `min(CASE WHEN item = ${start} THEN rn END) OVER ws` : '1';
  const ern = end ? `min(CASE WHEN item = ${end} AND rn >= srn THEN rn END) OVER ws` : 'max(rn) OVER ws';
  // The first kept position: with only an end point, the last `limit` items up to it.
  const first = end && !start ? `greatest(srn, ern - ${limit} + 1)` : 'srn';
  const last = end && !start ? 'ern' : `least(ern, srn + ${limit} - 1)`;
  const edgeLimit = p.edge_limit ? `LIMIT ${params.add(p.edge_limit)}::BIGINT` : '';
  const sql = `WITH ev AS (${base}),
    kept AS (SELECT * FROM ev WHERE ${keep}),
    gaps AS (SELECT *, CASE WHEN ts - lag(ts) OVER (PARTITION BY person_id ORDER BY ts, uuid) > ${gap} THEN 1 ELSE 0 END AS brk FROM kept),
    sess AS (SELECT *, sum(brk) OVER (PARTITION BY person_id ORDER BY ts, uuid ROWS UNBOUNDED PRECEDING) AS session FROM gaps),
    dedup AS (SELECT * FROM (SELECT *, lag(item) OVER (PARTITION BY person_id, session ORDER BY ts, uuid) AS prev FROM sess)
      WHERE prev IS NULL OR prev <> item),
    numbered AS (SELECT *, row_number() OVER (PARTITION BY person_id, session ORDER BY ts, uuid) AS rn FROM dedup),
    s1 AS (SELECT *, ${srn} AS srn FROM numbered WINDOW ws AS (PARTITION BY person_id, session)),
    s2 AS (SELECT *, ${ern} AS ern FROM s1 WINDOW ws AS (PARTITION BY person_id, session)),
    s3 AS (SELECT *, ${first} AS lo, ${last} AS hi FROM s2 WHERE srn IS NOT NULL AND ern IS NOT NULL),
    path AS (SELECT person_id, session, rn - lo + 1 AS pos, item, ts FROM s3 WHERE rn BETWEEN lo AND hi),
    steps AS (SELECT person_id, pos, item, lead(item) OVER wp AS next_item, lead(ts) OVER wp - ts AS dt
      FROM path WINDOW wp AS (PARTITION BY person_id, session ORDER BY pos))
    SELECT pos::VARCHAR || '_' || item AS source, (pos + 1)::VARCHAR || '_' || next_item AS target,
      count(DISTINCT person_id) AS value, avg(dt) AS average_conversion_time
    FROM steps WHERE next_item IS NOT NULL GROUP BY ALL
    ORDER BY value DESC, source, target ${edgeLimit}`;
  const rows = await ctx.db.all<Record<string, unknown>>(sql, params.values);
  return rows.map((r) => ({
    source: String(r.source),
    target: String(r.target),
    value: num(r.value) ?? 0,
    average_conversion_time: num(r.average_conversion_time),
  }));
}
