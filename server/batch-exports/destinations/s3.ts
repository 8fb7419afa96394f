import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import {
  DeleteObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BatchExportModel } from '../../../src/contract/index.ts';
import {
  BlockedDestinationError,
  guardedLookup,
  resolveDestinationHost,
  type OutboundPolicy,
} from '../../net/outbound.ts';
import { describeFailure, runSteps } from './check.ts';
import {
  writeLineFiles,
  writeParquetFiles,
  type LineCompression,
  type LocalFile,
  type ParquetCompression,
} from './s3-files.ts';
import {
  DeliveryError,
  type CheckConnection,
  type Deliver,
  type DeliveryContext,
  type Destination,
  type DestinationOptions,
} from './types.ts';

/** Records read from the event store per batch. */
const BATCH_SIZE = 10_000;
/** Parts of a multipart upload: S3's minimum is 5 MiB; two in flight bound the upload's memory. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
const DEFAULT_TIMEOUT_MS = 10_000;

type FileFormat = 'JSONLines' | 'Parquet';
type Compression = LineCompression | ParquetCompression;

/** The compressions the production service accepts for each format (files elsewhere would differ). */
const SUPPORTED: Record<FileFormat, readonly Compression[]> = {
  JSONLines: ['gzip', 'brotli'],
  Parquet: ['zstd', 'lz4', 'snappy', 'gzip', 'brotli'],
};
const FORMAT_EXTENSIONS: Record<FileFormat, string> = { JSONLines: 'jsonl', Parquet: 'parquet' };
const COMPRESSION_EXTENSIONS: Record<Compression, string> = {
  gzip: 'gz',
  brotli: 'br',
  zstd: 'zst',
  lz4: 'lz4',
  snappy: 'sz',
};

interface S3Settings {
  bucket: string;
  region: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  compression: Compression | null;
  encryption: 'AES256' | 'aws:kms' | null;
  kmsKeyId: string | null;
  endpoint: string | null;
  format: FileFormat;
  maxFileBytes: number | null;
}

const textOrNull = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The stored config (validated on save) as settings; throws for a format/compression pair S3 exports do not write. */
function settingsOf(config: Record<string, unknown>): S3Settings {
  const format: FileFormat = config.file_format === 'Parquet' ? 'Parquet' : 'JSONLines';
  const compression = textOrNull(config.compression) as Compression | null;
  if (compression !== null && !SUPPORTED[format].includes(compression)) {
    throw new DeliveryError(
      `${format} files cannot be compressed with ${compression}: choose ${SUPPORTED[format].join(', ')} or no compression.`,
      false,
    );
  }
  const megabytes =
    typeof config.max_file_size_mb === 'number' && config.max_file_size_mb > 0 ? config.max_file_size_mb : null;
  return {
    bucket: String(config.bucket_name),
    region: String(config.region),
    prefix: typeof config.prefix === 'string' ? config.prefix : '',
    accessKeyId: String(config.aws_access_key_id),
    secretAccessKey: String(config.aws_secret_access_key),
    compression,
    encryption: config.encryption === 'AES256' || config.encryption === 'aws:kms' ? config.encryption : null,
    kmsKeyId: textOrNull(config.kms_key_id),
    endpoint: textOrNull(config.endpoint_url),
    format,
    maxFileBytes: megabytes === null ? null : megabytes * 1024 * 1024,
  };
}

/** An instant as the production service writes it in keys (Python's isoformat: `2024-06-03T10:00:00+00:00`). */
function keyInstant(iso: string): string {
  const date = new Date(iso);
  const ms = date.getUTCMilliseconds();
  return `${date.toISOString().slice(0, 19)}${ms ? `.${String(ms).padStart(3, '0')}000` : ''}+00:00`;
}

