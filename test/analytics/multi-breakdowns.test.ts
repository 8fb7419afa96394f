import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  encodeAnalyticsQuery,
  funnelParamsSchema,
  retentionParamsSchema,
  trendParamsSchema,
  trendResultSchema,
  type FunnelParamsInput,
  type FunnelStep,
  type FunnelTrendsSeries,
  type RetentionParamsInput,
  type TrendParamsInput,
} from '../../src/contract/analytics.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import { computeFunnel } from '../../server/analytics/engines/funnels.ts';
import { computeRetention } from '../../server/analytics/engines/retention.ts';
import { analysisFromQuery, paramsToQuery } from '../../server/insights/query.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { createTestServer, HEDGEBOX, type TestServer } from '../server/helpers.ts';
import { createHarness, loadEvents, type Harness } from './harness.ts';

/**
 * Several breakdowns at once and numeric bins (docs/api.md, "Breakdowns"): hand-worked trends,
 * funnels and retention, and the 400s a client gets for a request that cannot be answered.
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

describe('numeric bins of a funnel', () => {
  async function funnel(events: ReferenceEvent[], input: Omit<FunnelParamsInput, 'events'>) {
    h = await createHarness({}, new Date('2024-04-01T12:00:00Z'));
    await h.load(events);
    const steps = [
      { id: 'start', order: 0 },
      { id: 'finish', order: 1 },
    ];
    const range = { date_from: '2024-03-01', date_to: '2024-03-02' };
    return computeFunnel(funnelParamsSchema.parse({ events: steps, ...range, ...input }), h.ctx);
  }
  // a starts at 10 and finishes at 100, b starts at 20, c at 30 and finishes, d without an
  // amount; an event of no step at 1000.
  const at = (minute: number) => `2024-03-01T10:${String(minute).padStart(2, '0')}:00Z`;
  const events = [
    ev({ amount: 10 }, at(0), 'start', 'a'),
    ev({ amount: 100 }, at(5), 'finish', 'a'),
    ev({ amount: 20 }, at(0), 'start', 'b'),
    ev({ amount: 30 }, at(0), 'start', 'c'),
    ev({}, at(9), 'finish', 'c'),
    ev({}, at(0), 'start', 'd'),
    ev({ amount: 1000 }, at(1), '$pageview', 'd'),
  ];
  const groups = (result: unknown) =>
    (result as FunnelStep[][]).map((steps) => [steps[0]!.breakdown_value, steps.map((s) => s.count)]);

  it("bins span the first step's numbers (10 … 30: [10, 20) and [20, 30.01)); an attempt takes its start's", async () => {
    const result = await funnel(events, { breakdown: 'amount', breakdown_histogram_bin_count: 2 });
    expect(groups(result)).toEqual([
      ['[20.0,30.01]', [2, 1]],
      ['[10.0,20.0]', [1, 1]],
      ['None', [1, 0]],
    ]);
  });

  it("unordered: any step's events may start an attempt, so they span the bins (10 … 100)", async () => {
    const result = await funnel(events, {
      breakdown: 'amount',
      breakdown_histogram_bin_count: 2,
      funnel_order_type: 'unordered',
    });
    expect(groups(result)).toEqual([
      ['[10.0,55.0]', [3, 2]],
      ['None', [1, 0]],
    ]);
  });

  it('a binned entry of several breakdowns, and the trends viz', async () => {
    const result = await funnel(events, {
      breakdowns: [{ property: 'amount', histogram_bin_count: 2 }, { property: '$browser' }],
    });
    expect(groups(result)).toEqual([
      [
        ['[20.0,30.01]', NONE],
        [2, 1],
      ],
      // A missing part is a value like any other in a list: ties rank by text.
      [
        [NONE, NONE],
        [1, 0],
      ],
      [
        ['[10.0,20.0]', NONE],
        [1, 1],
      ],
    ]);
    const trends = (await funnel(events, {
      breakdown: 'amount',
      breakdown_histogram_bin_count: 2,
      funnel_viz_type: 'trends',
      date_to: '2024-03-01',
    })) as FunnelTrendsSeries[];
    expect(trends.map((s) => [s.breakdown_value, s.data])).toEqual([
      ['[20.0,30.01]', [50]],
      ['[10.0,20.0]', [100]],
      ['None', [0]],
    ]);
  });
});

describe('retention by several breakdowns and bins', () => {
  async function retention(events: ReferenceEvent[], input: RetentionParamsInput) {
    h = await createHarness({}, new Date('2024-04-01T12:00:00Z'));
    await h.load(events);
    const params = { retention_type: 'recurring', total_intervals: 3, date_to: '2024-03-03', ...input };
    const cohorts = await computeRetention(retentionParamsSchema.parse(params), h.ctx);
    return cohorts.map((c) => [c.breakdown_value, c.values.map((v) => v.count)]);
  }
  // Places (person, day): a 1 Mar at 10 (a later 100 that day makes no place), a 2 Mar at 30,
  // b 1 Mar at 20, b 3 Mar without one, c 2 Mar without one. Every event is also a return.
  const events = [
    ev({ amount: 10, $browser: 'Chrome' }, '2024-03-01T10:00:00Z', '$pageview', 'a'),
    ev({ amount: 100, $browser: 'Chrome' }, '2024-03-01T12:00:00Z', '$pageview', 'a'),
    ev({ amount: 30, $browser: 'Chrome' }, '2024-03-02T10:00:00Z', '$pageview', 'a'),
    ev({ amount: 20, $browser: 'Safari' }, '2024-03-01T10:00:00Z', '$pageview', 'b'),
    ev({}, '2024-03-03T10:00:00Z', '$pageview', 'b'),
    ev({ $browser: 'Chrome' }, '2024-03-02T10:00:00Z', '$pageview', 'c'),
  ];

  it("bins span the values of the places' events (10 … 30), each place under its event's bin", async () => {
    expect(await retention(events, { breakdown: 'amount', breakdown_histogram_bin_count: 2 })).toEqual([
      ['[20.0,30.01]', [1, 0, 1]],
      ['[20.0,30.01]', [1, 0]],
      ['[20.0,30.01]', [0]],
      ['[10.0,20.0]', [1, 1, 0]],
      ['[10.0,20.0]', [0, 0]],
      ['[10.0,20.0]', [0]],
      [NONE, [0, 0, 0]],
      [NONE, [1, 0]],
      [NONE, [1]],
    ]);
  });

  it('several: each combination a list (a missing part None), ties by their values, the rest Other once per part', async () => {
    const result = await retention(events, {
      breakdowns: [{ property: '$browser' }, { property: 'amount', histogram_bin_count: 2 }],
      breakdown_limit: 3,
    });
    // Each group's three cohorts (1, 2, 3 March).
    expect(result.filter((_, i) => i % 3 === 0).map(([value]) => value)).toEqual([
      [NONE, NONE],
      ['Chrome', NONE],
      ['Chrome', '[10.0,20.0]'],
      [OTHER, OTHER],
    ]);
    expect(result.slice(9)).toEqual([
      [
        [OTHER, OTHER],
        [1, 0, 1],
      ],
      [
        [OTHER, OTHER],
        [1, 0],
      ],
      [[OTHER, OTHER], [0]],
    ]);
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

  it('a retention query carries them the same way', () => {
    const breakdownFilter = {
      breakdowns: [
        { property: '$browser', type: 'event' },
        { property: 'amount', type: 'event', histogram_bin_count: 4 },
      ],
    };
    const analysis = analysisFromQuery({ kind: 'RetentionQuery', breakdownFilter });
    expect(analysis.params).toMatchObject({ breakdowns: breakdownFilter.breakdowns });
    expect(paramsToQuery(analysis)).toMatchObject({ kind: 'RetentionQuery', breakdownFilter });
  });
});

/** Requests trends and retention refuse alike, and the field each 400 names. */
const REFUSED: [Record<string, unknown>, string][] = [
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
];

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
      // Their amounts (10, 20, 30) in 2 bins: u1 in [10, 20), u2 and u3 in [20, 30.01).
      ev({ $browser: 'Chrome', $os: 'Mac OS X', amount: 10 }, '2024-03-01T11:00:00Z', 'start', 'u1'),
      ev({}, '2024-03-01T11:05:00Z', 'finish', 'u1'),
      ev({ $browser: 'Chrome', $os: 'Mac OS X', amount: 20 }, '2024-03-01T11:00:00Z', 'start', 'u2'),
      ev({ $browser: 'Firefox', amount: 30 }, '2024-03-01T11:00:00Z', 'start', 'u3'),
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

  it.each(REFUSED)('%j → 400 on %s', async (extra, attr) => {
    const res = await server.request('POST', base, { json: { ...body, ...extra } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });

  /** A start → finish funnel on 1 … 2 March: each group's value and step counts, and the URL of its persons at step 2. */
  async function funnelGroups(extra: Record<string, unknown>) {
    const steps = [
      { id: 'start', order: 0 },
      { id: 'finish', order: 1 },
    ];
    const json = { events: steps, date_from: '2024-03-01', date_to: '2024-03-02', ...extra };
    const res = await server.request('POST', base.replace('/trend/', '/funnel/'), { json });
    expect(res.status).toBe(200);
    return (
      res.body as { result: { count: number; breakdown_value: unknown; converted_people_url: string }[][] }
    ).result.map((list) => ({
      value: list[0]!.breakdown_value,
      counts: list.map((s) => s.count),
      converted: list[1]!.converted_people_url,
    }));
  }
  /** The distinct ids of the persons a people URL lists, and the group it names. */
  async function peopleAt(url: string) {
    const people = await server.get(url);
    expect(people.status).toBe(200);
    const { results } = people.body as { results: { people: { distinct_ids: string[] }[] }[] };
    return {
      group: new URL(url, 'http://x').searchParams.get('funnel_step_breakdown'),
      ids: results[0]!.people.map((p) => p.distinct_ids),
    };
  }

  it('a funnel by several breakdowns: one step list per combination, its people URL names it as a JSON list', async () => {
    const groups = await funnelGroups({ breakdowns: [{ property: '$browser' }, { property: '$os' }] });
    expect(groups.map((g) => [g.value, g.counts])).toEqual([
      [
        ['Chrome', 'Mac OS X'],
        [2, 1],
      ],
      [
        ['Firefox', NONE],
        [1, 1],
      ],
    ]);
    expect(await peopleAt(groups[0]!.converted)).toEqual({ group: '["Chrome","Mac OS X"]', ids: [['u1']] });
  });

  it("a funnel by a binned amount: a bin's people URL names its bin and lists its persons", async () => {
    const groups = await funnelGroups({ breakdown: 'amount', breakdown_histogram_bin_count: 2 });
    expect(groups.map((g) => [g.value, g.counts])).toEqual([
      ['[20.0,30.01]', [2, 1]],
      ['[10.0,20.0]', [1, 1]],
    ]);
    expect(await peopleAt(groups[0]!.converted)).toEqual({ group: '[20.0,30.01]', ids: [['u3']] });
  });

  it.each(REFUSED)('retention/ %j → 400 on %s', async (extra, attr) => {
    const res = await server.request('POST', base.replace('/trend/', '/retention/'), { json: extra });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });

  it('retention/ by several breakdowns over GET: the lists of the values at their start events', async () => {
    const params = {
      date_to: '2024-03-01',
      target_entity: { id: 'start', type: 'events' },
      total_intervals: 1,
      breakdowns: [{ property: '$browser' }, { property: '$os' }],
    };
    const res = await server.get(
      `${base.replace('/trend/', '/retention/')}?${new URLSearchParams(encodeAnalyticsQuery(params)).toString()}`,
    );
    expect(res.status).toBe(200);
    const { result } = res.body as { result: { breakdown_value: unknown; values: { count: number }[] }[] };
    expect(result.map((c) => [c.breakdown_value, c.values[0]!.count])).toEqual([
      [['Chrome', 'Mac OS X'], 2],
      [['Firefox', NONE], 1],
    ]);
  });

  it.each([
    [{ breakdown: 'amount', breakdown_histogram_bin_count: 0 }, 'breakdown_histogram_bin_count'],
    [
      { breakdowns: [{ property: '$os' }, { property: 'amount', histogram_bin_count: 101 }] },
      'breakdowns__1__histogram_bin_count',
    ],
    [{ breakdown: [1], breakdown_type: 'cohort', breakdown_histogram_bin_count: 2 }, 'breakdown_histogram_bin_count'],
  ])('funnel/ %j → 400 on %s', async (extra, attr) => {
    const res = await server.request('POST', base.replace('/trend/', '/funnel/'), {
      json: { events: [{ id: '$pageview' }, { id: 'sign up' }], ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });
});
