import { propertyText, type SqlParams } from './properties.ts';

/**
 * Session properties (docs/hogql.md "Session properties"). A session is every event of the
 * project with the same non-empty `$session_id`, whatever the query's range and filters: a
 * session that began before `date_from` keeps its whole duration and its entry URL. The join
 * below computes each session once per statement, as a table `ses` joined to the events `e`;
 * an event without a `$session_id` has none (every `ses` column NULL).
 */

export const SESSION_PROPERTIES = [
  '$session_duration',
  '$entry_current_url',
  '$exit_current_url',
  '$pageview_count',
] as const;
export type SessionProperty = (typeof SESSION_PROPERTIES)[number];
export const isSessionProperty = (key: unknown): key is SessionProperty =>
  (SESSION_PROPERTIES as readonly unknown[]).includes(key);

/** The alias of the sessions table in a statement that joins it. */
export const SESSION_ALIAS = 'ses';

/** `LEFT JOIN (…) ses ON …`: the sessions of the project, for the events `e` of a statement. */
export function sessionJoinSql(params: SqlParams, teamRef: string): string {
  const sid = (alias: string) =>
    `nullif(${propertyText(params, 'event', '$session_id', { event: `${alias}.properties`, person: `${alias}.properties` })}, '')`;
  const url = propertyText(params, 'event', '$current_url', { event: 's.properties', person: 's.properties' });
  // Entry and exit: the first and last events (by time, then uuid) that have a URL.
  return `LEFT JOIN (
      SELECT sid, (max(ms) - min(ms)) / 1000.0 AS duration,
        first(url ORDER BY ms, id) FILTER (WHERE url IS NOT NULL) AS entry_url,
        last(url ORDER BY ms, id) FILTER (WHERE url IS NOT NULL) AS exit_url,
        count(*) FILTER (WHERE event = ${params.add('$pageview')}) AS pageviews
      FROM (SELECT ${sid('s')} AS sid, epoch_ms(s.timestamp) AS ms, s.uuid::VARCHAR AS id, ${url} AS url, s.event
            FROM events s WHERE s.team_id = ${teamRef})
      WHERE sid IS NOT NULL GROUP BY sid
    ) ${SESSION_ALIAS} ON ${SESSION_ALIAS}.sid = ${sid('e')}`;
}

/** SQL of a session property of the joined session: DOUBLE for the numbers, else VARCHAR. */
export function sessionValueSql(key: SessionProperty): { sql: string; numeric: boolean } {
  switch (key) {
    case '$session_duration':
      return { sql: `${SESSION_ALIAS}.duration`, numeric: true };
    case '$pageview_count':
      return { sql: `CAST(${SESSION_ALIAS}.pageviews AS DOUBLE)`, numeric: true };
    case '$entry_current_url':
      return { sql: `${SESSION_ALIAS}.entry_url`, numeric: false };
    case '$exit_current_url':
      return { sql: `${SESSION_ALIAS}.exit_url`, numeric: false };
  }
}

/** A session property as text (numbers as HogQL writes them: `61.5`, `60`); NULL without a session. */
export function sessionTextSql(key: SessionProperty, params: SqlParams): string {
  const v = sessionValueSql(key);
  return v.numeric ? `regexp_replace(CAST((${v.sql}) + 0.0 AS VARCHAR), ${params.add('\\.0$')}, '')` : v.sql;
}

/** Whether the event has a session. */
export const HAS_SESSION_SQL = `${SESSION_ALIAS}.sid IS NOT NULL`;
