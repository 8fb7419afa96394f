import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_LIMITS } from '../../src/contract/analytics.ts';
import { openEventDb, QueryTimeoutError } from '../../server/analytics/duckdb.ts';
import { createApp } from '../../server/app.ts';
import { openDataDir } from '../../server/data-dir.ts';
import { startNodeServer } from '../../server/http/node-server.ts';
import { BlockedDestinationError, isPrivateAddress, sendOutbound } from '../../server/net/outbound.ts';
import { createSecretBox } from '../../server/store/secret-box.ts';
import { createTestServer, HEDGEBOX, makeTempDir, type TestServer } from './helpers.ts';

/**
 * One regression test per finding of the server audit (issue "Hardening"): bounded analytics,
 * no 500 for bad input, no path / origin / file / key going further than it should.
 */

const NOW = new Date('2024-03-20T12:00:00Z');
let server: TestServer;
let projectId: number;
let token: string;
let orgId: string;

beforeAll(async () => {
  server = createTestServer({ now: () => NOW });
  orgId = server.orgIds[HEDGEBOX]!;
  const project = server.store.db.prepare('SELECT id, api_token FROM projects WHERE organization_id = ? ORDER BY id').get(orgId) as { id: number; api_token: string };
  projectId = project.id;
  token = project.api_token;
  const batch = Array.from({ length: 30 }, (_, i) => ({
    event: i % 3 === 0 ? 'signup' : '$pageview', distinct_id: `p${i % 7}`,
    timestamp: new Date(NOW.getTime() - i * 3_600_000).toISOString(), properties: { amount: i, $browser: i % 2 ? 'Chrome' : 'Safari' },
  }));
  expect((await capture('/batch/', JSON.stringify({ api_key: token, batch }))).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

const insights = () => `/api/projects/${projectId}/insights`;
const post = (url: string, json: unknown) => server.request('POST', url, { json });
const capture = (url: string, body: string, headers: Record<string, string> = {}) =>
  server.app.request(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } });
const alive = async () => expect((await server.get('/api/organizations/')).status).toBe(200);
/** JSON text of a value nested `depth` deep (built as text: JSON.stringify itself would overflow). */
const nested = (depth: number): string => {
  let v = '"hour"';
  for (let i = 0; i < depth; i += 1) v = i % 2 ? `[${v}]` : `{"v":${v}}`;
  return v;
};
const postText = (url: string, body: string) => server.request('POST', url, { rawBody: body, headers: { 'Content-Type': 'application/json' } });
const series = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i % 2 ? '$pageview' : 'signup' }));

