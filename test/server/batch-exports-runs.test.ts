import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchExportRunSchema, pageSchema } from '../../src/contract/index.ts';
import type { CaptureEvent } from '../../server/analytics/store/ingest-parse.ts';
import { createScheduler } from '../../server/batch-exports/scheduler.ts';
import { createTestServer, HEDGEBOX } from './helpers.ts';

let clock = new Date('2024-06-03T10:30:00.000Z');
const at = (time: string) => {
  clock = new Date(`2024-06-03T${time}:00.000Z`);
};
const server = createTestServer({ now: () => clock });
const scheduler = createScheduler({
  store: server.store,
  events: server.events,
  now: () => clock,
  runner: { retryDelayMs: 0, httpBatchSize: 2, maxAttempts: 3, allowHosts: ['127.0.0.1'] },
});
const hedgebox = server.orgIds[HEDGEBOX]!;
const base = `/api/organizations/${hedgebox}/batch_exports/`;
const TOKEN = 'receiver-token-SECRET-42';
let team = 0;

/** A receiver on a free port: records each request, answers `status()`. */
function receiver(status: () => number) {
  const requests: {
    auth: string | undefined;
    type: string | undefined;
    lines: Record<string, unknown>[];
    runStatus: string | undefined;
  }[] = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const running = server.store.db
        .prepare("SELECT status FROM batch_export_runs WHERE status IN ('Running', 'FailedRetryable')")
        .pluck()
        .get() as string | undefined;
      requests.push({
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        lines: body
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        runStatus: running,
      });
      res.writeHead(status()).end();
    });
  });
  const ready = new Promise<string>((resolve) =>
    srv.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/ingest`)),
  );
  return { requests, ready, close: () => new Promise((r) => srv.close(r)) };
}

const event = (i: number, timestamp: string): CaptureEvent => ({
  uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  event: i % 2 ? '$pageview' : 'signed_up',
  distinct_id: `user-${i % 3}`,
  timestamp: new Date(timestamp),
  properties: { i },
  set: null,
  setOnce: null,
});

async function create(json: Record<string, unknown>) {
  const res = await server.request('POST', base, {
    json: { name: 'Export', interval: 'hour', destination: { type: 'NoOp', config: {} }, ...json },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
const runs = async (id: string) =>
  pageSchema(batchExportRunSchema).parse((await server.get(`${base}${id}/runs/?limit=1000`)).body).results;
const intervals = async (id: string) =>
  (await runs(id)).map(
    (r) => `${r.data_interval_start!.slice(11, 16)}-${r.data_interval_end.slice(11, 16)} ${r.status}`,
  );
const logs = async (id: string, query = '') => (await server.get(`${base}${id}/logs/?limit=1000${query}`)).body;

beforeAll(async () => {
  team = (await server.get(`/api/organizations/${hedgebox}/`)).body.teams[0].id;
  await server.events.append(team, [
    event(1, '2024-06-03T05:10:00Z'),
    event(2, '2024-06-03T05:20:00Z'),
    event(3, '2024-06-03T05:59:59Z'),
    event(4, '2024-06-03T06:00:00Z'),
    event(5, '2024-06-03T05:30:00Z'),
    event(6, '2024-06-03T10:15:00Z'),
    event(7, '2024-06-03T10:45:00Z'),
  ]);
  await server.events.append(team + 1, [event(8, '2024-06-03T05:15:00Z')]); // another project: never counted
});
afterAll(async () => {
  await scheduler.stop();
  await server.close();
});

describe('the scheduler (injected clock)', () => {
  it('makes no run without a scheduler tick: app.request() alone never runs exports', async () => {
    const id = await create({});
    at('12:00');
    await server.get(base);
    expect(await runs(id)).toEqual([]);
    server.store.batchExports.delete(hedgebox, id);
  });

  it("one run per elapsed interval, aligned, counting the interval's events; paused makes none; end_at is respected", async () => {
    at('10:30');
    const hourly = await create({ name: 'hourly' });
    const paused = await create({ name: 'paused', paused: true });
    const ending = await create({ name: 'ending', end_at: '2024-06-03T12:00:00Z' });
    await scheduler.tick();
    expect(await runs(hourly)).toEqual([]);
    at('11:00');
    await scheduler.tick();
    const [first] = await runs(hourly);
    expect(first).toMatchObject({
      status: 'Completed',
      data_interval_start: '2024-06-03T10:00:00.000Z',
      data_interval_end: '2024-06-03T11:00:00.000Z',
      records_total_count: 2,
      records_completed: 2,
      latest_error: null,
      finished_at: '2024-06-03T11:00:00.000Z',
    });
    at('13:30');
    await scheduler.tick();
    expect(await intervals(hourly)).toEqual([
      '12:00-13:00 Completed',
      '11:00-12:00 Completed',
      '10:00-11:00 Completed',
    ]);
    expect(await intervals(ending)).toEqual(['11:00-12:00 Completed', '10:00-11:00 Completed']);
    expect(await runs(paused)).toEqual([]);
    const latest = (await server.get(`${base}${hourly}/`)).body.latest_runs;
    expect(latest.map((r: { data_interval_end: string }) => r.data_interval_end.slice(11, 16))).toEqual([
      '13:00',
      '12:00',
      '11:00',
    ]);
    at('20:00');
    await scheduler.tick();
    expect(await runs(ending)).toHaveLength(2);
    for (const id of [hourly, paused, ending]) server.store.batchExports.delete(hedgebox, id);
  });

  it('unpausing resumes at the next interval without catch-up runs', async () => {
    at('10:30');
    const id = await create({});
    at('11:00');
    await scheduler.tick();
    expect(await runs(id)).toHaveLength(1);
    await server.request('POST', `${base}${id}/pause/`);
    at('16:20');
    await scheduler.tick();
    expect(await runs(id)).toHaveLength(1);
    await server.request('POST', `${base}${id}/unpause/`);
    await scheduler.tick();
    expect(await runs(id)).toHaveLength(1);
    at('17:00');
    await scheduler.tick();
    expect(await intervals(id)).toEqual(['16:00-17:00 Completed', '10:00-11:00 Completed']);
    server.store.batchExports.delete(hedgebox, id);
  });
});

describe('backfill', () => {
  it.each([
    [{ start_at: 'not a date', end_at: '2024-06-03T08:00:00Z' }, 'start_at'],
    [{ start_at: '2024-06-03T05:00:00Z' }, 'end_at'],
    [{ start_at: '2024-06-03T08:00:00Z', end_at: '2024-06-03T08:00:00Z' }, 'end_at'],
    [{ start_at: '2024-06-03T09:00:00Z', end_at: '2024-06-03T08:00:00Z' }, 'end_at'],
    [{ start_at: '2024-06-03T08:00:00Z', end_at: '2024-06-03T23:00:00Z' }, 'end_at'],
    [{ start_at: '2024-06-03T17:10:00Z', end_at: '2024-06-03T17:20:00Z' }, 'end_at'],
    [{ start_at: '2020-01-01T00:00:00Z', end_at: '2024-06-03T08:00:00Z' }, 'start_at'],
  ])('400 for %j', async (json, attr) => {
    at('17:30');
    const id = await create({});
    const res = await server.request('POST', `${base}${id}/backfill/`, { json });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
    expect(await runs(id)).toEqual([]);
    server.store.batchExports.delete(hedgebox, id);
  });

  it('creates one run per interval and executes them oldest first', async () => {
    at('17:30');
    const id = await create({ paused: true });
    const res = await server.request('POST', `${base}${id}/backfill/`, {
      json: { start_at: '2024-06-03T07:00:00+02:00', end_at: '2024-06-03T08:00:00Z' },
    });
    expect(res.status, res.text).toBe(200);
    expect(
      res.body.latest_runs.map(
        (r: { status: string; data_interval_start: string }) => `${r.data_interval_start.slice(11, 16)} ${r.status}`,
      ),
    ).toEqual(['07:00 Starting', '06:00 Starting', '05:00 Starting']);
    await scheduler.tick();
    expect(await intervals(id)).toEqual(['07:00-08:00 Completed', '06:00-07:00 Completed', '05:00-06:00 Completed']);
    expect((await runs(id)).map((r) => r.records_total_count)).toEqual([0, 1, 4]);
    const started = (await logs(id, '&level=info')).results.filter((l: { message: string }) =>
      l.message.startsWith('Run started'),
    );
    expect(started.reverse().map((l: { message: string }) => /of (\S+)/.exec(l.message)![1]!.slice(11, 16))).toEqual([
      '05:00',
      '06:00',
      '07:00',
    ]);
    server.store.batchExports.delete(hedgebox, id);
  });
});

describe('destinations', () => {
  it("HTTP POSTs the interval's events as JSON lines in batches, with the token", async () => {
    const ok = receiver(() => 200);
    const id = await create({ destination: { type: 'HTTP', config: { url: await ok.ready, token: TOKEN } } });
    await server.request('POST', `${base}${id}/backfill/`, {
      json: { start_at: '2024-06-03T05:00:00Z', end_at: '2024-06-03T06:00:00Z' },
    });
    await scheduler.tick();
    await ok.close();
    expect(ok.requests.map((r) => r.lines.length)).toEqual([2, 2]);
    for (const r of ok.requests) expect(r).toMatchObject({ auth: `Bearer ${TOKEN}`, type: 'application/x-ndjson' });
    const lines = ok.requests.flatMap((r) => r.lines);
    expect(lines.map((l) => l.uuid)).toEqual([1, 2, 5, 3].map((i) => event(i, '2024-01-01').uuid));
    expect(lines[0]).toEqual({
      uuid: event(1, '').uuid,
      event: '$pageview',
      distinct_id: 'user-1',
      timestamp: '2024-06-03T05:10:00.000Z',
      team_id: team,
      properties: { i: 1 },
    });
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 4, records_total_count: 4 });
    const all = await logs(id);
    expect(all.count).toBeGreaterThan(3);
    const runId = (await runs(id))[0]!.id;
    const debug = await logs(id, `&level=DEBUG&run_id=${runId}`);
    expect(debug.results.map((l: { level: string; run_id: string }) => [l.level, l.run_id])).toEqual([
      ['DEBUG', runId],
      ['DEBUG', runId],
    ]);
    expect(JSON.stringify(all)).not.toContain(TOKEN);
    expect((await server.get(`${base}${id}/`)).text).not.toContain(TOKEN);
  });

  it('a failing receiver: FailedRetryable while retried, then Failed with latest_error', async () => {
    const failing = receiver(() => 500);
    const id = await create({ destination: { type: 'HTTP', config: { url: await failing.ready, token: TOKEN } } });
    await server.request('POST', `${base}${id}/backfill/`, {
      json: { start_at: '2024-06-03T05:00:00Z', end_at: '2024-06-03T06:00:00Z' },
    });
    await scheduler.tick();
    await failing.close();
    expect(failing.requests.map((r) => r.runStatus)).toEqual(['Running', 'FailedRetryable', 'FailedRetryable']);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed', records_completed: 0, records_total_count: 4 });
    expect(run!.latest_error).toMatch(/answered 500/);
    const entries = (await logs(id)).results as { level: string; message: string }[];
    expect(entries.filter((l) => l.level === 'WARNING')).toHaveLength(2);
    expect(entries[0]).toMatchObject({ level: 'ERROR' });
    expect(entries[0]!.message).toMatch(/after 3 attempts/);
    expect(JSON.stringify(entries)).not.toContain(TOKEN);
  });

  it('an unreachable receiver fails with a clear error', async () => {
    const gone = receiver(() => 200);
    const url = await gone.ready;
    await gone.close(); // nothing listens on its port any more
    const id = await create({ destination: { type: 'HTTP', config: { url, token: TOKEN } } });
    await server.request('POST', `${base}${id}/backfill/`, {
      json: { start_at: '2024-06-03T05:00:00Z', end_at: '2024-06-03T06:00:00Z' },
    });
    await scheduler.tick();
    expect((await runs(id))[0]).toMatchObject({ status: 'Failed' });
    expect((await runs(id))[0]!.latest_error).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });

  it('S3 whose endpoint refuses connections fails, never Completed, with a latest_error that says so', async () => {
    const secret = 'aws-SECRET-never-shown';
    const id = await create({
      destination: {
        type: 'S3',
        config: {
          bucket_name: 'bkt',
          region: 'us-east-1',
          aws_access_key_id: 'AKIA',
          aws_secret_access_key: secret,
          endpoint_url: 'http://127.0.0.1:9',
        },
      },
    });
    await server.request('POST', `${base}${id}/backfill/`, {
      json: { start_at: '2024-06-03T05:00:00Z', end_at: '2024-06-03T07:00:00Z' },
    });
    await scheduler.tick();
    const list = await runs(id);
    expect(list.map((r) => r.status)).toEqual(['Failed', 'Failed']);
    expect(list[1]!.latest_error).toMatch(/^S3 bucket bkt: .*refused.*0 of 4 records uploaded\.$/);
    const entries = await logs(id, '&level=ERROR');
    expect(entries.count).toBe(2);
    expect(JSON.stringify(await logs(id)) + JSON.stringify(list)).not.toContain(secret);
  });

  it('the persons model counts a record per distinct id of the persons changed in the interval', async () => {
    const id = await create({ model: 'persons' });
    const [row] = await server.events.all<{ n: number }>(
      `SELECT count(*)::DOUBLE AS n FROM person_distinct_ids d JOIN persons p ON p.team_id = d.team_id AND p.id = d.person_id
      WHERE p.team_id = $1 AND p.updated_at >= '2024-06-03T05:00:00Z'::TIMESTAMPTZ AND p.updated_at < '2024-06-03T06:00:00Z'::TIMESTAMPTZ`,
      [team],
    );
    await server.request('POST', `${base}${id}/backfill/`, {
      json: { start_at: '2024-06-03T05:00:00Z', end_at: '2024-06-03T06:00:00Z' },
    });
    await scheduler.tick();
    expect(row!.n).toBeGreaterThan(0);
    expect((await runs(id))[0]).toMatchObject({
      status: 'Completed',
      records_total_count: row!.n,
      records_completed: row!.n,
    });
  });
});
