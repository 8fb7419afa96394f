import type { PathEdge, PathParams } from '../../../src/contract/analytics.ts';
import { resolveDateRange } from '../query/dates.ts';
import { checkRegexes } from '../query/filters.ts';
import { analysisParams, checkFilterRegexes, eventRowsSql, num } from './funnels-events.ts';
import { hogqlTextSql } from '../hogql/index.ts';
import { propertyText, type SqlParams } from '../query/properties.ts';
import type { QueryContext } from '../types.ts';

/**
 * Paths (docs/api.md, "Paths"). Where the rules are silent:
 * - Events in [date_from, date_to] passing the global filters and `include_event_types`
 *   (`custom_event` = names not starting with `$`; empty or with `hogql` = all). Item:
 *   `$current_url` of a `$pageview`, `$screen_name` of a `$screen`, else the event name (also
 *   when that property is missing); `hogql` puts `paths_hogql_expression` in the name's place,
 *   and in the others' unless their types are listed too (itemSql).
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
  // `hogql` takes every event: its expression names each one's item.
  if (!types || types.length === 0 || types.includes('hogql')) return [];
  const parts = types.map((t) =>
    t === 'custom_event' ? `NOT starts_with(e.event, ${params.add('$')})` : `e.event = ${params.add(t)}`,
  );
  return [`(${parts.join(' OR ')})`];
}

/**
 * The item of an event `e`: a page's URL, a screen's name, else the event name; with `hogql`
 * among the types, the expression's value instead of the name, and instead of the URL and the
 * screen name unless `$pageview` / `$screen` are listed too. A missing value is the event name.
 */
function itemSql(p: PathParams, params: SqlParams): { sql: string; person: boolean } {
  const types = p.include_event_types ?? [];
  const hogql = types.includes('hogql')
    ? hogqlTextSql(p.paths_hogql_expression ?? '', params, 'paths_hogql_expression')
    : null;
  const other = hogql ? `coalesce(${hogql.sql}, e.event)` : 'e.event';
  const keeps = (type: '$pageview' | '$screen') => !hogql || types.includes(type);
  const cases = [
    keeps('$pageview')
      ? `WHEN e.event = ${params.add('$pageview')} THEN coalesce(${propertyText(params, 'event', '$current_url', { event: 'e.properties', person: 'p.properties' })}, e.event)`
      : '',
    keeps('$screen')
      ? `WHEN e.event = ${params.add('$screen')} THEN coalesce(${propertyText(params, 'event', '$screen_name')}, e.event)`
      : '',
  ].filter(Boolean);
  let item = cases.length > 0 ? `CASE ${cases.join(' ')} ELSE ${other} END` : other;
  for (const rule of p.local_path_cleaning_filters ?? []) {
    // RE2 rewrite strings treat backslash as an escape: double it so the alias stays literal.
    item = `regexp_replace(${item}, ${params.add(rule.regex)}, ${params.add(rule.alias.replace(/\\/g, '\\\\'))}, 'g')`;
  }
  return { sql: item, person: Boolean(hogql && (hogql.person || hogql.personKey)) };
}

