import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { BatchExportModel } from '../../../src/contract/index.ts';
import type { ExportRecord } from '../records.ts';

/**
 * The files of an S3 export, written to a local temp folder one at a time and handed over as
 * each is finished (to be uploaded, then removed): memory stays bounded by a batch of records and
 * the compressor's buffers, whatever the interval holds.
 */

export type LineCompression = 'gzip' | 'brotli';
export type ParquetCompression = 'zstd' | 'lz4' | 'snappy' | 'gzip' | 'brotli';

/** A finished local file. */
export interface LocalFile {
  path: string;
  bytes: number;
  records: number;
}

/** Called with each finished file and its number (0, 1, …), in order; the next file waits for it. */
export type OnFile = (file: LocalFile, index: number) => Promise<void>;

export interface FileOptions {
  dir: string;
  /** The size no file may pass (a file of one record larger than this is still written); null: one file. */
  maxBytes: number | null;
  /** Records written so far, after each batch. */
  progress: (written: number) => void;
}

/**
 * The most a compressor may add to `raw` bytes before its file is complete: deflate and brotli
 * store incompressible input with a few bytes of framing per block, plus header and trailer.
 */
const worstCompressed = (raw: number) => raw + Math.ceil(raw / 1000) + 64;

/** One file of JSON lines, compressed on the way or not; knows its size exactly after `settle`. */
class LineFile {
  records = 0;
  private readonly out: fs.WriteStream;
  private readonly zip: zlib.Gzip | zlib.BrotliCompress | null;
  private emitted = 0;
  /** Bytes the finished file holds for sure, and raw bytes written since they were counted. */
  private settled = 0;
  private unsettled = 0;
  private failure: Error | null = null;

  constructor(
    readonly file: string,
    compression: LineCompression | null,
  ) {
    this.out = fs.createWriteStream(file);
    this.out.on('error', (error) => (this.failure ??= error));
    this.zip =
      compression === 'gzip'
        ? zlib.createGzip({ level: 6 })
        : compression === 'brotli'
          ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
          : null;
    const zip = this.zip;
    if (zip) {
      zip.on('error', (error) => (this.failure ??= error));
      let held = false;
      zip.on('data', (chunk: Buffer) => {
        this.emitted += chunk.length;
        // The file's own back-pressure holds the compressor, which holds the writer (`write`).
        if (!this.out.write(chunk) && !held) {
          held = true;
          zip.pause();
          this.out.once('drain', () => {
            held = false;
            zip.resume();
          });
        }
      });
    }
  }

  /** The most the file can hold once `extra` more raw bytes are written and it is closed. */
  bound(extra: number): number {
    return this.zip ? this.settled + worstCompressed(this.unsettled + extra) : this.settled + this.unsettled + extra;
  }

  async write(text: string, records: number): Promise<void> {
    if (!text) return;
    this.throwIfFailed();
    const target = this.zip ?? this.out;
    this.records += records;
    this.unsettled += Buffer.byteLength(text);
    // `once` also rejects if the stream fails meanwhile.
    if (!target.write(text)) await once(target, 'drain');
    this.throwIfFailed();
  }

  /** Makes the size exact: the compressor emits everything it holds (a flush point costs a few bytes). */
  async settle(): Promise<void> {
    const zip = this.zip;
    if (!zip) return;
    await new Promise<void>((resolve) => zip.flush(() => resolve()));
    this.throwIfFailed();
    this.settled = this.emitted + zip.readableLength;
    this.unsettled = 0;
  }

  async close(): Promise<LocalFile> {
    if (this.zip) {
      const ended = once(this.zip, 'end');
      this.zip.end();
      await ended;
    }
    const finished = once(this.out, 'finish');
    this.out.end();
    await finished;
    this.throwIfFailed();
    return { path: this.file, bytes: this.zip ? this.emitted : this.unsettled, records: this.records };
  }

