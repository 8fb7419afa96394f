import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activityLogPageSchema,
  funnelCorrelationResultSchema,
  insightSchema,
  myLastViewedResponseSchema,
  pageSchema,
  sharingConfigurationSchema,
} from '../../src/contract/index.ts';
import { createTestServerWithEvents, HEDGEBOX, type TestServer } from './helpers.ts';

const SEEDED_AT = '2025-06-18T12:00:00.000Z';
let clock = new Date(SEEDED_AT);
const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
let server: TestServer;
beforeAll(async () => {
  server = await createTestServerWithEvents({ demoEvents: 3000, seedNow: clock, now: () => clock });
});
afterAll(() => server.close());

const P1 = '/api/projects/1/insights/';
const P2 = '/api/projects/2/insights/';
const trends = {
  insight: 'TRENDS',
  events: [{ id: '$pageview', type: 'events', math: 'total' }],
  date_from: '-14d',
  interval: 'day',
};
const funnelQuery = {
  kind: 'InsightVizNode',
  source: {
    kind: 'FunnelsQuery',
    series: [
      { kind: 'EventsNode', event: 'Sign up' },
      { kind: 'EventsNode', event: 'Purchase' },
    ],
    dateRange: { date_from: '-30d' },
  },
};

async function create(json: Record<string, unknown>, url = P1) {
  const res = await server.request('POST', url, { json });
  expect(res.status, res.text).toBe(201);
  return insightSchema.parse(res.body);
}

