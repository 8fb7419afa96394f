import { defaultParseSearch, defaultStringifySearch } from '@tanstack/react-router';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DISPLAY_TYPES,
  FUNNEL_WINDOW_UNITS,
  funnelParamsSchema,
  INTERVALS,
  isPropertyMath,
  MATHS,
  PATH_EVENT_TYPES,
  pathParamsSchema,
  PROPERTY_MATHS,
  retentionParamsSchema,
  RETENTION_PERIODS,
  trendParamsSchema,
} from '@/contract/analytics-params';
import { Route as EditRoute } from '@/routes/_authed/projects/$projectId/insights/$insightId/edit';
import { Route as NewRoute } from '@/routes/_authed/projects/$projectId/insights/new/$kind';
import type { BuilderKind } from './builder-search';
import { BUILDER_DEFAULTS, PARAM_SCHEMAS, readBuilderState, SEARCH_KEYS } from './builder-state';
import { withoutUndefined } from './common-controls';

/** What a navigation to `state` puts in the address bar, and what the page reads back from it. */
function throughUrl(
  kind: BuilderKind,
  state: object,
  route: { options: { validateSearch?: unknown } } = NewRoute,
): unknown {
  const url = defaultStringifySearch(withoutUndefined(state as Record<string, unknown>));
  const parsed = defaultParseSearch(url);
  const validate = route.options.validateSearch as (s: Record<string, unknown>) => Record<string, unknown>;
  return readBuilderState(kind, validate(parsed));
}

// ---- generated builder states ------------------------------------------------------------------

/** Text as typed: ASCII with the URL's own characters (% & = + # ?), or any Unicode. */
const text = fc
  .oneof(fc.string({ minLength: 1, maxLength: 24 }), fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }))
  .filter((s) => s.trim() !== '');
/** Names the URL could mistake for JSON (numbers, booleans, null, objects) included. */
const eventName = fc.oneof(
  fc.constantFrom(
    '$pageview',
    'user signed up',
    'purchase',
    '$screen',
    '123',
    'true',
    'null',
    '{"a":1}',
    '[1]',
    ' 1',
    '-7d',
  ),
  text,
);
const day = fc
  .date({ min: new Date('2020-01-01'), max: new Date('2026-06-30'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const dates = fc.oneof(
  fc.record({
    date_from: fc.constantFrom('-24h', '-7d', '-14d', '-30d', '-90d', '-60d', '-1y', 'mStart', 'yStart', 'all'),
  }),
  fc.tuple(day, day).map(([a, b]) => (a <= b ? { date_from: a, date_to: b } : { date_from: b, date_to: a })),
  fc.constant({}),
);
/** A number as the filter's number box gives it (decimals, negatives; -0 is 0 once typed). */
const amount = fc
  .oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  )
  .map((n) => (n === 0 ? 0 : n));
const propertyType = fc.constantFrom('event', 'person');
const filter = fc.oneof(
  fc.record({
    key: text,
    operator: fc.constantFrom('exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex'),
    value: text,
    type: propertyType,
  }),
  fc.record({ key: text, operator: fc.constantFrom('gt', 'lt'), value: amount, type: propertyType }),
  fc.record({
    key: text,
    operator: fc.constantFrom('exact', 'is_not'),
    value: fc.array(fc.oneof(text, amount, fc.boolean()), { minLength: 1, maxLength: 3 }),
    type: propertyType,
  }),
  fc.record({
    key: text,
    operator: fc.constantFrom('exact', 'is_not'),
    value: fc.oneof(fc.boolean(), amount),
    type: propertyType,
  }),
  fc.record({ key: text, operator: fc.constantFrom('is_set', 'is_not_set'), type: propertyType }),
);
const properties = fc.record({
  type: fc.constantFrom('AND', 'OR'),
  values: fc.array(
    fc.oneof(filter, fc.record({ type: fc.constantFrom('AND', 'OR'), values: fc.array(filter, { maxLength: 3 }) })),
    { maxLength: 3 },
  ),
});
/** A series' or step's own name in the legend: set, or cleared (null, as the rename box leaves it). */
const customName = fc.option(text, { nil: null });
// A HogQL math needs its expression, which the builder does not offer yet.
const plainMaths = MATHS.filter((m) => !isPropertyMath(m) && m !== 'hogql');
/** What the series list emits for an entry (type, order = position), plus a rename and its own filters. */
const entryExtras = { custom_name: customName, name: eventName, properties };
const series = fc.oneof(
  fc.record(
    {
      id: fc.option(eventName, { nil: null }),
      type: fc.constant('events'),
      math: fc.constantFrom(...plainMaths),
      ...entryExtras,
    },
    { requiredKeys: ['id', 'type'] },
  ),
  fc.record(
    {
      id: eventName,
      type: fc.constant('events'),
      math: fc.constantFrom(...PROPERTY_MATHS),
      math_property: text,
      ...entryExtras,
    },
    { requiredKeys: ['id', 'type', 'math', 'math_property'] },
  ),
);
const ordered = <T extends object>(entries: T[]) =>
  fc.boolean().map((withOrder) => (withOrder ? entries.map((e, order) => ({ ...e, order })) : entries));
/** Actions (a saved insight's): numeric ids, counted. */
const action = fc.record(
  {
    id: fc.integer({ min: 1, max: 100_000 }),
    type: fc.constant('actions'),
    math: fc.constantFrom(...plainMaths),
    custom_name: customName,
  },
  { requiredKeys: ['id', 'type'] },
);
/** A property breakdown, or cohorts by id (one, or a list). */
const breakdown = fc.oneof(
  fc.record({ breakdown: text, breakdown_type: propertyType }, { requiredKeys: ['breakdown'] }),
  fc.record({
    breakdown: fc.oneof(
      fc.integer({ min: 1, max: 10_000 }),
      fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 5 }),
    ),
    breakdown_type: fc.constant('cohort'),
  }),
  fc.constant({}),
);
const common = {
  properties,
  filter_test_accounts: fc.boolean(),
  aggregation_group_type_index: fc.integer({ min: 0, max: 4 }),
};

