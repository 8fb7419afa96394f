import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAnalyticsQuery, funnelResultSchema, pathResultSchema, retentionResultSchema } from '../../src/contract/analytics.ts';
import type { EventDb } from '../../server/analytics/duckdb.ts';
import { createAuthenticator } from '../../server/http/auth.ts';
import { ApiError, serverError } from '../../server/http/errors.ts';
import { createRouter } from '../../server/http/router.ts';
import { registerFunnelRetentionPathRoutes } from '../../server/http/routes/analytics-funnels.ts';
import type { AppEnv } from '../../server/http/types.ts';
import { createTestServer, type TestServer } from '../server/helpers.ts';
import { ev, MIN, RANGE } from './funnels-cases.ts';
import { loadEvents } from './harness.ts';

/**
 * funnel/, retention/ and path/ over HTTP. The app here is the real router, authenticator and
 * error rendering with only these routes registered (server/app.ts adds them to the full app).
 */

let server: TestServer;
let app: Hono<AppEnv>;
let projectId: number;
const now = () => new Date('2024-03-05T12:00:00Z');

beforeAll(async () => {
  server = createTestServer({ now });
  app = new Hono<AppEnv>({ strict: false });
  app.onError((error, c) => (error instanceof ApiError ? error.render(c) : serverError().render(c)));
  registerFunnelRetentionPathRoutes(createRouter(app, createAuthenticator(server.store, now)), { store: server.store, events: server.events, now });
  projectId = (server.store.db.prepare('SELECT id FROM projects ORDER BY id LIMIT 1').get() as { id: number }).id;
  await loadEvents(server.events as unknown as EventDb, projectId, [
    ev('a', 'A', 0), ev('a', 'B', MIN), ev('b', 'A', 0),
    ev('a', '$pageview', 0, { $current_url: '/x' }), ev('a', '$pageview', MIN, { $current_url: '/y' }),
  ]);
});
afterAll(() => server.close());

async function call(method: 'GET' | 'POST', path: string, params: Record<string, unknown>) {
  const base = `/api/projects/${projectId}/insights/${path}`;
  const headers: Record<string, string> = { Authorization: `Bearer ${server.demoKey}` };
  const res = method === 'GET'
    ? await app.request(`${base}?${new URLSearchParams(encodeAnalyticsQuery(params)).toString()}`, { headers })
    : await app.request(base, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(params) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('funnel/, retention/, path/ over HTTP', () => {
  const funnel = { ...RANGE, events: [{ id: 'A', order: 0 }, { id: 'B', order: 1 }], exclusions: [{ id: 'C', funnel_from_step: 0, funnel_to_step: 1 }] };
  it('the GET form equals the POST form', async () => {
    for (const [path, params, schema] of [
      ['funnel/', funnel, funnelResultSchema],
      ['retention/', { date_to: '2024-03-02', total_intervals: 2, period: 'day', target_entity: { id: 'A' } }, retentionResultSchema],
      ['path/', { ...RANGE, step_limit: 3 }, pathResultSchema],
    ] as const) {
      const post = await call('POST', path, params);
      const get = await call('GET', path, params);
      expect(post.status).toBe(200);
      expect(get.status).toBe(200);
      expect(schema.safeParse(post.body).success).toBe(true);
      expect(get.body.result).toEqual(post.body.result);
    }
    const steps = (await call('POST', 'funnel/', funnel)).body.result as { count: number }[];
    expect(steps.map((s) => s.count)).toEqual([2, 1]);
  });
  it('a bad exclusion is a 400 naming it; hostile input is a 400 or a correct result, never a 500', async () => {
    const bad = await call('POST', 'funnel/', { ...funnel, exclusions: [{ id: 'B', funnel_from_step: 0, funnel_to_step: 1 }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'validation_error', attr: 'exclusions__0__id' });
    const range = await call('GET', 'funnel/', { ...funnel, exclusions: [{ id: 'C', funnel_from_step: 1, funnel_to_step: 1 }] });
    expect(range.body.attr).toBe('exclusions__0__funnel_to_step');
    const date = await call('POST', 'funnel/', { ...funnel, date_from: '2024-02-30' });
    expect([date.status, date.body.attr]).toEqual([400, 'date_from']);
    const regex = await call('POST', 'path/', { local_path_cleaning_filters: [{ regex: '(?=x)', alias: 'y' }] });
    expect([regex.status, regex.body.attr]).toEqual([400, 'local_path_cleaning_filters__0__regex']);
    const sql = await call('GET', 'funnel/', { ...funnel, events: [{ id: "A' OR 1=1 --" }, { id: 'B' }], breakdown: '"; DROP TABLE events; --' });
    expect(sql.status).toBe(200);
    const deep = await call('POST', 'retention/', { target_entity: { id: 'A', properties: { type: 'AND', values: [{ type: 'OR', values: [{ type: 'AND', values: [] }] }] } } });
    expect(deep.status).toBe(400);
    const notJson = await call('GET', 'path/', { include_event_types: '[not json' });
    expect([notJson.status, notJson.body.attr]).toEqual([400, 'include_event_types']);
  });
});
