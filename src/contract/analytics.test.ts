import { describe, expect, it } from 'vitest';
import {
  decodeAnalyticsQuery,
  encodeAnalyticsQuery,
  funnelParamsSchema,
  funnelQuerySchema,
  funnelResultSchema,
  funnelWindow,
  orderedEntities,
  pathParamsSchema,
  pathResultSchema,
  propertiesSchema,
  retentionParamsSchema,
  retentionResultSchema,
  trendParamsSchema,
  trendQuerySchema,
  trendResultSchema,
} from './index';

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path) ?? [];
const messages = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];
const attr = (path: PropertyKey[]) => path.map(String).join('__');
const pageview = { id: '$pageview' };

describe('trend parameters', () => {
  it('fill defaults and entry types', () => {
    const p = trendParamsSchema.parse({ events: [pageview], actions: [{ id: 3 }], unknown_param: 1 });
    expect(p).toMatchObject({
      interval: 'day',
      display: 'ActionsLineGraph',
      breakdown_limit: 25,
      breakdown_type: 'event',
    });
    expect(p.events![0]).toMatchObject({ type: 'events', math: 'total' });
    expect(p.actions![0]).toMatchObject({ type: 'actions', id: 3 });
    expect(p).not.toHaveProperty('unknown_param');
  });
  it('require events or actions', () => {
    expect(paths(trendParamsSchema.safeParse({}))).toEqual([['events']]);
    expect(trendParamsSchema.safeParse({ actions: [{ id: '7' }] }).success).toBe(true);
  });
  it.each(['total', 'dau', 'weekly_active', 'monthly_active', 'unique_session'])('accept math %s', (math) => {
    expect(trendParamsSchema.safeParse({ events: [{ ...pageview, math }] }).success).toBe(true);
  });
  it('give nested paths for bad entries', () => {
    const r = trendParamsSchema.safeParse({ events: [pageview, { id: 'x', math: 'mode' }] });
    expect(paths(r).map(attr)).toEqual(['events__1__math']);
    expect(messages(r)).toEqual(['"mode" is not a valid choice.']);
  });
  it('require math_property for property maths', () => {
    const r = trendParamsSchema.safeParse({ events: [{ ...pageview, math: 'p90' }] });
    expect(paths(r).map(attr)).toEqual(['events__0__math_property']);
    expect(
      trendParamsSchema.safeParse({ events: [{ ...pageview, math: 'sum', math_property: 'price' }] }).success,
    ).toBe(true);
  });
  it('reject a non-integer action id', () => {
    expect(paths(trendParamsSchema.safeParse({ actions: [{ id: 'signup' }] })).map(attr)).toEqual(['actions__0__id']);
  });
  it('validate display, interval and dates', () => {
    const r = trendParamsSchema.safeParse({
      events: [pageview],
      display: 'Radar',
      interval: 'minute',
      date_from: 'yesterday',
    });
    expect(paths(r).map(attr)).toEqual(['date_from', 'interval', 'display']);
    for (const d of [
      '-7d',
      '-1mStart',
      'mStart',
      'yStart',
      'all',
      '2024-01-31',
      '2024-01-31T10:00:00Z',
      '-24h',
      '2020-6-1',
      '2020-06-1T10:00:00Z',
    ]) {
      expect(trendParamsSchema.safeParse({ events: [pageview], date_from: d }).success, d).toBe(true);
    }
    for (const d of ['2020-6-31', '2020-13-1', '2020-0-10', '20-6-1']) {
      expect(trendParamsSchema.safeParse({ events: [pageview], date_from: d }).success, d).toBe(false);
    }
  });
  it('check formula letters against the series', () => {
    expect(trendParamsSchema.safeParse({ events: [pageview, pageview], formula: '(A-B)/B' }).success).toBe(true);
    const r = trendParamsSchema.safeParse({ events: [pageview, pageview], formula: 'A + C' });
    expect(paths(r)).toEqual([['formula']]);
    expect(paths(trendParamsSchema.safeParse({ events: [pageview], formula: 'A; drop' }))).toEqual([['formula']]);
  });
});

