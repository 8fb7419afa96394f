/**
 * Event property statistics kept beside the events: for each project, event name, property key,
 * value type and UTC day, how many events carried the key (`event_property_stats`). Listing a
 * project's property keys then reads this small table instead of parsing the JSON of every event
 * (a million events' properties take about a second to parse; the table answers in
 * milliseconds). Events are counted when written (`append` counts its batch in the same
 * transaction and marks the rows `ps_counted`); rows written by other means are counted when the
 * store opens, and until then read from their JSON ({@link eventPropertyKinds} does both), so the
 * table is an optimisation only. Keys come out of the data as values: none is SQL text.
 */
import type { PropertyValueType } from '../../../src/contract/index.ts';
import type { SqlRunner } from './db-types.ts';

export const PROPERTY_STATS_DDL = `CREATE TABLE IF NOT EXISTS event_property_stats (
  team_id INTEGER NOT NULL,
  event VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  kind VARCHAR,
  day INTEGER NOT NULL,
  n BIGINT NOT NULL
)`;

/** ISO-looking date or date-time text (`2024-01-05`, `2024-01-05T10:00:00Z`, `2024-01-05 10:00:00.123+02:00`). */
export const ISO_DATE_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}(:?\\d{2})?)?)?$';

/**
 * SQL: the PropertyValueType of `v`, the JSON text of one value (SQL NULL for JSON null), told by
 * its first character: a string is DateTime when it looks like an ISO date (the pattern, bound
 * as `pattern`, runs only on text with a date's dashes), else String; objects and lists are String.
 */
export const kindSql = (v: string, pattern: string) => `CASE left(${v}, 1)
  WHEN '"' THEN CASE WHEN substr(${v}, 6, 1) = '-' AND substr(${v}, 9, 1) = '-' AND regexp_full_match(${v} ->> '$', ${pattern})
    THEN 'DateTime' ELSE 'String' END
  WHEN 't' THEN 'Boolean' WHEN 'f' THEN 'Boolean' WHEN 'n' THEN NULL
  WHEN '{' THEN 'String' WHEN '[' THEN 'String' ELSE 'Numeric' END`;

/** SQL: the (key, value) entries of the JSON object column `col`, unnested (a non-object gives none). */
export const entriesSql = (col: string) => `unnest(map_entries(try(json_transform(${col}, '"MAP(VARCHAR, JSON)"'))))`;

/** SQL: the UTC day of a TIMESTAMPTZ as days since 1970-01-01 (`day` of the table). */
export const daySql = (ts: string) => `(epoch(${ts})::BIGINT // 86400)::INTEGER`;

/** SQL: per (event, key, kind, day), the events of `where` (over `events`) carrying the key. `pattern` as in kindSql. */
const groupedSql = (where: string, pattern: string) => `
  SELECT team_id, event, p.key AS key, ${kindSql('p.value::VARCHAR', pattern)} AS kind, day, count(*) AS n
  FROM (SELECT team_id, event, ${daySql('timestamp')} AS day, ${entriesSql('properties')} AS p FROM events WHERE ${where})
  GROUP BY ALL`;

/**
 * Statements counting the events not counted yet (of project `$2` when `oneTeam`, else of all)
 * into the table, then marking them counted. Run them in one transaction, on the writer.
 */
export function countPropertiesSteps(oneTeam: boolean): { sql: string; params: string[] }[] {
  const where = `ps_counted IS NOT TRUE${oneTeam ? ' AND team_id = $2' : ''}`;
  return [
    {
      sql: `INSERT INTO event_property_stats (team_id, event, key, kind, day, n) ${groupedSql(where, '$1')}`,
      params: [ISO_DATE_PATTERN],
    },
    {
      sql: `UPDATE events SET ps_counted = true WHERE ${oneTeam ? 'ps_counted IS NOT TRUE AND team_id = $1' : 'ps_counted IS NOT TRUE'}`,
      params: [],
    },
  ];
}

/** Counts the uncounted events of project `teamId` (run inside the writer's transaction). */
export async function countEventProperties(
  db: { run(sql: string, params?: readonly unknown[]): Promise<void> },
  teamId: number,
): Promise<void> {
  const [insert, mark] = countPropertiesSteps(true) as [
    { sql: string; params: string[] },
    { sql: string; params: string[] },
  ];
  await db.run(insert.sql, [...insert.params, teamId]);
  await db.run(mark.sql, [teamId]);
}

/**
 * Merges the rows of project `teamId` into one per (event, key, kind, day): appends add a few
 * rows each, so the table is compacted now and then (on the writer, in a transaction).
 */
export async function compactEventProperties(
  db: { run(sql: string, params?: readonly unknown[]): Promise<void> },
  teamId: number,
): Promise<void> {
  await db.run(
    `CREATE OR REPLACE TEMP TABLE ps_compact AS SELECT team_id, event, key, kind, day, sum(n)::BIGINT AS n
    FROM event_property_stats WHERE team_id = $1 GROUP BY ALL`,
    [teamId],
  );
  await db.run('DELETE FROM event_property_stats WHERE team_id = $1', [teamId]);
  await db.run('INSERT INTO event_property_stats SELECT team_id, event, key, kind, day, n FROM ps_compact');
  await db.run('DROP TABLE ps_compact');
}

/** Per key and kind: events carrying it in all (`total`) and from day `sinceDay` (days since 1970) on (`recent`). */
export interface KindRow {
  key: string;
  kind: PropertyValueType | null;
  total: number;
  recent: number;
}

/**
 * The property keys of project `teamId`'s events (of `eventNames` when given) by kind: the
 * counted ones from the table, the others from their JSON.
 */
export async function eventPropertyKinds(
  db: SqlRunner,
  teamId: number,
  sinceDay: number,
  eventNames: readonly string[] | null,
): Promise<KindRow[]> {
  const params: unknown[] = [teamId, sinceDay, ISO_DATE_PATTERN];
  let narrow = '';
  if (eventNames) {
    params.push(JSON.stringify(eventNames));
    narrow = ` AND event IN (SELECT unnest(from_json($${params.length}::JSON, '["VARCHAR"]')))`;
  }
  return db.all<KindRow>(
    `SELECT key, kind, sum(n)::DOUBLE AS total, coalesce(sum(n) FILTER (WHERE day >= $2), 0)::DOUBLE AS recent
     FROM (SELECT key, kind, day, n FROM event_property_stats WHERE team_id = $1${narrow}
           UNION ALL
           SELECT key, kind, day, n FROM (${groupedSql(`team_id = $1 AND ps_counted IS NOT TRUE${narrow}`, '$3')}))
     GROUP BY key, kind`,
    params,
  );
}