describe('insights: create, read, list', () => {
  it('creates from legacy filters and answers with both forms and a derived name', async () => {
    const i = await create({ filters: trends, tags: ['growth'] });
    expect(i.short_id).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(i).toMatchObject({
      name: null,
      derived_name: 'Pageview count',
      deleted: false,
      favorited: false,
      tags: ['growth'],
    });
    expect(i.filters).toMatchObject({
      insight: 'TRENDS',
      date_from: '-14d',
      events: [{ id: '$pageview', math: 'total' }],
    });
    expect(i.query).toMatchObject({
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview', math: 'total' }],
      dateRange: { date_from: '-14d' },
    });
    expect(i.created_by?.email).toBe('demo@example.com');
    expect(i.last_modified_by?.email).toBe('demo@example.com');
  });

  it('creates from a query node (object or JSON text), wrapped or not', async () => {
    const a = await create({ query: funnelQuery, name: 'Conversion' });
    expect(a.derived_name).toBe('Sign up → Purchase');
    expect(a.filters).toMatchObject({
      insight: 'FUNNELS',
      events: [{ id: 'Sign up' }, { id: 'Purchase' }],
      funnel_order_type: 'ordered',
    });
    expect(a.query).toMatchObject({ kind: 'InsightVizNode', source: { kind: 'FunnelsQuery' } });
    const b = await create({ query: JSON.stringify(funnelQuery.source) });
    expect(b.filters).toEqual(a.filters);
  });

  it('retrieves with the result of the matching analysis endpoint (the same numbers either form)', async () => {
    const i = await create({ filters: trends });
    const got = await server.get(`${P1}${i.id}/`);
    expect(got.status).toBe(200);
    const direct = await server.request('POST', `${P1}trend/`, { json: trends });
    expect(got.body.result).toEqual(direct.body.result);
    expect(got.body.result[0].count).toBeGreaterThan(0);
    expect(got.body.timezone).toBe('UTC');
    const q = await create({ query: i.query as Record<string, unknown> });
    expect((await server.get(`${P1}${q.id}/`)).body.result).toEqual(direct.body.result);
  });

  it('refresh and is_cached: cached within the window, recomputed after next_allowed_client_refresh', async () => {
    const i = await create({ filters: { ...trends, date_from: '-9d' } });
    const first = (await server.get(`${P1}${i.id}/`)).body;
    expect(first.is_cached).toBe(false);
    expect(Date.parse(first.next_allowed_client_refresh)).toBeGreaterThan(Date.parse(first.last_refresh));
    expect(Date.parse(first.cache_target_age)).toBeGreaterThan(Date.parse(first.last_refresh));
    const second = (await server.get(`${P1}${i.id}/?refresh=true`)).body;
    expect(second).toMatchObject({ is_cached: true, last_refresh: first.last_refresh });
    tick(20_000);
    expect((await server.get(`${P1}${i.id}/`)).body.is_cached).toBe(true);
    const refreshed = (await server.get(`${P1}${i.id}/?refresh=true&from_dashboard=3`)).body;
    expect(refreshed.is_cached).toBe(false);
    expect(refreshed.last_refresh).toBe(clock.toISOString());
    expect((await server.get(`${P1}?short_id=${i.short_id}`)).body.results[0].last_refresh).toBe(clock.toISOString());
  });

  it('lists with the filters of docs/api.md, deleted excluded', async () => {
    const fav = await create({
      name: 'Zebra favourite',
      filters: trends,
      favorited: true,
      saved: true,
      description: 'kept for the quokka',
    });
    const page = pageSchema(insightSchema).parse((await server.get(P1)).body);
    expect(page.count).toBeGreaterThanOrEqual(5);
    expect(page.results[0]!.id).toBe(fav.id); // newest modification first
    const favorites = (await server.get(`${P1}?favorited=true`)).body.results as { id: number; favorited: boolean }[];
    expect(favorites.map((r) => r.id)).toContain(fav.id);
    expect(favorites.every((r) => r.favorited)).toBe(true);
    expect((await server.get(`${P1}?favorited=false`)).body.count).toBe(page.count - favorites.length);
    expect((await server.get(`${P1}?search=QUOKKA`)).body.results.map((r: { id: number }) => r.id)).toEqual([fav.id]);
    expect((await server.get(`${P1}?search=zebra`)).body.count).toBe(1);
    await create({ filters: trends, tags: ['Wombat-tag'] });
    expect((await server.get(`${P1}?search=wombat`)).body.count).toBe(1); // tags, any case
    expect((await server.get(`${P1}?search=Sign%20up%20%E2%86%92`)).body.count).toBe(2); // derived name
    expect((await server.get(`${P1}?search=%25%25`)).body.count).toBe(0); // LIKE wildcards are text
    expect((await server.get(`${P1}?short_id=${fav.short_id}`)).body.results[0].id).toBe(fav.id);
    const byName = (await server.get(`${P1}?order=-name&limit=1`)).body;
    expect(byName.results[0].id).toBe(fav.id);
    expect(byName.next).toContain('offset=1');
    const user = server.store.users.getByEmail('demo@example.com')!;
    expect((await server.get(`${P1}?created_by=${user.id}`)).body.count).toBe(page.count + 1);
    expect((await server.get(`${P1}?created_by=9999`)).body.count).toBe(0);
    expect((await server.get(`${P1}?search=Old%20pageview%20table`)).body.count).toBe(0); // the seeded deleted one
    // `insight`: one kind only, whichever form the insight was written in.
    const all = (await server.get(`${P1}?limit=1000`)).body.results as { filters: { insight?: string } }[];
    for (const kind of ['TRENDS', 'FUNNELS', 'RETENTION', 'PATHS']) {
      const only = (await server.get(`${P1}?insight=${kind}&limit=1000`)).body;
      expect(only.count, kind).toBe(all.filter((r) => r.filters.insight === kind).length);
      expect(only.count, kind).toBeGreaterThan(0);
      expect(only.results.every((r: { filters: { insight: string } }) => r.filters.insight === kind)).toBe(true);
    }
    const bad = await server.get(`${P1}?insight=PIE`);
    expect([bad.status, bad.body.attr]).toEqual([400, 'insight']);
  });

  it('answers the error rows: 400 with attr, 403 scope, 404 other project, 405 delete', async () => {
    const bad = await server.request('POST', P1, {
      json: { query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'x', math: 'bogus' }] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'validation_error', attr: 'query__series__0__math' });
    expect((await server.request('POST', P1, { json: { filters: { insight: 'NOPE' } } })).body.attr).toBe(
      'filters__insight',
    );
    expect(
      (await server.request('POST', P1, { json: { tags: Array.from({ length: 51 }, (_, k) => `t${k}`) } })).body,
    ).toMatchObject({ attr: 'tags', code: 'max_length' });
    expect((await server.request('POST', P1, { json: { query: '{nope' } })).body.attr).toBe('query');
    // A formula the engine cannot read is refused when saved, in either form (saved, the insight
    // could not be opened again), and on a change too.
    const before = (await server.get(P1)).body.count;
    const badFormula = await server.request('POST', P1, { json: { filters: { ...trends, formula: 'A +* A' } } });
    expect(badFormula.body).toMatchObject({
      type: 'validation_error',
      attr: 'filters__formula',
      detail: 'Unexpected "*" in the formula.',
    });
    const query = {
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview' }],
      trendsFilter: { formula: 'A / B' },
    };
    expect((await server.request('POST', P1, { json: { query } })).body).toMatchObject({
      attr: 'query__trendsFilter__formula',
      detail: expect.stringContaining('"B" is not a series'),
    });
    expect((await server.get(P1)).body.count).toBe(before);
    const i = await create({ filters: trends });
    expect(
      (await server.request('PATCH', `${P1}${i.id}/`, { json: { filters: { ...trends, formula: '(A' } } })).body,
    ).toMatchObject({ attr: 'filters__formula' });
    expect((await server.get(`${P1}${i.id}/`)).status).toBe(200);
    // One stored before the check (written straight to the store) still opens as the engine's
    // 400 naming the formula, not a 500.
    const legacy = await create({ filters: trends });
    const row = server.store.db.prepare('SELECT query FROM insights WHERE id = ?').get(legacy.id) as { query: string };
    const node = JSON.parse(row.query) as { trendsFilter?: Record<string, unknown> };
    node.trendsFilter = { ...node.trendsFilter, formula: 'A +* A' };
    server.store.db.prepare('UPDATE insights SET query = ? WHERE id = ?').run(JSON.stringify(node), legacy.id);
    const opened = await server.get(`${P1}${legacy.id}/`);
    expect(opened.status).toBe(400);
    expect(opened.body).toMatchObject({ type: 'validation_error', attr: 'formula' });
    const readOnly = server.makeKey({ scopes: ['insight:read'] });
    const denied = await server.request('PATCH', `${P1}${i.id}/`, { key: readOnly, json: { name: 'x' } });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe("API key missing required scope 'insight:write'");
    expect((await server.get(`${P1}${i.id}/activity/`, { key: readOnly })).status).toBe(403);
    expect((await server.get(`${P2}${i.id}/`)).status).toBe(404);
    expect((await server.request('PATCH', `${P2}${i.id}/`, { json: { name: 'x' } })).status).toBe(404);
    expect((await server.get(`${P1}999999/`)).status).toBe(404);
    const hedgeboxOnly = server.makeKey({ scopes: ['*'], organizations: [server.orgIds[HEDGEBOX]!] });
    expect((await server.get('/api/projects/3/insights/', { key: hedgeboxOnly })).status).toBe(403);
    const del = await server.request('DELETE', `${P1}${i.id}/`);
    expect(del.status).toBe(405);
    expect(del.text).toBe('');
    expect((await server.get(`${P1}${i.id}/`)).status).toBe(200);
  });
});

