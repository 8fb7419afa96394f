import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  encodeAnalyticsQuery,
  funnelResultSchema,
  pathResultSchema,
  retentionResultSchema,
  type FunnelStep,
} from '../../src/contract/analytics.ts';
import { funnelPersonsResultSchema, type FunnelPersonsResult } from '../../src/contract/persons.ts';
import type { EventDb } from '../../server/analytics/store/db-types.ts';
import { createAuthenticator } from '../../server/http/auth.ts';
import { apiErrorOf, serverError } from '../../server/http/errors.ts';
import { publicUrlOf } from '../../server/http/public-url.ts';
import { createRouter } from '../../server/http/router.ts';
import { registerFunnelRetentionPathRoutes } from '../../server/http/routes/analytics/routes.ts';
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
const alice = { person_properties: { email: 'a@example.com' } };

beforeAll(async () => {
  server = createTestServer({ now });
  app = new Hono<AppEnv>({ strict: false });
  app.onError((error, c) => (apiErrorOf(error) ?? serverError()).render(c));
  const publicUrl = publicUrlOf(undefined);
  registerFunnelRetentionPathRoutes(createRouter(app, createAuthenticator(server.store, now), publicUrl), {
    store: server.store,
    events: server.events,
    now,
    publicUrl,
  });
  projectId = (server.store.db.prepare('SELECT id FROM projects ORDER BY id LIMIT 1').get() as { id: number }).id;
  await loadEvents(server.events as unknown as EventDb, projectId, [
    ev('a', 'A', 0, {}, alice),
    ev('a', 'B', MIN, {}, alice),
    ev('b', 'A', 0),
    ev('a', '$pageview', 0, { $current_url: '/x' }, alice),
    ev('a', '$pageview', MIN, { $current_url: '/y' }, alice),
  ]);
});
afterAll(() => server.close());