describe('analytics work is bounded', () => {
  it('a trend with 20,000 (or 3,000) series is a quick 400 on events, and the server goes on', async () => {
    for (const n of [20_000, 3_000, ANALYTICS_LIMITS.series + 1]) {
      const started = performance.now();
      const res = await post(`${insights()}/trend/`, { events: series(n), date_from: '-7d' });
      expect(res.status).toBe(400);
      expect(res.body.attr).toBe('events');
      expect(res.body.detail).toContain(`no more than ${ANALYTICS_LIMITS.series}`);
      expect(performance.now() - started).toBeLessThan(2000);
    }
    expect((await post(`${insights()}/trend/`, { events: series(ANALYTICS_LIMITS.series), date_from: '-7d' })).status).toBe(200);
    await alive();
  });

  it('funnels of 500 steps, too many exclusions and 10,000 path cleaning rules are 400s naming the field', async () => {
    const steps = await post(`${insights()}/funnel/`, { events: series(500) });
    expect([steps.status, steps.body.attr]).toEqual([400, 'events']);
    const exclusions = await post(`${insights()}/funnel/`, {
      events: [{ id: 'a' }, { id: 'b' }], exclusions: Array.from({ length: 21 }, () => ({ id: 'x', funnel_from_step: 0, funnel_to_step: 1 })),
    });
    expect([exclusions.status, exclusions.body.attr]).toEqual([400, 'exclusions']);
    const rules = await post(`${insights()}/path/`, { local_path_cleaning_filters: Array.from({ length: 10_000 }, (_, i) => ({ alias: 'x', regex: `/p${i}` })) });
    expect([rules.status, rules.body.attr]).toEqual([400, 'local_path_cleaning_filters']);
    expect((await post(`${insights()}/funnel/`, { events: series(ANALYTICS_LIMITS.funnelSteps) })).status).toBe(200);
    await alive();
  });

  it('filters, values, breakdown limits and buckets have limits, each a 400 on its field', async () => {
    const filter = (value: unknown = 'x') => ({ key: 'k', value, operator: 'exact' });
    const cases: [string, unknown, string][] = [
      ['group values', { events: [{ id: 'a' }], properties: Array.from({ length: 51 }, () => filter()) }, 'properties__values'],
      ['filters in all', { events: Array.from({ length: 5 }, () => ({ id: 'a', properties: Array.from({ length: 45 }, () => filter()) })) }, 'properties'],
      ['value length', { events: [{ id: 'a' }], properties: [filter('x'.repeat(4001))] }, 'properties__values__0__value'],
      ['values of a filter', { events: [{ id: 'a' }], properties: [filter(Array.from({ length: 1001 }, (_, i) => `v${i}`))] }, 'properties__values__0__value'],
      ['event name length', { events: [{ id: 'x'.repeat(401) }] }, 'events__0__id'],
      ['breakdown limit', { events: [{ id: 'a' }], breakdown: '$browser', breakdown_limit: 1001 }, 'breakdown_limit'],
      ['hourly since 2000', { events: [{ id: 'a' }], interval: 'hour', date_from: '2000-01-01' }, 'interval'],
      ['cells', { events: series(50), interval: 'hour', date_from: '-30d', breakdown: '$browser', breakdown_limit: 25 }, 'breakdown_limit'],
    ];
    for (const [name, body, attr] of cases) {
      const res = await post(`${insights()}/trend/`, body);
      expect([name, res.status, res.body.attr]).toEqual([name, 400, attr]);
    }
  });

  it('each series no longer repeats the request: the response grows linearly with the series', async () => {
    const withFilters = (n: number) => ({
      events: series(n).map((s) => ({ ...s, properties: [{ key: 'k', value: 'v'.repeat(1000), operator: 'is_not' }] })),
      date_from: '-1d', interval: 'hour',
    });
    const small = await post(`${insights()}/trend/`, withFilters(5));
    const large = await post(`${insights()}/trend/`, withFilters(50));
    expect([small.status, large.status]).toEqual([200, 200]);
    expect(large.text.length / small.text.length).toBeLessThan(11);
    expect(large.body.result[0].action).not.toHaveProperty('properties');
    expect(large.body.result[0].filter).not.toHaveProperty('events');
  });

  it('a query past its time budget is interrupted: a 400 query_timeout, and the connection serves the next query', async () => {
    const db = await openEventDb(':memory:', { queryTimeoutMs: 200, poolSize: 1 });
    try {
      const started = performance.now();
      await expect(db.all('SELECT sum(hash(i)) FROM range(100000000000) t(i)')).rejects.toBeInstanceOf(QueryTimeoutError);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await db.all('SELECT 42 AS answer')).toEqual([{ answer: 42 }]);
    } finally {
      await db.close();
    }
    const app = createApp({ store: server.store, events: server.events, now: () => NOW, analyticsTimeoutMs: 0, staticDir: path.join(server.dir, 'none') });
    const res = await app.request(`${insights()}/trend/`, {
      method: 'POST', headers: { Authorization: `Bearer ${server.demoKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ events: [{ id: '$pageview' }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'query_timeout', detail: expect.stringContaining('took longer than') });
    await alive();
  });
});

describe('bad input is a 400, never a 500', () => {
  it('values nested 10,000 deep in choice fields', async () => {
    const deep = nested(10_000);
    const exports = `/api/organizations/${orgId}/batch_exports/`;
    const bodies: [string, string][] = [
      [exports, `{"name":"x","interval":${deep},"destination":{"type":"NoOp","config":{}}}`],
      [exports, `{"name":"x","interval":"hour","model":${deep},"destination":{"type":"NoOp","config":{}}}`],
      [exports, `{"name":"x","interval":"hour","destination":{"type":${deep},"config":{}}}`],
      [`${insights()}/trend/`, `{"events":[{"id":"a","math":${deep}}]}`],
      [`${insights()}/trend/`, `{"events":[{"id":"a"}],"display":${deep}}`],
    ];
    for (const [url, body] of bodies) {
      const res = await postText(url, body);
      expect(res.status).toBe(400);
      expect(res.body.type).toBe('validation_error');
      expect(res.body.detail).toContain('nested deeper than 64');
    }
    const get = await server.get(`${insights()}/trend/?events=${encodeURIComponent(`[${nested(5_000)}]`)}`);
    expect([get.status, get.body.attr]).toEqual([400, 'events']);
    await alive();
  });

  it('gt / lt with numbers past 2^63 compare as doubles on every analysis', async () => {
    for (const value of [1e20, '1e20', -1e300, 2 ** 63]) {
      const properties = [{ key: 'amount', value, operator: 'gt' }, { key: 'amount', value, operator: 'lt', type: 'person' }];
      const urls: [string, unknown][] = [
        [`${insights()}/trend/`, { events: [{ id: '$pageview' }], properties }],
        [`${insights()}/funnel/`, { events: [{ id: 'signup' }, { id: '$pageview' }], properties }],
        [`${insights()}/retention/`, { properties }],
        [`${insights()}/path/`, { properties }],
      ];
      for (const [url, json] of urls) expect((await post(url, json)).status, `${url} ${value}`).toBe(200);
      const persons = await server.get(`/api/projects/${projectId}/persons/funnel/?events=${encodeURIComponent(JSON.stringify([{ id: 'signup' }, { id: '$pageview' }]))}&properties=${encodeURIComponent(JSON.stringify(properties))}&funnel_step=1`);
      expect(persons.status).toBe(200);
    }
  });

  it('a conversion window past a year, in any unit, is a 400 on the field that sets it', async () => {
    const events = [{ id: 'signup' }, { id: '$pageview' }];
    const cases: [Record<string, unknown>, string][] = [
      [{ funnel_window_interval: 1e15, funnel_window_interval_unit: 'day' }, 'funnel_window_interval'],
      [{ funnel_window_interval: 3_000_000_000, funnel_window_interval_type: 'month' }, 'funnel_window_interval'],
      [{ funnel_window_interval: 53, funnel_window_interval_unit: 'week' }, 'funnel_window_interval'],
      [{ funnel_window_days: 1e15 }, 'funnel_window_days'],
      [{ funnel_window_days: 367 }, 'funnel_window_days'],
    ];
    for (const [params, attr] of cases) {
      const res = await post(`${insights()}/funnel/`, { events, ...params });
      expect([res.status, res.body.attr]).toEqual([400, attr]);
    }
    for (const ok of [{ funnel_window_interval: 12, funnel_window_interval_unit: 'month' }, { funnel_window_days: 366 }]) {
      expect((await post(`${insights()}/funnel/`, { events, ...ok })).status).toBe(200);
    }
  });

  it('ingestion: a lone surrogate is replaced and a huge offset is clamped; the batch\'s other events are kept', async () => {
    const paths = ['/batch/', '/capture/', '/e/', '/i/v0/e/'];
    for (const [i, url] of paths.entries()) {
      const id = `surrogate-${i}`;
      const body = `{"api_key":"${token}","batch":[{"event":"bad \\ud800 text","distinct_id":"${id}","properties":{"p\\udfff":"x\\ud800y"}},`
        + `{"event":"far","distinct_id":"${id}","offset":1e16},{"event":"ok","distinct_id":"${id}"}]}`;
      const res = await capture(url, body);
      expect(res.status, url).toBe(200);
      const rows = await server.events.all<{ event: string; properties: string; t: bigint }>(
        'SELECT event, properties::VARCHAR AS properties, epoch_ms(timestamp) AS t FROM events WHERE distinct_id = $1 ORDER BY event', [id]);
      expect(rows.map((r) => r.event)).toEqual(['bad \uFFFD text', 'far', 'ok']);
      expect(JSON.parse(rows[0]!.properties)).toEqual({ 'p\uFFFD': 'x\uFFFDy' });
      expect(Number(rows[1]!.t)).toBe(NOW.getTime());
    }
  });

  it('absurd timestamps are stored at the server\'s time, so "all time" charts keep working', async () => {
    const batch = [
      { event: '$pageview', distinct_id: 'clock-1', timestamp: '1900-01-01T00:00:00Z' },
      { event: '$pageview', distinct_id: 'clock-1', offset: 9e15 },
      { event: '$pageview', distinct_id: 'clock-1', timestamp: '9999-12-31T00:00:00Z' },
    ];
    expect((await capture('/batch/', JSON.stringify({ api_key: token, batch, sent_at: '0001-01-01T00:00:00Z' }))).status).toBe(200);
    const rows = await server.events.all<{ t: bigint }>("SELECT epoch_ms(timestamp) AS t FROM events WHERE distinct_id = 'clock-1'");
    expect(rows.map((r) => Number(r.t))).toEqual([NOW.getTime(), NOW.getTime(), NOW.getTime()]);
    const all = await post(`${insights()}/trend/`, { events: [{ id: '$pageview' }], date_from: 'all', interval: 'month' });
    expect(all.status).toBe(200);
  });
});

/** The app on a real socket: what a client's raw request line reaches (dot segments, slow and endless bodies). */
async function listen(requestTimeoutMs = 30_000) {
  let address!: AddressInfo;
  const node = await new Promise<ReturnType<typeof startNodeServer>>((resolve) => {
    const s = startNodeServer(server.app.fetch, { port: 0, hostname: '127.0.0.1', requestTimeoutMs }, (info) => {
      address = info;
      resolve(s);
    });
  });
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => {
      (node as http.Server).closeAllConnections();
      node.close(() => resolve());
    }),
  };
}

function rawRequest(port: number, method: string, target: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('paths, bodies and slow clients on a real socket', () => {
  it('dot segments, plain or percent-encoded, are 404 and reach nothing', async () => {
    const socket = await listen();
    try {
      const auth = { Authorization: `Bearer ${server.demoKey}` };
      for (const target of [
        `/api/organizations/${orgId}/batch_exports/../`, `/api/organizations/${orgId}/batch_exports/%2e%2e/`,
        `/api/organizations/${orgId}/batch_exports/%2E%2e`, `/api/organizations/${orgId}/./`, `/api/organizations/x/..%2f..%2f`,
      ]) {
        const res = await rawRequest(socket.port, 'DELETE', target, auth);
        expect([target, res.status]).toEqual([target, 404]);
      }
      expect((await server.get(`/api/organizations/${orgId}/`)).status).toBe(200);
      expect((await rawRequest(socket.port, 'GET', `/api/organizations/${orgId}/`, auth)).status).toBe(200);
    } finally {
      await socket.close();
    }
  });

  it('a chunked 500 MB body is refused at the limit, with memory growth under 64 MB', async () => {
    const socket = await listen();
    try {
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const before = process.memoryUsage().rss;
      let peak = before;
      let sent = 0;
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: socket.port, method: 'POST', path: '/batch/', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (error) => (sent > 0 ? undefined : reject(error)));
        const pump = () => {
          while (sent < 500 * 1024 * 1024 && !req.destroyed) {
            peak = Math.max(peak, process.memoryUsage().rss);
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
      expect(status).toBe(413);
      expect(sent).toBeLessThan(200 * 1024 * 1024);
      expect((peak - before) / 1024 / 1024).toBeLessThan(64);
      expect((await server.get('/api/organizations/')).status).toBe(200);
    } finally {
      await socket.close();
    }
  });

  it('a body that trickles in is cut with a 408 at the request timeout', async () => {
    const socket = await listen(1500);
    try {
      const started = performance.now();
      const status = await new Promise<number>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port: socket.port, method: 'POST', path: '/batch/', headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', () => resolve(-1));
        req.write('{"api_key":');
        const drip = setInterval(() => (req.destroyed ? clearInterval(drip) : req.write(' ')), 200);
        req.on('close', () => clearInterval(drip));
      });
      expect(status).toBe(408);
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await socket.close();
    }
  });
});

describe('files and secrets', () => {
  it('the data dir is 0700, its files 0600, and destination secrets are sealed at rest', async () => {
    const dir = makeTempDir();
    fs.rmSync(dir, { recursive: true });
    const { store, events } = openDataDir(dir);
    try {
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      for (const file of ['store.sqlite', 'secret-key', 'demo-key']) expect([file, fs.statSync(path.join(dir, file)).mode & 0o777]).toEqual([file, 0o600]);
      await events.ready();
      expect(fs.statSync(path.join(dir, 'events.duckdb')).mode & 0o777).toBe(0o600);
      const org = store.db.prepare('SELECT id FROM organizations ORDER BY created_at LIMIT 1').pluck().get() as string;
      const id = store.batchExports.create(org, {
        team_id: 1, name: 'sealed', model: 'events', destination_type: 'HTTP', interval: 'hour', paused: 1,
        destination_config: JSON.stringify({ url: 'https://example.com/in', token: 'SEALED-TOKEN-1234' }),
        last_paused_at: null, start_at: null, end_at: null, hogql_query: null, last_updated_at: '2024-01-01T00:00:00Z', next_run_at: null,
      }, '2024-01-01T00:00:00Z');
      expect(JSON.parse(store.batchExports.get(id)!.destination_config).token).toBe('SEALED-TOKEN-1234');
      store.db.pragma('wal_checkpoint(TRUNCATE)');
      const raw = store.db.prepare('SELECT destination_config FROM batch_exports').pluck().all() as string[];
      expect(raw.every((c) => c.startsWith('enc:v1:'))).toBe(true);
      for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('store.sqlite'))) {
        expect(fs.readFileSync(path.join(dir, file)).includes('SEALED-TOKEN-1234')).toBe(false);
      }
    } finally {
      store.close();
      await events.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const a = createSecretBox(':memory:', { SECRET_KEY: 'one' });
    const sealed = a.seal('s3cret');
    expect(createSecretBox(':memory:', { SECRET_KEY: 'one' }).open(sealed)).toBe('s3cret');
    expect(() => createSecretBox(':memory:', { SECRET_KEY: 'two' }).open(sealed)).toThrow();
  });
});

describe('outbound HTTP reaches only public hosts', () => {
  let receiver: http.Server;
  let hits = 0;
  let port = 0;
  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      hits += 1;
      if (req.url === '/redirect') res.writeHead(307, { Location: `http://127.0.0.1:${port}/in` }).end();
      else res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const send = (url: string, allowHosts: string[] = []) =>
    sendOutbound(url, { method: 'POST', headers: {}, body: 'x', timeoutMs: 2000 }, { allowHosts });

  it('loopback, private and link-local targets are refused before any byte is sent, after DNS too', async () => {
    await expect(send(`http://127.0.0.1:${port}/in`)).rejects.toBeInstanceOf(BlockedDestinationError);
    await expect(send(`http://localhost:${port}/in`)).rejects.toBeInstanceOf(BlockedDestinationError);
    await expect(send(`http://[::1]:${port}/in`)).rejects.toBeInstanceOf(BlockedDestinationError);
    await expect(send('file:///etc/passwd')).rejects.toBeInstanceOf(BlockedDestinationError);
    expect(hits).toBe(0);
    for (const a of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });

  it('an allow-listed host is reached; a redirect from it to another private host is refused', async () => {
    expect((await send(`http://localhost:${port}/in`, ['localhost'])).status).toBe(200);
    expect(hits).toBe(1);
    await expect(send(`http://localhost:${port}/redirect`, ['localhost'])).rejects.toBeInstanceOf(BlockedDestinationError);
    expect(hits).toBe(2);
    expect((await send(`http://localhost:${port}/redirect`, ['localhost', '127.0.0.1'])).status).toBe(200);
  });
});

describe('keys and origins', () => {
  it('a key limited to some organizations cannot create one it could not open', async () => {
    const key = server.makeKey({ scopes: ['organization:write'], organizations: [orgId] });
    const before = (await server.get('/api/organizations/')).body.count;
    const res = await server.request('POST', '/api/organizations/', { key, json: { name: 'Escape' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
    expect((await server.get('/api/organizations/')).body.count).toBe(before);
    expect((await server.request('POST', '/api/organizations/', { key: server.makeKey({ scopes: ['organization:write'] }), json: { name: 'Allowed' } })).status).toBe(201);
  });

  it('failed authentication is limited per address (429 with Retry-After); valid keys are not slowed', async () => {
    const own = createTestServer({ now: () => NOW });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 40; i += 1) {
        const res = await own.get('/api/organizations/', { key: `phx_wrong${i}` });
        statuses.push(res.status);
        retryAfter ??= res.headers.get('retry-after');
      }
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      const started = performance.now();
      expect((await own.get('/api/organizations/')).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(200);
    } finally {
      await own.close();
    }
  });

  it("CSP connect-src is the dashboard's own origin, plus the upstream or the API origins it was given", async () => {
    const csp = (await server.get('/api/organizations/')).headers.get('content-security-policy')!;
    expect(csp).toContain("connect-src 'self';");
    const proxy = createApp({ upstream: 'https://eu.example.com/base', staticDir: path.join(server.dir, 'none') });
    expect((await proxy.request('/')).headers.get('content-security-policy')).toContain("connect-src 'self' https://eu.example.com;");
    const other = createApp({ store: server.store, events: server.events, apiOrigins: ['http://10.0.0.5:8000/'], staticDir: path.join(server.dir, 'none') });
    expect((await other.request('/')).headers.get('content-security-policy')).toContain("connect-src 'self' http://10.0.0.5:8000;");
  });
});
