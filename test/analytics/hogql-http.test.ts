import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAnalyticsQuery } from '../../src/contract/analytics.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { createTestServer, HEDGEBOX, type TestServer } from '../server/helpers.ts';
import { loadEvents } from './harness.ts';

/**
 * HogQL and session pieces through the API, on a handful of events with numbers worked out by
 * hand: breakdowns, filters and maths on trend/ and funnel/ (POST and GET) and in a saved
 * insight's query node; refusals as 400s naming the field; hostile text never a 500.
 *
 * Sessions: s1 (alice) /a 10:00 → /b 10:01 → click 10:02: 120 s, entry /a, exit /b, 2 pageviews;
 * s2 (bob) /c 11:00: 0 s, entry = exit /c, 1 pageview; carol's pageview at 12:00 has no session.
 */

const NOW = new Date('2024-03-20T12:00:00Z');
const at = (hhmm: string) => Date.parse(`2024-03-15T${hhmm}:00Z`);
let n = 0;
const ev = (
  event: string,
  person: string,
  time: string,
  properties: Record<string, unknown>,
  personProps: Record<string, unknown> = {},
): ReferenceEvent => ({
  uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  event,
  distinct_id: person,
  person_id: person,
  timestamp: at(time),
  properties,
  person_properties: personProps,
});
const events: ReferenceEvent[] = [
  ev(
    '$pageview',
    'alice',
    '10:00',
    { $session_id: 's1', $current_url: '/a', $browser: 'Chrome', price: 5 },
    { plan: 'pro' },
  ),
  ev(
    '$pageview',
    'alice',
    '10:01',
    { $session_id: 's1', $current_url: '/b', $browser: 'Chrome', price: '7.5' },
    { plan: 'pro' },
  ),
  ev('click', 'alice', '10:02', { $session_id: 's1', $browser: 'Chrome' }, { plan: 'pro' }),
  ev(
    '$pageview',
    'bob',
    '11:00',
    { $session_id: 's2', $current_url: '/c', $browser: 'FIREFOX', price: 10 },
    { plan: 'free' },
  ),
  ev('click', 'bob', '11:30', { $browser: 'firefox' }, { plan: 'free' }),
  ev('$pageview', 'carol', '12:00', { $current_url: '/d', price: 'n/a' }),
];

let server: TestServer;
let base: string;
beforeAll(async () => {
  server = createTestServer({ now: () => NOW });
  const row = server.store.db
    .prepare(
      'SELECT p.id FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE o.name = ? ORDER BY p.id',
    )
    .get(HEDGEBOX) as { id: number };
  server.store.db.prepare("UPDATE projects SET timezone = 'UTC' WHERE id = ?").run(row.id);
  await loadEvents(server.events, row.id, events);
  base = `/api/projects/${row.id}/insights/`;
});
afterAll(async () => {
  await server.close();
});

const DAY = { date_from: '2024-03-15', date_to: '2024-03-15', display: 'ActionsTable' };
const pageviews = { id: '$pageview', type: 'events' };
type Series = { label: string; breakdown_value?: unknown; aggregated_value: number };
const trend = async (body: Record<string, unknown>) => {
  const res = await server.request('POST', `${base}trend/`, { json: { ...DAY, ...body } });
  expect(res.status, res.text).toBe(200);
  return (res.body.result as Series[]).map((s) => [s.label, s.aggregated_value]);
};