describe('insights: update, soft delete, activity', () => {
  it('name/description/query change last_modified; favoriting only updated_at', async () => {
    const i = await create({ filters: trends });
    tick(1000);
    const fav = (await server.request('PATCH', `${P1}${i.id}/`, { json: { favorited: true } })).body;
    expect(fav.favorited).toBe(true);
    expect(fav.updated_at).toBe(clock.toISOString());
    expect(fav.last_modified_at).toBe(i.last_modified_at);
    tick(1000);
    const renamed = (
      await server.request('PATCH', `${P1}${i.id}/`, {
        json: {
          name: 'Views',
          query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview', math: 'dau' }] },
        },
      })
    ).body;
    expect(renamed).toMatchObject({
      name: 'Views',
      derived_name: 'Pageview unique users',
      last_modified_at: clock.toISOString(),
    });
    expect(renamed.filters.events[0].math).toBe('dau');
    const bad = await server.request('PATCH', `${P1}${i.id}/`, {
      json: {
        filters: {
          insight: 'FUNNELS',
          events: [{ id: 'a' }],
          exclusions: [{ id: 'b', funnel_from_step: 0, funnel_to_step: 3 }],
        },
      },
    });
    expect(bad.body.attr).toBe('filters__exclusions__0__funnel_to_step');

    const log = activityLogPageSchema.parse((await server.get(`${P1}${i.id}/activity/`)).body);
    expect(log.results.map((r) => r.activity)).toEqual(['updated', 'updated', 'created']);
    const fields = log.results[0]!.detail!.changes!.map((c) => c.field).sort();
    expect(fields).toEqual(['derived_name', 'filters', 'name', 'query']);
    expect(log.results[0]!.detail!.changes!.find((c) => c.field === 'name')).toMatchObject({
      action: 'changed',
      before: null,
      after: 'Views',
    });
    expect(log.results[1]!.detail!.changes).toEqual([
      { type: 'Insight', action: 'changed', field: 'favorited', before: false, after: true },
    ]);
    expect(log.results[0]!.user).toMatchObject({ email: 'demo@example.com' });
  });

  it('PATCH deleted: true hides it (404, not listed); deleted: false restores it; both logged', async () => {
    const i = await create({ name: 'Temporary', filters: trends });
    const gone = await server.request('PATCH', `${P1}${i.id}/`, { json: { deleted: true } });
    expect(gone.status).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect((await server.get(`${P1}${i.id}/`)).status).toBe(404);
    expect((await server.get(`${P1}?search=Temporary`)).body.count).toBe(0);
    expect((await server.request('PATCH', `${P1}${i.id}/`, { json: { name: 'x' } })).status).toBe(404);
    const back = await server.request('PATCH', `${P1}${i.id}/`, { json: { deleted: false } });
    expect(back.status).toBe(200);
    expect((await server.get(`${P1}?search=Temporary`)).body.count).toBe(1);
    const project = activityLogPageSchema.parse((await server.get(`${P1}activity/?limit=2`)).body);
    expect(project.results.map((r) => r.activity)).toEqual(['restored', 'deleted']);
    expect(project.results[0]).toMatchObject({
      scope: 'Insight',
      item_id: String(i.id),
      detail: { name: 'Temporary', short_id: i.short_id },
    });
    expect(project.next).toContain('offset=2');
  });
});