const trendState = fc
  .tuple(
    fc.array(series, { minLength: 1, maxLength: 4 }).chain(ordered),
    fc.option(fc.array(action, { minLength: 1, maxLength: 2 }), { nil: undefined }),
    dates,
    breakdown,
    fc.record(
      {
        ...common,
        interval: fc.constantFrom(...INTERVALS),
        display: fc.constantFrom(...DISPLAY_TYPES),
        compare: fc.boolean(),
        compare_to: fc.oneof(fc.constantFrom('-1d', '-7d', '-1w', '-2w', '-1m', '-1y', '-1h'), text),
        breakdown_limit: fc.integer({ min: 1, max: 1000 }),
      },
      { requiredKeys: [] },
    ),
    fc.option(fc.constantFrom('A', 'A * 2', '(A + 1) / 3', 'A / A * 100', '1.5 * A - 2'), { nil: undefined }),
  )
  .map(([events, actions, range, by, rest, formula]) =>
    withoutUndefined({ events, actions, ...range, ...by, ...rest, formula }),
  );

/** A conversion window the contract takes: at most 366 days in any unit. */
const windowDays: Record<(typeof FUNNEL_WINDOW_UNITS)[number], number> = {
  second: 86_400 * 366,
  minute: 1440 * 366,
  hour: 24 * 366,
  day: 366,
  week: 52,
  month: 12,
};
const conversionWindow = fc.oneof(
  fc.constantFrom(...FUNNEL_WINDOW_UNITS).chain((unit) =>
    fc.record({
      funnel_window_interval: fc.integer({ min: 1, max: windowDays[unit] }),
      funnel_window_interval_unit: fc.constant(unit),
    }),
  ),
  // A saved insight's older names: the unit as `_type` (any letter case, plural), or whole days.
  fc.constantFrom(...FUNNEL_WINDOW_UNITS).chain((unit) =>
    fc.record({
      funnel_window_interval: fc.integer({ min: 1, max: windowDays[unit] }),
      funnel_window_interval_type: fc.constantFrom(unit, `${unit}s`, unit.toUpperCase()),
    }),
  ),
  fc.record({ funnel_window_days: fc.integer({ min: 1, max: 366 }) }),
  fc.constant({}),
);
const orderType = fc.constantFrom('ordered', 'strict', 'unordered');

