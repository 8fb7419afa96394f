import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readColumns, visitChunks } from './columnar-read.ts';
import type { EventDb, ReadOptions, SqlConnection, SqlParams } from './db-types.ts';
import { EVENT_STORE_DDL, eventStoreMigrations } from './schema.ts';
import { openGroupTables } from '../query/groups.ts';
import { KeptBuffers } from './kept-buffers.ts';

/** A read ran past its time budget and was interrupted (DuckDB's interrupt): the connection is free again. */
export class QueryTimeoutError extends Error {
  constructor() {
    super('The query ran past its time budget and was stopped.');
  }
}

/**
 * Every read runs under a time budget: past it DuckDB is interrupted, so no query can hold a
 * connection (and the machine) for minutes. `ANALYTICS_TIMEOUT_MS` overrides.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 9_000;
const defaultTimeout = () => Number(process.env.ANALYTICS_TIMEOUT_MS) || DEFAULT_QUERY_TIMEOUT_MS;

export const DEFAULT_POOL_SIZE = 4;

/** A read stopped by its caller (`cancel/` of the insight API): the request answers 400 query_cancelled. */
export class QueryCancelledError extends Error {
  constructor() {
    super('The query was cancelled.');
  }
}

/**
 * Throws QueryCancelledError once `read`'s signal has aborted, QueryTimeoutError once its
 * deadline has passed: where a read starts, and where work in TypeScript yields
 * (QueryContext.checkpoint).
 */
export function throwIfSpent(read: ReadOptions): void {
  if (read.signal?.aborted) throw new QueryCancelledError();
  if (read.deadline !== undefined && Date.now() >= read.deadline) throw new QueryTimeoutError();
}

/**
 * DuckDB's memory cap and worker threads (all cores, at most 8). The server's whole footprint
 * must stay under 1.5 GB: DuckDB's resident memory runs well over its buffer cap on the
 * 10M-event benchmark (allocations outside its buffer manager, the perfect hash tables below
 * among them, and the paths query's window most of all), Node takes ~0.2 GB and the funnels'
 * person index 56 MB (person-index.ts). At 640 MB the peak was 1.39–1.45 GB before the index,
 * and 1.47–1.64 GB on later days with or without it (paths, from run to run); at 576 MB it was
 * 1.19–1.27 GB with paths as fast (4.1–4.4 s), at 768 MB 1.58–1.64 GB, at 1 GB 1.70 GB. Larger
 * intermediate results spill to a temp directory beside the file instead of failing.
 * `DUCKDB_MEMORY_LIMIT` / `DUCKDB_THREADS` override.
 */
export const DEFAULT_MEMORY_LIMIT = '576MB';

/** DuckDB's worker threads: every core, at most 8 (`DUCKDB_THREADS` overrides). */
export const duckdbThreads = () =>
  Number(process.env.DUCKDB_THREADS) || Math.min(8, Math.max(1, os.availableParallelism()));

/**
 * Grouping by a column whose stored values span at most 2^bits (person keys: schema.ts) uses a
 * perfect hash table: one slot per possible value, no hashing or probing. It is allocated
 * whole, per thread, outside the memory cap, and never spills, so its size is bounded by the
 * cap: at most a quarter of it over all threads, at 128 bytes of aggregate state per slot
 * (room to spare: a funnel's per-person aggregate holds four instants). With the
 * default cap on 2 threads that is 2^19 slots: a per-person funnel aggregate over 10M events
 * (300,000 persons) takes 2.2× less time than in a general hash table. More persons than
 * that fall back to the general table.
 */
export function perfectHashBits(memoryLimitBytes: number, threads: number): number {
  return Math.max(12, Math.min(24, Math.floor(Math.log2(memoryLimitBytes / 4 / threads / 128))));
}

/**
 * How much of DuckDB's buffer memory (its blocks of 256 KiB, which scans, sorts and results are
 * made of) stays with the process once used, instead of going back to the system when a query
 * ends: a fifth of the cap. Memory the system hands out again is faulted in page by page, which
 * is dear on a virtual machine (12 µs a page on the one the benches run on: 256 MB of fresh
 * pages took 0.8 s), and a 10M-event funnel faulted in 17–37k pages each time, most of them what
 * the previous query had just given back. Kept, the next query reuses them (bench/analytics.mjs
 * at 10M: ordered funnel 1,143 → 966 ms, strict 2,283 → 2,072). Keeping more raised the peak
 * past the 1.5 GB budget (1,294 MB without, 1,406 with a fifth, 1,589 with 256 MB, 1,720 with
 * all of the cap). When idle, the server stays up to a fifth of the cap (115 MB by default)
 * larger.
 */
export function keptBlockBytes(memoryLimitBytes: number): number {
  return memoryLimitBytes / 5;
}

/**
 * How much of the columnar reads' memory (their typed columns: kept-buffers.ts) stays with the
 * process between queries: a tenth of the cap (58 MB by default), enough for a 10M-event ordered
 * funnel's columns (29 MB) and the largest of a strict one's (its uuids, 52 of its 103 MB). A
 * fifth raised the server's peak past the budget on the 10M-event benchmark.
 */
export function keptColumnBytes(memoryLimitBytes: number): number {
  return memoryLimitBytes / 10;
}

/** A size as DuckDB's settings write it ("640MB" = 640 × 1000², "1GiB" = 1024³ bytes), in bytes; null when unreadable. */
export function bytesOf(size: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?)b?\s*$/i.exec(size);
  if (!m) return null;
  return Number(m[1]) * (m[3] ? 1024 : 1000) ** ' kmgt'.indexOf(m[2]!.toLowerCase() || ' ');
}