describe('insights: csv', () => {
  it('lists as CSV and retrieves the result rows as CSV with a file name', async () => {
    const i = await create({ name: '=HYPERLINK("x")', filters: trends });
    const list = await server.get(`${P1}?format=csv&short_id=${i.short_id}`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toContain('text/csv');
    expect(list.headers.get('content-disposition')).toBe('attachment; filename="insights.csv"');
    expect(list.text.split('\r\n')[0]).toBe(
      'id,short_id,name,derived_name,description,tags,favorited,saved,created_at,created_by,last_modified_at',
    );
    expect(list.text).toContain(`"'=HYPERLINK(""x"")"`);
    const one = await server.get(`${P1}${i.id}/?format=csv`);
    expect(one.headers.get('content-disposition')).toBe(`attachment; filename="insight-${i.short_id}.csv"`);
    const rows = one.text
      .trim()
      .split('\r\n')
      .map((r) => r.split(','));
    const json = (await server.get(`${P1}${i.id}/`)).body;
    expect(rows[0]!.slice(3)).toEqual(json.result[0].days);
    expect(rows[1]!.slice(3).map(Number)).toEqual(json.result[0].data);
  });
});

describe('insights: sharing', () => {
  it('enables, rotates and disables; the shared URL works only while enabled with the current token', async () => {
    const i = await create({ name: 'Shared one', filters: trends });
    const url = `${P1}${i.id}/sharing/`;
    expect(sharingConfigurationSchema.parse((await server.get(url)).body)).toEqual({
      enabled: false,
      access_token: null,
      created_at: null,
    });
    const on = (await server.request('PATCH', url, { json: { enabled: true } })).body;
    expect(on.enabled).toBe(true);
    expect(on.access_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const shared = await server.get(`/shared/${on.access_token}/insight/`, { key: null });
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ id: i.id, name: 'Shared one', created_by: null });
    // Revocable at once: no browser or proxy may keep a copy.
    expect(shared.headers.get('cache-control')).toBe('no-store');
    expect(shared.body.result[0].data.length).toBeGreaterThan(0);

    const rotated = (await server.request('POST', `${url}refresh/`)).body;
    expect(rotated.access_token).not.toBe(on.access_token);
    expect((await server.get(`/shared/${on.access_token}/insight/`, { key: null })).status).toBe(404);
    expect((await server.get(`/shared/${rotated.access_token}/insight/`, { key: null })).status).toBe(200);

    const off = (await server.request('PATCH', url, { json: { enabled: false } })).body;
    expect(off).toMatchObject({ enabled: false, access_token: rotated.access_token });
    expect((await server.get(`/shared/${rotated.access_token}/insight/`, { key: null })).status).toBe(404);
    expect((await server.get('/shared/not-a-token/insight/', { key: null })).status).toBe(404);

    const reader = server.makeKey({ scopes: ['sharing_configuration:read'] });
    expect((await server.request('PATCH', url, { key: reader, json: { enabled: true } })).status).toBe(403);
    expect((await server.get(url, { key: reader })).status).toBe(200);
    const writer = server.makeKey({ scopes: ['insight:write'] });
    expect((await server.request('PATCH', url, { key: writer, json: { enabled: true } })).status).toBe(200);
    // The key that turns sharing on and rotates its token also reads what it set.
    const read = await server.get(url, { key: writer });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ enabled: true, access_token: rotated.access_token });
    const log = (await server.get(`${P1}${i.id}/activity/`)).body.results.map((r: { activity: string }) => r.activity);
    expect(log).toEqual(['shared', 'unshared', 'sharing_token_rotated', 'shared', 'created']);
    expect(JSON.stringify((await server.get(`${P1}${i.id}/activity/`)).body)).not.toContain(rotated.access_token);
  });
});

