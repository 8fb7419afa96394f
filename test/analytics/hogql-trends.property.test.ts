import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trendParamsSchema, type TrendParamsInput } from '../../src/contract/analytics.ts';
import { AnalyticsParamError } from '../../server/analytics/errors.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import { EVENT_NAMES, GENERATED_NOW, propertyRuns } from './generate.ts';
import { createHarness, type Harness } from './harness.ts';
import { arbHogql, arbMathHogql, arbSessionEvents } from './hogql-arbitraries.ts';
import { referenceTrends } from './reference/trends.ts';

/**
 * Trends with HogQL and session pieces (breakdowns, filters, `math: hogql`) over random events
 * with sessions: the engine's answer equals the reference's, series by series.
 */

const SESSION_KEYS = ['$session_duration', '$entry_current_url', '$exit_current_url', '$pageview_count'] as const;

const arbFilter = fc.oneof(
  arbHogql.map((key) => ({ key, type: 'hogql' as const })),
  fc.record({
    key: fc.constantFrom(...SESSION_KEYS),
    type: fc.constant('session' as const),
    operator: fc.constantFrom(
      'exact' as const,
      'is_not' as const,
      'gt' as const,
      'lt' as const,
      'icontains' as const,
      'is_set' as const,
      'is_not_set' as const,
    ),
    value: fc.constantFrom(0, 60, 3600, 2, 'https://a.example/', 'pricing'),
  }),
);

const arbParams: fc.Arbitrary<TrendParamsInput> = fc
  .record({
    series: fc.array(
      fc.record({
        id: fc.constantFrom<string | null>(...EVENT_NAMES, null),
        hogql: fc.option(arbMathHogql, { nil: undefined }),
        properties: fc.option(fc.array(arbFilter, { maxLength: 2 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 2 },
    ),
    properties: fc.option(
      fc.record({
        type: fc.constantFrom('AND' as const, 'OR' as const),
        values: fc.array(arbFilter, { maxLength: 2 }),
      }),
      { nil: undefined },
    ),
    breakdown: fc.option(
      fc.oneof(
        arbHogql.map((breakdown) => ({ breakdown, breakdown_type: 'hogql' as const })),
        fc.constantFrom(...SESSION_KEYS).map((breakdown) => ({ breakdown, breakdown_type: 'session' as const })),
      ),
      { nil: undefined },
    ),
    interval: fc.constantFrom('day', 'week'),
    display: fc.constantFrom('ActionsLineGraph', 'ActionsTable'),
    breakdown_limit: fc.integer({ min: 1, max: 4 }),
  })
  .map((r) => ({
    events: r.series.map((s) => ({
      id: s.id,
      ...(s.hogql ? { math: 'hogql' as const, math_hogql: s.hogql } : {}),
      ...(s.properties ? { properties: s.properties } : {}),
    })),
    date_from: '2024-02-25',
    date_to: '2024-03-23',
    properties: r.properties,
    ...(r.breakdown ?? {}),
    interval: r.interval,
    display: r.display,
    breakdown_limit: r.breakdown_limit,
  }));

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

for (const timezone of ['UTC', 'America/New_York'] as const) {
  describe(`HogQL and session trends equal the reference (${timezone})`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness({ timezone, week_start_day: timezone === 'UTC' ? 0 : 1 }, GENERATED_NOW);
    });
    afterAll(async () => {
      await h.close();
    });

    it('series by series for random events and parameters', async () => {
      let computed = 0;
      const runs = propertyRuns(100);
      await fc.assert(
        fc.asyncProperty(arbSessionEvents, arbParams, async (events, input) => {
          const parsed = trendParamsSchema.safeParse(input);
          if (!parsed.success) return; // gt/lt with a text value
          const params = parsed.data;
          await h.load(events);
          let actual;
          try {
            actual = await computeTrends(params, h.ctx);
          } catch (error) {
            // A generated expression outside the types (a date as a number): refused as a 400.
            if (error instanceof AnalyticsParamError) return;
            throw error;
          }
          computed += 1;
          const expected = referenceTrends(params, { events, project: h.ctx.project, now: h.ctx.now });
          const shape = (
            list: { label: string; breakdown_value?: unknown; data: number[]; aggregated_value?: unknown }[],
          ) =>
            list.map((s) => ({
              label: s.label,
              bv: s.breakdown_value ?? null,
              values:
                s.aggregated_value === null || s.aggregated_value === undefined
                  ? s.data
                  : [s.aggregated_value as number],
            }));
          const a = shape(actual);
          const e = shape(expected);
          expect(a.map((s) => [s.label, s.bv])).toEqual(e.map((s) => [s.label, s.bv]));
          a.forEach((s, i) => {
            expect(s.values.length).toBe(e[i]!.values.length);
            s.values.forEach((v, j) => {
              if (!close(v, e[i]!.values[j]!))
                expect({ series: i, bucket: j, v }).toEqual({ series: i, bucket: j, v: e[i]!.values[j] });
            });
          });
        }),
        { numRuns: runs },
      );
      expect(computed).toBeGreaterThan(runs / 2);
    });
  });
}
