import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchExportRunSchema, pageSchema } from '../../../src/contract/index.ts';
import type { CaptureEvent } from '../../../server/analytics/store/ingest-parse.ts';
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
const event = (
  i: number,
  timestamp: string,
  properties: Record<string, unknown> = { i, text: 'quote " and ünïcode', list: [i, null] },
): CaptureEvent => ({
  uuid: uuidOf(i),
  event: i % 2 ? '$pageview' : 'signed_up',
  distinct_id: `user-${i % 3}`,
  timestamp: new Date(timestamp),
  properties,
  set: null,
  setOnce: null,
});
// Two events share an instant: the file keeps the store's order (time, then uuid).
const small = Array.from({ length: 24 }, (_, i) =>
  event(i + 1, `2024-06-03T05:${String(Math.min(59, i * 2 + 1)).padStart(2, '0')}:00Z`),
);
small.push(event(25, '2024-06-03T05:01:00Z'));
// Random padding keeps the files large once compressed: 1,200 events make about 1.8 MB of JSON lines.
const big = Array.from({ length: 1200 }, (_, i) =>
  event(1000 + i, `2024-06-03T07:${String(i % 60).padStart(2, '0')}:00Z`, {
    pad: randomBytes(1125).toString('base64'),
  }),
);
const record = (e: CaptureEvent) => ({
  uuid: e.uuid,
  event: e.event,
  distinct_id: e.distinct_id,
  timestamp: e.timestamp.toISOString(),
  team_id: team,
  properties: e.properties,
});
const inOrder = (list: CaptureEvent[]) =>
  [...list].sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime() || (a.uuid < b.uuid ? -1 : 1)).map(record);

