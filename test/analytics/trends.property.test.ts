import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATHS, trendParamsSchema, type TrendParamsInput } from '../../src/contract/analytics.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import {
  arbEvents,
  arbPropertyGroup,
  EVENT_NAMES,
  EVENT_PROPERTY_KEYS,
  GENERATED_NOW,
  PERSON_PROPERTY_KEYS,
  propertyRuns,
} from './generate.ts';
import { createHarness, type Harness } from './harness.ts';
import { referenceTrends } from './reference/trends.ts';

/**
 * Random events × random trend parameters: the engine's answer equals the reference's, series
 * by series and bucket by bucket.
 */

const arbEntity = fc.record({
  id: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<string | null>(...EVENT_NAMES) },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  math: fc.constantFrom(...MATHS),
  math_property: fc.constantFrom('amount', 'a.b', 'we"ird/~key', 'ünï 名前'),
  custom_name: fc.option(fc.constantFrom('Séries "1"', "it's"), { nil: undefined }),
  properties: fc.option(arbPropertyGroup, { nil: undefined }),
});

const arbBreakdownEntry = fc
  .record({
    entry: fc.oneof(
      fc.record({ property: fc.constantFrom(...EVENT_PROPERTY_KEYS), type: fc.constant('event' as const) }),
      fc.record({ property: fc.constantFrom(...PERSON_PROPERTY_KEYS), type: fc.constant('person' as const) }),
      fc.record({
        property: fc.constant("concat(event, '/', toString(properties.amount))"),
        type: fc.constant('hogql' as const),
      }),
    ),
    bins: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined, freq: 3 }),
  })
  .map(({ entry, bins }) => ({ ...entry, ...(bins === undefined ? {} : { histogram_bin_count: bins }) }));

const arbDates = fc.oneof(
  fc.constant({ date_from: '2024-02-25', date_to: '2024-03-23' }),
  fc.constant({ date_from: '2024-03-08', date_to: '2024-03-12T06:30:00' }),
  fc.constant({ date_from: '-14d', date_to: undefined }),
  fc.constant({ date_from: '-1mStart', date_to: '-1mEnd' }),
  fc.constant({ date_from: 'all', date_to: undefined }),
  fc.constant({ date_from: '2024-03-09T22:00:00Z', date_to: '2024-03-11T03:00:00Z' }),
  // Relative values are exact instants; a range starts at the start of date_from's bucket.
  fc.constant({ date_from: '-20d', date_to: '-2d' }),
  fc.constant({ date_from: '-36h', date_to: undefined }),
  fc.constant({ date_from: '2024-3-6', date_to: '2024-3-20' }),
  fc.constant({ date_from: '2024-03-05T13:05:00', date_to: '2024-03-19T08:00:00Z' }),
);

