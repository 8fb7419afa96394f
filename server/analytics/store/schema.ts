/**
 * The event store's tables (DuckDB). Columns are described in ./types.ts. Timestamps are
 * TIMESTAMPTZ in UTC; properties are JSON text. Applied idempotently on open, then migrated
 * (see {@link EVENT_STORE_MIGRATIONS}).
 */
import { countPropertiesSteps, PROPERTY_STATS_DDL } from './property-stats.ts';

export const EVENT_STORE_SCHEMA_VERSION = 7;

/**
 * Materialized event properties: hot keys whose text (exactly what `json_extract_string` gives
 * for them) is also stored in a column of its own, written when the event is stored. A query
 * reads the column instead of parsing the JSON of every row. Rows written by other means
 * (`mp_filled` false or NULL) are read from the JSON, so the column is an optimisation only.
 * The keys are fixed here: a user-given key is compared with this list in TypeScript and only
 * the fixed column name below ever becomes SQL text.
 */
export const MATERIALIZED_PROPERTIES: ReadonlyArray<{ key: string; column: string }> = [
  { key: '$browser', column: 'mp_browser' },
  { key: '$os', column: 'mp_os' },
  { key: '$device_type', column: 'mp_device_type' },
  { key: '$current_url', column: 'mp_current_url' },
  { key: '$pathname', column: 'mp_pathname' },
  { key: '$screen_name', column: 'mp_screen_name' },
  { key: '$session_id', column: 'mp_session_id' },
  { key: '$geoip_country_code', column: 'mp_geoip_country_code' },
];

/** The column holding `key`'s text, or null when the key is not materialized. */
export function materializedColumn(key: string): string | null {
  return MATERIALIZED_PROPERTIES.find((m) => m.key === key)?.column ?? null;
}

/** The JSON path of a materialized key (keys here need no escaping: no `/` or `~`). */
export const materializedPointer = (key: string) => `/${key}`;

/**
 * Columns and SELECT expressions filling them, for INSERT … SELECT statements writing events:
 * `list` is the expression (of the JSON expression `props`) to select as `mp` in a subquery,
 * one parse for every key; `values` read it. `bind` turns a path into a bound placeholder.
 */
export function materializedInsert(
  props: string,
  bind: (value: string, index: number) => string,
): { columns: string; list: string; values: string } {
  return {
    columns: [...MATERIALIZED_PROPERTIES.map((m) => m.column), 'mp_filled'].join(', '),
    list: `json_extract_string(${props}, [${MATERIALIZED_PROPERTIES.map((m, i) => bind(materializedPointer(m.key), i)).join(', ')}])`,
    values: [...MATERIALIZED_PROPERTIES.map((_, i) => `mp[${i + 1}]`), 'true'].join(', '),
  };
}