describe('insights: views', () => {
  it('my_last_viewed: at most 5, most recent first, per calling key user', async () => {
    const made = [];
    for (let k = 0; k < 7; k++) made.push(await create({ name: `Viewed ${k}`, filters: trends }));
    for (const i of made) {
      tick(1000);
      const res = await server.request('POST', `${P1}${i.id}/viewed/`, { json: {} });
      expect(res.status).toBe(200);
    }
    tick(1000);
    await server.request('POST', `${P1}${made[0]!.id}/viewed/`, { json: {} });
    const last = myLastViewedResponseSchema.parse((await server.get(`${P1}my_last_viewed/`)).body);
    expect(last.map((r) => r.name)).toEqual(['Viewed 0', 'Viewed 6', 'Viewed 5', 'Viewed 4', 'Viewed 3']);
    const other = server.makeKey({ scopes: ['insight:read'], userEmail: 'priya@hedgebox.example' });
    expect((await server.get(`${P1}my_last_viewed/`, { key: other })).body).toEqual([]);
    await server.request('PATCH', `${P1}${made[0]!.id}/`, { json: { deleted: true } });
    expect((await server.get(`${P1}my_last_viewed/`)).body[0].name).toBe('Viewed 6');
  });
});

describe('insights: seed', () => {
  it('gives every demo project its insights of each kind and display, one shared, one deleted, with activity', async () => {
    for (const project of [1, 2, 3]) {
      const page = (await server.get(`/api/projects/${project}/insights/?order=created_at&limit=12`)).body;
      const seeded = (page.results as { filters: { insight: string; display?: string }; created_at: string }[]).filter(
        (i) => i.created_at < SEEDED_AT,
      );
      expect(seeded).toHaveLength(11);
      expect(new Set(seeded.map((i) => i.filters.insight))).toEqual(
        new Set(['TRENDS', 'FUNNELS', 'RETENTION', 'PATHS']),
      );
      expect(new Set(seeded.map((i) => i.filters.display).filter(Boolean)).size).toBeGreaterThanOrEqual(6);
    }
    const all = (await server.get(`${P1}?order=created_at&limit=11`)).body.results as {
      id: number;
      name: string;
      derived_name: string;
      favorited: boolean;
    }[];
    expect(all.filter((i) => i.favorited).length).toBeGreaterThanOrEqual(3);
    expect(all.find((i) => i.name === '')?.derived_name).toBe('Pageview unique users');
    const tokens = [];
    for (const i of all) {
      const res = await server.get(`${P1}${i.id}/`);
      expect(res.status, `${i.name} ${res.text}`).toBe(200);
      expect(res.body.result, i.name).not.toBeNull();
      const sharing = (await server.get(`${P1}${i.id}/sharing/`)).body;
      if (sharing.enabled) tokens.push(sharing.access_token);
    }
    expect(tokens).toHaveLength(1);
    expect((await server.get(`/shared/${tokens[0]}/insight/`, { key: null })).body.name).toBe('Signup to purchase');
    const activity = ((await server.get(`${P1}activity/?limit=1000`)).body.results as { activity: string }[]).map(
      (a) => a.activity,
    );
    for (const kind of ['created', 'updated', 'shared', 'deleted']) expect(activity).toContain(kind);
  });
});

