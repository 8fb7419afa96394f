import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trendParamsSchema } from '../../src/contract/analytics.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { createTestServer, HEDGEBOX, type TestServer } from '../server/helpers.ts';
import { loadEvents } from './harness.ts';
import { referenceTrends } from './reference/trends.ts';

/**
 * Hostile input in every trend parameter: quotes, SQL fragments, huge strings, deep nesting.
 * Each gives a 400 or a correct result (equal to the reference) — never a 500.
 */

const NOW = new Date('2024-03-20T12:00:00Z');
const SQL = [
  "'; DROP TABLE events; --",
  '" OR 1=1 --',
  '$1',
  '\\',
  "') UNION SELECT * FROM persons --",
  '/',
  '~0~1',
  '$.a[0]',
  '\u0000',
  '💥',
];
const HUGE = 'x'.repeat(100_000);
let server: TestServer;
let url: string;
let projectId: number;

const events: ReferenceEvent[] = SQL.map((s, i) => ({
  uuid: `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`,
  event: i % 2 ? s : '$pageview',
  distinct_id: `d${i}`,
  person_id: `p${i}`,
  timestamp: Date.parse('2024-03-15T10:00:00Z') + i * 3_600_000,
  properties: { [s]: s, amount: i, $browser: s },
  person_properties: { [s]: i },
}));

beforeAll(async () => {
  server = createTestServer({ now: () => NOW });
  const row = server.store.db
    .prepare(
      'SELECT p.id FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id',
    )
    .get(HEDGEBOX) as { id: number };
  projectId = row.id;
  server.store.db.prepare("UPDATE projects SET timezone = 'UTC' WHERE id = ?").run(projectId);
  await loadEvents(server.events, projectId, events);
  url = `/api/projects/${projectId}/insights/trend/`;
});
afterAll(async () => {
  await server.close();
});

const nested = (depth: number): unknown =>
  depth === 0
    ? { key: 'a', value: 'b', operator: 'exact', type: 'event' }
    : { type: 'AND', values: [nested(depth - 1)] };
const deepArray = (depth: number): unknown => (depth === 0 ? 'x' : [deepArray(depth - 1)]);

const cases: [string, unknown][] = [
  ...SQL.flatMap((s): [string, unknown][] => [
    [`event id ${s}`, { events: [{ id: s }] }],
    [`property key ${s}`, { events: [{ id: '$pageview' }], properties: [{ key: s, value: s, operator: 'exact' }] }],
    [
      `person property ${s}`,
      { events: [{ id: null }], properties: [{ key: s, value: 3, operator: 'gt', type: 'person' }] },
    ],
    [`icontains ${s}`, { events: [{ id: null }], properties: [{ key: s, value: s, operator: 'icontains' }] }],
    [`regex ${s}`, { events: [{ id: null }], properties: [{ key: '$browser', value: s, operator: 'regex' }] }],
    [`breakdown ${s}`, { events: [{ id: null }], breakdown: s }],
    [`person breakdown ${s}`, { events: [{ id: null }], breakdown: s, breakdown_type: 'person' }],
    [`math_property ${s}`, { events: [{ id: null, math: 'sum', math_property: s }] }],
    [`formula ${s}`, { events: [{ id: null }], formula: s }],
    [`date_from ${s}`, { events: [{ id: null }], date_from: s }],
    [`date_to ${s}`, { events: [{ id: null }], date_to: s }],
    [`interval ${s}`, { events: [{ id: null }], interval: s }],
    [`display ${s}`, { events: [{ id: null }], display: s }],
    [`compare_to ${s}`, { events: [{ id: null }], compare: true, compare_to: s }],
    [`custom_name ${s}`, { events: [{ id: null, custom_name: s }] }],
  ]),
  ['huge event id', { events: [{ id: HUGE }] }],
  ['huge property key', { events: [{ id: null }], properties: [{ key: HUGE, value: 'x' }] }],
  ['huge property value', { events: [{ id: null }], properties: [{ key: 'a', value: HUGE }] }],
  [
    'huge regex',
    { events: [{ id: null }], properties: [{ key: 'a', value: '(a+)+'.repeat(2000), operator: 'regex' }] },
  ],
  ['huge formula', { events: [{ id: null }], formula: 'A+'.repeat(5000) + 'A' }],
  ['deep formula', { events: [{ id: null }], formula: '('.repeat(500) + 'A' + ')'.repeat(500) }],
  ['deep unary formula', { events: [{ id: null }], formula: '-'.repeat(900) + 'A' }],
  ['huge breakdown', { events: [{ id: null }], breakdown: HUGE }],
  ['huge date', { events: [{ id: null }], date_from: `-${'9'.repeat(400)}d` }],
  ['far relative date', { events: [{ id: null }], date_from: '-999999y' }],
  ['far absolute date', { events: [{ id: null }], date_from: '0001-01-01', date_to: '9999-12-31' }],
  ['many series', { events: Array.from({ length: 300 }, (_, i) => ({ id: `e${i}` })) }],
  [
    'many filters',
    {
      events: [{ id: null }],
      properties: Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, value: 'v', operator: 'is_not' })),
    },
  ],
  ['deeply nested groups', { events: [{ id: null }], properties: nested(200) }],
  ['deeply nested arrays', { events: deepArray(500) }],
  ['filter value objects', { events: [{ id: null }], properties: [{ key: 'a', value: { $ne: 1 } }] }],
  ['breakdown_limit huge', { events: [{ id: null }], breakdown: '$browser', breakdown_limit: 1e12 }],
  ['actions with SQL', { actions: [{ id: '1; DROP TABLE events' }] }],
  [
    'prototype keys',
    { events: [{ id: null }], properties: [{ key: '__proto__', value: 'constructor' }], breakdown: 'constructor' },
  ],
];

describe('hostile trend parameters', () => {
  it.each(cases)('%s → 400 or a correct result', async (_name, body) => {
    const res = await server.request('POST', url, { json: body });
    expect([200, 400]).toContain(res.status);
    if (res.status === 400) {
      expect(res.body.type).toBe('validation_error');
      expect(typeof res.body.attr === 'string' || res.body.attr === null).toBe(true);
      return;
    }
    const params = trendParamsSchema.parse(body);
    const expected = referenceTrends(params, {
      events,
      now: NOW,
      project: { id: projectId, timezone: 'UTC', week_start_day: 0, test_account_filters: [] },
    });
    expect(res.body.result.map((s: { label: string; data: number[] }) => [s.label, s.data])).toEqual(
      expected.map((s) => [s.label, s.data]),
    );
  });

  it('the events survive every hostile request', async () => {
    const res = await server.request('POST', url, {
      json: { events: [{ id: null }], date_from: '2024-03-15', date_to: '2024-03-15', display: 'BoldNumber' },
    });
    expect(res.status).toBe(200);
    expect(res.body.result[0].aggregated_value).toBe(SQL.length);
  });
});
