import type { BatchExportModel } from '../../src/contract/index.ts';
import type { ColumnType } from '../analytics/store/db-types.ts';
import type { EventStore } from '../analytics/store/event-store.ts';

/** One exported record: an event or a person, as the HTTP destination sends it (one JSON line). */
export type ExportRecord = Record<string, unknown>;

/** The records of one export interval, read from the event store with bound parameters. */
export interface RecordSource {
  count(): Promise<number>;
  /** The records in batches of `size`, ordered by time (then id): stable across retries. */
  batches(size: number): AsyncGenerator<ExportRecord[]>;
}

/** Which events an export takes (the destination config's `include_events` / `exclude_events`). */
export interface EventFilter {
  include_events?: readonly string[] | null | undefined;
  exclude_events?: readonly string[] | null | undefined;
}

/**
 * Rows read from the event store per query, about: the interval is cut into windows of about
 * this many rows (from a count per slice of time), each read as one sorted page. Batches are cut
 * from the pages, so a destination sending 1,000 records a request does not cost a query each.
 */
export const READ_PAGE_ROWS = 20_000;
/** Slices of the interval counted to place the windows' bounds. */
const HISTOGRAM_SLICES = 4096;

interface ModelSql {
  table: string;
  /** The row's time: the interval takes rows whose time is in [start, end). */
  time: string;
  id: string;
  /** Selected first: the id (a UUID) and the time in µs (a double); the rest as `types` says. */
  columns: string;
  types: readonly ['uuid', 'double', ...ColumnType[]];
}
/**
 * Persons: a person's time is when it last changed (its update time, which older rows lack: then
 * its creation, as the store's migration fills it). A page of persons is read, then their distinct
 * ids in a second columnar read (see distinctIdsOf): one record per distinct id out.
 */
const MODELS: Record<BatchExportModel, ModelSql> = {
  events: {
    table: 'events',
    time: 'timestamp',
    id: 'uuid',
    columns: 'uuid, epoch_us(timestamp)::DOUBLE, properties::VARCHAR, event, distinct_id',
    types: ['uuid', 'double', 'text', 'text', 'text'],
  },
  persons: {
    table: 'persons',
    time: 'coalesce(updated_at, created_at)',
    id: 'id',
    columns:
      'id, epoch_us(coalesce(updated_at, created_at))::DOUBLE, properties::VARCHAR, coalesce(version, 0)::DOUBLE, epoch_us(created_at)::DOUBLE',
    types: ['uuid', 'double', 'text', 'double', 'double'],
  },
};

const parse = (json: string | null): unknown => (json === null ? {} : JSON.parse(json));
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex32 = (w: number) => HEX[w >>> 24]! + HEX[(w >>> 16) & 255]! + HEX[(w >>> 8) & 255]! + HEX[w & 255]!;
/**
 * The text of UUID `row` of a columnar read (four words, low first, the top bit flipped: see
 * compareUuidWords): decoding DuckDB's text of every id cost more than the rest of a read.
 */
export function uuidAt(words: Uint32Array, row: number): string {
  const h =
    hex32((words[row * 4 + 3]! ^ 0x80000000) >>> 0) +
    hex32(words[row * 4 + 2]!) +
    hex32(words[row * 4 + 1]!) +
    hex32(words[row * 4]!);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
const isoOfMs = (ms: number) => new Date(ms).toISOString();
/** An instant in microseconds as ISO 8601 text with all six digits: a bound that cuts between two rows exactly. */
export function isoOfMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const micros = String(us - ms * 1000).padStart(3, '0');
  return `${new Date(ms).toISOString().slice(0, 23)}${micros}Z`;
}

/** SQL text of the filter (fixed words and placeholders only) and its values, bound from `$first` on. */
function eventFilterSql(filter: EventFilter, first: number): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  const add = (list: readonly string[] | null | undefined, negate: boolean) => {
    if (!list || list.length === 0) return;
    params.push(JSON.stringify(list));
    parts.push(
      `AND event ${negate ? 'NOT IN' : 'IN'} (SELECT unnest(from_json($${first + params.length - 1}::JSON, '["VARCHAR"]')))`,
    );
  };
  add(filter.include_events, false);
  add(filter.exclude_events, true);
  return { sql: parts.join(' '), params };
}

