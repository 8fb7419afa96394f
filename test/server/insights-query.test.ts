import { describe, expect, it } from 'vitest';
import { derivedName } from '../../server/insights/derived-name.ts';
import {
  analysisFromFilters,
  analysisFromQuery,
  analysisOf,
  InsightInputError,
  paramsToFilters,
  paramsToQuery,
} from '../../server/insights/query.ts';

const trends = {
  insight: 'TRENDS',
  events: [
    {
      id: '$pageview',
      type: 'events',
      math: 'dau',
      properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }],
    },
    { id: 'purchase', name: 'purchase', math: 'sum', math_property: 'amount', order: 2 },
  ],
  actions: [{ id: 4, name: 'Signed up', order: 1 }],
  date_from: '-30d',
  date_to: '-1d',
  interval: 'week',
  filter_test_accounts: true,
  breakdown: '$browser',
  breakdown_type: 'event',
  breakdown_limit: 5,
  display: 'ActionsBar',
  formula: 'A + B',
  compare: true,
  compare_to: '-1w',
  properties: {
    type: 'OR',
    values: [{ type: 'AND', values: [{ key: 'plan', value: ['pro'], operator: 'exact', type: 'person' }] }],
  },
};
const funnels = {
  insight: 'FUNNELS',
  events: [
    { id: 'sign up', order: 0 },
    { id: 'purchase', order: 1 },
    { id: 'upgrade', order: 2 },
  ],
  funnel_order_type: 'strict',
  funnel_viz_type: 'time_to_convert',
  funnel_window_interval: 3,
  funnel_window_interval_unit: 'week',
  exclusions: [{ id: 'cancel', type: 'events', funnel_from_step: 0, funnel_to_step: 2 }],
  date_from: '-14d',
  breakdown: 'plan',
  breakdown_type: 'person',
};
const retention = {
  insight: 'RETENTION',
  target_entity: { id: 'sign up', type: 'events' },
  returning_entity: { id: 4, type: 'actions', name: 'Active' },
  retention_type: 'recurring',
  period: 'week',
  total_intervals: 9,
  date_from: '-60d',
};
const paths = {
  insight: 'PATHS',
  include_event_types: ['$pageview', 'custom_event'],
  start_point: '/home',
  end_point: '/buy',
  step_limit: 7,
  exclude_events: ['/admin'],
  local_path_cleaning_filters: [{ alias: '/item/:id', regex: '/item/\\d+' }],
  edge_limit: 50,
};

const attrOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof InsightInputError) return e.attr;
    throw e;
  }
  return null;
};