describe('insights: timing', () => {
  it('stores a client timing for the project, checking the insight and the duration', async () => {
    const i = await create({ filters: trends });
    const res = await server.request('POST', `${P1}timing/`, {
      json: { insight_id: i.id, duration_ms: 842, is_cached: false, client_query_id: 'q-7' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      insight_id: i.id,
      duration_ms: 842,
      is_cached: false,
      client_query_id: 'q-7',
      created_at: clock.toISOString(),
    });
    expect(server.store.insightTimings.recent(1, 1)[0]).toMatchObject({
      id: res.body.id,
      insight_id: i.id,
      duration_ms: 842,
    });
    expect((await server.request('POST', `${P1}timing/`, { json: { duration_ms: -1 } })).body).toMatchObject({
      attr: 'duration_ms',
    });
    expect((await server.request('POST', `${P1}timing/`, { json: {} })).body).toMatchObject({
      attr: 'duration_ms',
      code: 'required',
    });
    expect(
      (await server.request('POST', `${P2}timing/`, { json: { insight_id: i.id, duration_ms: 5 } })).body,
    ).toMatchObject({ attr: 'insight_id' });
    const noScope = server.makeKey({ scopes: ['activity_log:read'] });
    expect((await server.request('POST', `${P1}timing/`, { key: noScope, json: { duration_ms: 5 } })).status).toBe(403);
  });
});

describe('insights: funnel/correlation/', () => {
  it('answers both forms with success and failure entries, and 400 naming the field', async () => {
    const body = { events: [{ id: 'user signed up' }, { id: 'purchase', order: 1 }], date_from: '-90d' };
    const res = await server.request('POST', `${P1}funnel/correlation/`, { json: body });
    expect(res.status, res.text).toBe(200);
    const parsed = funnelCorrelationResultSchema.parse(res.body);
    expect(parsed.result.events.length).toBeGreaterThan(0);
    expect(parsed.result.events.map((e) => e.event.event)).not.toContain('purchase');
    const get = await server.get(
      `${P1}funnel/correlation/?events=${encodeURIComponent(JSON.stringify(body.events))}&date_from=-90d`,
    );
    expect(get.body.result).toEqual(res.body.result);
    expect(get.body.is_cached).toBe(true);
    const props = await server.request('POST', `${P1}funnel/correlation/`, {
      json: { ...body, funnel_correlation_type: 'properties', funnel_correlation_names: ['plan'] },
    });
    expect(props.status).toBe(200);
    expect(
      props.body.result.events.every((e: { event: { event: string } }) => e.event.event.startsWith('plan::')),
    ).toBe(true);
    const bad = await server.request('POST', `${P1}funnel/correlation/`, {
      json: { ...body, funnel_correlation_type: 'properties' },
    });
    expect(bad.body).toMatchObject({ type: 'validation_error', attr: 'funnel_correlation_names' });
    expect((await server.request('POST', `${P1}funnel/correlation/`, { json: { events: [] } })).body.attr).toBe(
      'events',
    );
  });
});
