import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_LIMITS } from '../../src/contract/analytics.ts';
import { openEventDb, QueryTimeoutError } from '../../server/analytics/store/duckdb.ts';
import { createApp } from '../../server/app.ts';
import { createTestServer, HEDGEBOX, type TestServer } from './helpers.ts';

/**
 * Regression tests of the server audit (issue "Hardening"), analytics and ingestion half:
 * bounded analytics work, and bad input answered with a 400, never a 500.
 */

const NOW = new Date('2024-03-20T12:00:00Z');
let server: TestServer;
let projectId: number;
let token: string;
let orgId: string;

beforeAll(async () => {
  server = createTestServer({ now: () => NOW });
  orgId = server.orgIds[HEDGEBOX]!;
  const project = server.store.db
    .prepare('SELECT id, api_token FROM projects WHERE organization_id = ? ORDER BY id')
    .get(orgId) as { id: number; api_token: string };
  projectId = project.id;
  token = project.api_token;
  const batch = Array.from({ length: 30 }, (_, i) => ({
    event: i % 3 === 0 ? 'signup' : '$pageview',
    distinct_id: `p${i % 7}`,
    timestamp: new Date(NOW.getTime() - i * 3_600_000).toISOString(),
    properties: { amount: i, $browser: i % 2 ? 'Chrome' : 'Safari' },
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
const postText = (url: string, body: string) =>
  server.request('POST', url, { rawBody: body, headers: { 'Content-Type': 'application/json' } });
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
    expect(
      (await post(`${insights()}/trend/`, { events: series(ANALYTICS_LIMITS.series), date_from: '-7d' })).status,
    ).toBe(200);
    await alive();
  });

  it('funnels of 500 steps, too many exclusions and 10,000 path cleaning rules are 400s naming the field', async () => {
    const steps = await post(`${insights()}/funnel/`, { events: series(500) });
    expect([steps.status, steps.body.attr]).toEqual([400, 'events']);
    const exclusions = await post(`${insights()}/funnel/`, {
      events: [{ id: 'a' }, { id: 'b' }],
      exclusions: Array.from({ length: 21 }, () => ({ id: 'x', funnel_from_step: 0, funnel_to_step: 1 })),
    });
    expect([exclusions.status, exclusions.body.attr]).toEqual([400, 'exclusions']);
    const rules = await post(`${insights()}/path/`, {
      local_path_cleaning_filters: Array.from({ length: 10_000 }, (_, i) => ({ alias: 'x', regex: `/p${i}` })),
    });
    expect([rules.status, rules.body.attr]).toEqual([400, 'local_path_cleaning_filters']);
    expect((await post(`${insights()}/funnel/`, { events: series(ANALYTICS_LIMITS.funnelSteps) })).status).toBe(200);
    await alive();
  });

  it('filters, values, breakdown limits and buckets have limits, each a 400 on its field', async () => {
    const filter = (value: unknown = 'x') => ({ key: 'k', value, operator: 'exact' });
    const cases: [string, unknown, string][] = [
      [
        'group values',
        { events: [{ id: 'a' }], properties: Array.from({ length: 51 }, () => filter()) },
        'properties__values',
      ],
      [
        'filters in all',
        {
          events: Array.from({ length: 5 }, () => ({
            id: 'a',
            properties: Array.from({ length: 45 }, () => filter()),
          })),
        },
        'properties',
      ],
      [
        'value length',
        { events: [{ id: 'a' }], properties: [filter('x'.repeat(4001))] },
        'properties__values__0__value',
      ],
      [
        'values of a filter',
        { events: [{ id: 'a' }], properties: [filter(Array.from({ length: 1001 }, (_, i) => `v${i}`))] },
        'properties__values__0__value',
      ],
      ['event name length', { events: [{ id: 'x'.repeat(401) }] }, 'events__0__id'],
      ['breakdown limit', { events: [{ id: 'a' }], breakdown: '$browser', breakdown_limit: 1001 }, 'breakdown_limit'],
      ['hourly since 2000', { events: [{ id: 'a' }], interval: 'hour', date_from: '2000-01-01' }, 'interval'],
      [
        'cells',
        { events: series(50), interval: 'hour', date_from: '-30d', breakdown: '$browser', breakdown_limit: 25 },
        'breakdown_limit',
      ],
    ];
    for (const [name, body, attr] of cases) {
      const res = await post(`${insights()}/trend/`, body);
      expect([name, res.status, res.body.attr]).toEqual([name, 400, attr]);
    }
  });

  it('each series no longer repeats the request: the response grows linearly with the series', async () => {
    const withFilters = (n: number) => ({
      events: series(n).map((s) => ({ ...s, properties: [{ key: 'k', value: 'v'.repeat(1000), operator: 'is_not' }] })),
      date_from: '-1d',
      interval: 'hour',
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
      await expect(db.all('SELECT sum(hash(i)) FROM range(100000000000) t(i)')).rejects.toBeInstanceOf(
        QueryTimeoutError,
      );
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await db.all('SELECT 42 AS answer')).toEqual([{ answer: 42 }]);
    } finally {
      await db.close();
    }
    const app = createApp({
      store: server.store,
      events: server.events,
      now: () => NOW,
      analyticsTimeoutMs: 0,
      staticDir: path.join(server.dir, 'none'),
    });
    const res = await app.request(`${insights()}/trend/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.demoKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ events: [{ id: '$pageview' }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'query_timeout',
      detail: expect.stringContaining('took longer than'),
    });
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
      const properties = [
        { key: 'amount', value, operator: 'gt' },
        { key: 'amount', value, operator: 'lt', type: 'person' },
      ];
      const urls: [string, unknown][] = [
        [`${insights()}/trend/`, { events: [{ id: '$pageview' }], properties }],
        [`${insights()}/funnel/`, { events: [{ id: 'signup' }, { id: '$pageview' }], properties }],
        [`${insights()}/retention/`, { properties }],
        [`${insights()}/path/`, { properties }],
      ];
      for (const [url, json] of urls) expect((await post(url, json)).status, `${url} ${value}`).toBe(200);
      const persons = await server.get(
        `/api/projects/${projectId}/persons/funnel/?events=${encodeURIComponent(JSON.stringify([{ id: 'signup' }, { id: '$pageview' }]))}&properties=${encodeURIComponent(JSON.stringify(properties))}&funnel_step=1`,
      );
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
    for (const ok of [
      { funnel_window_interval: 12, funnel_window_interval_unit: 'month' },
      { funnel_window_days: 366 },
    ]) {
      expect((await post(`${insights()}/funnel/`, { events, ...ok })).status).toBe(200);
    }
  });

  it("ingestion: a lone surrogate is replaced and a huge offset is clamped; the batch's other events are kept", async () => {
    const paths = ['/batch/', '/capture/', '/e/', '/i/v0/e/'];
    for (const [i, url] of paths.entries()) {
      const id = `surrogate-${i}`;
      const body =
        `{"api_key":"${token}","batch":[{"event":"bad \\ud800 text","distinct_id":"${id}","properties":{"p\\udfff":"x\\ud800y"}},` +
        `{"event":"far","distinct_id":"${id}","offset":1e16},{"event":"ok","distinct_id":"${id}"}]}`;
      const res = await capture(url, body);
      expect(res.status, url).toBe(200);
      const rows = await server.events.all<{ event: string; properties: string; t: bigint }>(
        'SELECT event, properties::VARCHAR AS properties, epoch_ms(timestamp) AS t FROM events WHERE distinct_id = $1 ORDER BY event',
        [id],
      );
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
    expect(
      (await capture('/batch/', JSON.stringify({ api_key: token, batch, sent_at: '0001-01-01T00:00:00Z' }))).status,
    ).toBe(200);
    const rows = await server.events.all<{ t: bigint }>(
      "SELECT epoch_ms(timestamp) AS t FROM events WHERE distinct_id = 'clock-1'",
    );
    expect(rows.map((r) => Number(r.t))).toEqual([NOW.getTime(), NOW.getTime(), NOW.getTime()]);
    const all = await post(`${insights()}/trend/`, {
      events: [{ id: '$pageview' }],
      date_from: 'all',
      interval: 'month',
    });
    expect(all.status).toBe(200);
  });
});
