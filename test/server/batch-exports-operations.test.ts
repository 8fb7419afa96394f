import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { backfillSchema, batchExportRunSchema, connectionTestSchema, pageSchema } from '../../src/contract/index.ts';
import { createApp } from '../../server/app.ts';
import { createScheduler } from '../../server/batch-exports/scheduler.ts';
import { createTestServer, HEDGEBOX, NORTHWIND, requester, type RequestOptions } from './helpers.ts';

let clock = new Date('2024-06-03T10:30:00.000Z');
const server = createTestServer({ now: () => clock });
// The receivers of these tests listen on loopback, which only an allowed host may reach.
const app = createApp({
  store: server.store,
  events: server.events,
  staticDir: '/nonexistent',
  now: () => clock,
  allowDestinations: ['127.0.0.1'],
});
const request = requester(app, server.demoKey);
const scheduler = createScheduler({
  store: server.store,
  events: server.events,
  now: () => clock,
  runner: { retryDelayMs: 0, maxAttempts: 1, allowHosts: ['127.0.0.1'] },
});
afterAll(async () => {
  await scheduler.stop();
  await server.close();
});
const hedgebox = server.orgIds[HEDGEBOX]!;
const northwind = server.orgIds[NORTHWIND]!;
const base = `/api/organizations/${hedgebox}/batch_exports/`;
const TOKEN = 'receiver-token-SECRET-77';