function s3Config(config: Record<string, unknown> = {}) {
  prefixes += 1;
  return {
    bucket_name: BUCKET,
    region: 'us-east-1',
    prefix: `test-${prefixes}/{year}/{month}`,
    aws_access_key_id: S3_ACCESS_KEY_ID,
    aws_secret_access_key: S3_SECRET_ACCESS_KEY,
    endpoint_url: s3.endpoint,
    ...config,
  };
}
async function create(config: Record<string, unknown>, model = 'events') {
  const res = await server.request('POST', base, {
    json: { name: 'S3 export', interval: 'hour', paused: true, model, destination: { type: 'S3', config } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
async function backfill(id: string, hour = HOUR, tick: () => Promise<void> = () => scheduler.tick()) {
  expect((await server.request('POST', `${base}${id}/backfill/`, { json: hour })).status).toBe(200);
  await tick();
}
const runs = async (id: string) =>
  pageSchema(batchExportRunSchema).parse((await server.get(`${base}${id}/runs/?limit=100`)).body).results;
const logs = async (id: string) =>
  (await server.get(`${base}${id}/logs/?limit=1000`)).body.results as { level: string; message: string }[];

/** Every object under `prefix`, downloaded. */
async function objects(prefix: string): Promise<{ key: string; body: Buffer }[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return Promise.all(
    (listed.Contents ?? []).map(async ({ Key }) => {
      const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: Key! }));
      return { key: Key!, body: Buffer.from(await got.Body!.transformToByteArray()) };
    }),
  );
}

/** The rows of a Parquet file, read back through DuckDB, with their columns in the file's order. */
async function parquetRows(body: Buffer): Promise<Record<string, unknown>[]> {
  const file = path.join(scratch, `rows-${prefixes}.parquet`);
  fs.writeFileSync(file, body);
  duckdb ??= await DuckDBInstance.create(':memory:');
  const db = await duckdb.connect();
  const reader = await db.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
  db.closeSync();
  return reader.getRowObjectsJS();
}

/** A file's records, decoded by its extension: JSON lines (plain, gzip, brotli) or Parquet read back through DuckDB. */
async function decode(key: string, body: Buffer): Promise<Record<string, unknown>[]> {
  if (key.includes('.parquet')) {
    const file = path.join(scratch, `${prefixes}-${path.basename(key).replace(/[^\w.-]/g, '_')}`);
    fs.writeFileSync(file, body);
    duckdb ??= await DuckDBInstance.create(':memory:');
    const db = await duckdb.connect();
    const reader = await db.runAndReadAll(
      `SELECT uuid, epoch_ms("timestamp")::DOUBLE AS ts, event, properties, distinct_id FROM read_parquet('${file}')`,
    );
    db.closeSync();
    expect(reader.columnNames()).toEqual(['uuid', 'ts', 'event', 'properties', 'distinct_id']);
    return reader.getRowObjectsJS().map((r) => ({
      uuid: r.uuid,
      event: r.event,
      distinct_id: r.distinct_id,
      timestamp: new Date(Number(r.ts)).toISOString(),
      team_id: team,
      properties: JSON.parse(String(r.properties)) as unknown,
    }));
  }
  const text = key.endsWith('.gz')
    ? zlib.gunzipSync(body)
    : key.endsWith('.br')
      ? zlib.brotliDecompressSync(body)
      : body;
  return text
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  s3 = await startS3({ buckets: [BUCKET] });
  client = s3Client(s3.endpoint);
  team = (await server.get(`/api/organizations/${hedgebox}/`)).body.teams[0].id;
  await server.events.append(team, [
    ...small,
    event(90, '2024-06-03T04:59:59Z'),
    event(91, '2024-06-03T06:00:00Z'),
    ...big,
  ]);
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
    [null, '.jsonl'],
    ['gzip', '.jsonl.gz'],
    ['brotli', '.jsonl.br'],
    ['zstd', '.parquet.zst', 'Parquet'],
    ['snappy', '.parquet.sz', 'Parquet'],
  ])(
    '%s compression: one %s object under the production key, every event once, in order',
    async (compression, extension, format = 'JSONLines') => {
      const id = await create(s3Config({ compression, file_format: format }));
      await backfill(id);
      const [run] = await runs(id);
      expect(run).toMatchObject({
        status: 'Completed',
        records_total_count: 25,
        records_completed: 25,
        latest_error: null,
      });
      const files = await objects(`test-${prefixes}/`);
      const key = `test-${prefixes}/2024/06/${HOUR_NAME}${extension}`;
      expect(files.map((f) => f.key)).toEqual([key]);
      expect(await decode(key, files[0]!.body)).toEqual(inOrder(small));
      expect((await logs(id)).map((l) => l.message)).toContainEqual(
        expect.stringMatching(
          new RegExp(`^Uploaded ${key.replaceAll('+', '\\+')} to S3 bucket exports: 25 records, \\d+ bytes\\.$`),
        ),
      );
    },
  );

  it.each([
    ['JSONLines', null],
    ['JSONLines', 'gzip'],
    ['Parquet', 'zstd'],
  ])(
    '%s (%s) splits at max_file_size_mb: numbered files of at most 1 MiB, a manifest, every event once',
    async (format, compression) => {
      const id = await create(
        s3Config({ file_format: format, compression, max_file_size_mb: 1, prefix: `split-${format}-${compression}` }),
      );
      await backfill(id, BIG_HOUR);
      expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 1200 });
      const files = await objects(`split-${format}-${compression}/`);
      const manifest = files.find((f) => f.key.endsWith('_manifest.json'))!;
      const data = files
        .filter((f) => f !== manifest)
        .sort(
          (a, b) =>
            Number(/-(\d+)\.(jsonl|parquet)/.exec(a.key)![1]) - Number(/-(\d+)\.(jsonl|parquet)/.exec(b.key)![1]),
        );
      expect(data.length).toBeGreaterThan(1);
      expect(data.map((f) => f.key)).toEqual(
        data.map((_, n) =>
          expect.stringMatching(
            new RegExp(
              `^split-${format}-${compression}/2024-06-03T07:00:00\\+00:00-2024-06-03T08:00:00\\+00:00-${n}\\.(jsonl|parquet)`,
            ),
          ),
        ),
      );
      for (const f of data) expect(f.body.length).toBeLessThanOrEqual(1024 * 1024);
      expect(JSON.parse(manifest.body.toString())).toEqual({ files: data.map((f) => f.key) });
      const all = (await Promise.all(data.map((f) => decode(f.key, f.body)))).flat();
      expect(all).toEqual(inOrder(big));
    },
  );

  it('a rerun that writes fewer split files removes the extra ones of the earlier run: the prefix holds what the manifest lists', async () => {
    const config = s3Config({ max_file_size_mb: 1, prefix: 'shrink' });
    const id = await create(config);
    await backfill(id, BIG_HOUR);
    const numbered = (keys: string[]) => keys.filter((k) => /-\d+\.jsonl$/.test(k)).sort();
    expect(numbered((await objects('shrink/')).map((f) => f.key))).toEqual([
      `shrink/${BIG_HOUR_NAME}-0.jsonl`,
      `shrink/${BIG_HOUR_NAME}-1.jsonl`,
    ]);
    // Not this interval's numbered files in this format: they stay.
    const others = [
      `shrink/${HOUR_NAME}-3.jsonl`,
      `shrink/${BIG_HOUR_NAME}-3.parquet`,
      `shrink/${BIG_HOUR_NAME}-notes.jsonl`,
    ];
    for (const key of others) await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'not ours\n' }));

    // Larger files: the same records now fit in one.
    const patched = await server.request('PATCH', `${base}${id}/`, {
      json: { destination: { type: 'S3', config: { ...config, max_file_size_mb: 4 } } },
    });
    expect(patched.status, patched.text).toBe(200);
    await backfill(id, BIG_HOUR);
    expect((await runs(id)).map((r) => r.status)).toEqual(['Completed', 'Completed']);
    const files = await objects('shrink/');
    const manifest = `shrink/${BIG_HOUR_NAME}_manifest.json`;
    expect(files.map((f) => f.key).sort()).toEqual([`shrink/${BIG_HOUR_NAME}-0.jsonl`, manifest, ...others].sort());
    expect(JSON.parse(files.find((f) => f.key === manifest)!.body.toString())).toEqual({
      files: [`shrink/${BIG_HOUR_NAME}-0.jsonl`],
    });
    expect(await decode('.jsonl', files.find((f) => f.key.endsWith('-0.jsonl'))!.body)).toEqual(inOrder(big));
    expect((await logs(id)).map((l) => l.message)).toContain(
      `Removed 1 file an earlier attempt wrote that this one did not: shrink/${BIG_HOUR_NAME}-1.jsonl.`,
    );
  });

  it('switching from split files to one file: a rerun removes the numbered files and their manifest; back to split removes the single file', async () => {
    const config = s3Config({ max_file_size_mb: 1, prefix: 'unsplit' });
    const id = await create(config);
    await backfill(id, BIG_HOUR);
    expect((await objects('unsplit/')).map((f) => f.key).sort()).toEqual([
      `unsplit/${BIG_HOUR_NAME}-0.jsonl`,
      `unsplit/${BIG_HOUR_NAME}-1.jsonl`,
      `unsplit/${BIG_HOUR_NAME}_manifest.json`,
    ]);
    // Another interval's files and another format's stay.
    const others = [
      `unsplit/${HOUR_NAME}-0.jsonl`,
      `unsplit/${HOUR_NAME}_manifest.json`,
      `unsplit/${BIG_HOUR_NAME}-0.parquet`,
    ];
    for (const key of others) await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'not ours\n' }));

    const patch = async (over: Record<string, unknown>) => {
      const res = await server.request('PATCH', `${base}${id}/`, {
        json: { destination: { type: 'S3', config: { ...config, ...over } } },
      });
      expect(res.status, res.text).toBe(200);
    };
    await patch({ max_file_size_mb: null });
    await backfill(id, BIG_HOUR);
    expect((await runs(id)).map((r) => r.status)).toEqual(['Completed', 'Completed']);
    let files = await objects('unsplit/');
    expect(files.map((f) => f.key).sort()).toEqual([`unsplit/${BIG_HOUR_NAME}.jsonl`, ...others].sort());
    expect(await decode('.jsonl', files.find((f) => f.key === `unsplit/${BIG_HOUR_NAME}.jsonl`)!.body)).toEqual(
      inOrder(big),
    );
    expect((await logs(id)).map((l) => l.message)).toContain(
      `Removed 3 files an earlier attempt wrote that this one did not: unsplit/${BIG_HOUR_NAME}-0.jsonl, unsplit/${BIG_HOUR_NAME}-1.jsonl, unsplit/${BIG_HOUR_NAME}_manifest.json.`,
    );

    await patch({ max_file_size_mb: 1 });
    await backfill(id, BIG_HOUR);
    files = await objects('unsplit/');
    expect(files.map((f) => f.key).sort()).toEqual(
      [
        `unsplit/${BIG_HOUR_NAME}-0.jsonl`,
        `unsplit/${BIG_HOUR_NAME}-1.jsonl`,
        `unsplit/${BIG_HOUR_NAME}_manifest.json`,
        ...others,
      ].sort(),
    );
  });

  it('the persons model as Parquet (lz4): one row per distinct id of the persons changed in the interval, with the production columns', async () => {
    const id = await create(s3Config({ file_format: 'Parquet', compression: 'lz4' }), 'persons');
    await backfill(id);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Completed' });
    expect(run!.records_total_count).toBeGreaterThan(0);
    const files = await objects(`test-${prefixes}/`);
    expect(files.map((f) => f.key)).toEqual([`test-${prefixes}/2024/06/${HOUR_NAME}.parquet.lz4`]);
    const rows = await parquetRows(files[0]!.body);
    expect(Object.keys(rows[0]!)).toEqual([
      'team_id',
      'distinct_id',
      'person_id',
      'properties',
      'person_version',
      'person_distinct_id_version',
      'created_at',
      '_inserted_at',
    ]);
    const expected = await server.events.all<{ d: string; p: string }>(
      `SELECT d.distinct_id AS d, p.id::VARCHAR AS p FROM persons p JOIN person_distinct_ids d ON d.team_id = p.team_id AND d.person_id = p.id
        WHERE p.team_id = $1 AND p.updated_at >= $2::TIMESTAMPTZ AND p.updated_at < $3::TIMESTAMPTZ ORDER BY p.updated_at, p.id, d.distinct_id`,
      [team, HOUR.start_at, HOUR.end_at],
    );
    expect(rows.map((r) => [r.distinct_id, r.person_id])).toEqual(expected.map((e) => [e.d, e.p]));
    expect(rows.every((r) => r.team_id === team && typeof JSON.parse(String(r.properties)) === 'object')).toBe(true);
  });

  it('persons: a person created in one interval and changed in a later one is in both exports, with its new properties in the later one', async () => {
    const id = await create(s3Config({ prefix: 'persons-updated' }), 'persons');
    const hour = (h: number) => ({ start_at: `2024-06-03T${h}:00:00Z`, end_at: `2024-06-03T${h + 1}:00:00Z` });
    const exported = async (h: number) => {
      const file = (await objects(`persons-updated/2024-06-03T${h}:00:00+00:00-`))[0];
      return file ? decode('.jsonl', file.body) : [];
    };
    const person = (i: number, at: string, over: Partial<CaptureEvent> = {}): CaptureEvent => ({
      ...event(i, at, {}),
      distinct_id: 's3-changed',
      ...over,
    });
    await server.events.append(team, [person(2001, '2024-06-03T13:10:00Z', { set: { plan: 'free' } })]);
    await backfill(id, hour(13));
    await backfill(id, hour(14));
    // Interval 3: a $set, and a second distinct id merged into the person.
    await server.events.append(team, [
      person(2002, '2024-06-03T15:20:00Z', { set: { plan: 'pro' } }),
      { ...event(2003, '2024-06-03T15:25:00Z', {}), distinct_id: 's3-other-device' },
      {
        ...event(2004, '2024-06-03T15:30:00Z', {}),
        event: '$identify',
        distinct_id: 's3-changed',
        properties: { $anon_distinct_id: 's3-other-device' },
      },
    ]);
    await backfill(id, hour(15));
    expect((await runs(id)).map((r) => r.status)).toEqual(['Completed', 'Completed', 'Completed']);

    const first = await exported(13);
    expect(first).toEqual([
      expect.objectContaining({
        team_id: team,
        distinct_id: 's3-changed',
        properties: { plan: 'free' },
        person_version: 0,
        person_distinct_id_version: 0,
        created_at: '2024-06-03T13:10:00.000Z',
        _inserted_at: '2024-06-03T13:10:00.000Z',
      }),
    ]);
    expect(await exported(14)).toEqual([]);
    const later = await exported(15);
    expect(later.map((r) => r.distinct_id)).toEqual(['s3-changed', 's3-other-device']);
    expect(later.every((r) => r.person_id === first[0]!.person_id)).toBe(true);
    expect(later[0]).toEqual({
      team_id: team,
      distinct_id: 's3-changed',
      person_id: first[0]!.person_id,
      properties: { plan: 'pro' },
      person_version: 1,
      person_distinct_id_version: 0,
      created_at: '2024-06-03T13:10:00.000Z',
      _inserted_at: '2024-06-03T15:30:00.000Z',
    });
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
    expect((await logs(id)).map((l) => l.message)).toContain(
      'No events in the interval: nothing uploaded to S3 bucket exports.',
    );
  });
});

