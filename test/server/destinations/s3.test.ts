import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchExportRunSchema, pageSchema } from '../../../src/contract/index.ts';
import type { CaptureEvent } from '../../../server/analytics/ingest-parse.ts';
import { s3Destination } from '../../../server/batch-exports/destinations/s3.ts';
import { createScheduler } from '../../../server/batch-exports/scheduler.ts';
import { createTestServer, HEDGEBOX, makeTempDir } from '../helpers.ts';
import { freePort, s3Client, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, startS3, type LocalS3 } from './s3-server.ts';

const clock = new Date('2024-06-03T17:30:00.000Z');
const server = createTestServer({ now: () => clock });
const runner = { retryDelayMs: 0, maxAttempts: 3, allowHosts: ['127.0.0.1'] };
const scheduler = createScheduler({ store: server.store, events: server.events, now: () => clock, runner });
const hedgebox = server.orgIds[HEDGEBOX]!;
const base = `/api/organizations/${hedgebox}/batch_exports/`;
const BUCKET = 'exports';
const SECRET = 'wrong-SECRET-never-shown';
const HOUR = { start_at: '2024-06-03T05:00:00Z', end_at: '2024-06-03T06:00:00Z' };
const BIG_HOUR = { start_at: '2024-06-03T07:00:00Z', end_at: '2024-06-03T08:00:00Z' };
const HOUR_NAME = '2024-06-03T05:00:00+00:00-2024-06-03T06:00:00+00:00';
const BIG_HOUR_NAME = '2024-06-03T07:00:00+00:00-2024-06-03T08:00:00+00:00';
const scratch = makeTempDir('s3-test-');
let s3: LocalS3;
let client: S3Client;
let team = 0;
let prefixes = 0;
let duckdb: DuckDBInstance | undefined;

const uuidOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const event = (i: number, timestamp: string, properties: Record<string, unknown> = { i, text: 'quote " and ünïcode', list: [i, null] }): CaptureEvent => ({
  uuid: uuidOf(i), event: i % 2 ? '$pageview' : 'signed_up', distinct_id: `user-${i % 3}`,
  timestamp: new Date(timestamp), properties, set: null, setOnce: null,
});
// Two events share an instant: the file keeps the store's order (time, then uuid).
const small = Array.from({ length: 24 }, (_, i) => event(i + 1, `2024-06-03T05:${String(Math.min(59, i * 2 + 1)).padStart(2, '0')}:00Z`));
small.push(event(25, '2024-06-03T05:01:00Z'));
// Random padding keeps the files large once compressed: 1,200 events make about 1.8 MB of JSON lines.
const big = Array.from({ length: 1200 }, (_, i) => event(1000 + i, `2024-06-03T07:${String(i % 60).padStart(2, '0')}:00Z`, { pad: randomBytes(1125).toString('base64') }));
const record = (e: CaptureEvent) => ({ uuid: e.uuid, event: e.event, distinct_id: e.distinct_id, timestamp: e.timestamp.toISOString(), team_id: team, properties: e.properties });
const inOrder = (list: CaptureEvent[]) => [...list].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime() || (a.uuid < b.uuid ? -1 : 1)).map(record);

function s3Config(config: Record<string, unknown> = {}) {
  prefixes += 1;
  return {
    bucket_name: BUCKET, region: 'us-east-1', prefix: `test-${prefixes}/{year}/{month}`, aws_access_key_id: S3_ACCESS_KEY_ID,
    aws_secret_access_key: S3_SECRET_ACCESS_KEY, endpoint_url: s3.endpoint, ...config,
  };
}
async function create(config: Record<string, unknown>, model = 'events') {
  const res = await server.request('POST', base, { json: { name: 'S3 export', interval: 'hour', paused: true, model, destination: { type: 'S3', config } } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
async function backfill(id: string, hour = HOUR, tick: () => Promise<void> = () => scheduler.tick()) {
  expect((await server.request('POST', `${base}${id}/backfill/`, { json: hour })).status).toBe(200);
  await tick();
}
const runs = async (id: string) => pageSchema(batchExportRunSchema).parse((await server.get(`${base}${id}/runs/?limit=100`)).body).results;
const logs = async (id: string) => (await server.get(`${base}${id}/logs/?limit=1000`)).body.results as { level: string; message: string }[];

/** Every object under `prefix`, downloaded. */
async function objects(prefix: string): Promise<{ key: string; body: Buffer }[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return Promise.all((listed.Contents ?? []).map(async ({ Key }) => {
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: Key! }));
    return { key: Key!, body: Buffer.from(await got.Body!.transformToByteArray()) };
  }));
}

