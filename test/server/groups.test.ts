import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelPersonsResultSchema, groupSchema, groupTypeSchema, pageSchema } from '../../src/contract/index.ts';
import { z } from '../../src/contract/z.ts';
import { createTestServer, HEDGEBOX, type TestServer } from './helpers.ts';

/**
 * Groups through the API, on events captured here (so the ingestion path records them),
 * numbers worked out by hand. Now is 20 Mar 12:00 (UTC project).
 * ann and bob are of company acme (bob also of team red), cat of company globex, dan of none.
 *   ann: $pageview 18 and 19 Mar, purchase 19 Mar   bob: $pageview 19 Mar
 *   cat: $pageview 19 Mar, purchase 20 Mar          dan: $pageview 19 Mar, purchase 19 Mar
 * $groupidentify: acme {name: Acme Inc, plan: pro, employees: 120} on 1 Mar, then {plan:
 * enterprise} on 10 Mar (sent first: time decides); globex {name: Globex, plan: free} on 2 Mar.
 * Types: company (first seen 1 Mar) is 0, team (19 Mar) is 1.
 */

const NOW = new Date('2024-03-20T12:00:00Z');
let server: TestServer;
let prj: string;

const at = (day: number, hour = 10) => new Date(Date.UTC(2024, 2, day, hour)).toISOString();
const acme = { company: 'acme' };
const identify = (type: string, key: string, day: number, set: Record<string, unknown>) => ({
  event: '$groupidentify',
  distinct_id: 'server',
  timestamp: at(day),
  properties: { $group_type: type, $group_key: key, $group_set: set },
});
const batch = [
  identify('company', 'acme', 10, { plan: 'enterprise' }),
  { event: '$pageview', distinct_id: 'ann', timestamp: at(18), properties: { $groups: acme } },
  { event: '$pageview', distinct_id: 'ann', timestamp: at(19), properties: { $groups: acme } },
  { event: 'purchase', distinct_id: 'ann', timestamp: at(19, 11), properties: { $groups: acme } },
  {
    event: '$pageview',
    distinct_id: 'bob',
    timestamp: at(19),
    properties: { $groups: { company: 'acme', team: 'red' } },
  },
  { event: '$pageview', distinct_id: 'cat', timestamp: at(19), properties: { $groups: { company: 'globex' } } },
  { event: 'purchase', distinct_id: 'cat', timestamp: at(20), properties: { $groups: { company: 'globex' } } },
  { event: '$pageview', distinct_id: 'dan', timestamp: at(19) },
  { event: 'purchase', distinct_id: 'dan', timestamp: at(19, 11) },
  identify('company', 'acme', 1, { name: 'Acme Inc', plan: 'pro', employees: 120 }),
  identify('company', 'globex', 2, { name: 'Globex', plan: 'free' }),
];