/** A receiver on loopback: records the Authorization of each request and answers `status()`. */
async function receiver(status: () => number) {
  const auth: (string | undefined)[] = [];
  const srv = http.createServer((req, res) => {
    auth.push(req.headers.authorization);
    req.resume().on('end', () => res.writeHead(status()).end());
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/in`,
    auth,
    close: () => new Promise((r) => srv.close(r)),
  };
}
/** A loopback port nothing listens on. */
async function closedPort(): Promise<string> {
  const gone = await receiver(() => 200);
  await gone.close();
  return gone.url;
}

async function create(json: Record<string, unknown>) {
  const res = await request('POST', base, {
    json: { name: 'Export', interval: 'hour', destination: { type: 'NoOp', config: {} }, ...json },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
const runs = async (id: string) =>
  pageSchema(batchExportRunSchema).parse((await request('GET', `${base}${id}/runs/?limit=1000`)).body).results;
const backfills = async (id: string) =>
  pageSchema(backfillSchema).parse((await request('GET', `${base}${id}/backfills/`)).body).results;
const backfill = (id: string, start: string, end: string, options: RequestOptions = {}) =>
  request('POST', `${base}${id}/backfill/`, {
    json: { start_at: `2024-06-03T${start}:00Z`, end_at: `2024-06-03T${end}:00Z` },
    ...options,
  });

describe('test connection', () => {
  it('reports each step: an HTTP endpoint that refuses fails, one that answers passes', async () => {
    const refused = await request('POST', `${base}test/`, {
      json: { destination: { type: 'HTTP', config: { url: await closedPort(), token: TOKEN } } },
    });
    expect(refused.status, refused.text).toBe(200);
    const failed = connectionTestSchema.parse(refused.body);
    expect(failed.ok).toBe(false);
    expect(failed.steps).toEqual([
      { step: 'Send an empty batch', status: 'failed', detail: expect.stringContaining('ECONNREFUSED') },
    ]);
    expect(refused.text).not.toContain(TOKEN);

    const ok = await receiver(() => 204);
    const passed = await request('POST', `${base}test/`, {
      json: { destination: { type: 'HTTP', config: { url: ok.url, token: TOKEN } } },
    });
    await ok.close();
    expect(passed.body).toEqual({
      ok: true,
      steps: [{ step: 'Send an empty batch', status: 'passed', detail: 'The endpoint answered 204.' }],
    });
    expect(ok.auth).toEqual([`Bearer ${TOKEN}`]);
  });

  it('refuses a private address the server was not told to allow', async () => {
    const res = await server.request('POST', `${base}test/`, {
      json: { destination: { type: 'HTTP', config: { url: 'http://10.1.2.3/in', token: 't' } } },
    });
    expect(res.body.ok).toBe(false);
    expect(res.body.steps[0].detail).toMatch(/^Refused: /);
  });

  it('400 with the field for a bad destination; 403 without batch_export:write; 403 for an organization the key cannot reach', async () => {
    const bad = await request('POST', `${base}test/`, {
      json: { destination: { type: 'HTTP', config: { url: 'not a url', token: 't' } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'validation_error', attr: 'destination__config__url' });
    const missing = await request('POST', `${base}test/`, { json: {} });
    expect(missing.body).toMatchObject({ type: 'validation_error', attr: 'destination' });
    const read = server.makeKey({ scopes: ['batch_export:read'] });
    const denied = await request('POST', `${base}test/`, {
      key: read,
      json: { destination: { type: 'NoOp', config: {} } },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe("API key missing required scope 'batch_export:write'");
    const scoped = server.makeKey({ scopes: ['*'], organizations: [northwind] });
    expect(
      (await request('POST', `${base}test/`, { key: scoped, json: { destination: { type: 'NoOp', config: {} } } }))
        .status,
    ).toBe(403);
  });

  it('tests an export with its stored secret, the given fields over the stored ones', async () => {
    const ok = await receiver(() => 200);
    const id = await create({ destination: { type: 'HTTP', config: { url: await closedPort(), token: TOKEN } } });
    const stored = await request('POST', `${base}${id}/test/`);
    expect(stored.body.ok).toBe(false);
    // The form sends the URL being edited and no token: the stored token is used.
    const edited = await request('POST', `${base}${id}/test/`, {
      json: { destination: { type: 'HTTP', config: { url: ok.url } } },
    });
    await ok.close();
    expect(edited.body.ok).toBe(true);
    expect(ok.auth).toEqual([`Bearer ${TOKEN}`]);
    // Testing saves nothing.
    expect((await request('GET', `${base}${id}/`)).body.destination.config.url).not.toBe(ok.url);

    const otherType = await request('POST', `${base}${id}/test/`, {
      json: { destination: { type: 'Postgres', config: { host: 'h', database: 'd', user: 'u' } } },
    });
    expect(otherType.status).toBe(400);
    expect(otherType.body.attr).toBe('destination__config__password');
    expect((await request('POST', `/api/organizations/${northwind}/batch_exports/${id}/test/`)).status).toBe(404);
  });
});

describe('backfills and retries', () => {
  it('a backfill is listed with its range, status and progress, and completes with its runs', async () => {
    const id = await create({ paused: true });
    expect((await backfill(id, '05:00', '08:00')).status).toBe(200);
    const [started] = await backfills(id);
    expect(started).toMatchObject({
      status: 'Running',
      start_at: '2024-06-03T05:00:00.000Z',
      end_at: '2024-06-03T08:00:00.000Z',
      finished_at: null,
      batch_export: id,
      progress: { total_runs: 3, finished_runs: 0, progress: 0, records_completed: 0 },
    });
    expect((await runs(id)).map((r) => r.backfill)).toEqual([started!.id, started!.id, started!.id]);

    await scheduler.drain();
    const done = backfillSchema.parse((await request('GET', `${base}${id}/backfills/${started!.id}/`)).body);
    expect(done).toMatchObject({
      status: 'Completed',
      progress: { total_runs: 3, finished_runs: 3, progress: 1 },
      total_records_count: 0,
    });
    expect(done.finished_at).not.toBeNull();
  });

  it('cancel/ cancels the waiting runs and the backfill; twice changes nothing', async () => {
    const id = await create({ paused: true });
    await backfill(id, '02:00', '06:00');
    const [b] = await backfills(id);
    const res = await request('POST', `${base}${id}/backfills/${b!.id}/cancel/`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Cancelled', progress: { total_runs: 4, finished_runs: 4 } });
    expect((await runs(id)).map((r) => r.status)).toEqual(['Cancelled', 'Cancelled', 'Cancelled', 'Cancelled']);
    expect(await scheduler.drain()).toBe(0);
    const again = await request('POST', `${base}${id}/backfills/${b!.id}/cancel/`);
    expect(again.body).toEqual(res.body);
    const logs = (await request('GET', `${base}${id}/logs/`)).body.results as { message: string }[];
    expect(logs.filter((l) => l.message.includes('cancelled'))).toHaveLength(1);
  });

  it("backfills: 404 for another export's backfill or another organization, 403 cancel without write", async () => {
    const id = await create({ paused: true });
    const other = await create({ paused: true });
    await backfill(id, '05:00', '06:00');
    const [b] = await backfills(id);
    expect((await request('GET', `${base}${other}/backfills/${b!.id}/`)).status).toBe(404);
    expect((await request('POST', `${base}${other}/backfills/${b!.id}/cancel/`)).status).toBe(404);
    expect((await request('GET', `/api/organizations/${northwind}/batch_exports/${id}/backfills/`)).status).toBe(404);
    const read = server.makeKey({ scopes: ['batch_export:read'] });
    expect((await request('GET', `${base}${id}/backfills/`, { key: read })).status).toBe(200);
    expect((await request('POST', `${base}${id}/backfills/${b!.id}/cancel/`, { key: read })).status).toBe(403);
  });

  it('retry/ of a failed run makes a new run of the same interval, which a working receiver completes', async () => {
    let status = 500;
    const target = await receiver(() => status);
    const id = await create({ paused: true, destination: { type: 'HTTP', config: { url: target.url, token: TOKEN } } });
    await server.events.append(server.store.batchExports.get(id)!.team_id, [
      {
        uuid: '00000000-0000-4000-8000-000000000001',
        event: 'retried',
        distinct_id: 'u1',
        timestamp: new Date('2024-06-03T05:10:00Z'),
        properties: {},
        set: null,
        setOnce: null,
      },
    ]);
    await backfill(id, '05:00', '06:00');
    await scheduler.drain();
    const [failed] = await runs(id);
    expect(failed).toMatchObject({ status: 'Failed' });

    const read = server.makeKey({ scopes: ['batch_export:read'] });
    expect((await request('POST', `${base}${id}/runs/${failed!.id}/retry/`, { key: read })).status).toBe(403);
    const res = await request('POST', `${base}${id}/runs/${failed!.id}/retry/`);
    expect(res.status, res.text).toBe(200);
    const [retried] = await runs(id);
    expect(res.body).toEqual({ backfill_id: expect.any(String), run_id: retried!.id });
    expect(retried).toMatchObject({
      status: 'Starting',
      backfill: res.body.backfill_id,
      data_interval_start: failed!.data_interval_start,
      data_interval_end: failed!.data_interval_end,
    });
    status = 200;
    await scheduler.drain();
    await target.close();
    expect((await runs(id)).map((r) => r.status)).toEqual(['Completed', 'Failed']);
    expect((await runs(id))[0]).toMatchObject({ records_completed: 1, records_total_count: 1 });
    expect((await backfills(id))[0]).toMatchObject({
      id: res.body.backfill_id,
      status: 'Completed',
      start_at: failed!.data_interval_start,
    });

    const completed = (await runs(id))[0]!;
    const refused = await request('POST', `${base}${id}/runs/${completed.id}/retry/`);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/Completed/);
    const other = await create({ paused: true });
    expect((await request('POST', `${base}${other}/runs/${failed!.id}/retry/`)).status).toBe(404);
    expect(
      (await request('POST', `/api/organizations/${northwind}/batch_exports/${id}/runs/${failed!.id}/retry/`)).status,
    ).toBe(404);
  });

  it("the OpenAPI document marks the test endpoints as this server's own", async () => {
    const doc = (await request('GET', '/api/schema/')).body;
    const path = '/api/organizations/{organization_id}/batch_exports/test/';
    expect(doc.paths[path].post['x-extension']).toBe('reference-server');
    expect(
      doc.paths['/api/organizations/{organization_id}/batch_exports/{id}/backfills/'].get['x-extension'],
    ).toBeUndefined();
  });
});

it('include_events and exclude_events choose what a run exports', async () => {
  clock = new Date('2024-06-04T10:30:00.000Z');
  const id = await create({
    paused: true,
    destination: {
      type: 'HTTP',
      config: { url: 'http://127.0.0.1:9/in', token: TOKEN, include_events: ['a', 'b'], exclude_events: ['b'] },
    },
  });
  const team = server.store.batchExports.get(id)!.team_id;
  await server.events.append(
    team,
    ['a', 'b', 'c', 'a'].map((event, i) => ({
      uuid: `00000000-0000-4000-8000-00000000010${i}`,
      event,
      distinct_id: 'u',
      timestamp: new Date(`2024-06-04T03:0${i}:00Z`),
      properties: {},
      set: null,
      setOnce: null,
    })),
  );
  const noop = await create({ paused: true, destination: { type: 'NoOp', config: {} } });
  for (const exportId of [id, noop]) {
    await request('POST', `${base}${exportId}/backfill/`, {
      json: { start_at: '2024-06-04T03:00:00Z', end_at: '2024-06-04T04:00:00Z' },
    });
  }
  await scheduler.drain();
  expect((await runs(id))[0]!.records_total_count).toBe(2);
  expect((await runs(noop))[0]!.records_total_count).toBe(4);
  expect((await request('GET', `${base}${id}/`)).body.destination.config).toMatchObject({
    include_events: ['a', 'b'],
    exclude_events: ['b'],
  });
});