/**
 * Events of project `teamId` with a timestamp in [start, end), or for the persons model the
 * persons that changed in it (created, properties set, distinct ids added or merged: the person's
 * update time), one record per distinct id with the production service's persons columns:
 * team_id, distinct_id, person_id, properties, person_version, person_distinct_id_version,
 * created_at and _inserted_at (here the update time). A person changed again later is exported
 * again by the later interval, with its properties then. The events model takes the export's
 * event filter; persons have no event name, so it does not apply to them.
 *
 * Read in order of (time, id) through a keyset, never OFFSET (which re-reads every row it skips:
 * quadratic in the interval's size). A count per slice of time places window bounds about
 * READ_PAGE_ROWS rows apart; each window is one sorted query over its own rows only. A window
 * that holds more (a burst within one slice) pages on with a cursor of the last row's (time, id).
 * Rows with the same time are ordered by id: none is read twice or skipped, and a retry reads the
 * same rows in the same order.
 */
export function recordSource(
  events: EventStore,
  model: BatchExportModel,
  teamId: number,
  start: string,
  end: string,
  filter: EventFilter = {},
): RecordSource {
  const m = MODELS[model];
  const where = `team_id = $1 AND ${m.time} >= $2::TIMESTAMPTZ AND ${m.time} < $3::TIMESTAMPTZ`;
  const filterAt = (first: number) => (model === 'events' ? eventFilterSql(filter, first) : { sql: '', params: [] });
  const startUs = Date.parse(start) * 1000;
  const endUs = Date.parse(end) * 1000;

  /**
   * Windows [from, to) (µs) of about READ_PAGE_ROWS rows each, next to each other from `from` to
   * `to`, from a count per slice of time; a slice holding more is counted again in finer slices.
   */
  async function windows(from: number, to: number, out: Array<[number, number]>): Promise<void> {
    const width = Math.max(1, Math.ceil((to - from) / HISTOGRAM_SLICES));
    const filters = filterAt(6);
    const bounds = [teamId, from === startUs ? start : isoOfMicros(from), to === endUs ? end : isoOfMicros(to)];
    const slices = await events.columns(
      `SELECT ((epoch_us(${m.time}) - $4::BIGINT) // $5::BIGINT)::DOUBLE AS slice, count(*)::DOUBLE AS n
        FROM ${m.table} WHERE ${where} ${filters.sql} GROUP BY slice ORDER BY slice`,
      [...bounds, from, width, ...filters.params],
      ['double', 'double'],
    );
    const found = Array.from(
      { length: slices.rows },
      (_, i) => [slices.columns[0][i]!, slices.columns[1][i]!] as const,
    );
    slices.release();
    let open = from;
    let rows = 0;
    const close = (at: number) => {
      if (at > open) out.push([open, at]);
      open = at;
      rows = 0;
    };
    for (const [slice, n] of found) {
      const sliceStart = from + slice * width;
      if (n > READ_PAGE_ROWS && width > 1) {
        close(sliceStart);
        const sliceEnd = Math.min(to, sliceStart + width);
        await windows(sliceStart, sliceEnd, out);
        open = sliceEnd;
        continue;
      }
      if (rows > 0 && rows + n > READ_PAGE_ROWS) close(sliceStart);
      rows += n;
    }
    close(to);
  }

  /** One sorted page of [from, to), after the cursor when given. */
  async function page(from: number, to: number, after: { us: number; id: string } | null) {
    // After a cursor the lower bound moves to its time (a range DuckDB answers from its zone maps); the id breaks ties there.
    const keyset = after ? `AND (${m.time} > $2::TIMESTAMPTZ OR ${m.id} > $4::UUID)` : '';
    const filters = filterAt(after ? 5 : 4);
    const bounds = [teamId, isoOfMicros(after ? after.us : from), to === endUs ? end : isoOfMicros(to)];
    return events.columns(
      `SELECT ${m.columns} FROM ${m.table} WHERE ${where} ${keyset} ${filters.sql} ORDER BY ${m.time}, ${m.id} LIMIT ${READ_PAGE_ROWS}`,
      after ? [...bounds, after.id, ...filters.params] : [...bounds, ...filters.params],
      m.types,
    );
  }

  /**
   * The distinct ids (and their rows' versions) of persons `ids`, each person's sorted: one columnar
   * read for a page of persons (building a JSON list per person in SQL cost several times more).
   */
  async function distinctIdsOf(ids: readonly string[]): Promise<Map<string, Array<[string, number]>>> {
    const read = await events.columns(
      `SELECT person_id, distinct_id, coalesce(version, 0)::DOUBLE FROM person_distinct_ids
        WHERE team_id = $1 AND person_id IN (SELECT unnest(from_json($2::JSON, '["UUID"]'))) ORDER BY person_id, distinct_id`,
      [teamId, JSON.stringify(ids)],
      ['uuid', 'text', 'double'],
    );
    const [persons, distinctIds, versions] = read.columns as [Uint32Array, (string | null)[], Float64Array];
    const out = new Map<string, Array<[string, number]>>();
    for (let i = 0; i < read.rows; i++) {
      const person = uuidAt(persons, i);
      let list = out.get(person);
      if (!list) out.set(person, (list = []));
      list.push([distinctIds[i]!, versions[i]!]);
    }
    read.release();
    return out;
  }

  return {
    async count() {
      const filters = filterAt(4);
      // Persons: one record per distinct id.
      const sql =
        model === 'persons'
          ? `SELECT count(*)::DOUBLE AS n FROM person_distinct_ids WHERE team_id = $1 AND person_id IN (SELECT id FROM persons WHERE ${where})`
          : `SELECT count(*)::DOUBLE AS n FROM ${m.table} WHERE ${where} ${filters.sql}`;
      const [row] = await events.all<{ n: number }>(sql, [teamId, start, end, ...filters.params]);
      return Number(row?.n ?? 0);
    },
    async *batches(size) {
      const batch = Math.max(1, Math.floor(size));
      const parts: Array<[number, number]> = [];
      await windows(startUs, endUs, parts);
      let pending: ExportRecord[] = [];
      for (const [from, to] of parts) {
        let after: { us: number; id: string } | null = null;
        for (;;) {
          const read = await page(from, to, after);
          const [ids, us, properties, a, b] = read.columns as [
            Uint32Array,
            Float64Array,
            (string | null)[],
            (string | null)[] | Float64Array,
            (string | null)[] | Float64Array,
          ];
          const personIds =
            model === 'persons'
              ? await distinctIdsOf(Array.from({ length: read.rows }, (_, i) => uuidAt(ids, i)))
              : null;
          let last = '';
          for (let i = 0; i < read.rows; i++) {
            const at = isoOfMs(Math.floor(us[i]! / 1000));
            last = uuidAt(ids, i);
            if (!personIds) {
              pending.push({
                uuid: last,
                event: (a as (string | null)[])[i],
                distinct_id: (b as (string | null)[])[i],
                timestamp: at,
                team_id: teamId,
                properties: parse(properties[i]!),
              });
            } else {
              const props = parse(properties[i]!);
              const version = (a as Float64Array)[i]!;
              const createdAt = isoOfMs(Math.floor((b as Float64Array)[i]! / 1000));
              // A person without distinct ids (none of this server's writers leave one) has no row to export.
              for (const [d, v] of personIds.get(last) ?? []) {
                pending.push({
                  team_id: teamId,
                  distinct_id: d,
                  person_id: last,
                  properties: props,
                  person_version: version,
                  person_distinct_id_version: v,
                  created_at: createdAt,
                  _inserted_at: at,
                });
                if (pending.length >= batch) {
                  yield pending;
                  pending = [];
                }
              }
              continue;
            }
            if (pending.length === batch) {
              yield pending;
              pending = [];
            }
          }
          const full = read.rows === READ_PAGE_ROWS;
          if (full) after = { us: us[read.rows - 1]!, id: last };
          read.release();
          if (!full) break;
        }
      }
      if (pending.length > 0) yield pending;
    },
  };
}
