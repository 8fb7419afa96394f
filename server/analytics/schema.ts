/**
 * The event store's tables (DuckDB). Columns are described in ./types.ts. Timestamps are
 * TIMESTAMPTZ in UTC; properties are JSON text. Applied idempotently on open.
 */
export const EVENT_STORE_SCHEMA_VERSION = 1;

export const EVENT_STORE_DDL = [
  `CREATE TABLE IF NOT EXISTS events (
     uuid VARCHAR NOT NULL,
     team_id INTEGER NOT NULL,
     event VARCHAR NOT NULL,
     distinct_id VARCHAR NOT NULL,
     timestamp TIMESTAMPTZ NOT NULL,
     properties JSON NOT NULL DEFAULT '{}',
     created_at TIMESTAMPTZ NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE IF NOT EXISTS persons (
     id VARCHAR NOT NULL,
     team_id INTEGER NOT NULL,
     properties JSON NOT NULL DEFAULT '{}',
     is_identified BOOLEAN NOT NULL DEFAULT false,
     created_at TIMESTAMPTZ NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS person_distinct_ids (
     team_id INTEGER NOT NULL,
     distinct_id VARCHAR NOT NULL,
     person_id VARCHAR NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS event_store_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
];
