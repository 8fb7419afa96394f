import { defaultParseSearch, defaultStringifySearch } from '@tanstack/react-router';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DISPLAY_TYPES, funnelParamsSchema, INTERVALS, MATHS, pathParamsSchema, PROPERTY_MATHS, retentionParamsSchema,
  RETENTION_PERIODS, trendParamsSchema,
} from '@/contract/analytics-params';
import { Route as EditRoute } from '@/routes/_authed/projects/$projectId/insights/$insightId/edit';
import { Route as NewRoute } from '@/routes/_authed/projects/$projectId/insights/new/$kind';
import type { BuilderKind } from './builder-search';
import { BUILDER_DEFAULTS, PARAM_SCHEMAS, readBuilderState, SEARCH_KEYS } from './builder-state';
import { withoutUndefined } from './common-controls';

/** What a navigation to `state` puts in the address bar, and what the page reads back from it. */
function throughUrl(kind: BuilderKind, state: object, route: { options: { validateSearch?: unknown } } = NewRoute): unknown {
  const url = defaultStringifySearch(withoutUndefined(state as Record<string, unknown>));
  const parsed = defaultParseSearch(url);
  const validate = route.options.validateSearch as (s: Record<string, unknown>) => Record<string, unknown>;
  return readBuilderState(kind, validate(parsed));
}

// ---- generated builder states ------------------------------------------------------------------