/** Steps with a valid exclusion list for them: an event that is not a step of its range, between two steps (the whole funnel when unordered). */
const funnelSteps = fc.tuple(fc.array(eventName, { minLength: 2, maxLength: 5 }), orderType).chain(([names, order]) => {
  const last = names.length - 1;
  const range =
    order === 'unordered'
      ? fc.constant([0, last] as const)
      : fc
          .tuple(fc.integer({ min: 0, max: last }), fc.integer({ min: 0, max: last }))
          .filter(([a, b]) => a !== b)
          .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
  const exclusion = fc
    .tuple(eventName, range, fc.boolean())
    .filter(([id]) => !names.includes(id))
    .map(([id, [from, to], named]) => ({
      id,
      type: 'events',
      ...(named ? { name: id } : {}),
      funnel_from_step: from,
      funnel_to_step: to,
    }));
  const steps = fc
    .tuple(
      ...names.map((id) =>
        fc.record({ custom_name: customName, properties, name: fc.constant(id) }, { requiredKeys: [] }),
      ),
    )
    .map((extras) => names.map((id, order) => ({ id, type: 'events', order, ...extras[order] })));
  return fc.record(
    {
      events: steps,
      funnel_order_type: fc.constant(order),
      exclusions: fc.array(exclusion, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ['events', 'funnel_order_type'] },
  );
});

const funnelState = fc
  .tuple(
    funnelSteps,
    dates,
    conversionWindow,
    breakdown,
    fc.record(
      {
        ...common,
        funnel_viz_type: fc.constantFrom('steps', 'trends', 'time_to_convert'),
        interval: fc.constantFrom(...INTERVALS),
        breakdown_limit: fc.integer({ min: 1, max: 1000 }),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([steps, range, window, by, rest]) => ({ ...steps, ...range, ...window, ...by, ...rest }));

/** The retention builder's entities: an event, maybe renamed, maybe with filters of its own. */
const retentionEntity = fc.record(
  {
    id: eventName,
    type: fc.constant('events'),
    name: eventName,
    custom_name: customName,
    properties,
  },
  { requiredKeys: ['id', 'type'] },
);
const retentionState = fc
  .tuple(
    // The retention builder has one date, where its last period ends.
    fc.oneof(fc.record({ date_to: day }), dates),
    fc.record(
      {
        ...common,
        target_entity: retentionEntity,
        returning_entity: retentionEntity,
        retention_type: fc.constantFrom('retention_first_time', 'retention_recurring'),
        period: fc.constantFrom(...RETENTION_PERIODS),
        total_intervals: fc.integer({ min: 1, max: 100 }),
      },
      { requiredKeys: ['target_entity'] },
    ),
  )
  .map(([range, rest]) => ({ ...range, ...rest }));

const pathState = fc
  .tuple(
    dates,
    fc.record(
      {
        properties,
        filter_test_accounts: fc.boolean(),
        include_event_types: fc.subarray([...PATH_EVENT_TYPES], { minLength: 1 }),
        start_point: text,
        end_point: text,
        step_limit: fc.integer({ min: 1, max: 20 }),
        edge_limit: fc.integer({ min: 1, max: 1000 }),
        exclude_events: fc.array(eventName, { minLength: 1, maxLength: 3 }),
        path_replacements: fc.boolean(),
        local_path_cleaning_filters: fc.array(
          fc.record({
            alias: text,
            regex: fc.constantFrom('/\\d+', '\\?.*$', '[a-z]+', 'x|y', '^https?://[^/]+', '(\\d{4})-(\\d{2})'),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      },
      { requiredKeys: ['step_limit'] },
    ),
    fc.constantFrom("concat(event, ' ', properties.$browser)", 'lower(event)'),
  )
  .map(([range, rest, hogql]) => ({
    ...range,
    ...rest,
    ...(rest.include_event_types?.includes('hogql') ? { paths_hogql_expression: hogql } : {}),
  }));

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
      interval: 'day',
      display: 'ActionsPie',
      date_from: '-30d',
      events: BUILDER_DEFAULTS.trends.events,
    });
    expect(readBuilderState('retention', { total_intervals: 500, period: 'Month' })).toMatchObject({
      total_intervals: 8,
      period: 'Month',
    });
  });

  it('the page reads exactly the contract parameters of its kind', () => {
    const keys = (schema: { shape: object }) => Object.keys(schema.shape).sort();
    expect([...SEARCH_KEYS.trends].sort()).toEqual(keys(trendParamsSchema));
    expect([...SEARCH_KEYS.funnels].sort()).toEqual(keys(funnelParamsSchema));
    expect([...SEARCH_KEYS.retention].sort()).toEqual(keys(retentionParamsSchema));
    expect([...SEARCH_KEYS.paths].sort()).toEqual(keys(pathParamsSchema));
  });
});