describe('trend/ with HogQL and sessions', () => {
  it('breaks down by a session property (None without a session) and by a HogQL expression', async () => {
    expect(await trend({ events: [pageviews], breakdown: '$entry_current_url', breakdown_type: 'session' })).toEqual([
      ['/a', 2],
      ['/c', 1],
      ['None', 1],
    ]);
    expect(await trend({ events: [pageviews], breakdown: '$session_duration', breakdown_type: 'session' })).toEqual([
      ['120', 2],
      ['0', 1],
      ['None', 1],
    ]);
    expect(
      await trend({ events: [{ id: null }], breakdown: 'lower(properties.$browser)', breakdown_type: 'hogql' }),
    ).toEqual([
      ['chrome', 3],
      ['firefox', 2],
      ['None', 1],
    ]);
    expect(
      await trend({
        events: [pageviews],
        breakdown: "if(toFloat(properties.price) >= 7, 'big', 'small')",
        breakdown_type: 'hogql',
        breakdown_limit: 1,
      }),
    ).toEqual([
      ['big', 2],
      ['Other', 2],
    ]);
  });

  it('filters by session properties and HogQL conditions', async () => {
    expect(
      await trend({
        events: [{ id: null }],
        properties: [{ key: '$session_duration', type: 'session', operator: 'gt', value: 60 }],
      }),
    ).toEqual([['All events', 3]]);
    expect(
      await trend({
        events: [{ id: null }],
        properties: [{ key: '$pageview_count', type: 'session', operator: 'exact', value: 1 }],
      }),
    ).toEqual([['All events', 1]]);
    // No session: every session filter is false, is_not too.
    expect(
      await trend({
        events: [pageviews],
        properties: [{ key: '$exit_current_url', type: 'session', operator: 'is_not', value: '/b' }],
      }),
    ).toEqual([['$pageview', 1]]);
    expect(
      await trend({
        events: [
          { id: null, properties: [{ key: "person.properties.plan = 'pro' and event != 'click'", type: 'hogql' }] },
        ],
      }),
    ).toEqual([['All events', 2]]);
    expect(
      await trend({ events: [pageviews], properties: [{ key: 'toFloat(properties.price) > 6', type: 'hogql' }] }),
    ).toEqual([['$pageview', 2]]);
  });

  it('computes math: hogql over each series', async () => {
    expect(await trend({ events: [{ ...pageviews, math: 'hogql', math_hogql: 'sum(properties.price)' }] })).toEqual([
      ['$pageview', 22.5],
    ]);
    expect(
      await trend({ events: [{ id: null, math: 'hogql', math_hogql: 'uniq(person_id) * 10 + count() / 2' }] }),
    ).toEqual([['All events', 33]]);
    expect(
      await trend({
        events: [{ ...pageviews, math: 'hogql', math_hogql: 'max(properties.price) - min(properties.price)' }],
        breakdown: '$browser',
      }),
    ).toEqual([
      ['Chrome', 2.5],
      ['FIREFOX', 0],
      ['None', 0],
    ]);
  });

  it('answers the GET form the same', async () => {
    const params = {
      ...DAY,
      events: [pageviews],
      properties: [{ key: "properties.$current_url in ('/a', '/d')", type: 'hogql' }],
      breakdown: '$exit_current_url',
      breakdown_type: 'session',
    };
    const res = await server.request(
      'GET',
      `${base}trend/?${new URLSearchParams(encodeAnalyticsQuery(params as never))}`,
    );
    expect(res.status, res.text).toBe(200);
    expect((res.body.result as Series[]).map((s) => [s.label, s.aggregated_value])).toEqual([
      ['/b', 1],
      ['None', 1],
    ]);
  });
});

