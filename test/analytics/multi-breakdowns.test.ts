import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  encodeAnalyticsQuery,
  trendParamsSchema,
  trendResultSchema,
  type TrendParamsInput,
} from '../../src/contract/analytics.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import { analysisFromQuery, paramsToQuery } from '../../server/insights/query.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { createTestServer, HEDGEBOX, type TestServer } from '../server/helpers.ts';
import { createHarness, loadEvents, type Harness } from './harness.ts';

/**
 * Several breakdowns at once and numeric bins (docs/api.md, "Breakdowns"): hand-worked trends,
 * and the 400s a client gets for a request that cannot be answered.
 */

const NONE = '$$_posthog_breakdown_null_$$';
const OTHER = '$$_posthog_breakdown_other_$$';

let seq = 0;
const ev = (
  properties: Record<string, unknown>,
  iso = '2024-03-01T10:00:00Z',
  event = '$pageview',
  person = 'p1',
): ReferenceEvent => ({
  uuid: `00000000-0000-4000-8000-${String(seq++).padStart(12, '0')}`,
  event,
  distinct_id: person,
  person_id: person,
  timestamp: Date.parse(iso),
  properties,
  person_properties: {},
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function trend(events: ReferenceEvent[], input: Omit<TrendParamsInput, 'events'>) {
  h = await createHarness({}, new Date('2024-04-01T12:00:00Z'));
  await h.load(events);
  const range = { date_from: '2024-03-01', date_to: '2024-03-02', display: 'ActionsTable' as const };
  return computeTrends(trendParamsSchema.parse({ events: [{ id: '$pageview' }], ...range, ...input }), h.ctx);
}
const rows = (series: { label: string; breakdown_value?: unknown; aggregated_value?: number | null }[]) =>
  series.map((s) => [s.label, s.breakdown_value, s.aggregated_value]);

describe('numeric bins', () => {
  // amount 10 … 30 in 2 bins of width 10: [10, 20) and [20, 30.01) (the last edge a hundredth
  // above the greatest value, so that it falls in a bin); text that is no number is None.
  const events = [10, 12, 20, '25', 30, 'abc', undefined].map((amount) => ev(amount === undefined ? {} : { amount }));

  it('splits a numeric property into equal-width bins labelled as the production service does', async () => {
    const result = await trend(events, { breakdown: 'amount', breakdown_histogram_bin_count: 2 });
    expect(rows(result)).toEqual([
      ['[20.0,30.01]', '[20.0,30.01]', 3],
      ['[10.0,20.0]', '[10.0,20.0]', 2],
      ['None', NONE, 2],
    ]);
  });

  it('edges on hundredths: 0.5 … 2 in 3 bins of width 0.5', async () => {
    const result = await trend(
      [0.5, '1.25', 2].map((amount) => ev({ amount })),
      { breakdown: 'amount', breakdown_histogram_bin_count: 3 },
    );
    expect(rows(result)).toEqual([
      ['[0.5,1.0]', '[0.5,1.0]', 1],
      ['[1.0,1.5]', '[1.0,1.5]', 1],
      ['[1.5,2.01]', '[1.5,2.01]', 1],
    ]);
  });

  it('one value seen: one bin; none seen: every event is None', async () => {
    expect(
      rows(
        await trend([ev({ amount: 7 }), ev({ amount: 7 })], { breakdown: 'amount', breakdown_histogram_bin_count: 4 }),
      ),
    ).toEqual([['[7.0,7.01]', '[7.0,7.01]', 2]]);
    expect(rows(await trend([ev({ amount: 'x' })], { breakdown: 'amount', breakdown_histogram_bin_count: 4 }))).toEqual(
      [['None', NONE, 1]],
    );
  });
});

describe('several breakdowns', () => {
  const events = [
    ...Array.from({ length: 3 }, () => ev({ $browser: 'Chrome', $os: 'Mac OS X', amount: 5 })),
    ...Array.from({ length: 2 }, () => ev({ $browser: 'Chrome', $os: 'Windows', amount: 15 })),
    ev({ $browser: 'Firefox', $os: 'Mac OS X', amount: 15 }),
    ev({ $browser: 'Chrome', amount: 'n/a' }),
    ev({ $browser: 'Safari', $os: 'Linux' }),
  ];
  const byBrowserAndOs = [{ property: '$browser' }, { property: '$os', type: 'event' as const }];

  it('each combination is a value: a list of strings, the top breakdown_limit kept, the rest Other', async () => {
    const result = await trend(events, { breakdowns: byBrowserAndOs, breakdown_limit: 2 });
    expect(rows(result)).toEqual([
      ['Chrome · Mac OS X', ['Chrome', 'Mac OS X'], 3],
      ['Chrome · Windows', ['Chrome', 'Windows'], 2],
      ['Other', [OTHER, OTHER], 3],
    ]);
  });

  it('a missing part is None inside the list; ties rank by the values in order', async () => {
    const result = await trend(events, { breakdowns: byBrowserAndOs });
    expect(rows(result).slice(2)).toEqual([
      ['Chrome · None', ['Chrome', NONE], 1],
      ['Firefox · Mac OS X', ['Firefox', 'Mac OS X'], 1],
      ['Safari · Linux', ['Safari', 'Linux'], 1],
    ]);
  });

  it('an entry may be binned, and the time series and formulas work as with one breakdown', async () => {
    const result = await trend(events, {
      breakdowns: [{ property: '$browser' }, { property: 'amount', histogram_bin_count: 2 }],
      breakdown_limit: 2,
      display: 'ActionsLineGraph',
      formula: 'A * 2',
    });
    // amount 5 … 15 in 2 bins: [5, 10) and [10, 15.01).
    expect(result.map((s) => [s.label, s.breakdown_value, s.data])).toEqual([
      ['Chrome · [5.0,10.0]', ['Chrome', '[5.0,10.0]'], [6, 0]],
      ['Chrome · [10.0,15.01]', ['Chrome', '[10.0,15.01]'], [4, 0]],
      ['Other', [OTHER, OTHER], [6, 0]],
    ]);
  });
});

describe('a saved query', () => {
  it('carries them in breakdownFilter, as the production service names them, both ways', () => {
    const breakdownFilter = {
      breakdowns: [
        { property: '$browser', type: 'event' },
        { property: 'amount', type: 'event', histogram_bin_count: 4 },
      ],
    };
    const analysis = analysisFromQuery({
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview' }],
      breakdownFilter,
    });
    expect(analysis.params).toMatchObject({ breakdowns: breakdownFilter.breakdowns });
    expect(paramsToQuery(analysis)).toMatchObject({ breakdownFilter });
  });
});

describe('trend/ with breakdowns over HTTP', () => {
  let server: TestServer;
  let base: string;
  const body = {
    events: [{ id: '$pageview' }],
    date_from: '2024-03-01',
    date_to: '2024-03-02',
    display: 'ActionsTable',
  };
  beforeAll(async () => {
    server = createTestServer({ now: () => new Date('2024-03-20T12:00:00Z') });
    const projects = server.store.db
      .prepare('SELECT p.id, o.name FROM projects p JOIN organizations o ON o.id = p.organization_id ORDER BY p.id')
      .all() as { id: number; name: string }[];
    const projectId = projects.find((p) => p.name === HEDGEBOX)!.id;
    base = `/api/projects/${projectId}/insights/trend/`;
    await loadEvents(server.events, projectId, [
      ev({ $browser: 'Chrome', $os: 'Mac OS X' }),
      ev({ $browser: 'Chrome', $os: 'Windows' }),
      // A funnel: u1 and u2 enter on Chrome and Mac OS X (u1 converts), u3 on Firefox with no OS (converts).
      ev({ $browser: 'Chrome', $os: 'Mac OS X' }, '2024-03-01T11:00:00Z', 'start', 'u1'),
      ev({}, '2024-03-01T11:05:00Z', 'finish', 'u1'),
      ev({ $browser: 'Chrome', $os: 'Mac OS X' }, '2024-03-01T11:00:00Z', 'start', 'u2'),
      ev({ $browser: 'Firefox' }, '2024-03-01T11:00:00Z', 'start', 'u3'),
      ev({}, '2024-03-01T11:10:00Z', 'finish', 'u3'),
    ]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('GET takes breakdowns as JSON in the query string and answers as POST does', async () => {
    const params = { ...body, breakdowns: [{ property: '$browser' }, { property: '$os' }] };
    const post = await server.request('POST', base, { json: params });
    const get = await server.get(`${base}?${new URLSearchParams(encodeAnalyticsQuery(params)).toString()}`);
    expect(post.status).toBe(200);
    const result = trendResultSchema.parse(post.body).result;
    expect(result.map((s) => [s.breakdown_value, s.aggregated_value])).toEqual([
      [['Chrome', 'Mac OS X'], 1],
      [['Chrome', 'Windows'], 1],
    ]);
    expect(trendResultSchema.parse(get.body).result).toEqual(result);
  });

  it.each([
    [{ breakdown: '$browser', breakdowns: [{ property: '$os' }] }, 'breakdowns'],
    [{ breakdowns: [{ property: '$os' }, { property: '1', type: 'cohort' }] }, 'breakdowns__1__type'],
    [{ breakdowns: [{ property: 'a' }, { property: 'b' }, { property: 'c' }, { property: 'd' }] }, 'breakdowns'],
    [{ breakdowns: [{ property: 'amount', histogram_bin_count: 0 }] }, 'breakdowns__0__histogram_bin_count'],
    [{ breakdowns: [{ property: '$os' }, { property: 'x', type: 'group' }] }, 'breakdowns__1__group_type_index'],
    [{ breakdowns: [{ property: '$nope', type: 'session' }] }, 'breakdowns__0__property'],
    [{ breakdowns: [{ property: 'count(', type: 'hogql' }] }, 'breakdowns__0__property'],
    [{ breakdowns: [{ type: 'event' }] }, 'breakdowns__0__property'],
    [{ breakdown: 'amount', breakdown_histogram_bin_count: 'ten' }, 'breakdown_histogram_bin_count'],
    [{ breakdown: 'amount', breakdown_histogram_bin_count: 101 }, 'breakdown_histogram_bin_count'],
    [{ breakdown: [1], breakdown_type: 'cohort', breakdown_histogram_bin_count: 2 }, 'breakdown_histogram_bin_count'],
  ])('%j → 400 on %s', async (extra, attr) => {
    const res = await server.request('POST', base, { json: { ...body, ...extra } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });

  it('a funnel by several breakdowns: one step list per combination, its people URL names it as a JSON list', async () => {
    const funnel = {
      events: [
        { id: 'start', order: 0 },
        { id: 'finish', order: 1 },
      ],
      date_from: '2024-03-01',
      date_to: '2024-03-02',
      breakdowns: [{ property: '$browser' }, { property: '$os' }],
    };
    const res = await server.request('POST', base.replace('/trend/', '/funnel/'), { json: funnel });
    expect(res.status).toBe(200);
    const groups = (
      res.body as { result: { count: number; breakdown_value: unknown; converted_people_url: string }[][] }
    ).result;
    expect(groups.map((steps) => [steps[0]!.breakdown_value, steps.map((s) => s.count)])).toEqual([
      [
        ['Chrome', 'Mac OS X'],
        [2, 1],
      ],
      [
        ['Firefox', NONE],
        [1, 1],
      ],
    ]);
    const url = groups[0]![1]!.converted_people_url;
    expect(new URL(url, 'http://x').searchParams.get('funnel_step_breakdown')).toBe('["Chrome","Mac OS X"]');
    const people = await server.get(url);
    expect(people.status).toBe(200);
    expect(
      (people.body as { results: { people: { distinct_ids: string[] }[] }[] }).results[0]!.people.map(
        (p) => p.distinct_ids,
      ),
    ).toEqual([['u1']]);
  });

  it.each([
    [{ breakdown: 'amount', breakdown_histogram_bin_count: 3 }, 'breakdown_histogram_bin_count'],
    [
      { breakdowns: [{ property: '$os' }, { property: 'amount', histogram_bin_count: 3 }] },
      'breakdowns__1__histogram_bin_count',
    ],
  ])('funnel/ %j → 400 on %s (funnels take no bins)', async (extra, attr) => {
    const res = await server.request('POST', base.replace('/trend/', '/funnel/'), {
      json: { events: [{ id: '$pageview' }, { id: 'sign up' }], ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });
});