const arbParams: fc.Arbitrary<TrendParamsInput> = fc
  .record({
    series: fc.array(arbEntity, { minLength: 1, maxLength: 3 }),
    dates: arbDates,
    interval: fc.constantFrom('hour', 'day', 'week', 'month'),
    properties: fc.option(arbPropertyGroup, { nil: undefined }),
    filter_test_accounts: fc.boolean(),
    breakdown: fc.option(
      fc.oneof(
        fc.record({
          breakdown: fc.constantFrom(...EVENT_PROPERTY_KEYS),
          breakdown_type: fc.constant('event' as const),
        }),
        fc.record({
          breakdown: fc.constantFrom(...PERSON_PROPERTY_KEYS),
          breakdown_type: fc.constant('person' as const),
        }),
        // A numeric property in equal-width bins (non-numbers are None).
        fc.record({
          breakdown: fc.constantFrom('amount', 'a.b', '$browser'),
          breakdown_type: fc.constant('event' as const),
          breakdown_histogram_bin_count: fc.integer({ min: 1, max: 5 }),
        }),
        // Several breakdowns at once: each series splits by the combinations.
        fc.record({ breakdowns: fc.array(arbBreakdownEntry, { minLength: 1, maxLength: 3 }) }),
      ),
      { nil: undefined },
    ),
    breakdown_limit: fc.integer({ min: 1, max: 4 }),
    compare: fc.boolean(),
    display: fc.constantFrom(
      'ActionsLineGraph',
      'ActionsLineGraphCumulative',
      'ActionsTable',
      'BoldNumber',
      'ActionsPie',
    ),
    formula: fc.option(fc.constantFrom('A', 'A + 1', 'A * 2 - A / 3', '(A + A) % 3', '-A / 0'), { nil: undefined }),
    // Several formulas on one chart (when given, `formula` is not used).
    formulas: fc.option(fc.array(fc.constantFrom('A', 'A * 2', 'A - 1', 'A / 4'), { minLength: 1, maxLength: 3 }), {
      nil: undefined,
      freq: 4,
    }),
  })
  .map((r) => ({
    events: r.series.map((s) => ({
      id: s.id,
      type: 'events' as const,
      math: s.math,
      ...(['sum', 'avg', 'min', 'max', 'median', 'p90', 'p95', 'p99'].includes(s.math)
        ? { math_property: s.math_property }
        : {}),
      ...(s.math === 'hogql' ? { math_hogql: 'sum(properties.amount) + uniq(person.properties.plan) * 10' } : {}),
      ...(s.custom_name ? { custom_name: s.custom_name } : {}),
      ...(s.properties ? { properties: s.properties } : {}),
    })),
    ...r.dates,
    interval: r.interval,
    properties: r.properties,
    filter_test_accounts: r.filter_test_accounts,
    ...(r.breakdown ?? {}),
    breakdown_limit: r.breakdown_limit,
    compare: r.compare,
    display: r.display,
    formula: r.formula,
    formulas: r.formulas,
  }));

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function expectSame(actual: { label: string; data: number[]; days: string[] }[], expected: typeof actual) {
  expect(actual.map((s) => [s.label, s.days])).toEqual(expected.map((s) => [s.label, s.days]));
  actual.forEach((s, i) => {
    const e = expected[i]!;
    expect(s.data.length).toBe(e.data.length);
    s.data.forEach((v, j) => {
      if (!close(v, e.data[j]!))
        expect({ series: i, bucket: j, value: v }).toEqual({ series: i, bucket: j, value: e.data[j] });
    });
  });
}

for (const timezone of ['UTC', 'America/New_York'] as const) {
  describe(`trends equal the reference (${timezone})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness(
        {
          timezone,
          week_start_day: timezone === 'UTC' ? 0 : 1,
          test_account_filters: [{ key: 'plan', operator: 'is_not', value: 'free', type: 'person' }],
        },
        GENERATED_NOW,
      );
    });
    afterAll(async () => {
      await h.close();
    });

    it('bucket by bucket for random events and parameters', async () => {
      await fc.assert(
        fc.asyncProperty(arbEvents, arbParams, async (events, input) => {
          const params = trendParamsSchema.parse(input);
          await h.load(events);
          const actual = await computeTrends(params, h.ctx);
          const expected = referenceTrends(params, { events, project: h.ctx.project, now: h.ctx.now });
          const shape = (
            list: {
              label: string;
              breakdown_value?: unknown;
              compare_label?: unknown;
              aggregated_value?: unknown;
              data: number[];
              days: string[];
            }[],
          ) =>
            list.map((s) => ({
              label: s.label,
              data: s.data,
              days: s.days,
              meta: [s.breakdown_value ?? null, s.compare_label ?? null],
              agg: (s.aggregated_value ?? null) as number | null,
            }));
          const a = shape(actual);
          const e = shape(expected);
          expect(a.map((s) => s.meta)).toEqual(e.map((s) => s.meta));
          expectSame(a, e);
          a.forEach((s, i) => {
            const x = e[i]!.agg;
            if (x === null) expect(s.agg).toBeNull();
            else expect(close(s.agg as number, x)).toBe(true);
          });
        }),
        { numRuns: propertyRuns(150) },
      );
    });
  });
}