export const EVENT_STORE_DDL = [
  `CREATE TABLE IF NOT EXISTS events (
     uuid UUID NOT NULL,
     team_id INTEGER NOT NULL,
     event VARCHAR NOT NULL,
     distinct_id VARCHAR NOT NULL,
     timestamp TIMESTAMPTZ NOT NULL,
     properties JSON NOT NULL DEFAULT '{}',
     created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
     person_id UUID,
     ${MATERIALIZED_PROPERTIES.map((m) => `${m.column} VARCHAR,`).join(' ')}
     mp_filled BOOLEAN DEFAULT false,
     ps_counted BOOLEAN DEFAULT false,
     person_key INTEGER
   )`,
  `CREATE TABLE IF NOT EXISTS persons (
     id UUID NOT NULL,
     team_id INTEGER NOT NULL,
     properties JSON NOT NULL DEFAULT '{}',
     is_identified BOOLEAN NOT NULL DEFAULT false,
     created_at TIMESTAMPTZ NOT NULL,
     updated_at TIMESTAMPTZ,
     version BIGINT DEFAULT 0
   )`,
  `CREATE TABLE IF NOT EXISTS person_distinct_ids (
     team_id INTEGER NOT NULL,
     distinct_id VARCHAR NOT NULL,
     person_id UUID NOT NULL,
     version BIGINT DEFAULT 0
   )`,
  `CREATE TABLE IF NOT EXISTS person_overrides (
     team_id INTEGER NOT NULL,
     old_person_id UUID NOT NULL,
     person_id UUID NOT NULL,
     old_person_key INTEGER,
     person_key INTEGER
   )`,
  `CREATE TABLE IF NOT EXISTS person_keys (
     team_id INTEGER NOT NULL,
     person_id UUID NOT NULL,
     key INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS event_store_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
  // Cohort membership (cohorts.ts), written when a cohort is computed: analyses semi-join on person_key.
  `CREATE TABLE IF NOT EXISTS cohort_people (
     team_id INTEGER NOT NULL,
     cohort_id INTEGER NOT NULL,
     person_id UUID NOT NULL,
     person_key INTEGER
   )`,
  PROPERTY_STATS_DDL,
];

/**
 * Columns stored as UUID since version 3 (VARCHAR before): ids are 16-byte keys, several times
 * cheaper to sort, group and join on than their text. Ingestion checks and lowercases event
 * uuids and person ids are made here, so every stored value converts; UUIDs order exactly as
 * their lowercase text, so "(timestamp, uuid)" order is unchanged.
 */
export const UUID_COLUMNS: ReadonlyArray<{ table: string; column: string }> = [
  { table: 'events', column: 'uuid' },
  { table: 'persons', column: 'id' },
  { table: 'person_distinct_ids', column: 'person_id' },
];

/**
 * Persons on events (since version 4): every event stores the person its distinct id belonged to
 * when it was written (`events.person_id`); a later merge of that person into another is one
 * row of `person_overrides` (old → surviving person, chains kept flat). So "the person an
 * event's distinct id belongs to now" (docs/api.md) is the override, else the stored person.
 * An event without a stored person (none of this server's writers leave one; files of older
 * versions are filled on open) counts as a person of its own, keyed by a UUID of its distinct id.
 *
 * Integer person keys (since version 6): `person_keys` numbers every person an event names
 * (one key per team and person UUID), each event stores its person's key
 * (`events.person_key`) and each override both keys. Engines that group events by person
 * (funnels, retention, paths) group and join on the 4-byte key instead of the 16-byte UUID,
 * and the override join is an integer join. Writers fill the keys as they write events
 * ({@link ensurePersonKeysSql}); {@link FILL_PERSON_KEYS} fills rows written without them.
 *
 * PERSON_JOIN_SQL joins the overrides to event rows `e`; PERSON_KEY_SQL is then the person's
 * UUID, PERSON_INT_KEY_SQL its integer key. Every writer of the store stores keys and opening
 * fills any row without one, so engines rely on them; a row written around the store and not
 * filled has none (NULL), which the funnels' columnar read refuses (columnar-read.ts).
 */
export const PERSON_JOIN_SQL =
  'LEFT JOIN person_overrides ov ON ov.team_id = e.team_id AND ov.old_person_key = e.person_key';
export const PERSON_KEY_SQL = 'coalesce(ov.person_id, e.person_id, md5(e.distinct_id)::UUID)';
export const PERSON_INT_KEY_SQL = 'coalesce(ov.person_key, e.person_key)';

/**
 * Stores the current person of each event written without one (older files, bulk writers),
 * and forgets the key it had as a person of its own, for FILL_PERSON_KEYS to give it its
 * person's.
 */
export const FILL_EVENT_PERSONS = `UPDATE events SET person_id = pdi.person_id, person_key = NULL FROM person_distinct_ids pdi
  WHERE events.person_id IS NULL AND pdi.team_id = events.team_id AND pdi.distinct_id = events.distinct_id`;

/**
 * SQL numbering the persons of `source` (a query with columns team_id, person_id) that have no
 * key yet: each gets the next free key. Run by the writer, so keys never collide.
 */
export function ensurePersonKeysSql(source: string): string {
  return `INSERT INTO person_keys (team_id, person_id, key)
    SELECT n.team_id, n.person_id, ((SELECT coalesce(max(key), 0) FROM person_keys) + row_number() OVER (ORDER BY n.team_id, n.person_id))::INTEGER
    FROM (SELECT DISTINCT team_id, person_id FROM (${source}) WHERE person_id IS NOT NULL) n
    WHERE NOT EXISTS (SELECT 1 FROM person_keys k WHERE k.team_id = n.team_id AND k.person_id = n.person_id)`;
}

/** The person UUID an event row `events` is keyed by (its stored person, else its distinct id's). */
const EVENT_PERSON = 'coalesce(events.person_id, md5(events.distinct_id)::UUID)';

/**
 * Gives every event and override written without person keys their keys (files before
 * version 6, bulk writers such as the demo seed and tests' loaders): number the persons, then
 * store the keys. Idempotent; rows that have keys are left alone.
 */
export const FILL_PERSON_KEYS: readonly string[] = [
  ensurePersonKeysSql(`SELECT team_id, ${EVENT_PERSON.replaceAll('events.', '')} AS person_id FROM events WHERE person_key IS NULL
    UNION ALL SELECT team_id, old_person_id FROM person_overrides WHERE old_person_key IS NULL
    UNION ALL SELECT team_id, person_id FROM person_overrides WHERE person_key IS NULL`),
  `UPDATE events SET person_key = k.key FROM person_keys k
    WHERE events.person_key IS NULL AND k.team_id = events.team_id AND k.person_id = ${EVENT_PERSON}`,
  `UPDATE person_overrides SET old_person_key = ko.key, person_key = kn.key FROM person_keys ko, person_keys kn
    WHERE (person_overrides.old_person_key IS NULL OR person_overrides.person_key IS NULL)
      AND ko.team_id = person_overrides.team_id AND ko.person_id = person_overrides.old_person_id
      AND kn.team_id = person_overrides.team_id AND kn.person_id = person_overrides.person_id`,
];

/** A column of an existing file, as `duckdb_columns()` describes it. */
export interface ExistingColumn {
  table: string;
  column: string;
  type: string;
}

/**
 * Idempotent migrations run after the DDL: files of version 1 lack the materialized columns,
 * files before version 3 keep ids as VARCHAR, files before version 4 have no persons on events,
 * files before version 6 no person keys, files before version 7 no person update times or versions
 * (a person's update time is then its creation: what the persons export reads, docs/api.md).
 * Change the types, add the missing columns, then fill them for rows that have them unset
 * (written before them, or by statements that do not fill them).
 */
export function eventStoreMigrations(existing: readonly ExistingColumn[]): { sql: string; params: string[] }[] {
  const out: { sql: string; params: string[] }[] = [];
  const has = (table: string, column: string) => existing.find((c) => c.table === table && c.column === column);
  for (const { table, column } of UUID_COLUMNS) {
    if (has(table, column)?.type === 'VARCHAR')
      out.push({ sql: `ALTER TABLE ${table} ALTER COLUMN ${column} SET DATA TYPE UUID`, params: [] });
  }
  if (!has('events', 'person_id')) out.push({ sql: 'ALTER TABLE events ADD COLUMN person_id UUID', params: [] });
  for (const m of MATERIALIZED_PROPERTIES) {
    if (!has('events', m.column)) out.push({ sql: `ALTER TABLE events ADD COLUMN ${m.column} VARCHAR`, params: [] });
  }
  if (!has('events', 'mp_filled')) {
    out.push({ sql: 'ALTER TABLE events ADD COLUMN mp_filled BOOLEAN DEFAULT false', params: [] });
  }
  if (!has('events', 'ps_counted')) {
    out.push({ sql: 'ALTER TABLE events ADD COLUMN IF NOT EXISTS ps_counted BOOLEAN DEFAULT false', params: [] });
  }
  if (!has('events', 'person_key'))
    out.push({ sql: 'ALTER TABLE events ADD COLUMN IF NOT EXISTS person_key INTEGER', params: [] });
  if (!has('person_overrides', 'person_key')) {
    out.push({ sql: 'ALTER TABLE person_overrides ADD COLUMN IF NOT EXISTS old_person_key INTEGER', params: [] });
    out.push({ sql: 'ALTER TABLE person_overrides ADD COLUMN IF NOT EXISTS person_key INTEGER', params: [] });
  }
  if (!has('persons', 'updated_at'))
    out.push({ sql: 'ALTER TABLE persons ADD COLUMN IF NOT EXISTS updated_at TIMESTAMPTZ', params: [] });
  if (!has('persons', 'version'))
    out.push({ sql: 'ALTER TABLE persons ADD COLUMN IF NOT EXISTS version BIGINT DEFAULT 0', params: [] });
  if (!has('person_distinct_ids', 'version')) {
    out.push({ sql: 'ALTER TABLE person_distinct_ids ADD COLUMN IF NOT EXISTS version BIGINT DEFAULT 0', params: [] });
  }
  // DuckDB cannot replay an ALTER TABLE of this table from the WAL: checkpoint right after.
  if (out.length > 0) out.push({ sql: 'CHECKPOINT', params: [] });
  const params: string[] = [];
  const sets = MATERIALIZED_PROPERTIES.map((m) => {
    params.push(materializedPointer(m.key));
    return `${m.column} = json_extract_string(properties, $${params.length})`;
  });
  out.push({ sql: `UPDATE events SET ${sets.join(', ')}, mp_filled = true WHERE mp_filled IS NOT TRUE`, params });
  out.push({ sql: FILL_EVENT_PERSONS, params: [] });
  // Persons written without an update time (older files, bulk writers) were last changed when created.
  out.push({ sql: 'UPDATE persons SET updated_at = created_at WHERE updated_at IS NULL', params: [] });
  out.push(...FILL_PERSON_KEYS.map((sql) => ({ sql, params: [] })));
  // Events not in the property statistics yet (older files, bulk writers) are counted now.
  out.push({ sql: 'BEGIN TRANSACTION', params: [] }, ...countPropertiesSteps(false), { sql: 'COMMIT', params: [] });
  return out;
}