const text = fc.string({ minLength: 1, maxLength: 24 }).filter((s) => s.trim() !== '');
const eventName = fc.oneof(fc.constantFrom('$pageview', 'user signed up', 'purchase', '$screen', '123', 'true', 'null', '{"a":1}'), text);
const day = fc.date({ min: new Date('2020-01-01'), max: new Date('2026-06-30'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const dates = fc.oneof(
  fc.record({ date_from: fc.constantFrom('-24h', '-7d', '-14d', '-30d', '-90d', 'mStart', 'yStart', 'all') }),
  fc.tuple(day, day).map(([a, b]) => (a <= b ? { date_from: a, date_to: b } : { date_from: b, date_to: a })),
  fc.constant({}),
);
const filter = fc.oneof(
  fc.record({ key: text, operator: fc.constantFrom('exact', 'is_not', 'icontains', 'regex'), value: text, type: fc.constantFrom('event', 'person') }),
  fc.record({ key: text, operator: fc.constantFrom('gt', 'lt'), value: fc.integer({ min: -1000, max: 1000 }), type: fc.constantFrom('event', 'person') }),
  fc.record({ key: text, operator: fc.constantFrom('exact', 'is_not'), value: fc.array(text, { minLength: 1, maxLength: 3 }), type: fc.constantFrom('event', 'person') }),
  fc.record({ key: text, operator: fc.constantFrom('is_set', 'is_not_set'), type: fc.constantFrom('event', 'person') }),
);
const properties = fc.record({
  type: fc.constantFrom('AND', 'OR'),
  values: fc.array(fc.oneof(filter, fc.record({ type: fc.constantFrom('AND', 'OR'), values: fc.array(filter, { maxLength: 3 }) })), { maxLength: 3 }),
});
const plainMaths = MATHS.filter((m) => !PROPERTY_MATHS.includes(m));
const series = fc.oneof(
  fc.record({ id: eventName, type: fc.constant('events'), math: fc.constantFrom(...plainMaths) }, { requiredKeys: ['id', 'type'] }),
  fc.record({ id: eventName, type: fc.constant('events'), math: fc.constantFrom(...PROPERTY_MATHS), math_property: text, properties }, { requiredKeys: ['id', 'type', 'math', 'math_property'] }),
);
const common = { properties, filter_test_accounts: fc.constant(true) };

const trendState = fc.tuple(
  fc.array(series, { minLength: 1, maxLength: 4 }),
  dates,
  fc.record({
    ...common,
    interval: fc.constantFrom(...INTERVALS),
    display: fc.constantFrom(...DISPLAY_TYPES),
    compare: fc.constant(true),
    breakdown: text,
    breakdown_type: fc.constantFrom('event', 'person'),
    breakdown_limit: fc.integer({ min: 1, max: 1000 }),
  }, { requiredKeys: [] }),
  fc.option(fc.constantFrom('A', 'A * 2', '(A + 1) / 3'), { nil: undefined }),
).map(([events, range, rest, formula]) => withoutUndefined({ events, ...range, ...rest, formula }));

const funnelState = fc.tuple(
  fc.array(eventName, { minLength: 2, maxLength: 5 }),
  dates,
  fc.record({
    ...common,
    funnel_window_interval: fc.integer({ min: 1, max: 30 }),
    funnel_window_interval_unit: fc.constantFrom('minute', 'hour', 'day'),
    funnel_order_type: fc.constantFrom('ordered', 'strict', 'unordered'),
    funnel_viz_type: fc.constantFrom('steps', 'trends', 'time_to_convert'),
    breakdown: text,
  }, { requiredKeys: [] }),
).map(([names, range, rest]) => ({ events: names.map((id, order) => ({ id, type: 'events', order })), ...range, ...rest }));

const retentionState = fc.tuple(
  dates,
  fc.record({
    ...common,
    target_entity: eventName.map((id) => ({ id, type: 'events' })),
    returning_entity: eventName.map((id) => ({ id, name: id, type: 'events' })),
    retention_type: fc.constantFrom('retention_first_time', 'retention_recurring'),
    period: fc.constantFrom(...RETENTION_PERIODS),
    total_intervals: fc.integer({ min: 1, max: 100 }),
  }, { requiredKeys: ['target_entity'] }),
).map(([range, rest]) => ({ ...range, ...rest }));

const pathState = fc.tuple(
  dates,
  fc.record({
    ...common,
    include_event_types: fc.subarray(['$pageview', '$screen', 'custom_event'] as const, { minLength: 1 }),
    start_point: text,
    end_point: text,
    step_limit: fc.integer({ min: 1, max: 20 }),
    exclude_events: fc.array(eventName, { minLength: 1, maxLength: 3 }),
    local_path_cleaning_filters: fc.array(fc.record({ alias: text, regex: fc.constantFrom('/\\d+', '\\?.*$', '[a-z]+', 'x|y') }), { minLength: 1, maxLength: 3 }),
  }, { requiredKeys: ['step_limit'] }),
).map(([range, rest]) => ({ ...range, ...rest }));

const STATES = { trends: trendState, funnels: funnelState, retention: retentionState, paths: pathState };

describe('builder state in the URL', () => {
  for (const kind of ['trends', 'funnels', 'retention', 'paths'] as const) {
    it(`${kind}: state → URL search → state is the identity`, () => {
      fc.assert(
        fc.property(STATES[kind] as fc.Arbitrary<object>, (state) => {
          expect(PARAM_SCHEMAS[kind].safeParse(state).success).toBe(true);
          expect(throughUrl(kind, state)).toEqual(state);
          // The edit route (any kind's keys) reads the same state back.
          expect(throughUrl(kind, state, EditRoute)).toEqual(state);
        }),
        { numRuns: 150 },
      );
    });

    it(`${kind}: any junk in the URL gives a state the contract accepts, never a crash`, () => {
      const junk = fc.dictionary(
        fc.oneof(fc.constantFrom(...(SEARCH_KEYS[kind] as readonly string[])), fc.string()),
        fc.oneof(fc.jsonValue(), fc.string()),
        { maxKeys: 8 },
      );
      fc.assert(
        fc.property(junk, (search) => {
          const state = readBuilderState(kind, search);
          expect(PARAM_SCHEMAS[kind].safeParse(state).success).toBe(true);
        }),
        { numRuns: 200 },
      );
    });
  }

  it('an empty URL is the defaults; a bad value falls back to its own default only', () => {
    expect(readBuilderState('trends', {})).toEqual(BUILDER_DEFAULTS.trends);
    expect(readBuilderState('trends', { interval: 'fortnight', display: 'ActionsPie', date_from: '-30d' })).toEqual({
      interval: 'day', display: 'ActionsPie', date_from: '-30d',
      events: BUILDER_DEFAULTS.trends.events,
    });
    expect(readBuilderState('retention', { total_intervals: 500, period: 'Month' })).toMatchObject({ total_intervals: 8, period: 'Month' });
  });

  it('the page reads exactly the contract parameters of its kind', () => {
    const keys = (schema: { shape: object }) => Object.keys(schema.shape).sort();
    expect([...SEARCH_KEYS.trends].sort()).toEqual(keys(trendParamsSchema));
    expect([...SEARCH_KEYS.funnels].sort()).toEqual(keys(funnelParamsSchema));
    expect([...SEARCH_KEYS.retention].sort()).toEqual(keys(retentionParamsSchema));
    expect([...SEARCH_KEYS.paths].sort()).toEqual(keys(pathParamsSchema));
  });
});