/** A file's records, decoded by its extension: JSON lines (plain, gzip, brotli) or Parquet read back through DuckDB. */
async function decode(key: string, body: Buffer): Promise<Record<string, unknown>[]> {
  if (key.includes('.parquet')) {
    const file = path.join(scratch, `${prefixes}-${path.basename(key).replace(/[^\w.-]/g, '_')}`);
    fs.writeFileSync(file, body);
    duckdb ??= await DuckDBInstance.create(':memory:');
    const db = await duckdb.connect();
    const reader = await db.runAndReadAll(`SELECT uuid, epoch_ms("timestamp")::DOUBLE AS ts, event, properties, distinct_id FROM read_parquet('${file}')`);
    db.closeSync();
    expect(reader.columnNames()).toEqual(['uuid', 'ts', 'event', 'properties', 'distinct_id']);
    return reader.getRowObjectsJS().map((r) => ({
      uuid: r.uuid, event: r.event, distinct_id: r.distinct_id, timestamp: new Date(Number(r.ts)).toISOString(), team_id: team,
      properties: JSON.parse(String(r.properties)) as unknown,
    }));
  }
  const text = key.endsWith('.gz') ? zlib.gunzipSync(body) : key.endsWith('.br') ? zlib.brotliDecompressSync(body) : body;
  return text.toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  s3 = await startS3({ buckets: [BUCKET] });
  client = s3Client(s3.endpoint);
  team = (await server.get(`/api/organizations/${hedgebox}/`)).body.teams[0].id;
  await server.events.append(team, [...small, event(90, '2024-06-03T04:59:59Z'), event(91, '2024-06-03T06:00:00Z'), ...big]);
  await server.events.append(team + 1, [event(92, '2024-06-03T05:30:00Z')]);
});
afterAll(async () => {
  client.destroy();
  duckdb?.closeSync();
  await scheduler.stop();
  await s3.stop();
  await server.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('S3 delivery of an interval', () => {
  it.each([
    [null, '.jsonl'], ['gzip', '.jsonl.gz'], ['brotli', '.jsonl.br'],
    ['zstd', '.parquet.zst', 'Parquet'], ['snappy', '.parquet.sz', 'Parquet'],
  ])('%s compression: one %s object under the production key, every event once, in order', async (compression, extension, format = 'JSONLines') => {
    const id = await create(s3Config({ compression, file_format: format }));
    await backfill(id);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Completed', records_total_count: 25, records_completed: 25, latest_error: null });
    const files = await objects(`test-${prefixes}/`);
    const key = `test-${prefixes}/2024/06/${HOUR_NAME}${extension}`;
    expect(files.map((f) => f.key)).toEqual([key]);
    expect(await decode(key, files[0]!.body)).toEqual(inOrder(small));
    expect((await logs(id)).map((l) => l.message)).toContainEqual(expect.stringMatching(new RegExp(`^Uploaded ${key.replaceAll('+', '\\+')} to S3 bucket exports: 25 records, \\d+ bytes\\.$`)));
  });

  it.each([
    ['JSONLines', null], ['JSONLines', 'gzip'], ['Parquet', 'zstd'],
  ])('%s (%s) splits at max_file_size_mb: numbered files of at most 1 MiB, a manifest, every event once', async (format, compression) => {
    const id = await create(s3Config({ file_format: format, compression, max_file_size_mb: 1, prefix: `split-${format}-${compression}` }));
    await backfill(id, BIG_HOUR);
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 1200 });
    const files = await objects(`split-${format}-${compression}/`);
    const manifest = files.find((f) => f.key.endsWith('_manifest.json'))!;
    const data = files.filter((f) => f !== manifest).sort((a, b) => Number(/-(\d+)\.(jsonl|parquet)/.exec(a.key)![1]) - Number(/-(\d+)\.(jsonl|parquet)/.exec(b.key)![1]));
    expect(data.length).toBeGreaterThan(1);
    expect(data.map((f) => f.key)).toEqual(data.map((_, n) => expect.stringMatching(
      new RegExp(`^split-${format}-${compression}/2024-06-03T07:00:00\\+00:00-2024-06-03T08:00:00\\+00:00-${n}\\.(jsonl|parquet)`))));
    for (const f of data) expect(f.body.length).toBeLessThanOrEqual(1024 * 1024);
    expect(JSON.parse(manifest.body.toString())).toEqual({ files: data.map((f) => f.key) });
    const all = (await Promise.all(data.map((f) => decode(f.key, f.body)))).flat();
    expect(all).toEqual(inOrder(big));
  });

  it('a rerun that writes fewer split files removes the extra ones of the earlier run: the prefix holds what the manifest lists', async () => {
    const config = s3Config({ max_file_size_mb: 1, prefix: 'shrink' });
    const id = await create(config);
    await backfill(id, BIG_HOUR);
    const numbered = (keys: string[]) => keys.filter((k) => /-\d+\.jsonl$/.test(k)).sort();
    expect(numbered((await objects('shrink/')).map((f) => f.key))).toEqual([`shrink/${BIG_HOUR_NAME}-0.jsonl`, `shrink/${BIG_HOUR_NAME}-1.jsonl`]);
    // Not this interval's numbered files in this format: they stay.
    const others = [`shrink/${HOUR_NAME}-3.jsonl`, `shrink/${BIG_HOUR_NAME}-3.parquet`, `shrink/${BIG_HOUR_NAME}-notes.jsonl`];
    for (const key of others) await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'not ours\n' }));

    // Larger files: the same records now fit in one.
    const patched = await server.request('PATCH', `${base}${id}/`, { json: { destination: { type: 'S3', config: { ...config, max_file_size_mb: 4 } } } });
    expect(patched.status, patched.text).toBe(200);
    await backfill(id, BIG_HOUR);
    expect((await runs(id)).map((r) => r.status)).toEqual(['Completed', 'Completed']);
    const files = await objects('shrink/');
    const manifest = `shrink/${BIG_HOUR_NAME}_manifest.json`;
    expect(files.map((f) => f.key).sort()).toEqual([`shrink/${BIG_HOUR_NAME}-0.jsonl`, manifest, ...others].sort());
    expect(JSON.parse(files.find((f) => f.key === manifest)!.body.toString())).toEqual({ files: [`shrink/${BIG_HOUR_NAME}-0.jsonl`] });
    expect(await decode('.jsonl', files.find((f) => f.key.endsWith('-0.jsonl'))!.body)).toEqual(inOrder(big));
    expect((await logs(id)).map((l) => l.message)).toContain(`Removed 1 file an earlier attempt wrote beyond this one's 1: shrink/${BIG_HOUR_NAME}-1.jsonl.`);
  });

  it('the persons model as Parquet (lz4): the persons created in the interval, with their columns', async () => {
    const id = await create(s3Config({ file_format: 'Parquet', compression: 'lz4' }), 'persons');
    await backfill(id);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Completed' });
    expect(run!.records_total_count).toBeGreaterThan(0);
    const files = await objects(`test-${prefixes}/`);
    expect(files.map((f) => f.key)).toEqual([`test-${prefixes}/2024/06/${HOUR_NAME}.parquet.lz4`]);
    const file = path.join(scratch, 'persons.parquet');
    fs.writeFileSync(file, files[0]!.body);
    duckdb ??= await DuckDBInstance.create(':memory:');
    const db = await duckdb.connect();
    const reader = await db.runAndReadAll(`SELECT team_id, id, properties, created_at, is_identified FROM read_parquet('${file}')`);
    db.closeSync();
    const [expected] = await server.events.all<{ ids: string }>(
      `SELECT string_agg(id::VARCHAR, ',' ORDER BY created_at, id) AS ids FROM persons WHERE team_id = $1 AND created_at >= $2::TIMESTAMPTZ AND created_at < $3::TIMESTAMPTZ`,
      [team, HOUR.start_at, HOUR.end_at]);
    expect(reader.getRowObjectsJS().map((r) => String(r.id)).join(',')).toBe(expected!.ids);
    expect(reader.getRowObjectsJS().every((r) => r.team_id === team && typeof JSON.parse(String(r.properties)) === 'object')).toBe(true);
  });

  it('a second run of the interval writes the same keys again: the objects are replaced, nothing doubles', async () => {
    const config = s3Config({ compression: 'gzip' });
    const id = await create(config);
    await backfill(id);
    const key = `test-${prefixes}/2024/06/${HOUR_NAME}.jsonl.gz`;
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: zlib.gzipSync('{"stale":true}\n') }));
    await backfill(id);
    expect((await runs(id)).map((r) => r.status)).toEqual(['Completed', 'Completed']);
    const files = await objects(`test-${prefixes}/`);
    expect(files.map((f) => f.key)).toEqual([key]);
    expect(await decode(key, files[0]!.body)).toEqual(inOrder(small));
  });

  it('an interval without events uploads nothing and says so', async () => {
    const id = await create(s3Config());
    await backfill(id, { start_at: '2024-06-03T10:00:00Z', end_at: '2024-06-03T11:00:00Z' });
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 0 });
    expect(await objects(`test-${prefixes}/`)).toEqual([]);
    expect((await logs(id)).map((l) => l.message)).toContain('No events in the interval: nothing uploaded to S3 bucket exports.');
  });
});

