import type { BatchExportModel } from '../../src/contract/index.ts';
import type { EventStore } from '../analytics/event-store.ts';

/** One exported record: an event or a person, as the HTTP destination sends it (one JSON line). */
export type ExportRecord = Record<string, unknown>;

/** The records of one export interval, read from the event store with bound parameters. */
export interface RecordSource {
  count(): Promise<number>;
  /** The records in batches of `size`, ordered by time (then id): stable across retries. */
  batches(size: number): AsyncGenerator<ExportRecord[]>;
}

interface EventRow { uuid: string; event: string; distinct_id: string; ts: number; properties: string | null }
interface PersonRow { id: string; ts: number; properties: string | null; is_identified: boolean }

const RANGE = 'team_id = $1 AND {col} >= $2::TIMESTAMPTZ AND {col} < $3::TIMESTAMPTZ';
const SQL = {
  events: {
    count: `SELECT count(*)::DOUBLE AS n FROM events WHERE ${RANGE.replaceAll('{col}', 'timestamp')}`,
    page: `SELECT uuid, event, distinct_id, epoch_ms(timestamp)::DOUBLE AS ts, properties::VARCHAR AS properties
      FROM events WHERE ${RANGE.replaceAll('{col}', 'timestamp')} ORDER BY timestamp, uuid LIMIT $4 OFFSET $5`,
  },
  persons: {
    count: `SELECT count(*)::DOUBLE AS n FROM persons WHERE ${RANGE.replaceAll('{col}', 'created_at')}`,
    page: `SELECT id, epoch_ms(created_at)::DOUBLE AS ts, properties::VARCHAR AS properties, is_identified
      FROM persons WHERE ${RANGE.replaceAll('{col}', 'created_at')} ORDER BY created_at, id LIMIT $4 OFFSET $5`,
  },
} as const;

const parse = (json: string | null): unknown => (json === null ? {} : JSON.parse(json));
const isoOf = (ms: number) => new Date(ms).toISOString();

/**
 * Events of project `teamId` with a timestamp in [start, end), or for the persons model the
 * persons created in it (the store keeps no person update time).
 */
export function recordSource(events: EventStore, model: BatchExportModel, teamId: number, start: string, end: string): RecordSource {
  const sql = SQL[model];
  const toRecord = (row: EventRow | PersonRow): ExportRecord =>
    model === 'events'
      ? (({ uuid, event, distinct_id, ts, properties }: EventRow) =>
          ({ uuid, event, distinct_id, timestamp: isoOf(ts), team_id: teamId, properties: parse(properties) }))(row as EventRow)
      : (({ id, ts, properties, is_identified }: PersonRow) =>
          ({ id, team_id: teamId, created_at: isoOf(ts), is_identified, properties: parse(properties) }))(row as PersonRow);
  return {
    async count() {
      const [row] = await events.all<{ n: number }>(sql.count, [teamId, start, end]);
      return Number(row?.n ?? 0);
    },
    async *batches(size) {
      for (let offset = 0; ; offset += size) {
        const rows = await events.all<EventRow | PersonRow>(sql.page, [teamId, start, end, size, offset]);
        if (rows.length > 0) yield rows.map(toRecord);
        if (rows.length < size) return;
      }
    },
  };
}
