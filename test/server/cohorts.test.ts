import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cohortSchema } from '../../src/contract/index.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { loadEvents, personUuid } from '../analytics/harness.ts';
import { createTestServer, HEDGEBOX, type TestServer } from './helpers.ts';

/**
 * `{PRJ}/cohorts/` through the API on a handful of persons, numbers worked out by hand:
 * dynamic and static cohorts (CSV upload, person ids), their counts and persons, changes and
 * soft deletes, scopes and refusals; and analyses filtered and broken down by them.
 *
 * Now is 20 Mar 12:00. ann (ann@x.io, pro): 3 purchases in the last week, 2 pageviews.
 * bob (free): 1 purchase on 1 Mar, 1 pageview. cat (pro): 1 pageview.
 */

const NOW = new Date('2024-03-20T12:00:00Z');
let n = 0;
const ev = (event: string, person: string, day: number, personProps: Record<string, unknown>): ReferenceEvent => ({
  uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  event,
  distinct_id: person,
  person_id: person,
  timestamp: Date.UTC(2024, 2, day, 10),
  properties: {},
  person_properties: personProps,
});
const ann = { plan: 'pro', email: 'ann@x.io' };
const events = [
  ev('purchase', 'ann', 14, ann),
  ev('purchase', 'ann', 16, ann),
  ev('purchase', 'ann', 18, ann),
  ev('$pageview', 'ann', 18, ann),
  ev('$pageview', 'ann', 19, ann),
  ev('purchase', 'bob', 1, { plan: 'free' }),
  ev('$pageview', 'bob', 19, { plan: 'free' }),
  ev('$pageview', 'cat', 19, { plan: 'pro' }),
];

let server: TestServer;
let base: string;
let insights: string;
beforeAll(async () => {
  server = createTestServer({ now: () => NOW });
  const row = server.store.db
    .prepare(
      'SELECT p.id FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id',
    )
    .get(HEDGEBOX) as { id: number };
  server.store.db.prepare("UPDATE projects SET timezone = 'UTC' WHERE id = ?").run(row.id);
  await loadEvents(server.events, row.id, events);
  base = `/api/projects/${row.id}/cohorts/`;
  insights = `/api/projects/${row.id}/insights/`;
});
afterAll(async () => {
  await server.close();
});

const buyers = {
  properties: {
    type: 'AND',
    values: [
      {
        type: 'behavioral',
        key: 'purchase',
        value: 'performed_event_multiple',
        operator: 'gte',
        operator_value: 2,
        time_value: 7,
        time_interval: 'day',
      },
    ],
  },
};
const create = async (body: unknown) => {
  const res = await server.request('POST', base, { json: body });
  expect(res.status, res.text).toBe(201);
  return cohortSchema.parse(res.body);
};
const upload = (fields: Record<string, string>, csv: string, method = 'POST', url = base) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('csv', new Blob([csv], { type: 'text/csv' }), 'people.csv');
  return server.app.request(url, { method, headers: { Authorization: `Bearer ${server.demoKey}` }, body: form });
};
const trend = async (body: Record<string, unknown>) => {
  const res = await server.request('POST', `${insights}trend/`, {
    json: {
      events: [{ id: '$pageview' }],
      date_from: '2024-03-14',
      date_to: '2024-03-20',
      display: 'ActionsTable',
      ...body,
    },
  });
  return res;
};
const names = async (id: number) => {
  const res = await server.get(`${base}${id}/persons/`);
  expect(res.status, res.text).toBe(200);
  return (res.body.results as { name: string }[]).map((p) => p.name);
};