  destroy(): void {
    this.zip?.destroy();
    this.out.destroy();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}

export interface LineFileOptions extends FileOptions {
  compression: LineCompression | null;
  /** The size limit, asked again for each file (the Parquet writer learns it as it goes). */
  limit?: () => number | null;
}

/**
 * Writes the records as JSON lines (one object per line) into files of at most `maxBytes`,
 * starting a new file when the next record would pass the limit. Resolves to the records written.
 */
export async function writeLineFiles(
  batches: AsyncIterable<ExportRecord[]>,
  options: LineFileOptions,
  onFile: OnFile,
): Promise<number> {
  const { dir, compression, progress } = options;
  const limit = options.limit ?? (() => options.maxBytes);
  let index = 0;
  let file: LineFile | null = null;
  let written = 0;
  const open = () =>
    new LineFile(path.join(dir, `part-${index}.jsonl${compression ? `.${compression}` : ''}`), compression);
  try {
    for await (const batch of batches) {
      file ??= open();
      const max = limit();
      let text = '';
      let queued = 0;
      let queuedBytes = 0;
      for (const record of batch) {
        const line = `${JSON.stringify(record)}\n`;
        const size = Buffer.byteLength(line);
        if (max !== null && file.records + queued > 0 && file.bound(queuedBytes + size) > max) {
          await file.write(text, queued);
          text = '';
          queued = 0;
          queuedBytes = 0;
          await file.settle();
          if (file.bound(size) > max) {
            await onFile(await file.close(), index);
            index += 1;
            file = open();
          }
        }
        text += line;
        queued += 1;
        queuedBytes += size;
      }
      await file.write(text, queued);
      written += batch.length;
      progress(written);
    }
    if (file && file.records > 0) {
      const last = file;
      file = null;
      await onFile(await last.close(), index);
    }
    return written;
  } finally {
    file?.destroy();
  }
}

export interface ParquetOptions extends FileOptions {
  compression: ParquetCompression | null;
  model: BatchExportModel;
}

/**
 * Parquet columns. Events: the production service's S3 columns that this store's records carry,
 * in its order (it leaves `team_id` out of S3 files); persons: the production persons columns. `properties`
 * is a JSON string column (read as text, DuckDB keeps the object's JSON as written: no second
 * parse and print).
 */
const PARQUET_COLUMNS: Record<BatchExportModel, { read: string; select: string }> = {
  events: {
    read: `{uuid: 'VARCHAR', event: 'VARCHAR', distinct_id: 'VARCHAR', "timestamp": 'TIMESTAMPTZ', team_id: 'INTEGER', properties: 'VARCHAR'}`,
    select: 'uuid, "timestamp", event, properties, distinct_id',
  },
  persons: {
    read: `{team_id: 'INTEGER', distinct_id: 'VARCHAR', person_id: 'VARCHAR', properties: 'VARCHAR', person_version: 'BIGINT',
      person_distinct_id_version: 'BIGINT', created_at: 'TIMESTAMPTZ', _inserted_at: 'TIMESTAMPTZ'}`,
    select:
      'team_id, distinct_id, person_id, properties, person_version, person_distinct_id_version, created_at, _inserted_at',
  },
};

/** Until a first file says otherwise: Parquet is assumed this much smaller than its JSON lines. */
const FIRST_PARQUET_RATIO = 0.25;

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Writes the records as Parquet through DuckDB's own writer (an in-memory instance of its own):
 * records are staged as JSON lines, each staged file becomes one Parquet file. With a size limit
 * the staged size is chosen from the Parquet/JSON ratio seen so far; a Parquet file that still
 * comes out too large is written again as two halves, so no file passes the limit.
 */
export async function writeParquetFiles(
  batches: AsyncIterable<ExportRecord[]>,
  options: ParquetOptions,
  onFile: OnFile,
): Promise<number> {
  const { dir, maxBytes, model } = options;
  const codec = options.compression ?? 'uncompressed';
  const columns = PARQUET_COLUMNS[model];
  let ratio = FIRST_PARQUET_RATIO;
  let index = 0;
  let instance: DuckDBInstance | null = null;
  let connection: DuckDBConnection | null = null;

  const connect = async () => {
    if (connection) return connection;
    // A cap of its own, whatever the file's size (128 MB ran out writing one file of 1M events).
    instance = await DuckDBInstance.create(':memory:', {
      threads: String(Math.min(2, os.availableParallelism())),
      memory_limit: '256MB',
      temp_directory: path.join(dir, 'duckdb'),
    });
    connection = await instance.connect();
    return connection;
  };

  const copy = async (staged: string, out: string, range?: { offset: number; count: number }) => {
    const db = await connect();
    const source = `read_json(${sqlText(staged)}, format = 'newline_delimited', columns = ${columns.read})`;
    const slice = range ? ` LIMIT ${range.count} OFFSET ${range.offset}` : '';
    await db.run(
      `COPY (SELECT ${columns.select} FROM ${source}${slice}) TO ${sqlText(out)} (FORMAT parquet, COMPRESSION ${codec})`,
    );
    return (await fs.promises.stat(out)).size;
  };

  const convert = async (staged: LocalFile) => {
    const pending = [{ offset: 0, count: staged.records }];
    let whole = true;
    while (pending.length > 0) {
      const range = pending.shift()!;
      const out = path.join(dir, `file-${index}.parquet`);
      const bytes = await copy(staged.path, out, whole ? undefined : range);
      if (whole) ratio = Math.max(0.01, bytes / staged.bytes);
      whole = false;
      if (maxBytes !== null && bytes > maxBytes && range.count > 1) {
        await fs.promises.rm(out, { force: true });
        const half = Math.ceil(range.count / 2);
        pending.unshift(
          { offset: range.offset, count: half },
          { offset: range.offset + half, count: range.count - half },
        );
        continue;
      }
      await onFile({ path: out, bytes, records: range.count }, index);
      index += 1;
    }
    await fs.promises.rm(staged.path, { force: true });
  };

  try {
    return await writeLineFiles(
      batches,
      {
        dir,
        maxBytes,
        compression: null,
        progress: options.progress,
        // Aim a little under the limit: the ratio of the next file is not quite the last one's.
        limit: () => (maxBytes === null ? null : Math.max(1024, Math.floor((maxBytes / ratio) * 0.9))),
      },
      convert,
    );
  } finally {
    (connection as DuckDBConnection | null)?.closeSync();
    (instance as DuckDBInstance | null)?.closeSync();
  }
}