describe('S3 delivery failures', () => {
  it.each([
    ['a wrong secret', { aws_secret_access_key: SECRET }, /^S3 bucket exports: the secret access key does not belong to the access key ID: check the credentials \(SignatureDoesNotMatch\), uploading test-\d+\/2024\/06\/\S+\.jsonl; 0 of 25 records uploaded\.$/],
    ['an unknown access key', { aws_access_key_id: 'AKIAUNKNOWN' }, /^S3 bucket exports: the access key ID is not known to S3: check the credentials \(InvalidAccessKeyId\)/],
    ['a missing bucket', { bucket_name: 'no-such-bucket' }, /^S3 bucket no-such-bucket: the bucket does not exist \(NoSuchBucket\)/],
    ['JSON lines in zstd', { file_format: 'JSONLines', compression: 'zstd' }, /^JSONLines files cannot be compressed with zstd: choose gzip, brotli or no compression\.$/],
  ])('%s: the run fails at once (not retried) with a latest_error naming the cause', async (_, change, error) => {
    const id = await create(s3Config(change));
    await backfill(id);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed', records_completed: 0 });
    expect(run!.latest_error).toMatch(error);
    const entries = await logs(id);
    expect(entries.filter((l) => l.level === 'WARNING')).toEqual([]);
    expect(JSON.stringify(entries) + JSON.stringify(run)).not.toContain(SECRET);
  });

  it('an endpoint that is down: FailedRetryable, then the retry completes once it is up', async () => {
    const port = await freePort();
    const dir = makeTempDir('s3rver-late-');
    const id = await create(s3Config({ endpoint_url: `http://127.0.0.1:${port}` }));
    const patient = createScheduler({ store: server.store, events: server.events, now: () => clock, runner: { ...runner, retryDelayMs: 400 } });
    let late: LocalS3 | undefined;
    await backfill(id, HOUR, async () => {
      const ticking = patient.tick();
      for (let i = 0; i < 200 && (await runs(id))[0]?.status !== 'FailedRetryable'; i += 1) await new Promise((r) => setTimeout(r, 20));
      late = await startS3({ buckets: [BUCKET], port, dir });
      await ticking;
    });
    try {
      const [run] = await runs(id);
      expect(run).toMatchObject({ status: 'Completed', records_completed: 25, latest_error: null });
      const warning = (await logs(id)).find((l) => l.level === 'WARNING');
      expect(warning?.message).toMatch(/^Attempt 1 of 3 failed, retrying: S3 bucket exports: the connection was refused \(nothing listens on that port\) \(ECONNREFUSED\)/);
      const lateClient = s3Client(late!.endpoint);
      const downloaded = await lateClient.send(new GetObjectCommand({ Bucket: BUCKET, Key: `test-${prefixes}/2024/06/${HOUR_NAME}.jsonl` }));
      lateClient.destroy();
      expect(await decode('.jsonl', Buffer.from(await downloaded.Body!.transformToByteArray()))).toEqual(inOrder(small));
    } finally {
      await patient.stop();
      await late?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('127.0.0.1 without --allow-destination is refused by the outbound guard before any request', async () => {
    const guarded = createScheduler({ store: server.store, events: server.events, now: () => clock, runner: { ...runner, allowHosts: [] } });
    const id = await create(s3Config());
    await backfill(id, HOUR, () => guarded.tick());
    await guarded.stop();
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed' });
    expect(run!.latest_error).toMatch(/^S3 bucket exports: Refused: 127\.0\.0\.1 is a private, loopback or link-local address/);
    expect(await objects(`test-${prefixes}/`)).toEqual([]);
  });
});

describe('S3 connection test', () => {
  const check = (config: Record<string, unknown>, allowHosts = ['127.0.0.1']) => s3Destination.check(config, { allowHosts, httpTimeoutMs: 2000 });

  it('passes every step and leaves nothing behind', async () => {
    const config = s3Config({ encryption: 'AES256' });
    const steps = await check(config);
    expect(steps.map((s) => `${s.step}: ${s.status}`)).toEqual([
      'Check the file format and compression: passed', 'Resolve endpoint: passed', 'Authenticate and find the bucket: passed',
      'Write a test object: passed', 'Remove the test object: passed',
    ]);
    expect(steps[3]!.detail).toMatch(new RegExp(`^Wrote test-${prefixes}/\\d{4}/\\d{2}/batch-export-connection-test-[\\w-]+\\.txt \\(encrypted with AES256\\)\\.$`));
    expect(await objects(`test-${prefixes}/`)).toEqual([]);
  });

  it.each([
    ['a wrong secret', { aws_secret_access_key: SECRET }, 'Authenticate and find the bucket', /SignatureDoesNotMatch/],
    ['a missing bucket', { bucket_name: 'no-such-bucket' }, 'Authenticate and find the bucket', /^The bucket does not exist \(404 Not Found\)\.$/],
    ['a name that does not resolve', { endpoint_url: 'http://no-such-host.invalid:9000' }, 'Resolve endpoint', /^DNS: the host name does not resolve \(ENOTFOUND\)\.$/],
    ['a format that cannot take the compression', { compression: 'lz4' }, 'Check the file format and compression', /^JSONLines files cannot be compressed with lz4/],
  ])('%s: that step fails with its cause, the later ones are skipped', async (_, change, failing, detail) => {
    const steps = await check(s3Config(change));
    const at = steps.findIndex((s) => s.status === 'failed');
    expect(steps[at]).toMatchObject({ step: failing, detail: expect.stringMatching(detail) });
    expect(steps.slice(at + 1).every((s) => s.status === 'skipped')).toBe(true);
    expect(JSON.stringify(steps)).not.toContain(SECRET);
  });

  it('a loopback endpoint without --allow-destination fails at "Resolve endpoint"', async () => {
    const steps = await check(s3Config(), []);
    expect(steps[1]).toMatchObject({ step: 'Resolve endpoint', status: 'failed', detail: expect.stringMatching(/^Refused: 127\.0\.0\.1 is a private/) });
  });
});