/** DuckDB's memory cap as its setting reads (`DUCKDB_MEMORY_LIMIT` or the default). */
const memoryLimit = () => process.env.DUCKDB_MEMORY_LIMIT || DEFAULT_MEMORY_LIMIT;

/** The memory cap in bytes (the default's when the setting cannot be read). */
export const memoryCapBytes = () => bytesOf(memoryLimit()) ?? bytesOf(DEFAULT_MEMORY_LIMIT)!;

function settings(): Record<string, string> {
  const threads = duckdbThreads();
  return {
    memory_limit: memoryLimit(),
    threads: String(threads),
    perfect_ht_threshold: String(perfectHashBits(memoryCapBytes(), threads)),
    block_allocator_memory: `${Math.round(keptBlockBytes(memoryCapBytes()) / 1e6)}MB`,
  };
}

/** Brings files written by older versions to the current schema (schema.ts). */
async function migrate(connection: DuckDBConnection): Promise<void> {
  const reader = await connection.runAndReadAll(
    "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main'",
  );
  const existing = reader
    .getRowObjectsJS()
    .map((r) => ({ table: String(r.table_name), column: String(r.column_name), type: String(r.data_type) }));
  for (const step of eventStoreMigrations(existing)) await connection.run(step.sql, step.params);
}

function wrap(connection: DuckDBConnection): SqlConnection {
  return {
    async all<T>(sql: string, params: SqlParams = []): Promise<T[]> {
      const reader = await connection.runAndReadAll(sql, params as never);
      return reader.getRowObjectsJS() as T[];
    },
    async run(sql: string, params: SqlParams = []): Promise<void> {
      await connection.run(sql, params as never);
    },
  };
}

/** Opens (creating) `file`, or an in-memory database for `':memory:'`, and applies the schema. */
export async function openEventDb(
  file: string,
  options: { poolSize?: number; queryTimeoutMs?: number } = {},
): Promise<EventDb> {
  const timeoutMs = options.queryTimeoutMs ?? defaultTimeout();
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const instance = await DuckDBInstance.create(file, settings());
  // The event file holds every event's properties: owner-only, like the rest of the data dir.
  if (file !== ':memory:') for (const f of [file, `${file}.wal`]) if (fs.existsSync(f)) fs.chmodSync(f, 0o600);
  const writer = await instance.connect();
  for (const statement of EVENT_STORE_DDL) await writer.run(statement);
  await migrate(writer);
  const writerSql = wrap(writer);
  await openGroupTables(writerSql);

  const poolSize = Math.max(1, options.poolSize ?? DEFAULT_POOL_SIZE);
  const kept = new KeptBuffers(keptColumnBytes(memoryCapBytes()));
  const all: DuckDBConnection[] = [writer];
  const idle: DuckDBConnection[] = [];
  const waiting: ((c: DuckDBConnection) => void)[] = [];
  let readers = 0;
  let pending = 0;
  let closed = false;
  let writeChain: Promise<unknown> = Promise.resolve();
  let drained: (() => void) | undefined;

  async function acquire(): Promise<DuckDBConnection> {
    const free = idle.pop();
    if (free) return free;
    if (readers < poolSize) {
      readers += 1;
      const c = await instance.connect();
      all.push(c);
      return c;
    }
    return new Promise((resolve) => waiting.push(resolve));
  }
  function release(c: DuckDBConnection): void {
    const next = waiting.shift();
    if (next) next(c);
    else idle.push(c);
  }
  async function track<T>(work: () => Promise<T>): Promise<T> {
    if (closed) throw new Error('the event store is closed');
    pending += 1;
    try {
      return await work();
    } finally {
      pending -= 1;
      if (pending === 0) drained?.();
    }
  }

  const write = <T>(fn: (connection: SqlConnection) => Promise<T>): Promise<T> =>
    track(() => {
      const result = writeChain.then(() => fn(writerSql));
      writeChain = result.catch(() => undefined);
      return result;
    });

  /** Runs `work` on a pooled connection under the read's budget and signal (see {@link EventDb.all}). */
  const read = <R>(work: (c: DuckDBConnection) => Promise<R>, options: ReadOptions): Promise<R> =>
    track(async () => {
      throwIfSpent(options);
      const c = await acquire();
      try {
        throwIfSpent(options);
      } catch (error) {
        release(c);
        throw error;
      }
      const budget = (options.deadline ?? Date.now() + timeoutMs) - Date.now();
      let interrupted = false;
      const timer = setTimeout(() => {
        interrupted = true;
        c.interrupt();
      }, budget);
      const interrupt = () => c.interrupt();
      options.signal?.addEventListener('abort', interrupt, { once: true });
      try {
        return await work(c);
      } catch (error) {
        if (options.signal?.aborted) throw new QueryCancelledError();
        if (interrupted) throw new QueryTimeoutError();
        throw error;
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', interrupt);
        release(c);
      }
    });

  return {
    all: <T>(sql: string, params: SqlParams = [], options: ReadOptions = {}) =>
      read((c) => wrap(c).all<T>(sql, params), options),
    columns: (sql, params, types, options = {}) => read((c) => readColumns(c, sql, params, types, kept), options),
    chunks: (sql, params, types, visit, options = {}) =>
      read((c) => visitChunks(c, sql, params, types, visit), options),
    run: (sql, params = []) => write((c) => c.run(sql, params)),
    write,
    connect: () => instance.connect(),
    async close() {
      if (closed) return;
      closed = true;
      if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));
      for (const c of all) c.closeSync();
      instance.closeSync();
    },
  };
}
