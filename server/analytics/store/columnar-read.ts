import bindings from '@duckdb/node-bindings';
import type { DuckDBConnection, DuckDBMaterializedResult } from '@duckdb/node-api';
import type { ChunkVisitor, ColumnarResult, ColumnOf, ColumnType, SqlParams, TypedColumnType } from './db-types.ts';
import type { KeptBuffers } from './kept-buffers.ts';
import { TextCells } from './text-cells.ts';

/**
 * Orders two UUIDs given as words (index `a` of `x`, `b` of `y`, four words each) as DuckDB
 * orders the UUIDs (their text): DuckDB stores a UUID as a 128-bit integer, low half first,
 * with the top bit flipped so that a signed comparison follows the text's order.
 */
export function compareUuidWords(x: Uint32Array, a: number, y: Uint32Array, b: number): number {
  const hx = x[a * 4 + 3]! | 0;
  const hy = y[b * 4 + 3]! | 0;
  if (hx !== hy) return hx < hy ? -1 : 1;
  for (let w = 2; w >= 0; w--) {
    const vx = x[a * 4 + w]!;
    const vy = y[b * 4 + w]!;
    if (vx !== vy) return vx < vy ? -1 : 1;
  }
  return 0;
}

const BYTES: Record<Exclude<ColumnType, 'text'>, number> = { int32: 4, double: 8, uuid: 16 };
/** Chunks (2,048 rows each) read between two turns of the event loop. */
const YIELD_EVERY_CHUNKS = 4;

/** Whether a validity mask (bit r set: row r is not NULL) marks all of its first `size` rows valid. */
function allValid(validity: Uint8Array, size: number): boolean {
  const whole = size >> 3;
  for (let b = 0; b < whole; b++) if (validity[b] !== 0xff) return false;
  for (let r = whole * 8; r < size; r++) if (!((validity[r >> 3]! >> (r & 7)) & 1)) return false;
  return true;
}

/** A typed column's values in one chunk, as a view of its own copy of the vector's bytes; a NULL fails the read. */
function typedView(
  vector: bindings.Vector,
  type: Exclude<ColumnType, 'text'>,
  size: number,
  column: number,
): Int32Array | Float64Array | Uint32Array {
  // A NULL in a column declared never NULL is a bug upstream (a row written without its
  // person key, say): fail the read rather than hand over whatever the slot holds.
  const validity = type === 'uuid' ? null : bindings.vector_get_validity(vector, Math.ceil(size / 64) * 8);
  if (validity && !allValid(validity, size)) throw new Error(`Column ${column + 1} of a columnar read holds NULL.`);
  const bytes = bindings.vector_get_data(vector, size * BYTES[type]);
  const View = type === 'double' ? Float64Array : type === 'int32' ? Int32Array : Uint32Array;
  return new View(bytes.buffer as ArrayBuffer, bytes.byteOffset, size * (type === 'uuid' ? 4 : 1));
}

/**
 * Runs `sql`, tells `start` how many rows its result has, then calls `chunk` for each chunk of
 * it (row `at` first), yielding to the event loop every few.
 */
async function eachChunk(
  connection: DuckDBConnection,
  sql: string,
  params: SqlParams,
  start: (rows: number) => void,
  chunk: (data: bindings.DataChunk, size: number, at: number) => void,
): Promise<number> {
  const result: DuckDBMaterializedResult = await connection.run(sql, params as never);
  // node-api keeps the native result protected; its bindings (pinned to the same version) read
  // a vector's bytes without converting each value.
  const raw = (result as unknown as { result: bindings.Result }).result;
  const rows = Number(bindings.row_count(raw));
  start(rows);
  let at = 0;
  const chunks = bindings.result_chunk_count(raw);
  for (let c = 0; c < chunks; c++) {
    // Reading a chunk runs on the event loop: let other requests in between every few.
    if (c > 0 && c % YIELD_EVERY_CHUNKS === 0) await new Promise((resolve) => setImmediate(resolve));
    const data = bindings.result_get_chunk(raw, c);
    const size = bindings.data_chunk_get_size(data);
    chunk(data, size, at);
    at += size;
  }
  return rows;
}

/**
 * The result of `connection.run` chunk by chunk (2,048 rows each): `visit` gets each chunk's
 * columns as typed arrays of their own (rows `at` … `at + size`), to fold into a structure of
 * the caller's without holding the whole result in columns first. Resolves with the row count.
 */
export async function visitChunks<const T extends readonly TypedColumnType[]>(
  connection: DuckDBConnection,
  sql: string,
  params: SqlParams,
  types: T,
  visit: ChunkVisitor<T>,
): Promise<number> {
  let rows = 0;
  return eachChunk(
    connection,
    sql,
    params,
    (n) => (rows = n),
    (data, size, at) => {
      const columns = types.map((type, i) => typedView(bindings.data_chunk_get_vector(data, i), type, size, i));
      visit(columns as { [K in keyof T]: ColumnOf<T[K]> }, size, at, rows);
    },
  );
}

/** The result of `connection.run` read into columns (see {@link ColumnReader}), the typed ones in memory from `kept`. */
export async function readColumns<const T extends readonly ColumnType[]>(
  connection: DuckDBConnection,
  sql: string,
  params: SqlParams,
  types: T,
  kept: KeptBuffers,
): Promise<ColumnarResult<T>> {
  let out: (Int32Array | Float64Array | Uint32Array | (string | null)[])[] = [];
  let buffers: ArrayBuffer[] = [];
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    kept.giveAll(buffers);
  };
  // Each text column decodes each of its distinct values once (text-cells.ts).
  const texts = types.map((t) => (t === 'text' ? new TextCells() : null));
  const start = (rows: number) => {
    // The typed columns' memory comes from `kept` as one set (largest first: kept-buffers.ts).
    const typedAt = [...types.keys()].filter((i) => types[i] !== 'text');
    buffers = kept.takeAll(typedAt.map((i) => rows * BYTES[types[i] as Exclude<ColumnType, 'text'>]));
    out = types.map((t, i) => {
      if (t === 'text') return new Array<string | null>(rows);
      const buffer = buffers[typedAt.indexOf(i)]!;
      return t === 'int32'
        ? new Int32Array(buffer, 0, rows)
        : t === 'double'
          ? new Float64Array(buffer, 0, rows)
          : new Uint32Array(buffer, 0, rows * 4);
    });
  };
  let rows: number;
  try {
    rows = await eachChunk(connection, sql, params, start, (data, size, at) => {
      types.forEach((type, i) => {
        const vector = bindings.data_chunk_get_vector(data, i);
        if (type === 'text') texts[i]!.read(vector, size, out[i] as (string | null)[], at);
        else
          (out[i] as Int32Array | Float64Array | Uint32Array).set(
            typedView(vector, type, size, i),
            at * (type === 'uuid' ? 4 : 1),
          );
      });
    });
  } catch (error) {
    // A read that fails (a NULL where none may be) gives its memory back before it reports.
    release();
    throw error;
  }
  return { rows, columns: out as ColumnarResult<T>['columns'], release };
}
