import type { BatchExportModel } from '../../../src/contract/index.ts';
import type { ExportRecord } from '../records.ts';

/**
 * The table columns a warehouse destination (BigQuery, Snowflake) writes, as the production
 * service writes them, so a table filled by this server and one filled by production can be
 * queried alike. Each destination names the types in its own SQL dialect.
 */

/** `json` holds an object: BigQuery keeps it as JSON text, Snowflake as a VARIANT. */
export type ColumnKind = 'string' | 'json' | 'integer' | 'timestamp' | 'boolean';

export interface WarehouseColumn {
  name: string;
  kind: ColumnKind;
}

export interface WarehouseTable {
  columns: readonly WarehouseColumn[];
  /** The columns that identify a row: a rerun of an interval replaces rows with the same key. */
  key: readonly string[];
  /** One table row per record: column name → value (objects for `json` columns). */
  row(record: ExportRecord, now: Date): Record<string, unknown>;
}

export type WarehouseDialect = 'bigquery' | 'snowflake';

const col = (name: string, kind: ColumnKind): WarehouseColumn => ({ name, kind });

const objectOr = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A property the SDKs send as an object ($set, $set_once), or null when absent. */
const objectProperty = (properties: Record<string, unknown>, name: string): Record<string, unknown> | null => {
  const value = properties[name];
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
};

/**
 * The events table. Production keeps the legacy app columns (`elements`, `site_url`, `ip`) and
 * takes `set`/`set_once` from the event's `$set`/`$set_once`; Snowflake names those two
 * `people_set`/`people_set_once`, and BigQuery adds the time the row was written.
 */
function eventsTable(dialect: WarehouseDialect): WarehouseTable {
  const setName = dialect === 'snowflake' ? 'people_set' : 'set';
  const setOnceName = dialect === 'snowflake' ? 'people_set_once' : 'set_once';
  const columns = [
    col('uuid', 'string'),
    col('event', 'string'),
    col('properties', 'json'),
    col('elements', 'json'),
    col(setName, 'json'),
    col(setOnceName, 'json'),
    col('distinct_id', 'string'),
    col('team_id', 'integer'),
    col('ip', 'string'),
    col('site_url', 'string'),
    col('timestamp', 'timestamp'),
    ...(dialect === 'bigquery' ? [col('bq_ingested_timestamp', 'timestamp')] : []),
  ];
  return {
    columns,
    key: ['uuid'],
    row(record, now) {
      const properties = objectOr(record.properties);
      const ip = properties.$ip;
      return {
        uuid: record.uuid,
        event: record.event,
        properties,
        // The event store keeps no autocapture element chain.
        elements: null,
        [setName]: objectProperty(properties, '$set'),
        [setOnceName]: objectProperty(properties, '$set_once'),
        distinct_id: record.distinct_id,
        team_id: record.team_id,
        ip: typeof ip === 'string' && ip !== '' ? ip : null,
        site_url: '',
        timestamp: record.timestamp,
        ...(dialect === 'bigquery' ? { bq_ingested_timestamp: now.toISOString() } : {}),
      };
    },
  };
}

/**
 * The persons table: the production service's persons columns, one row per distinct id, merged
 * on (team_id, distinct_id) so a rerun, a later change of the person, or a distinct id merged
 * into another person replaces the row.
 */
const PERSONS_TABLE: WarehouseTable = {
  columns: [
    col('team_id', 'integer'),
    col('distinct_id', 'string'),
    col('person_id', 'string'),
    col('properties', 'json'),
    col('person_version', 'integer'),
    col('person_distinct_id_version', 'integer'),
    col('created_at', 'timestamp'),
    col('_inserted_at', 'timestamp'),
  ],
  key: ['team_id', 'distinct_id'],
  row: (record) => ({
    team_id: record.team_id,
    distinct_id: record.distinct_id,
    person_id: record.person_id,
    properties: objectOr(record.properties),
    person_version: record.person_version,
    person_distinct_id_version: record.person_distinct_id_version,
    created_at: record.created_at,
    _inserted_at: record._inserted_at,
  }),
};

export function warehouseTable(model: BatchExportModel, dialect: WarehouseDialect): WarehouseTable {
  return model === 'persons' ? PERSONS_TABLE : eventsTable(dialect);
}

/**
 * The name of the table a run loads its records into before merging them into the export's
 * table: one per table, interval and export, so concurrent runs never share one.
 */
export function stageTableName(table: string, intervalEnd: string, exportId: string): string {
  const end = intervalEnd.slice(0, 19).replace(/[^0-9]/g, '_');
  return `stage_${table}_${end}_${exportId.replace(/[^A-Za-z0-9]/g, '_')}`;
}