describe('cohorts', () => {
  it('a dynamic cohort: created with its count, listed, its persons, recomputed when its criteria change', async () => {
    const c = await create({ name: 'Buyers', description: 'twice in a week', filters: buyers });
    expect(c).toMatchObject({
      name: 'Buyers',
      is_static: false,
      is_calculating: false,
      count: 1,
      deleted: false,
      errors_calculating: 0,
      groups: [],
    });
    expect(c.created_by?.email).toBe('demo@example.com');
    expect(c.last_calculation).toBe(NOW.toISOString());
    expect(await names(c.id)).toEqual(['ann@x.io']);
    const list = await server.get(base);
    expect(list.body.results.map((x: { id: number }) => x.id)).toContain(c.id);
    // Within 30 days bob's purchase counts too; OR a person property.
    const wider = await server.request('PATCH', `${base}${c.id}/`, {
      json: {
        filters: {
          properties: {
            type: 'OR',
            values: [
              { type: 'AND', values: [{ ...buyers.properties.values[0], operator_value: 1, time_value: 30 }] },
              { type: 'AND', values: [{ type: 'person', key: 'plan', operator: 'exact', value: 'pro' }] },
            ],
          },
        },
      },
    });
    expect(wider.status, wider.text).toBe(200);
    expect(wider.body.count).toBe(3);
    const never = await create({
      name: 'Never bought',
      filters: {
        properties: {
          type: 'AND',
          values: [
            {
              type: 'behavioral',
              key: 'purchase',
              value: 'not_performed_event',
              time_value: 1,
              time_interval: 'month',
            },
          ],
        },
      },
    });
    expect(never.count).toBe(1);
    expect((await names(never.id)).length).toBe(1);
  });

  it('a static cohort from an uploaded CSV of distinct ids and emails, then persons added by id', async () => {
    const res = await upload({ name: 'Uploaded', is_static: 'true' }, 'distinct_id\nann@x.io\n"bob"\nnobody\n');
    expect(res.status, await res.clone().text()).toBe(201);
    const c = cohortSchema.parse(await res.json());
    expect(c).toMatchObject({ is_static: true, count: 2, filters: null });
    expect(await names(c.id)).toEqual(expect.arrayContaining(['ann@x.io', 'bob']));
    const added = await server.request('PATCH', `${base}${c.id}/add_persons_to_static_cohort/`, {
      json: { person_ids: [personUuid('cat'), personUuid('ann')] },
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body.count).toBe(3);
    const more = await upload({}, 'bob\n', 'PATCH', `${base}${c.id}/`);
    expect((await more.json()).count).toBe(3);
    const unknown = await server.request('PATCH', `${base}${c.id}/add_persons_to_static_cohort/`, {
      json: { person_ids: ['00000000-0000-4000-8000-000000000999'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.attr).toBe('person_ids');
    const removed = await server.request('PATCH', `${base}${c.id}/remove_person_from_static_cohort/`, {
      json: { person_id: personUuid('cat') },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.count).toBe(2);
    expect(await names(c.id)).not.toContain('cat');
    const json = await create({ name: 'By id', is_static: true, _create_static_person_ids: [personUuid('bob')] });
    expect(json.count).toBe(1);
  });

  it('trends and funnels filtered by a cohort and broken down by cohorts, labelled with their names', async () => {
    const pro = await create({
      name: 'Pro plan',
      filters: { properties: { type: 'AND', values: [{ type: 'person', key: 'plan', value: 'pro' }] } },
    });
    const res = await trend({ breakdown: ['all', pro.id], breakdown_type: 'cohort' });
    expect(res.status, res.text).toBe(200);
    expect(
      res.body.result.map((s: { label: string; breakdown_value: unknown; aggregated_value: number }) => [
        s.label,
        s.breakdown_value,
        s.aggregated_value,
      ]),
    ).toEqual([
      ['all users', 'all', 4],
      ['Pro plan', pro.id, 3],
    ]);
    const notPro = await trend({ properties: [{ type: 'cohort', key: 'id', value: pro.id, operator: 'not_in' }] });
    expect(notPro.body.result[0].aggregated_value).toBe(1);
    // A legacy client's filter without an operator means "in".
    const inPro = await server.get(
      `${insights}trend/?events=${encodeURIComponent('[{"id":"$pageview"}]')}&date_from=2024-03-14&display=ActionsTable&properties=${encodeURIComponent(`[{"type":"cohort","key":"id","value":${pro.id}}]`)}`,
    );
    expect(inPro.status, inPro.text).toBe(200);
    expect(inPro.body.result[0].aggregated_value).toBe(3);
    const funnel = await server.request('POST', `${insights}funnel/`, {
      json: {
        events: [
          { id: 'purchase', order: 0 },
          { id: '$pageview', order: 1 },
        ],
        date_from: '2024-03-01',
        date_to: '2024-03-20',
        breakdown: [pro.id],
        breakdown_type: 'cohort',
      },
    });
    expect(funnel.status, funnel.text).toBe(200);
    expect(
      funnel.body.result.map((steps: { count: number; breakdown_value: unknown }[]) => [
        steps[0]!.breakdown_value,
        steps.map((s) => s.count),
      ]),
    ).toEqual([[pro.id, [1, 1]]]);
    const retention = await server.request('POST', `${insights}retention/`, {
      json: {
        target_entity: { id: '$pageview', type: 'events' },
        returning_entity: { id: '$pageview', type: 'events' },
        date_to: '2024-03-20',
        properties: [{ type: 'cohort', key: 'id', value: pro.id }],
      },
    });
    expect(retention.status, retention.text).toBe(200);
    // A saved insight keeps the cohort filter and breakdown, in its filters and in its query node.
    const saved = await server.request('POST', insights, {
      json: {
        name: 'By plan',
        saved: true,
        filters: {
          insight: 'TRENDS',
          events: [{ id: '$pageview' }],
          date_from: '2024-03-14',
          date_to: '2024-03-20',
          display: 'ActionsTable',
          breakdown: [pro.id],
          breakdown_type: 'cohort',
          properties: [{ type: 'cohort', key: 'id', value: pro.id, operator: 'in' }],
        },
      },
    });
    expect(saved.status, saved.text).toBe(201);
    const read = await server.get(`${insights}${saved.body.id}/?refresh=true`);
    expect(read.status, read.text).toBe(200);
    expect(
      read.body.result.map((s: { label: string; aggregated_value: number }) => [s.label, s.aggregated_value]),
    ).toEqual([['Pro plan', 3]]);
    // Pro persons: ann first viewed on the 18th and came back on the 19th; cat first viewed on the 19th (bob, free, is left out).
    const days = Object.fromEntries(
      (retention.body.result as { date: string; values: { count: number }[] }[]).map((c) => [
        c.date.slice(0, 10),
        c.values.map((v) => v.count),
      ]),
    );
    expect(days['2024-03-18']).toEqual([1, 1, 0]);
    expect(days['2024-03-19']).toEqual([1, 0]);
  });

  it('soft delete: gone from the list and from analyses, still readable; DELETE is a 405', async () => {
    const c = await create({ name: 'Temporary', filters: buyers });
    expect((await server.request('DELETE', `${base}${c.id}/`)).status).toBe(405);
    const del = await server.request('PATCH', `${base}${c.id}/`, { json: { deleted: true } });
    expect(del.status).toBe(200);
    expect(del.body.deleted).toBe(true);
    expect((await server.get(base)).body.results.map((x: { id: number }) => x.id)).not.toContain(c.id);
    expect((await server.get(`${base}${c.id}/`)).body.deleted).toBe(true);
    const refused = await trend({ properties: [{ type: 'cohort', key: 'id', value: c.id }] });
    expect(refused.status).toBe(400);
    expect(refused.body.attr).toBe('properties__values__0__value');
    const breakdown = await trend({ breakdown: [c.id], breakdown_type: 'cohort' });
    expect(breakdown.body.attr).toBe('breakdown');
    const restored = await server.request('PATCH', `${base}${c.id}/`, { json: { deleted: false } });
    expect(restored.body.deleted).toBe(false);
    expect((await trend({ properties: [{ type: 'cohort', key: 'id', value: c.id }] })).status).toBe(200);
  });

  it.each([
    [{ name: 'No criteria' }, 'filters'],
    [
      {
        filters: {
          properties: {
            type: 'AND',
            values: [
              { type: 'behavioral', key: 'x', value: 'performed_event', time_value: 7, time_interval: 'fortnight' },
            ],
          },
        },
      },
      'filters__properties__values__0__time_interval',
    ],
    [
      {
        filters: {
          properties: {
            type: 'AND',
            values: [
              { type: 'behavioral', key: 'x', value: 'performed_event_multiple', time_value: 7, time_interval: 'day' },
            ],
          },
        },
      },
      'filters__properties__values__0__operator_value',
    ],
    [
      { filters: { properties: { type: 'AND', values: [{ type: 'cohort', key: 'id', value: 1 }] } } },
      'filters__properties__values__0__type',
    ],
    [
      {
        filters: {
          properties: { type: 'AND', values: [{ type: 'person', key: 'plan', operator: 'gt', value: 'ten' }] },
        },
      },
      'filters__properties__values__0__value',
    ],
    [{ is_static: true, _create_static_person_ids: ['not-a-uuid'] }, '_create_static_person_ids__0'],
    [
      {
        filters: {
          properties: {
            type: 'OR',
            values: [{ type: 'AND', values: [{ type: 'person', key: 'plan', operator: 'regex', value: '(?<=x)y' }] }],
          },
        },
      },
      'filters__properties__values__0__values__0__value',
    ],
    [{ csv: 'a\nb', filters: buyers }, 'is_static'],
  ])('%j → 400 on %s', async (body, attr) => {
    const res = await server.request('POST', base, { json: body });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });

  it('takes the cohort scopes: read lists, write creates; insight keys reach neither', async () => {
    const reader = server.makeKey({ scopes: ['cohort:read', 'project:read'] });
    expect((await server.get(base, { key: reader })).status).toBe(200);
    const denied = await server.request('POST', base, { key: reader, json: { name: 'x', filters: buyers } });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe("API key missing required scope 'cohort:write'");
    const insightKey = server.makeKey({ scopes: ['insight:write'] });
    expect((await server.get(base, { key: insightKey })).status).toBe(403);
    // cohort:write also opens the project its cohorts live in (docs/scopes.md).
    const writer = server.makeKey({ scopes: ['cohort:write'] });
    expect((await server.request('POST', base, { key: writer, json: { name: 'w', filters: buyers } })).status).toBe(
      201,
    );
    expect((await server.get(base.replace('cohorts/', ''), { key: writer })).status).toBe(200);
  });

  it("is marked in the OpenAPI document as served beside the production service's API", async () => {
    const doc = await server.get('/api/schema/');
    expect(doc.status).toBe(200);
    const paths = doc.body.paths as Record<string, Record<string, Record<string, unknown>>>;
    const entry = Object.entries(paths).find(([p]) => p.includes('/cohorts/') && !p.includes('{id}'))?.[1];
    expect(entry?.post?.['x-extension']).toBe('reference-server');
  });
});