/** The prefix with its placeholders filled: {year} {month} {day} {hour} {minute} {second} of the interval's end, {data_interval_start} {data_interval_end} {table}. */
function keyPrefix(s: S3Settings, interval: { start: string; end: string }, model: BatchExportModel): string {
  const end = new Date(interval.end).toISOString();
  const values: Record<string, string> = {
    year: end.slice(0, 4),
    month: end.slice(5, 7),
    day: end.slice(8, 10),
    hour: end.slice(11, 13),
    minute: end.slice(14, 16),
    second: end.slice(17, 19),
    data_interval_start: keyInstant(interval.start),
    data_interval_end: keyInstant(interval.end),
    table: model,
  };
  return s.prefix.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** A file's extension: the format's, then the compression's. */
const extensionOf = (s: S3Settings) =>
  `.${FORMAT_EXTENSIONS[s.format]}${s.compression ? `.${COMPRESSION_EXTENSIONS[s.compression]}` : ''}`;

const joinKey = (prefix: string, name: string) =>
  `${prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`}${name}`.replace(/^\/+/, '');

/**
 * The key of an export file, laid out as the production service's: `<prefix>/<start>-<end>.<format>[.<compression>]`,
 * with `-<n>` after the interval when files are split (`max_file_size_mb` set), counting from 0.
 */
export function s3ObjectKey(
  config: Record<string, unknown>,
  interval: { start: string; end: string },
  model: BatchExportModel,
  fileNumber: number | null,
): string {
  const s = settingsOf(config);
  const base = `${keyInstant(interval.start)}-${keyInstant(interval.end)}${fileNumber === null ? '' : `-${fileNumber}`}`;
  return joinKey(keyPrefix(s, interval, model), base + extensionOf(s));
}

/** The host the client connects to: the endpoint's, else the bucket region's AWS endpoint. */
const endpointHost = (s: S3Settings) => (s.endpoint ? new URL(s.endpoint).hostname : `s3.${s.region}.amazonaws.com`);

function createClient(s: S3Settings, options: DestinationOptions, maxAttempts: number): S3Client {
  // The SDK warns once per process about Node 20 reaching its end of support; the setting is the SDK's own switch.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const policy: OutboundPolicy = { allowHosts: options.allowHosts ?? [] };
  // Every connection resolves through the guard, so the address checked is the one connected to.
  const agent = { keepAlive: true, maxSockets: 8, lookup: guardedLookup(endpointHost(s), policy) };
  const timeout = options.httpTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new S3Client({
    region: s.region,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    ...(s.endpoint ? { endpoint: s.endpoint, forcePathStyle: true } : {}),
    maxAttempts,
    // S3-compatible stores often refuse the newer default checksums (aws-chunked bodies with trailers).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A stalled request fails (a retryable TimeoutError) instead of holding the run: idle for long, or far too long in all.
    requestHandler: {
      httpAgent: new http.Agent(agent),
      httpsAgent: new https.Agent(agent),
      connectionTimeout: timeout,
      socketTimeout: Math.max(timeout, 60_000),
      requestTimeout: 300_000,
      throwOnRequestTimeout: true,
    },
  });
}

/** Server-side encryption headers, passed through as configured. */
const encryptionOf = (s: S3Settings): Partial<PutObjectCommandInput> => ({
  ...(s.encryption ? { ServerSideEncryption: s.encryption } : {}),
  ...(s.kmsKeyId ? { SSEKMSKeyId: s.kmsKeyId } : {}),
});

interface ServiceError {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

/** S3 error codes in words a person can act on, and whether trying again can help. */
const S3_CAUSES: Record<string, [string, boolean]> = {
  InvalidAccessKeyId: ['the access key ID is not known to S3: check the credentials (InvalidAccessKeyId)', false],
  SignatureDoesNotMatch: [
    'the secret access key does not belong to the access key ID: check the credentials (SignatureDoesNotMatch)',
    false,
  ],
  NoSuchBucket: ['the bucket does not exist (NoSuchBucket)', false],
  NotFound: ['the bucket does not exist (404 Not Found)', false],
  AccessDenied: ['access denied: the credentials lack permission on this bucket or prefix (AccessDenied)', false],
  Forbidden: ['access denied: the credentials are wrong or lack permission on this bucket (403 Forbidden)', false],
  InvalidBucketName: ['the bucket name is not valid (InvalidBucketName)', false],
  PermanentRedirect: ['the bucket is in another region: check the region (PermanentRedirect)', false],
  AuthorizationHeaderMalformed: [
    "the region does not match the bucket's: check the region (AuthorizationHeaderMalformed)",
    false,
  ],
  ExpiredToken: ['the credentials have expired (ExpiredToken)', false],
  'KMS.NotFoundException': ['the KMS key was not found (KMS.NotFoundException)', false],
  'KMS.DisabledException': ['the KMS key is disabled (KMS.DisabledException)', false],
  RequestTimeout: ['S3 timed out reading the upload (RequestTimeout)', true],
  SlowDown: ['S3 asked to slow down (SlowDown)', true],
  InternalError: ['S3 had an internal error (InternalError)', true],
  ServiceUnavailable: ['S3 is unavailable (ServiceUnavailable)', true],
};
const BY_STATUS: Record<number, string> = { 301: 'PermanentRedirect', 403: 'Forbidden', 404: 'NotFound' };
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/;

const statusOf = (error: unknown) => (error as ServiceError)?.$metadata?.httpStatusCode;

/** The cause of a failed S3 call, never holding a config value, and whether another attempt can help. */
function explain(error: unknown): { cause: string; retryable: boolean } {
  const status = statusOf(error);
  const code = (error as { code?: unknown })?.code;
  if (error instanceof BlockedDestinationError || code === 'EBLOCKED')
    return { cause: describeFailure(error), retryable: false };
  if (status === undefined) {
    // No answer from S3: DNS, connection, TLS or a timeout.
    return { cause: describeFailure(error), retryable: !(typeof code === 'string' && TLS_CODES.test(code)) };
  }
  const e = error as ServiceError;
  const name = [e.Code, e.name].find((n) => n && S3_CAUSES[n]) ?? BY_STATUS[status];
  const known = name ? S3_CAUSES[name] : undefined;
  if (known) return { cause: known[0], retryable: known[1] };
  const retryable = status >= 500 || status === 408 || status === 429;
  const label = e.Code ?? (e.name && e.name !== 'Unknown' ? e.name : 'no error code');
  return { cause: `S3 answered ${status} (${label})`, retryable };
}

function deliveryError(error: unknown, where: string, doing: string, delivered: number, total: number): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const { cause, retryable } = explain(error);
  return new DeliveryError(
    `${where}: ${cause.replace(/\.$/, '')}, ${doing}; ${delivered} of ${total} records uploaded.`,
    retryable,
  );
}

/** Refuses an endpoint the outbound guard does not allow before any request (an IP literal is never looked up). */
async function guardEndpoint(s: S3Settings, options: DestinationOptions) {
  return resolveDestinationHost(endpointHost(s), { allowHosts: options.allowHosts ?? [] });
}

async function uploadFile(client: S3Client, s: S3Settings, key: string, file: LocalFile) {
  const body = fs.createReadStream(file.path);
  try {
    // A failed multipart upload is aborted (leavePartsOnError false): no parts are left billed.
    await new Upload({
      client,
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
      params: { Bucket: s.bucket, Key: key, Body: body, ...encryptionOf(s) },
    }).done();
  } finally {
    body.destroy();
  }
}

/**
 * S3: the interval's records as JSON lines or Parquet, compressed as configured, in one file or
 * split at `max_file_size_mb` (then with a manifest listing the files), each written to a temp
 * file and uploaded (multipart when large) under the production service's keys. An interval
 * without records uploads nothing. A retry writes the same keys again, so it never duplicates, and
 * removes the files of the interval an earlier attempt wrote that this one did not (removeStaleFiles).
 */
export const deliverS3: Deliver = async ({ config, records, total, model, interval, log, progress }, options) => {
  const s = settingsOf(config);
  const where = `S3 bucket ${s.bucket}`;
  if (total === 0) {
    log('INFO', `No ${model} in the interval: nothing uploaded to ${where}.`);
    return 0;
  }
  try {
    await guardEndpoint(s, options);
  } catch (error) {
    throw deliveryError(error, where, `resolving ${endpointHost(s)}`, 0, total);
  }
  const client = createClient(s, options, 3);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 's3-export-'));
  const split = s.maxFileBytes !== null;
  const keys: string[] = [];
  let delivered = 0;
  const onFile = async (file: LocalFile, index: number) => {
    const key = s3ObjectKey(config, interval, model, split ? index : null);
    try {
      await uploadFile(client, s, key, file);
    } catch (error) {
      throw deliveryError(error, where, `uploading ${key}`, delivered, total);
    }
    await fs.promises.rm(file.path, { force: true });
    delivered += file.records;
    keys.push(key);
    log('INFO', `Uploaded ${key} to ${where}: ${file.records} records, ${file.bytes} bytes.`);
  };
  try {
    const batches = records.batches(BATCH_SIZE);
    const fileOptions = { dir, maxBytes: s.maxFileBytes, progress };
    const written =
      s.format === 'Parquet'
        ? await writeParquetFiles(
            batches,
            { ...fileOptions, model, compression: s.compression as ParquetCompression | null },
            onFile,
          )
        : await writeLineFiles(
            batches,
            { ...fileOptions, compression: s.compression as LineCompression | null },
            onFile,
          );
    if (written === 0) {
      log('INFO', `No ${model} in the interval: nothing uploaded to ${where}.`);
      return 0;
    }
    if (split) {
      // As the production service does: a manifest tells a reader which files make the interval.
      const manifest = joinKey(
        keyPrefix(s, interval, model),
        `${keyInstant(interval.start)}-${keyInstant(interval.end)}_manifest.json`,
      );
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: s.bucket,
            Key: manifest,
            Body: JSON.stringify({ files: keys }),
            ...encryptionOf(s),
          }),
        );
      } catch (error) {
        throw deliveryError(error, where, `uploading ${manifest}`, delivered, total);
      }
      log('DEBUG', `Uploaded ${manifest}: ${keys.length} files.`);
    }
    await removeStaleFiles(client, s, config, interval, model, keys, split, log).catch((error: unknown) => {
      throw deliveryError(error, where, 'removing the files an earlier attempt left', delivered, total);
    });
    return delivered;
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new DeliveryError(
      `${where}: the export file could not be written (${reason}); ${delivered} of ${total} records uploaded.`,
      true,
    );
  } finally {
    client.destroy();
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
};

/**
 * Removes the files of this interval, in this format, that an earlier attempt wrote and this one
 * did not, so the prefix holds exactly this attempt's files: numbered files beyond the ones written
 * (fewer records, a larger max_file_size_mb, or no split any more), and after a change of
 * max_file_size_mb the other layout's files (the single file when splitting; the numbered files
 * and their manifest when not). Runs after this attempt's files and manifest are uploaded, so a
 * reader never misses a file. Credentials without permission to list or delete keep the delivery
 * (a warning names what is left); a failure that may pass fails the attempt, retried.
 */
async function removeStaleFiles(
  client: S3Client,
  s: S3Settings,
  config: Record<string, unknown>,
  interval: { start: string; end: string },
  model: BatchExportModel,
  written: readonly string[],
  split: boolean,
  log: DeliveryContext['log'],
) {
  const extension = extensionOf(s);
  const single = s3ObjectKey(config, interval, model, null);
  const head = single.slice(0, single.length - extension.length); // `<prefix>/<start>-<end>`
  const numbered = (key: string) =>
    key.startsWith(`${head}-`) &&
    key.endsWith(extension) &&
    /^\d+$/.test(key.slice(head.length + 1, -extension.length));
  const otherLayout = (key: string) => (split ? key === single : key === `${head}_manifest.json`);
  const keep = new Set(written);
  const stale: string[] = [];
  try {
    for await (const page of paginateListObjectsV2({ client }, { Bucket: s.bucket, Prefix: head })) {
      for (const { Key } of page.Contents ?? [])
        if (Key && !keep.has(Key) && (numbered(Key) || otherLayout(Key))) stale.push(Key);
    }
    for (const key of stale) await client.send(new DeleteObjectCommand({ Bucket: s.bucket, Key: key }));
  } catch (error) {
    const { cause, retryable } = explain(error);
    if (retryable) throw error;
    log(
      'WARNING',
      `The interval's ${written.length} file${written.length === 1 ? ' is' : 's are'} uploaded, but files an earlier attempt wrote beside them (${head}-<n>${extension}${split ? `, ${single}` : `, ${head}_manifest.json`}) could not be listed or removed: ${cause}. Remove them by hand${split ? '; the manifest lists only the current files' : ''}.`,
    );
    return;
  }
  if (stale.length > 0)
    log(
      'INFO',
      `Removed ${stale.length} file${stale.length === 1 ? '' : 's'} an earlier attempt wrote that this one did not: ${stale.join(', ')}.`,
    );
}