describe('S3 delivery failures', () => {
  it.each([
    [
      'a wrong secret',
      { aws_secret_access_key: SECRET },
      /^S3 bucket exports: the secret access key does not belong to the access key ID: check the credentials \(SignatureDoesNotMatch\), uploading test-\d+\/2024\/06\/\S+\.jsonl; 0 of 25 records uploaded\.$/,
    ],
    [
      'an unknown access key',
      { aws_access_key_id: 'AKIAUNKNOWN' },
      /^S3 bucket exports: the access key ID is not known to S3: check the credentials \(InvalidAccessKeyId\)/,
    ],
    [
      'a missing bucket',
      { bucket_name: 'no-such-bucket' },
      /^S3 bucket no-such-bucket: the bucket does not exist \(NoSuchBucket\)/,
    ],
    [
      'JSON lines in zstd',
      { file_format: 'JSONLines', compression: 'zstd' },
      /^JSONLines files cannot be compressed with zstd: choose gzip, brotli or no compression\.$/,
    ],
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
    const patient = createScheduler({
      store: server.store,
      events: server.events,
      now: () => clock,
      runner: { ...runner, retryDelayMs: 400 },
    });
    let late: LocalS3 | undefined;
    await backfill(id, HOUR, async () => {
      const ticking = patient.tick();
      for (let i = 0; i < 200 && (await runs(id))[0]?.status !== 'FailedRetryable'; i += 1)
        await new Promise((r) => setTimeout(r, 20));
      late = await startS3({ buckets: [BUCKET], port, dir });
      await ticking;
    });
    try {
      const [run] = await runs(id);
      expect(run).toMatchObject({ status: 'Completed', records_completed: 25, latest_error: null });
      const warning = (await logs(id)).find((l) => l.level === 'WARNING');
      expect(warning?.message).toMatch(
        /^Attempt 1 of 3 failed, retrying: S3 bucket exports: the connection was refused \(nothing listens on that port\) \(ECONNREFUSED\)/,
      );
      const lateClient = s3Client(late!.endpoint);
      const downloaded = await lateClient.send(
        new GetObjectCommand({ Bucket: BUCKET, Key: `test-${prefixes}/2024/06/${HOUR_NAME}.jsonl` }),
      );
      lateClient.destroy();
      expect(await decode('.jsonl', Buffer.from(await downloaded.Body!.transformToByteArray()))).toEqual(
        inOrder(small),
      );
    } finally {
      await patient.stop();
      await late?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('127.0.0.1 without --allow-destination is refused by the outbound guard before any request', async () => {
    const guarded = createScheduler({
      store: server.store,
      events: server.events,
      now: () => clock,
      runner: { ...runner, allowHosts: [] },
    });
    const id = await create(s3Config());
    await backfill(id, HOUR, () => guarded.tick());
    await guarded.stop();
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed' });
    expect(run!.latest_error).toMatch(
      /^S3 bucket exports: Refused: 127\.0\.0\.1 is a private, loopback or link-local address/,
    );
    expect(await objects(`test-${prefixes}/`)).toEqual([]);
  });
});

describe('S3 connection test', () => {
  const check = (config: Record<string, unknown>, allowHosts = ['127.0.0.1']) =>
    s3Destination.check(config, { allowHosts, httpTimeoutMs: 2000 });

  it('passes every step and leaves nothing behind', async () => {
    const config = s3Config({ encryption: 'AES256' });
    const steps = await check(config);
    expect(steps.map((s) => `${s.step}: ${s.status}`)).toEqual([
      'Check the file format and compression: passed',
      'Resolve endpoint: passed',
      'Authenticate and find the bucket: passed',
      'Write a test object: passed',
      'Remove the test object: passed',
    ]);
    expect(steps[3]!.detail).toMatch(
      new RegExp(
        `^Wrote test-${prefixes}/\\d{4}/\\d{2}/batch-export-connection-test-[\\w-]+\\.txt \\(encrypted with AES256\\)\\.$`,
      ),
    );
    expect(await objects(`test-${prefixes}/`)).toEqual([]);
  });

  it.each([
    ['a wrong secret', { aws_secret_access_key: SECRET }, 'Authenticate and find the bucket', /SignatureDoesNotMatch/],
    [
      'a missing bucket',
      { bucket_name: 'no-such-bucket' },
      'Authenticate and find the bucket',
      /^The bucket does not exist \(404 Not Found\)\.$/,
    ],
    [
      'a name that does not resolve',
      { endpoint_url: 'http://no-such-host.invalid:9000' },
      'Resolve endpoint',
      /^DNS: the host name does not resolve \(ENOTFOUND\)\.$/,
    ],
    [
      'a format that cannot take the compression',
      { compression: 'lz4' },
      'Check the file format and compression',
      /^JSONLines files cannot be compressed with lz4/,
    ],
  ])('%s: that step fails with its cause, the later ones are skipped', async (_, change, failing, detail) => {
    const steps = await check(s3Config(change));
    const at = steps.findIndex((s) => s.status === 'failed');
    expect(steps[at]).toMatchObject({ step: failing, detail: expect.stringMatching(detail) });
    expect(steps.slice(at + 1).every((s) => s.status === 'skipped')).toBe(true);
    expect(JSON.stringify(steps)).not.toContain(SECRET);
  });

  it('a loopback endpoint without --allow-destination fails at "Resolve endpoint"', async () => {
    const steps = await check(s3Config(), []);
    expect(steps[1]).toMatchObject({
      step: 'Resolve endpoint',
      status: 'failed',
      detail: expect.stringMatching(/^Refused: 127\.0\.0\.1 is a private/),
    });
  });
});