export async function computePaths(p: PathParams, ctx: QueryContext): Promise<PathEdge[]> {
  await checkFilterRegexes(ctx, [{ group: p.properties, attr: 'properties' }]);
  await checkRegexes(
    ctx.db,
    (p.local_path_cleaning_filters ?? []).map((r, i) => ({
      pattern: r.regex,
      attr: `local_path_cleaning_filters__${i}__regex`,
    })),
  );
  const range = await resolveDateRange(p, ctx);
  const params = await analysisParams(ctx);
  const item = itemSql(p, params);
  const base = eventRowsSql({
    params,
    ctx,
    range,
    properties: p.properties,
    filterTestAccounts: p.filter_test_accounts,
    needPerson: item.person,
    columns: [`${item.sql} AS item`],
    where: eventTypeSql(p.include_event_types, params),
  });
  const excluded = (p.exclude_events ?? []).map((x) => params.add(x));
  const keep =
    excluded.length === 0 ? 'true' : `NOT (item IN (${excluded.join(', ')}) OR event IN (${excluded.join(', ')}))`;
  const start = p.start_point ? params.add(p.start_point) : null;
  const end = p.end_point ? params.add(p.end_point) : null;
  const limit = `${params.add(p.step_limit)}::BIGINT`;
  const gap = `${params.add(SESSION_GAP_MS)}::BIGINT`;
  // One sort per person: lag() finds session breaks and repeats; a second (by that order's
  // number) numbers the kept items, their session (running count of breaks) and the next item.
  // Session bounds (start/end points, step limit) are per-session aggregates in those numbers.
  // Items are text (URLs, names) but the windows below only compare them: they sort and carry
  // a 64-bit hash of each instead, and the edges take their texts back from a dictionary of
  // the hashes. Two items whose hashes collide would count as one: by chance, at a million
  // distinct items, about one in 37 million; on purpose (DuckDB's hash is not keyed), only by
  // whoever can send the project's events, who can skew its paths anyway.
  const ps = start ? `min(prn) FILTER (WHERE ih = hash(${start}))` : 'min(prn)';
  const ends = end
    ? `ends AS (SELECT c.person_id, c.session, min(c.prn) AS pe FROM c JOIN s0 ON s0.person_id = c.person_id AND s0.session = c.session
        WHERE c.ih = hash(${end}) AND c.prn >= s0.srn GROUP BY c.person_id, c.session),`
    : '';
  const ern = end ? '(SELECT pe FROM ends WHERE ends.person_id = s0.person_id AND ends.session = s0.session)' : 'p1';
  // The first kept position: with only an end point, the last `limit` items up to it.
  const first = end && !start ? `greatest(srn, ern - ${limit} + 1)` : 'srn';
  const last = end && !start ? 'ern' : `least(ern, srn + ${limit} - 1)`;
  const edgeLimit = p.edge_limit ? `LIMIT ${params.add(p.edge_limit)}::BIGINT` : '';
  const sql = `WITH ev AS (${base}),
    kept AS MATERIALIZED (SELECT person_id, uuid, ts, item, hash(item) AS ih FROM ev WHERE ${keep}),
    dict AS (SELECT ih, any_value(item) AS item FROM kept GROUP BY ih),
    a AS (SELECT person_id, ts, ih, lag(ts) OVER w AS pts, lag(ih) OVER w AS pih, row_number() OVER w AS seq
      FROM kept WINDOW w AS (PARTITION BY person_id ORDER BY ts, uuid)),
    b AS (SELECT person_id, ts, ih, seq, coalesce(ts - pts > ${gap}, false) AS brk FROM a
      WHERE pih IS NULL OR coalesce(ts - pts > ${gap}, false) OR pih <> ih),
    c AS (SELECT person_id, ts, ih, sum(brk::INTEGER) OVER w AS session, row_number() OVER w AS prn,
        lead(ih) OVER w AS next_ih, lead(ts) OVER w AS next_ts
      FROM b WINDOW w AS (PARTITION BY person_id ORDER BY seq)),
    s0 AS (SELECT person_id, session, ${ps} AS srn, max(prn) AS p1 FROM c GROUP BY person_id, session),
    ${ends}
    s1 AS (SELECT person_id, session, srn, ${ern} AS ern FROM s0),
    bounds AS (SELECT person_id, session, ${first} AS lo, ${last} AS hi FROM s1 WHERE srn IS NOT NULL AND ern IS NOT NULL),
    steps AS (SELECT c.person_id, c.prn - b.lo + 1 AS pos, c.ih, c.next_ih, c.next_ts - c.ts AS dt
      FROM c JOIN bounds b ON b.person_id = c.person_id AND b.session = c.session
      WHERE c.prn >= b.lo AND c.prn < b.hi),
    edges AS (SELECT pos, ih, next_ih, count(DISTINCT person_id) AS value, avg(dt) AS average_conversion_time
      FROM steps GROUP BY pos, ih, next_ih)
    SELECT pos::VARCHAR || '_' || d.item AS source, (pos + 1)::VARCHAR || '_' || n.item AS target, value, average_conversion_time
    FROM edges JOIN dict d ON d.ih = edges.ih JOIN dict n ON n.ih = edges.next_ih
    ORDER BY value DESC, source, target ${edgeLimit}`;
  const rows = await ctx.db.all<Record<string, unknown>>(sql, params.values);
  return rows.map((r) => ({
    source: String(r.source),
    target: String(r.target),
    value: num(r.value) ?? 0,
    average_conversion_time: num(r.average_conversion_time),
  }));
}