/** An S3 failure as a step's failure: S3's error code in words, anything else as check.ts words it. */
async function step<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (statusOf(error) === undefined) throw error;
    const { cause } = explain(error);
    throw new Error(`${cause.charAt(0).toUpperCase()}${cause.slice(1)}.`);
  }
}

/**
 * Test connection: the endpoint resolves to an address the guard allows; the credentials are
 * accepted and the bucket exists (HeadBucket); a small object can be written under the prefix with
 * the configured encryption, then removed.
 */
const checkS3: CheckConnection = (config, options) => {
  let s: S3Settings | null = null;
  let client: S3Client | null = null;
  // The prefix as a run ending now would fill it in.
  const prefixNow = () => keyPrefix(s!, { start: new Date().toISOString(), end: new Date().toISOString() }, 'events');
  let key = '';
  return runSteps(
    [
      {
        step: 'Check the file format and compression',
        run: () => {
          s = settingsOf(config);
          return Promise.resolve(
            `${s.format}${s.compression ? ` with ${s.compression} compression` : ', not compressed'}.`,
          );
        },
      },
      {
        step: 'Resolve endpoint',
        run: async () => {
          const addresses = await guardEndpoint(s!, options);
          client = createClient(s!, options, 1);
          return `${endpointHost(s!)} resolves to ${addresses.map((a) => a.address).join(', ')}.`;
        },
      },
      {
        step: 'Authenticate and find the bucket',
        run: () =>
          step(async () => {
            try {
              await client!.send(new HeadBucketCommand({ Bucket: s!.bucket }));
            } catch (error) {
              // A HEAD answer has no body: a 403 does not say whether the key, the secret or a permission is at fault.
              if (statusOf(error) !== 403) throw error;
              await client!.send(new ListObjectsV2Command({ Bucket: s!.bucket, MaxKeys: 1, Prefix: prefixNow() }));
              throw error;
            }
            return `Bucket ${s!.bucket} found; the credentials are accepted.`;
          }),
      },
      {
        step: 'Write a test object',
        run: () =>
          step(async () => {
            key = joinKey(prefixNow(), `batch-export-connection-test-${randomUUID()}.txt`);
            await client!.send(
              new PutObjectCommand({
                Bucket: s!.bucket,
                Key: key,
                Body: "A batch export's connection test: safe to delete.\n",
                ...encryptionOf(s!),
              }),
            );
            return `Wrote ${key}${s!.encryption ? ` (encrypted with ${s!.encryption})` : ''}.`;
          }),
      },
      {
        step: 'Remove the test object',
        run: () =>
          step(async () => {
            await client!.send(new DeleteObjectCommand({ Bucket: s!.bucket, Key: key }));
            return `Removed ${key}.`;
          }),
      },
    ],
    () => {
      (client as S3Client | null)?.destroy();
      return Promise.resolve();
    },
  );
};

export const s3Destination: Destination = { deliver: deliverS3, check: checkS3 };
