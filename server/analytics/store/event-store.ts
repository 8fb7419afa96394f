import path from 'node:path';
import { openEventDb } from './duckdb.ts';
import type { EventDb, ReadOptions, SqlConnection, SqlParams, SqlRunner } from './db-types.ts';
import type { CaptureEvent } from './ingest-parse.ts';
import {
  eventGroupKeys,
  GROUP_KEY_COLUMNS,
  GROUP_TABLES,
  identifyGroups,
  recordGroups,
  sightingsOf,
  type GroupKeys,
} from '../query/groups.ts';
import { applyPersons, personKeys, unnestJson } from './persons.ts';
import { compactEventProperties, countEventProperties } from './property-stats.ts';
import { materializedInsert } from './schema.ts';

/** Events are written in chunks of at most this many rows (one bound JSON parameter each). */
export const APPEND_CHUNK = 5_000;
/** The property statistics of a project are compacted after this many appends to it (property-stats.ts). */
const COMPACT_EVERY_APPENDS = 200;
/**
 * A project's new events are counted into its property statistics at most this often (in the
 * append's transaction): counting costs two statements, about a third of a small append's time.
 * Until then they are read from their JSON, as rows written around ingestion are (property-stats.ts).
 */
export const COUNT_PROPERTIES_EVERY_MS = 1000;
/** A group commit takes appends until it holds this many events; later ones wait for the next. */
export const GROUP_COMMIT_EVENTS = 20_000;

/** An append waiting for its group's transaction. */
interface PendingAppend {
  teamId: number;
  events: readonly CaptureEvent[];
  /** This append compacts its project's property statistics (every COMPACT_EVERY_APPENDS). */
  compact: boolean;
  resolve: (stored: number) => void;
  reject: (error: unknown) => void;
}

/**
 * The event store: DuckDB tables `events`, `persons`, `person_distinct_ids`, `person_overrides` (see ./types.ts).
 * Opened lazily: creating it costs nothing, the file is opened on first use (so a server or a
 * test that never touches events never starts DuckDB). Reads (`all`) run on a pool of
 * connections; every write goes through one writer, in a transaction. Appends are committed in
 * groups: the appends that arrive while the writer is busy share the next transaction (group
 * commit), so concurrent requests pay for one commit between them.
 */
export interface EventStore extends SqlRunner {
  /** Rows of a query with bound parameters (`$1…` from an array, `$name` from an object), on a pooled reader, under a time budget. */
  all<T = Record<string, unknown>>(sql: string, params?: SqlParams, options?: ReadOptions): Promise<T[]>;
  /** The same read, returned column by column (columnar-read.ts). */
  columns: EventDb['columns'];
  /** The same read, handed over chunk by chunk (columnar-read.ts `visitChunks`). */
  chunks: EventDb['chunks'];
  /** `<dataDir>/events.duckdb`, or ':memory:'. */
  readonly file: string;
  /** Opens the database now (and surfaces an error opening it); later calls are free. */
  ready(): Promise<void>;
  /**
   * Stores events of project `teamId` in order, updating persons first. Returns how many were
   * stored, once they are committed. Appends waiting for the writer are written together, in
   * the order they were made, as if their events had come in one batch per project; when that
   * transaction fails, each append is written again on its own, so one append's bad rows fail
   * only that append.
   */
  append(teamId: number, events: readonly CaptureEvent[]): Promise<number>;
  /** A statement without result rows, on the writer (after any write in progress). */
  run(sql: string, params?: SqlParams): Promise<void>;
  /** Removes every event, person, distinct id and override of these projects (deleted ones). */
  purge(teamIds: readonly number[]): Promise<void>;
  /** Exclusive use of the writer connection (the demo seed, bulk work). */
  write<T>(fn: (connection: SqlConnection) => Promise<T>): Promise<T>;
  /** Reads a value of the store's key/value table (`event_store_meta`). */
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;
  /** Changes with every write through this store (DuckDB has one writer: this process), so a result cached under one version is stale under the next. */
  writeVersion(): number;
  /**
   * Changes with every write that can change project `teamId`'s events or persons: its own
   * appends and any other write (another project's appends leave it as it is). Changes at the
   * same moment as {@link writeVersion}.
   */
  teamWriteVersion(teamId: number): string;
  /** Finishes the writes in progress and closes the file. Safe to call twice. */
  close(): Promise<void>;
}

export const eventStoreFile = (dataDir: string) => path.join(dataDir, 'events.duckdb');

const EVENT_SHAPE = `[{"uuid":"VARCHAR","event":"VARCHAR","distinct_id":"VARCHAR","person_id":"UUID","person_key":"INTEGER","timestamp":"VARCHAR","properties":"JSON",${GROUP_KEY_COLUMNS.map(
  (c) => `"${c}":"INTEGER"`,
).join(',')}}]`;