describe('properties', () => {
  it('turn the legacy list into an AND group with filled defaults', () => {
    expect(propertiesSchema.parse([{ key: '$browser', value: 'Chrome' }])).toEqual({
      type: 'AND',
      values: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }],
    });
  });
  it('allow one level of nested groups, not two', () => {
    const nested = { type: 'OR', values: [{ type: 'AND', values: [{ key: 'a', value: 1, type: 'person' }] }] };
    expect(propertiesSchema.safeParse(nested).success).toBe(true);
    const deeper = { type: 'OR', values: [{ type: 'AND', values: [{ type: 'AND', values: [] }] }] };
    expect(paths(propertiesSchema.safeParse(deeper)).map(attr)).toEqual(['values__0__values__0__values']);
  });
  it('reject unknown operators and types, and missing values', () => {
    const r = propertiesSchema.safeParse([
      { key: 'a', value: 'x', operator: 'startswith' },
      { key: 'b', value: 'x', type: 'element' },
      { key: 'c', operator: 'exact' },
      { key: 'd', operator: 'is_set' },
      { key: 'e', operator: 'gt', value: 'ten' },
    ]);
    expect(paths(r).map(attr)).toEqual([
      'values__0__operator',
      'values__1__type',
      'values__2__value',
      'values__4__value',
    ]);
    expect(messages(r)[0]).toBe('"startswith" is not a valid choice.');
  });
  it('reject a property key over 400 characters', () => {
    expect(paths(propertiesSchema.safeParse([{ key: 'k'.repeat(401), value: 'x' }])).map(attr)).toEqual([
      'values__0__key',
    ]);
    expect(propertiesSchema.safeParse([{ key: 'a "quoted" näme.with dots', value: 'x' }]).success).toBe(true);
  });
});

describe('funnel parameters', () => {
  const steps = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  it.each(['DAY', 'day', 'Day', 'days', 'MiNuTe', 'WEEK'])(
    'accept window unit %s in any case, under either name',
    (unit) => {
      const t = funnelParamsSchema.parse({
        events: steps,
        funnel_window_interval: 2,
        funnel_window_interval_type: unit,
      });
      const u = funnelParamsSchema.parse({
        events: steps,
        funnel_window_interval: 2,
        funnel_window_interval_unit: unit,
      });
      expect(funnelWindow(t)).toEqual(funnelWindow(u));
      expect(funnelWindow(t).unit).toBe(unit.toLowerCase().replace(/s$/, ''));
    },
  );
  it('reject an unknown window unit', () => {
    const r = funnelParamsSchema.safeParse({ events: steps, funnel_window_interval_type: 'fortnight' });
    expect(paths(r)).toEqual([['funnel_window_interval_type']]);
    expect(messages(r)).toEqual(['"fortnight" is not a valid choice.']);
  });
  it('default the window to 14 days, honouring the deprecated funnel_window_days', () => {
    expect(funnelWindow(funnelParamsSchema.parse({ events: steps }))).toEqual({ interval: 14, unit: 'day' });
    expect(funnelWindow(funnelParamsSchema.parse({ events: steps, funnel_window_days: 3 }))).toEqual({
      interval: 3,
      unit: 'day',
    });
    expect(funnelParamsSchema.parse({ events: steps })).toMatchObject({
      funnel_viz_type: 'steps',
      funnel_order_type: 'ordered',
      breakdown_limit: 10,
    });
  });
  it('check exclusion ranges and overlap with steps', () => {
    const ok = funnelParamsSchema.safeParse({
      events: steps,
      exclusions: [{ id: 'x', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }],
    });
    expect(ok.success).toBe(true);
    const r = funnelParamsSchema.safeParse({
      events: steps,
      exclusions: [
        { id: 'x', funnel_from_step: 1, funnel_to_step: 1 },
        { id: 'x', funnel_from_step: 0, funnel_to_step: 3 },
        { id: 'b', funnel_from_step: 0, funnel_to_step: 2 },
      ],
    });
    expect(paths(r).map(attr)).toEqual([
      'exclusions__0__funnel_to_step',
      'exclusions__1__funnel_to_step',
      'exclusions__2__id',
    ]);
  });
  it('allow only whole-funnel exclusions when unordered', () => {
    const base = { events: steps, funnel_order_type: 'unordered' };
    expect(
      funnelParamsSchema.safeParse({ ...base, exclusions: [{ id: 'x', funnel_from_step: 0, funnel_to_step: 2 }] })
        .success,
    ).toBe(true);
    expect(
      funnelParamsSchema.safeParse({ ...base, exclusions: [{ id: 'x', funnel_from_step: 0, funnel_to_step: 1 }] })
        .success,
    ).toBe(false);
  });
  it('order steps by `order`, else as listed', () => {
    const p = funnelParamsSchema.parse({ events: [{ id: 'b', order: 1 }], actions: [{ id: 5, order: 0 }] });
    expect(orderedEntities(p).map((e) => e.id)).toEqual([5, 'b']);
  });
});

describe('retention and path parameters', () => {
  it('retention defaults and production names', () => {
    expect(retentionParamsSchema.parse({})).toMatchObject({
      target_entity: { id: '$pageview', type: 'events' },
      retention_type: 'retention_first_time',
      period: 'Day',
      total_intervals: 7,
    });
    expect(retentionParamsSchema.parse({ retention_type: 'recurring', period: 'week' })).toMatchObject({
      retention_type: 'retention_recurring',
      period: 'Week',
    });
    expect(paths(retentionParamsSchema.safeParse({ period: 'Year', retention_type: 'sometimes' }))).toEqual([
      ['retention_type'],
      ['period'],
    ]);
  });
  it('path defaults and cleaning rules', () => {
    expect(pathParamsSchema.parse({}).step_limit).toBe(5);
    const r = pathParamsSchema.safeParse({
      include_event_types: ['$pageview', 'clicks'],
      local_path_cleaning_filters: [{ alias: 'id', regex: '(' }],
    });
    expect(paths(r).map(attr)).toEqual(['include_event_types__1', 'local_path_cleaning_filters__0__regex']);
  });
});