describe('funnel/ with HogQL and sessions', () => {
  it('breaks down and filters steps', async () => {
    const steps = [
      { id: '$pageview', type: 'events' },
      { id: 'click', type: 'events' },
    ];
    const res = await server.request('POST', `${base}funnel/`, {
      json: {
        date_from: '2024-03-15',
        date_to: '2024-03-16',
        events: steps,
        breakdown: 'upper(substring(properties.$browser, 1, 1))',
        breakdown_type: 'hogql',
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(
      (res.body.result as { breakdown_value: string; count: number }[][]).map((g) => [
        g[0]!.breakdown_value,
        g.map((s) => s.count),
      ]),
    ).toEqual([
      ['C', [1, 1]],
      ['F', [1, 1]],
      ['None', [1, 0]],
    ]);
    const filtered = await server.request('POST', `${base}funnel/`, {
      json: {
        date_from: '2024-03-15',
        date_to: '2024-03-16',
        events: steps,
        properties: [{ key: '$session_duration', type: 'session', operator: 'lt', value: 60 }],
      },
    });
    expect((filtered.body.result as { count: number }[]).map((s) => s.count)).toEqual([1, 0]);
  });
});

describe('saved insights carry them in the query node', () => {
  it('computes a TrendsQuery with math_hogql, a HogQL filter and a session breakdown', async () => {
    const query = {
      kind: 'TrendsQuery',
      dateRange: { date_from: '2024-03-15', date_to: '2024-03-15' },
      trendsFilter: { display: 'ActionsTable' },
      series: [{ kind: 'EventsNode', event: '$pageview', math: 'hogql', math_hogql: 'count() * 100' }],
      properties: [{ key: "distinct_id != 'carol'", type: 'hogql' }],
      breakdownFilter: { breakdown: '$pageview_count', breakdown_type: 'session' },
    };
    const created = await server.request('POST', base, { json: { query } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.query).toMatchObject({
      series: [{ math: 'hogql', math_hogql: 'count() * 100' }],
      breakdownFilter: { breakdown_type: 'session' },
    });
    const got = await server.request('GET', `${base}${created.body.id}/`);
    expect((got.body.result as Series[]).map((s) => [s.label, s.aggregated_value])).toEqual([
      ['2', 200],
      ['1', 100],
    ]);
  });
});

describe('refusals', () => {
  it.each([
    [{ breakdown: 'sleep(5)', breakdown_type: 'hogql' }, 'breakdown', 'Unknown function "sleep" at position 0.'],
    [{ breakdown: '$duration', breakdown_type: 'session' }, 'breakdown', /is not a session property/],
    [
      { properties: [{ key: "event = 'x'; DROP TABLE events", type: 'hogql' }] },
      'properties__values__0__key',
      /";" is not allowed.* at position 11\./,
    ],
    [
      { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: '1 +', type: 'hogql' }] }] } },
      'properties__values__0__values__0__key',
      'Unexpected end of expression at position 3.',
    ],
    [
      { events: [{ ...pageviews, math: 'hogql', math_hogql: 'properties.price' }] },
      'events__0__math_hogql',
      /must be inside an aggregate/,
    ],
    [{ events: [{ ...pageviews, math: 'hogql' }] }, 'events__0__math_hogql', /required/],
    [
      { events: [{ ...pageviews, properties: [{ key: '(SELECT 1)', type: 'hogql' }] }] },
      'events__0__properties__values__0__key',
      /"SELECT" is not allowed/,
    ],
    [{ breakdown: 'x'.repeat(401) }, 'breakdown', /no more than 400/],
  ])('%j → 400 on its field', async (body, attr, detail) => {
    const res = await server.request('POST', `${base}trend/`, { json: { ...DAY, events: [pageviews], ...body } });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
    if (typeof detail === 'string') expect(res.body.detail).toBe(detail);
    else expect(res.body.detail).toMatch(detail);
  });

  it('hostile expressions in every place are a 400 or an answer, and leave the events as they were', async () => {
    const hostile = fc.oneof(
      fc.constantFrom(
        "'; DROP TABLE events; --",
        '1) OR (1=1',
        "') UNION SELECT * FROM persons --",
        '$1',
        '\\',
        '💥'.repeat(50),
        '('.repeat(300),
        'not '.repeat(100) + 'true',
        "properties['; DELETE FROM events; --'] = 'x'",
        'concat(' + "'a', ".repeat(500) + "'b')",
        "lower('\u0000')",
        'ünï < 名前',
      ),
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
    );
    const place = fc.constantFrom('breakdown', 'filter', 'math', 'funnel');
    await fc.assert(
      fc.asyncProperty(hostile, place, async (text, where) => {
        const body =
          where === 'breakdown'
            ? { events: [pageviews], breakdown: text, breakdown_type: 'hogql' }
            : where === 'filter'
              ? { events: [pageviews], properties: [{ key: text, type: 'hogql' }] }
              : where === 'math'
                ? { events: [{ ...pageviews, math: 'hogql', math_hogql: text }] }
                : { events: [pageviews, { id: 'click' }], breakdown: text, breakdown_type: 'hogql' };
        const res = await server.request('POST', `${base}${where === 'funnel' ? 'funnel' : 'trend'}/`, {
          json: { ...DAY, ...body },
        });
        expect([200, 400], res.text).toContain(res.status);
        if (res.status === 400) expect(res.body.type).toBe('validation_error');
      }),
      { numRuns: 120 },
    );
    expect(await trend({ events: [{ id: null }], display: 'BoldNumber' })).toEqual([['All events', events.length]]);
  });
});
