import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * The event database's shapes (duckdb.ts implements them, columnar-read.ts reads columns):
 * types only, importing no module of the engine, so that any module, the person index and
 * types.ts's QueryContext included, names them without an import cycle.
 */

/** Runs SQL with bound parameters ($1, $2, … or ?) and returns plain row objects. */
export interface SqlRunner {
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** Parameters bound to `$1, $2, …` (an array) or to `$name` (an object). Never spliced into SQL text. */
export type SqlParams = readonly unknown[] | Readonly<Record<string, unknown>>;

/** How long a read may run: until `deadline` (epoch ms) when given, else the database's default budget. */
export interface ReadOptions {
  deadline?: number | undefined;
  /** The caller's cancel (`cancel/` of the insight API): aborting interrupts the read. */
  signal?: AbortSignal | undefined;
}

/** One connection: statements run on it one at a time (see {@link EventDb.write}). */
export interface SqlConnection extends SqlRunner {
  all<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T[]>;
  run(sql: string, params?: SqlParams): Promise<void>;
}

/**
 * The DuckDB database behind the event store. Queries run on DuckDB's own threads (the node
 * API is asynchronous), so a long analytics query never blocks the HTTP server's event loop.
 * A DuckDB connection runs one statement at a time, so reads take a connection from a small
 * pool (concurrent requests run side by side) and writes go through one writer connection,
 * one writer at a time ({@link EventDb.write}).
 */
export interface EventDb extends SqlRunner {
  /** A read whose result comes back column by column (columnar-read.ts), on a pooled connection like {@link all}. */
  columns<const T extends readonly ColumnType[]>(
    sql: string,
    params: SqlParams,
    types: T,
    options?: ReadOptions,
  ): Promise<ColumnarResult<T>>;
  /** The same read handed over chunk by chunk (columnar-read.ts `visitChunks`): resolves with the row count. */
  chunks<const T extends readonly TypedColumnType[]>(
    sql: string,
    params: SqlParams,
    types: T,
    visit: ChunkVisitor<T>,
    options?: ReadOptions,
  ): Promise<number>;
  /**
   * Reads on a pooled connection: concurrent reads run side by side, each under a time budget
   * (QueryTimeoutError past it). When `signal` aborts, the running statement is interrupted (and
   * a read not started yet never starts): the read rejects with {@link QueryCancelledError}.
   */
  all<T = Record<string, unknown>>(sql: string, params?: SqlParams, options?: ReadOptions): Promise<T[]>;
  /** Runs a statement that returns no rows on the writer connection, after any write in progress. */
  run(sql: string, params?: SqlParams): Promise<void>;
  /** Runs `fn` with exclusive use of the writer connection (a transaction, a temp table). */
  write<T>(fn: (connection: SqlConnection) => Promise<T>): Promise<T>;
  /** A dedicated connection, e.g. for an appender; close it when done. */
  connect(): Promise<DuckDBConnection>;
  /** Waits for the running statements, then closes every connection and the database. */
  close(): Promise<void>;
}

/**
 * How a columnar read returns a column (see {@link ColumnReader}): `int32` (INTEGER) and
 * `double` (DOUBLE) as typed arrays, never NULL (a NULL fails the read); `uuid` (UUID) as four
 * 32-bit words per row in DuckDB's own order-preserving layout (compareUuidWords of columnar-read.ts;
 * a NULL's words are unspecified);
 * `text` (VARCHAR) as strings or null.
 */
export type ColumnType = 'int32' | 'double' | 'uuid' | 'text';
export type ColumnOf<T extends ColumnType> = T extends 'int32'
  ? Int32Array
  : T extends 'double'
    ? Float64Array
    : T extends 'uuid'
      ? Uint32Array
      : (string | null)[];
export interface ColumnarResult<T extends readonly ColumnType[]> {
  rows: number;
  columns: { [K in keyof T]: ColumnOf<T[K]> };
  /**
   * Hands the typed columns' memory back for later reads (kept-buffers.ts): call it once the
   * columns are no longer read (nothing may read them after). Without it they are garbage
   * collected as any array.
   */
  release(): void;
}

/**
 * Reads a query's result column by column, straight from DuckDB's vectors: an engine that
 * walks hundreds of thousands of rows in TypeScript (funnels) pays no per-value conversion.
 */
export interface ColumnReader {
  columns<const T extends readonly ColumnType[]>(sql: string, params: SqlParams, types: T): Promise<ColumnarResult<T>>;
}

/** Typed columns only: what `visitChunks` (columnar-read.ts) hands over. */
export type TypedColumnType = Exclude<ColumnType, 'text'>;
/** Gets one chunk's columns: rows `at` … `at + size` of the result's `rows`. */
export type ChunkVisitor<T extends readonly TypedColumnType[]> = (
  columns: { [K in keyof T]: ColumnOf<T[K]> },
  size: number,
  at: number,
  rows: number,
) => void;