describe('query-string forms', () => {
  it('decode JSON, booleans and numbers into the body shape', () => {
    const p = trendQuerySchema.parse({
      events: JSON.stringify([{ id: '$pageview', math: 'dau' }]),
      compare: 'true',
      breakdown_limit: '5',
      properties: JSON.stringify([{ key: '$browser', value: 'Chrome' }]),
      breakdown: '$browser',
      format: 'json',
    });
    expect(p).toMatchObject({
      compare: true,
      breakdown_limit: 5,
      breakdown: '$browser',
      events: [{ math: 'dau', type: 'events' }],
    });
    expect(p.properties?.values).toHaveLength(1);
  });
  it('give the parameter as the path on bad JSON text or a bad nested value', () => {
    expect(paths(trendQuerySchema.safeParse({ events: '[{"id": "$page' })).map(attr)).toEqual(['events']);
    expect(paths(trendQuerySchema.safeParse({ events: '[{"id":"$pageview","math":"x"}]' })).map(attr)).toEqual([
      'events__0__math',
    ]);
    expect(paths(trendQuerySchema.safeParse({ events: '[{"id":"a"}]', compare: 'maybe' })).map(attr)).toEqual([
      'compare',
    ]);
    expect(
      paths(funnelQuerySchema.safeParse({ events: '[{"id":"a"}]', funnel_window_interval: 'two' })).map(attr),
    ).toEqual(['funnel_window_interval']);
  });
  it('round-trip through encodeAnalyticsQuery', () => {
    const params = funnelParamsSchema.parse({
      events: [{ id: 'a' }, { id: 'b' }],
      funnel_window_interval: 3,
      funnel_window_interval_unit: 'hour',
      filter_test_accounts: true,
    });
    expect(funnelQuerySchema.parse(encodeAnalyticsQuery(params))).toEqual(params);
    expect(decodeAnalyticsQuery({ step_limit: ['3', '4'] })).toEqual({ step_limit: 4 });
  });
});

describe('results', () => {
  const envelope = { is_cached: false, last_refresh: '2024-01-01T00:00:00Z', timezone: 'UTC' };
  it('trend series', () => {
    const r = trendResultSchema.parse({
      ...envelope,
      extra: 1,
      result: [
        {
          data: [1, 2],
          days: ['2024-01-01', '2024-01-02'],
          labels: ['1-Jan-2024', '2-Jan-2024'],
          label: '$pageview',
          count: 3,
          compare_label: 'current',
          action: { id: '$pageview' },
          filter: { date_from: '-7d' },
        },
      ],
    });
    expect(r.result[0]!.count).toBe(3);
    expect(
      trendResultSchema.safeParse({ ...envelope, result: [{ label: 'x', count: 1, aggregated_value: 4 }] }).success,
    ).toBe(true);
    expect(trendResultSchema.safeParse({ ...envelope, result: [{ data: ['1'], label: 'x', count: 1 }] }).success).toBe(
      false,
    );
  });
  it('funnel steps, breakdown and time to convert', () => {
    const step = {
      action_id: '$pageview',
      name: '$pageview',
      order: 0,
      count: 5,
      type: 'events',
      average_conversion_time: null,
      median_conversion_time: null,
      converted_people_url: '/x',
      dropped_people_url: null,
    };
    expect(
      funnelResultSchema.safeParse({ ...envelope, result: [step, { ...step, order: 1, average_conversion_time: 3.5 }] })
        .success,
    ).toBe(true);
    expect(
      funnelResultSchema.safeParse({ ...envelope, result: [[{ ...step, breakdown_value: 'Chrome' }]] }).success,
    ).toBe(true);
    expect(
      funnelResultSchema.safeParse({ ...envelope, result: { bins: [[60, 2]], average_conversion_time: 60 } }).success,
    ).toBe(true);
    expect(funnelResultSchema.safeParse({ ...envelope, result: [{ ...step, count: 'many' }] }).success).toBe(false);
  });
  it('retention and paths', () => {
    expect(
      retentionResultSchema.safeParse({
        ...envelope,
        result: [{ label: 'Day 0', date: '2024-01-01T00:00:00Z', values: [{ count: 3 }] }],
      }).success,
    ).toBe(true);
    expect(
      pathResultSchema.safeParse({
        ...envelope,
        result: [{ source: '1_/a', target: '2_/b', value: 2, average_conversion_time: 10 }],
      }).success,
    ).toBe(true);
    expect(pathResultSchema.safeParse({ ...envelope, result: [{ source: '1_/a', value: 2 }] }).success).toBe(false);
  });
});