beforeAll(async () => {
  server = createTestServer({ now: () => NOW });
  const row = server.store.db
    .prepare(
      'SELECT p.id, p.api_token FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id',
    )
    .get(HEDGEBOX) as { id: number; api_token: string };
  server.store.db.prepare("UPDATE projects SET timezone = 'UTC' WHERE id = ?").run(row.id);
  prj = `/api/projects/${row.id}`;
  const res = await server.app.request('/batch/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api_key: row.api_token, batch }),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

const post = async (kind: string, body: Record<string, unknown>) => {
  const res = await server.request('POST', `${prj}/insights/${kind}/`, { json: body });
  expect(res.status, res.text).toBe(200);
  return res.body as { result: unknown };
};
const trendTotal = async (body: Record<string, unknown>) => {
  const { result } = await post('trend', {
    events: [{ id: '$pageview', math: 'dau' }],
    date_from: '2024-03-14',
    date_to: '2024-03-20',
    display: 'ActionsTable',
    ...body,
  });
  return result as { aggregated_value: number; breakdown_value?: unknown }[];
};

describe('groups_types/ and groups/', () => {
  it('lists the types by index, in the order first seen', async () => {
    const res = await server.get(`${prj}/groups_types/`);
    expect(res.status, res.text).toBe(200);
    expect(
      z
        .array(groupTypeSchema)
        .parse(res.body)
        .map((t) => [t.group_type_index, t.group_type]),
    ).toEqual([
      [0, 'company'],
      [1, 'team'],
    ]);
  });

  it("lists a type's groups by key with their merged properties; search reads the key and the name", async () => {
    const list = async (query: string) => {
      const res = await server.get(`${prj}/groups/?${query}`);
      expect(res.status, res.text).toBe(200);
      return pageSchema(groupSchema).parse(res.body);
    };
    const companies = await list('group_type_index=0');
    expect(companies.count).toBe(2);
    expect(companies.results.map((g) => [g.group_key, g.group_properties])).toEqual([
      ['acme', { name: 'Acme Inc', plan: 'enterprise', employees: 120 }],
      ['globex', { name: 'Globex', plan: 'free' }],
    ]);
    expect(companies.results[0]!.created_at).toBe('2024-03-01T10:00:00.000Z');
    expect((await list('group_type_index=1')).results.map((g) => [g.group_key, g.group_properties])).toEqual([
      ['red', {}],
    ]);
    expect((await list('group_type_index=0&search=GLOB')).results.map((g) => g.group_key)).toEqual(['globex']);
    expect((await list('group_type_index=0&search=inc')).results.map((g) => g.group_key)).toEqual(['acme']);
    const paged = await list('group_type_index=0&limit=1');
    expect([paged.count, paged.results.length, paged.next !== null]).toEqual([2, 1, true]);
    expect((await list('group_type_index=4')).count).toBe(0);
  });

  it('needs group:read, and the type index', async () => {
    const insightOnly = server.makeKey({ scopes: ['insight:read'] });
    expect((await server.get(`${prj}/groups_types/`, { key: insightOnly })).status).toBe(403);
    expect((await server.get(`${prj}/groups_types/`, { key: server.makeKey({ scopes: ['group:read'] }) })).status).toBe(
      200,
    );
    const res = await server.get(`${prj}/groups/`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ attr: 'group_type_index' });
  });
});

describe('analyses by group', () => {
  it('trends: unique persons, companies or teams; totals count only events with the group', async () => {
    expect((await trendTotal({})).map((s) => s.aggregated_value)).toEqual([4]);
    expect((await trendTotal({ aggregation_group_type_index: 0 })).map((s) => s.aggregated_value)).toEqual([2]);
    expect((await trendTotal({ aggregation_group_type_index: 1 })).map((s) => s.aggregated_value)).toEqual([1]);
    expect(
      (await trendTotal({ events: [{ id: '$pageview' }], aggregation_group_type_index: 0 })).map(
        (s) => s.aggregated_value,
      ),
    ).toEqual([4]);
    // weekly_active by company on the last day: acme and globex.
    expect(
      (await trendTotal({ events: [{ id: '$pageview', math: 'weekly_active' }], aggregation_group_type_index: 0 })).map(
        (s) => s.aggregated_value,
      ),
    ).toEqual([2]);
  });

  it('trends: filtered by a group property, broken down by one', async () => {
    const enterprise = [{ type: 'group', group_type_index: 0, key: 'plan', value: 'enterprise', operator: 'exact' }];
    expect((await trendTotal({ properties: enterprise })).map((s) => s.aggregated_value)).toEqual([2]);
    expect(
      (await trendTotal({ properties: [{ ...enterprise[0], operator: 'is_not' }] })).map((s) => s.aggregated_value),
    ).toEqual([2]);
    expect(
      (
        await trendTotal({
          properties: [{ type: 'group', group_type_index: 0, key: 'employees', value: 100, operator: 'gt' }],
        })
      ).map((s) => s.aggregated_value),
    ).toEqual([2]);
    const byPlan = await trendTotal({ breakdown: 'plan', breakdown_type: 'group', breakdown_group_type_index: 0 });
    expect(Object.fromEntries(byPlan.map((s) => [s.breakdown_value, s.aggregated_value]))).toEqual({
      enterprise: 2,
      free: 1,
      $$_posthog_breakdown_null_$$: 1,
    });
  });

  it('funnels: persons or companies converting from a pageview to a purchase', async () => {
    const funnel = async (extra: Record<string, unknown>) => {
      const { result } = await post('funnel', {
        events: [
          { id: '$pageview', order: 0 },
          { id: 'purchase', order: 1 },
        ],
        date_from: '2024-03-14',
        date_to: '2024-03-20',
        ...extra,
      });
      return (result as { count: number }[]).map((s) => s.count);
    };
    expect(await funnel({})).toEqual([4, 3]);
    expect(await funnel({ aggregation_group_type_index: 0 })).toEqual([2, 2]);
    expect(await funnel({ aggregation_group_type_index: 1 })).toEqual([1, 0]);
    expect(
      await funnel({
        aggregation_group_type_index: 0,
        properties: [{ type: 'group', group_type_index: 0, key: 'plan', value: 'free' }],
      }),
    ).toEqual([1, 1]);
    // Persons broken down by their company's plan: ann and bob (enterprise), cat (free), dan (none).
    const { result } = await post('funnel', {
      events: [
        { id: '$pageview', order: 0 },
        { id: 'purchase', order: 1 },
      ],
      date_from: '2024-03-14',
      date_to: '2024-03-20',
      breakdown: 'plan',
      breakdown_type: 'group',
      breakdown_group_type_index: 0,
    });
    expect(
      (result as { breakdown_value: string; count: number }[][]).map((steps) => [
        steps[0]!.breakdown_value,
        steps.map((s) => s.count),
      ]),
    ).toEqual([
      ['enterprise', [2, 1]],
      ['free', [1, 1]],
      ['None', [1, 1]],
    ]);
  });

  it('retention: first pageviews of companies, then pageviews again', async () => {
    const retention = async (extra: Record<string, unknown>) => {
      const { result } = await post('retention', {
        period: 'Day',
        total_intervals: 3,
        date_to: '2024-03-20',
        retention_type: 'retention_first_time',
        target_entity: { id: '$pageview' },
        returning_entity: { id: '$pageview' },
        ...extra,
      });
      return (result as { values: { count: number }[] }[]).map((c) => c.values.map((v) => v.count));
    };
    expect(await retention({})).toEqual([[1, 1, 0], [3, 0], [0]]);
    expect(await retention({ aggregation_group_type_index: 0 })).toEqual([[1, 1, 0], [1, 0], [0]]);
  });

  it("a group funnel's correlation reads events, not persons' properties", async () => {
    const body = {
      events: [
        { id: '$pageview', order: 0 },
        { id: 'purchase', order: 1 },
      ],
      date_from: '2024-03-14',
      date_to: '2024-03-20',
      aggregation_group_type_index: 0,
    };
    const events = await server.request('POST', `${prj}/insights/funnel/correlation/`, { json: body });
    expect(events.status, events.text).toBe(200);
    const props = await server.request('POST', `${prj}/insights/funnel/correlation/`, {
      json: { ...body, funnel_correlation_type: 'properties', funnel_correlation_names: ['plan'] },
    });
    expect(props.status).toBe(400);
    expect(props.body).toMatchObject({ attr: 'aggregation_group_type_index' });
  });

  it("a group funnel's step lists its groups by key, as groups/ shapes them", async () => {
    const steps = JSON.stringify([
      { id: '$pageview', order: 0 },
      { id: 'purchase', order: 1 },
    ]);
    const actors = async (index: number, step: number) => {
      const query = new URLSearchParams({
        events: steps,
        date_from: '2024-03-14',
        date_to: '2024-03-20',
        aggregation_group_type_index: String(index),
        funnel_step: String(step),
      });
      const res = await server.get(`${prj}/persons/funnel/?${query.toString()}`);
      expect(res.status, res.text).toBe(200);
      const page = funnelPersonsResultSchema.parse(res.body).results[0]!;
      expect(page.count).toBe(page.people.length);
      return page.people;
    };
    // acme (ann views and buys on the 19th) and globex (cat views on the 19th, buys on the 20th) both convert.
    const acmeGroup = {
      type: 'group',
      id: 'acme',
      group_type_index: 0,
      group_key: 'acme',
      group_properties: { name: 'Acme Inc', plan: 'enterprise', employees: 120 },
      created_at: '2024-03-01T10:00:00.000Z',
    };
    const globexGroup = {
      type: 'group',
      id: 'globex',
      group_type_index: 0,
      group_key: 'globex',
      group_properties: { name: 'Globex', plan: 'free' },
      created_at: '2024-03-02T10:00:00.000Z',
    };
    expect(await actors(0, 1)).toEqual([acmeGroup, globexGroup]);
    expect(await actors(0, 2)).toEqual([acmeGroup, globexGroup]);
    expect(await actors(0, -2)).toEqual([]);
    // Team red (bob's pageview) enters and buys nothing: it drops off before the purchase.
    const red = {
      type: 'group',
      id: 'red',
      group_type_index: 1,
      group_key: 'red',
      group_properties: {},
      created_at: '2024-03-19T10:00:00.000Z',
    };
    expect(await actors(1, 1)).toEqual([red]);
    expect(await actors(1, 2)).toEqual([]);
    expect(await actors(1, -2)).toEqual([red]);
  });

  it.each([
    ['trend', { aggregation_group_type_index: 2 }, 'aggregation_group_type_index'],
    [
      'trend',
      { properties: [{ type: 'group', group_type_index: 3, key: 'plan', value: 'pro' }] },
      'properties__values__0__group_type_index',
    ],
    [
      'trend',
      { properties: [{ type: 'group', key: 'plan', value: 'pro' }] },
      'properties__values__0__group_type_index',
    ],
    ['trend', { breakdown: 'plan', breakdown_type: 'group' }, 'breakdown_group_type_index'],
    ['trend', { aggregation_group_type_index: 5 }, 'aggregation_group_type_index'],
    [
      'funnel',
      { events: [{ id: '$pageview' }, { id: 'purchase' }], aggregation_group_type_index: 2 },
      'aggregation_group_type_index',
    ],
    ['retention', { aggregation_group_type_index: 2 }, 'aggregation_group_type_index'],
  ])('%s with %j is a 400 on %s', async (kind, body, attr) => {
    const res = await server.request('POST', `${prj}/insights/${kind}/`, {
      json: { events: [{ id: '$pageview' }], ...body },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });
});