/** Runs `fn` in a transaction on the writer connection: all of it is stored, or none. */
export async function inTransaction<T>(db: SqlConnection, fn: () => Promise<T>): Promise<T> {
  await db.run('BEGIN TRANSACTION');
  try {
    const result = await fn();
    await db.run('COMMIT');
    return result;
  } catch (error) {
    await db.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Writes `events`, each with the person of its distinct id (`persons`, from applyPersons) and the keys of its groups (`groups`, from recordGroups). */
async function insertEvents(
  db: SqlConnection,
  teamId: number,
  events: readonly CaptureEvent[],
  persons: ReadonlyMap<string, string>,
  groups: GroupKeys,
): Promise<void> {
  // Every person the events name has its integer key (schema.ts), stored with each event.
  const keys = await personKeys(db, teamId, [...new Set(persons.values())]);
  for (let i = 0; i < events.length; i += APPEND_CHUNK) {
    const rows = events.slice(i, i + APPEND_CHUNK).map((e) => ({
      uuid: e.uuid,
      event: e.event,
      distinct_id: e.distinct_id,
      person_id: persons.get(e.distinct_id) ?? null,
      person_key: keys.get(persons.get(e.distinct_id) ?? '') ?? null,
      timestamp: e.timestamp.toISOString(),
      properties: e.properties,
      ...(groups.size > 0
        ? Object.fromEntries(eventGroupKeys(e.properties, groups).map((k, i) => [GROUP_KEY_COLUMNS[i], k]))
        : {}),
    }));
    const params: unknown[] = [JSON.stringify(rows), teamId];
    const mat = materializedInsert('r.properties', (v) => {
      params.push(v);
      return `$${params.length}`;
    });
    const keyColumns = GROUP_KEY_COLUMNS.join(', ');
    const keyValues = GROUP_KEY_COLUMNS.map((k) => `r.${k}`).join(', ');
    await db.run(
      `INSERT INTO events (uuid, team_id, event, distinct_id, person_id, person_key, timestamp, properties, ${keyColumns}, ${mat.columns})
      SELECT r.uuid, $2, r.event, r.distinct_id, r.person_id, r.person_key, r.timestamp::TIMESTAMPTZ, r.properties, ${keyValues}, ${mat.values}
      FROM (SELECT r.uuid, r.event, r.distinct_id, r.person_id, r.person_key, r.timestamp, r.properties, ${keyValues}, ${mat.list} AS mp
        FROM ${unnestJson('$1', EVENT_SHAPE)}) r`,
      params,
    );
  }
}

/**
 * Writes the appends of one group inside the caller's transaction: per project (in the order
 * its first append came), its events in append order, as one batch (persons, events, property
 * statistics).
 */
async function writeAppends(
  c: SqlConnection,
  group: readonly PendingAppend[],
  countNow: (teamId: number) => boolean,
): Promise<void> {
  const byTeam = new Map<number, { events: CaptureEvent[]; compact: boolean }>();
  for (const a of group) {
    const team = byTeam.get(a.teamId) ?? { events: [], compact: false };
    for (const e of a.events) team.events.push(e);
    team.compact ||= a.compact;
    byTeam.set(a.teamId, team);
  }
  for (const [teamId, { events, compact }] of byTeam) {
    const persons = await applyPersons(c, teamId, events);
    const groups = sightingsOf(events);
    await insertEvents(c, teamId, events, persons, await recordGroups(c, teamId, groups.sightings));
    if (groups.identified) await identifyGroups(c, teamId);
    if (compact || countNow(teamId)) await countEventProperties(c, teamId);
    if (compact) await compactEventProperties(c, teamId);
  }
}

/** The event store of `file` (':memory:' in tests). Nothing is opened until it is first used. */
export function createEventStore(file: string): EventStore {
  let opening: Promise<EventDb> | undefined;
  let closed = false;
  const db = (): Promise<EventDb> => {
    if (closed) return Promise.reject(new Error('the event store is closed'));
    opening ??= openEventDb(file);
    return opening;
  };
  let version = 0;
  /** Writes that may touch any project (all but appends), and each project's appends. */
  let generation = 0;
  const teamWrites = new Map<number, number>();
  const appendsByTeam = new Map<number, number>();
  /**
   * Counts a write even when it fails part-way: a needless cache miss beats a stale hit. An
   * append counts for the projects it wrote (`teams`, read once it is done), anything else for all.
   */
  const counted = async <T>(work: Promise<T>, teams?: () => readonly number[]): Promise<T> => {
    try {
      return await work;
    } finally {
      version += 1;
      if (teams) for (const t of teams()) teamWrites.set(t, (teamWrites.get(t) ?? 0) + 1);
      else generation += 1;
    }
  };
  /** The group of appends whose transaction is queued on the writer but has not started: new appends join it. */
  let open: { appends: PendingAppend[]; events: number } | null = null;
  const write = async <T>(fn: (c: SqlConnection) => Promise<T>, teams?: () => readonly number[]) => {
    open = null; // appends made after this write are written after it
    return counted((await db()).write(fn), teams);
  };
  const countedAt = new Map<number, number>();
  const countNow = (teamId: number) => {
    const at = Date.now();
    if (at - (countedAt.get(teamId) ?? 0) < COUNT_PROPERTIES_EVERY_MS) return false;
    countedAt.set(teamId, at);
    return true;
  };
  /** Writes a group; resolves with each append's error (undefined: stored). */
  const commitGroup = async (c: SqlConnection, group: readonly PendingAppend[]): Promise<unknown[]> => {
    try {
      await inTransaction(c, () => writeAppends(c, group, countNow));
      return group.map(() => undefined);
    } catch (error) {
      if (group.length === 1) return [error ?? new Error('the append failed')];
      // Rolled back: each append again in its own transaction, so only a bad one fails.
      const errors: unknown[] = [];
      for (const a of group) {
        errors.push(
          await inTransaction(c, () => writeAppends(c, [a], countNow)).then(
            () => undefined,
            (own: unknown) => own ?? new Error('the append failed'),
          ),
        );
      }
      return errors;
    }
  };

  return {
    file,
    ready: async () => {
      await db();
    },
    all: async <T>(sql: string, params?: SqlParams, options?: ReadOptions) => (await db()).all<T>(sql, params, options),
    columns: async (sql, params, types, options) => (await db()).columns(sql, params, types, options),
    chunks: async (sql, params, types, visit, options) => (await db()).chunks(sql, params, types, visit, options),
    run: (sql, params) => write((c) => c.run(sql, params)),
    writeVersion: () => version,
    teamWriteVersion: (teamId) => `${generation}.${teamWrites.get(teamId) ?? 0}`,
    write,
    append: (teamId, events) => {
      if (events.length === 0) return Promise.resolve(0);
      const appends = (appendsByTeam.get(teamId) ?? 0) + 1;
      appendsByTeam.set(teamId, appends);
      return new Promise<number>((resolve, reject) => {
        const pending: PendingAppend = {
          teamId,
          events,
          compact: appends % COMPACT_EVERY_APPENDS === 0,
          resolve,
          reject,
        };
        if (open && open.events + events.length <= GROUP_COMMIT_EVENTS) {
          open.appends.push(pending);
          open.events += events.length;
          return;
        }
        const group = { appends: [pending], events: events.length };
        // Settled once the write is counted (writeVersion), so no read after it can be served from a stale cache.
        write(
          (c) => {
            if (open === group) open = null; // appends from now on wait for the next transaction
            return commitGroup(c, group.appends);
          },
          () => group.appends.map((a) => a.teamId),
        ).then(
          (errors) => {
            group.appends.forEach((a, i) =>
              errors[i] === undefined ? a.resolve(a.events.length) : a.reject(errors[i]),
            );
          },
          (error: unknown) => {
            for (const a of group.appends) a.reject(error); // the store could not be opened, or is closed
          },
        );
        open = group;
      });
    },
    purge: (teamIds) => {
      if (teamIds.length === 0) return Promise.resolve();
      const ids = JSON.stringify(teamIds);
      return write((c) =>
        inTransaction(c, async () => {
          for (const table of [
            'events',
            'persons',
            'person_distinct_ids',
            'person_overrides',
            'person_keys',
            'event_property_stats',
            'cohort_people',
            ...GROUP_TABLES,
          ]) {
            await c.run(`DELETE FROM ${table} WHERE team_id IN (SELECT unnest(from_json($1::JSON, '["INTEGER"]')))`, [
              ids,
            ]);
          }
        }),
      );
    },
    async getMeta(key) {
      const rows = await (
        await db()
      ).all<{ value: string }>('SELECT value FROM event_store_meta WHERE key = $1', [key]);
      return rows[0]?.value ?? null;
    },
    async setMeta(key, value) {
      await write((c) => c.run('INSERT OR REPLACE INTO event_store_meta (key, value) VALUES ($1, $2)', [key, value]));
    },
    async close() {
      if (closed) return;
      closed = true;
      if (opening) await (await opening.catch(() => undefined))?.close();
    },
  };
}

/** Opens the event store now (so a bad file fails at start, not on the first request). */
export async function openEventStore(file: string): Promise<EventStore> {
  const store = createEventStore(file);
  await store.ready();
  return store;
}