async function call(method: 'GET' | 'POST', path: string, params: Record<string, unknown>) {
  const base = `/api/projects/${projectId}/insights/${path}`;
  const headers: Record<string, string> = { Authorization: `Bearer ${server.demoKey}` };
  const res =
    method === 'GET'
      ? await app.request(`${base}?${new URLSearchParams(encodeAnalyticsQuery(params)).toString()}`, { headers })
      : await app.request(base, {
          method,
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(params),
        });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('funnel/, retention/, path/ over HTTP', () => {
  const funnel = {
    ...RANGE,
    events: [
      { id: 'A', order: 0 },
      { id: 'B', order: 1 },
    ],
    exclusions: [{ id: 'C', funnel_from_step: 0, funnel_to_step: 1 }],
  };
  it('the GET form equals the POST form', async () => {
    for (const [path, params, schema] of [
      ['funnel/', funnel, funnelResultSchema],
      [
        'retention/',
        { date_to: '2024-03-02', total_intervals: 2, period: 'day', target_entity: { id: 'A' } },
        retentionResultSchema,
      ],
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
    const bad = await call('POST', 'funnel/', {
      ...funnel,
      exclusions: [{ id: 'B', funnel_from_step: 0, funnel_to_step: 1 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'validation_error', attr: 'exclusions__0__id' });
    const range = await call('GET', 'funnel/', {
      ...funnel,
      exclusions: [{ id: 'C', funnel_from_step: 1, funnel_to_step: 1 }],
    });
    expect(range.body.attr).toBe('exclusions__0__funnel_to_step');
    const date = await call('POST', 'funnel/', { ...funnel, date_from: '2024-02-30' });
    expect([date.status, date.body.attr]).toEqual([400, 'date_from']);
    const regex = await call('POST', 'path/', { local_path_cleaning_filters: [{ regex: '(?=x)', alias: 'y' }] });
    expect([regex.status, regex.body.attr]).toEqual([400, 'local_path_cleaning_filters__0__regex']);
    const sql = await call('GET', 'funnel/', {
      ...funnel,
      events: [{ id: "A' OR 1=1 --" }, { id: 'B' }],
      breakdown: '"; DROP TABLE events; --',
    });
    expect(sql.status).toBe(200);
    const deep = await call('POST', 'retention/', {
      target_entity: {
        id: 'A',
        properties: { type: 'AND', values: [{ type: 'OR', values: [{ type: 'AND', values: [] }] }] },
      },
    });
    expect(deep.status).toBe(400);
    const notJson = await call('GET', 'path/', { include_event_types: '[not json' });
    expect([notJson.status, notJson.body.attr]).toEqual([400, 'include_event_types']);
  });
});

describe('persons of a funnel step (persons/funnel/)', () => {
  const funnel = {
    ...RANGE,
    events: [
      { id: 'A', order: 0 },
      { id: 'B', order: 1 },
    ],
  };
  const get = async (url: string) => {
    const res = await app.request(url, { headers: { Authorization: `Bearer ${server.demoKey}` } });
    return { status: res.status, body: (await res.json()) as FunnelPersonsResult & { attr?: string } };
  };
  const names = (body: FunnelPersonsResult) => body.results[0]!.people.map((p) => p.name).sort();

  it("each step's people URLs list exactly the persons counted there: converted and dropped off", async () => {
    const steps = (await call('POST', 'funnel/', funnel)).body.result as FunnelStep[];
    expect(steps[0]!.converted_people_url).toMatch(new RegExp(`^/api/projects/${projectId}/persons/funnel/\\?`));
    expect(steps[0]!.dropped_people_url).toBeNull();
    const entered = await get(steps[0]!.converted_people_url!);
    expect(entered.status).toBe(200);
    expect(funnelPersonsResultSchema.safeParse(entered.body).success).toBe(true);
    expect(names(entered.body)).toEqual(['a@example.com', 'b']);
    expect(entered.body.results[0]!.count).toBe(2);
    expect(entered.body.next).toBeNull();
    const converted = await get(steps[1]!.converted_people_url!);
    expect(converted.body.results[0]!.people).toEqual([
      expect.objectContaining({
        name: 'a@example.com',
        distinct_ids: ['a'],
        properties: { email: 'a@example.com' },
        is_identified: false,
      }),
    ]);
    const dropped = await get(steps[1]!.dropped_people_url!);
    expect(names(dropped.body)).toEqual(['b']);
  });

  it('pages with limit and an absolute next link; a breakdown group narrows the list', async () => {
    const base = `/api/projects/${projectId}/persons/funnel/?${new URLSearchParams({ ...encodeAnalyticsQuery(funnel), funnel_step: '1', limit: '1' })}`;
    const first = await get(base);
    expect(first.body.results[0]!.people).toHaveLength(1);
    expect(first.body.next).toMatch(/^http:\/\/[^/]+\/api\/projects\/\d+\/persons\/funnel\/\?.*offset=1/);
    const second = await get(first.body.next!.replace(/^http:\/\/[^/]+/, ''));
    expect(second.body.results[0]!.people).toHaveLength(1);
    expect(second.body.next).toBeNull();
    expect(new Set([...names(first.body), ...names(second.body)])).toEqual(new Set(['a@example.com', 'b']));

    const steps = (await call('POST', 'funnel/', { ...funnel, breakdown: 'plan', breakdown_type: 'event' })).body
      .result as FunnelStep[][];
    expect(steps.map((g) => g[0]!.breakdown_value)).toEqual(['None']);
    expect(names((await get(steps[0]![0]!.converted_people_url!)).body)).toEqual(['a@example.com', 'b']);
    const other = `/api/projects/${projectId}/persons/funnel/?${new URLSearchParams({ ...encodeAnalyticsQuery({ ...funnel, breakdown: 'plan', breakdown_type: 'event' }), funnel_step: '1', funnel_step_breakdown: 'Other' })}`;
    expect((await get(other)).body.results[0]!.people).toEqual([]);
  });

  it('a missing or impossible step is a 400 naming funnel_step, a bad funnel a 400 naming its parameter', async () => {
    const url = (extra: Record<string, string>, params: Record<string, unknown> = funnel) =>
      `/api/projects/${projectId}/persons/funnel/?${new URLSearchParams({ ...encodeAnalyticsQuery(params), ...extra })}`;
    for (const extra of [
      {},
      { funnel_step: '3' },
      { funnel_step: '-1' },
      { funnel_step: '0' },
      { funnel_step: 'two' },
      { funnel_step: "1' OR 1=1" },
    ] as Record<string, string>[]) {
      const res = await get(url(extra));
      expect([res.status, res.body.attr], JSON.stringify(extra)).toEqual([400, 'funnel_step']);
    }
    const badEvents = await get(url({ funnel_step: '1' }, { ...funnel, events: [{ id: 'A', math: 'nope' }] }));
    expect([badEvents.status, badEvents.body.attr]).toEqual([400, 'events__0__math']);
    const badLimit = await get(url({ funnel_step: '1', limit: '-2' }));
    expect([badLimit.status, badLimit.body.attr]).toEqual([400, 'limit']);
  });
});