describe('filters ↔ query', () => {
  it.each([
    ['trends', trends],
    ['funnels', funnels],
    ['retention', retention],
    ['paths', paths],
  ])('%s: filters → query → filters is the identity on the parameters', (_, filters) => {
    const a = analysisFromFilters(filters);
    const query = paramsToQuery(a);
    const back = analysisFromQuery(query);
    expect(back).toEqual(a);
    expect(paramsToFilters(back)).toEqual(paramsToFilters(a));
    // Wrapped in an InsightVizNode, and as parsed JSON text, it reads the same.
    expect(analysisFromQuery({ kind: 'InsightVizNode', source: JSON.parse(JSON.stringify(query)) })).toEqual(a);
  });

  it('writes PostHog field names into the query node', () => {
    const q = paramsToQuery(analysisFromFilters(trends));
    expect(q).toMatchObject({
      kind: 'TrendsQuery',
      interval: 'week',
      filterTestAccounts: true,
      dateRange: { date_from: '-30d', date_to: '-1d' },
      breakdownFilter: { breakdown: '$browser', breakdown_type: 'event', breakdown_limit: 5 },
      trendsFilter: { display: 'ActionsBar', formula: 'A + B' },
      compareFilter: { compare: true, compare_to: '-1w' },
    });
    expect((q.series as { kind: string }[]).map((s) => s.kind)).toEqual(['EventsNode', 'ActionsNode', 'EventsNode']);
    expect(q.series).toMatchObject([
      { event: '$pageview', math: 'dau' },
      { id: 4, name: 'Signed up' },
      { event: 'purchase', math: 'sum', math_property: 'amount' },
    ]);
    const f = paramsToQuery(analysisFromFilters(funnels));
    expect(f.funnelsFilter).toMatchObject({
      funnelOrderType: 'strict',
      funnelVizType: 'time_to_convert',
      funnelWindowInterval: 3,
      funnelWindowIntervalUnit: 'week',
      exclusions: [{ kind: 'EventsNode', event: 'cancel', funnelFromStep: 0, funnelToStep: 2 }],
    });
    expect(paramsToQuery(analysisFromFilters(retention)).retentionFilter).toMatchObject({
      targetEntity: { id: 'sign up' },
      retentionType: 'retention_recurring',
      period: 'Week',
      totalIntervals: 9,
    });
    expect(paramsToQuery(analysisFromFilters(paths)).pathsFilter).toMatchObject({
      includeEventTypes: ['$pageview', 'custom_event'],
      startPoint: '/home',
      stepLimit: 7,
      edgeLimit: 50,
      localPathCleaningFilters: [{ alias: '/item/:id' }],
      excludeEvents: ['/admin'],
    });
  });

  it('reads a query written by hand (PostHog names) the same as its filters', () => {
    const fromQuery = analysisFromQuery({
      kind: 'FunnelsQuery',
      series: [
        { kind: 'EventsNode', event: 'sign up' },
        { kind: 'EventsNode', event: 'purchase' },
      ],
      funnelsFilter: { funnelWindowInterval: 2, funnelWindowIntervalUnit: 'day' },
    });
    const fromFilters = analysisFromFilters({
      insight: 'FUNNELS',
      events: [{ id: 'sign up' }, { id: 'purchase', order: 1 }],
      funnel_window_interval: 2,
      funnel_window_interval_unit: 'day',
    });
    expect(fromQuery.params).toMatchObject({
      funnel_window_interval: 2,
      funnel_window_interval_unit: 'day',
      funnel_order_type: 'ordered',
    });
    expect(paramsToQuery(fromQuery)).toEqual(paramsToQuery(fromFilters));
  });

  it('names the field of a bad shape in either form', () => {
    expect(
      attrOf(() =>
        analysisFromQuery({ kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'x', math: 'bogus' }] }),
      ),
    ).toBe('query__series__0__math');
    expect(
      attrOf(() =>
        analysisFromQuery({
          kind: 'TrendsQuery',
          series: [
            { kind: 'ActionsNode', id: 1 },
            { kind: 'EventsNode', event: 'x', math: 'bogus' },
          ],
        }),
      ),
    ).toBe('query__series__1__math');
    expect(
      attrOf(() => analysisFromQuery({ kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [] } })),
    ).toBe('query__source__series');
    expect(
      attrOf(() =>
        analysisFromQuery({
          kind: 'TrendsQuery',
          series: [{ kind: 'EventsNode', event: 'x' }],
          dateRange: { date_from: 'yesterday' },
        }),
      ),
    ).toBe('query__dateRange__date_from');
    expect(
      attrOf(() =>
        analysisFromQuery({
          kind: 'TrendsQuery',
          series: [{ kind: 'EventsNode', event: 'x' }],
          trendsFilter: { display: 'Sparkles' },
        }),
      ),
    ).toBe('query__trendsFilter__display');
    expect(
      attrOf(() =>
        analysisFromQuery({
          kind: 'FunnelsQuery',
          series: [
            { kind: 'EventsNode', event: 'a' },
            { kind: 'EventsNode', event: 'b' },
          ],
          funnelsFilter: { exclusions: [{ kind: 'EventsNode', event: 'c', funnelFromStep: 1, funnelToStep: 1 }] },
        }),
      ),
    ).toBe('query__funnelsFilter__exclusions__0__funnelToStep');
    expect(attrOf(() => analysisFromQuery({ kind: 'HogQLQuery' }))).toBe('query__kind');
    expect(attrOf(() => analysisFromFilters({ insight: 'TRENDS', events: [{ id: 'x', math: 'bogus' }] }))).toBe(
      'filters__events__0__math',
    );
    expect(attrOf(() => analysisFromFilters({ insight: 'LIFECYCLE' }))).toBe('filters__insight');
    expect(attrOf(() => analysisFromQuery({ kind: 'RetentionQuery', retentionFilter: { totalIntervals: 0 } }))).toBe(
      'query__retentionFilter__totalIntervals',
    );
  });

  it('prefers the query over the filters; neither gives no analysis', () => {
    expect(analysisOf({ filters: trends, query: paramsToQuery(analysisFromFilters(paths)) })?.kind).toBe('PATHS');
    expect(analysisOf({ filters: {} })).toBeNull();
  });
});

describe('derived name', () => {
  const name = (filters: Record<string, unknown>) => derivedName(analysisFromFilters(filters));
  it('follows the production style', () => {
    expect(name({ insight: 'TRENDS', events: [{ id: '$pageview' }] })).toBe('Pageview count');
    expect(
      name({
        insight: 'TRENDS',
        events: [
          { id: '$pageview', math: 'dau' },
          { id: 'purchase', custom_name: 'Buys', order: 1 },
        ],
      }),
    ).toBe('Pageview unique users & Buys count');
    expect(name({ insight: 'FUNNELS', events: [{ id: 'Sign up' }, { id: 'Purchase', order: 1 }] })).toBe(
      'Sign up → Purchase',
    );
    expect(name({ insight: 'RETENTION' })).toBe('Pageview retention');
    expect(name({ insight: 'PATHS', start_point: '/home' })).toBe('User paths starting at /home');
  });
});
