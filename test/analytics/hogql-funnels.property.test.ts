import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelParamsSchema, type FunnelStep } from '../../src/contract/analytics.ts';
import { AnalyticsParamError } from '../../server/analytics/errors.ts';
import { computeFunnel } from '../../server/analytics/engines/funnels.ts';
import { parseHogql } from '../../server/analytics/hogql/parser.ts';
import { EVENT_NAMES, GENERATED_NOW, RANGE_END, RANGE_START, propertyRuns } from './generate.ts';
import { createHarness, type Harness } from './harness.ts';
import { arbHogql, arbSessionEvents } from './hogql-arbitraries.ts';
import { matchesGroup, type FilterContext, type RefGroup } from './reference/filters.ts';
import { referenceFunnel, type RefFunnelInput } from './reference/funnels.ts';
import { valueText } from './reference/hogql.ts';
import { sessionOf, sessionsOf, sessionText } from './reference/sessions.ts';

/**
 * Funnels whose steps and global filters hold HogQL and session filters, broken down by a HogQL
 * expression or a session property: the engine's steps equal the reference's.
 */

const SESSION_KEYS = ['$session_duration', '$entry_current_url', '$exit_current_url', '$pageview_count'] as const;
const arbFilter = fc.oneof(
  arbHogql.map((key) => ({ key, type: 'hogql' as const })),
  fc.record({
    key: fc.constantFrom(...SESSION_KEYS),
    type: fc.constant('session' as const),
    operator: fc.constantFrom('exact' as const, 'is_not' as const, 'is_set' as const),
    value: fc.constantFrom(0, 60, 3600, 2, 'https://a.example/', 'https://a.example/pricing'),
  }),
);
const arbGroup = fc.record({
  type: fc.constantFrom('AND' as const, 'OR' as const),
  values: fc.array(arbFilter, { maxLength: 2 }),
});

const arbParams = fc.record({
  steps: fc.array(
    fc.record({
      id: fc.constantFrom<string | null>(...EVENT_NAMES, null),
      properties: fc.option(arbGroup, { nil: undefined, freq: 3 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  properties: fc.option(arbGroup, { nil: undefined, freq: 3 }),
  breakdown: fc.option(
    fc.oneof(
      arbHogql.map((key) => ({ key, type: 'hogql' as const })),
      fc.constantFrom(...SESSION_KEYS).map((key) => ({ key, type: 'session' as const })),
    ),
    { nil: undefined },
  ),
  limit: fc.integer({ min: 1, max: 3 }),
});

let h: Harness;
beforeAll(async () => {
  h = await createHarness({}, GENERATED_NOW);
});
afterAll(() => h.close());

describe('HogQL and session funnels equal the reference', { timeout: 120_000 }, () => {
  it('steps and breakdown groups', async () => {
    let computed = 0;
    const runs = propertyRuns(80);
    await fc.assert(
      fc.asyncProperty(arbSessionEvents, arbParams, async (events, a) => {
        const params = funnelParamsSchema.parse({
          events: a.steps.map((s, order) => ({ id: s.id, type: 'events', order, properties: s.properties })),
          properties: a.properties,
          breakdown: a.breakdown?.key,
          breakdown_type: a.breakdown?.type ?? 'event',
          breakdown_limit: a.limit,
          funnel_window_interval: 1,
          funnel_window_interval_type: 'day',
          date_from: new Date(RANGE_START).toISOString(),
          date_to: new Date(RANGE_END).toISOString(),
        });
        await h.load(events);
        let result;
        try {
          result = await computeFunnel(params, h.ctx);
        } catch (error) {
          if (error instanceof AnalyticsParamError) return;
          throw error;
        }
        computed += 1;
        const ctx: FilterContext = {
          sessions: sessionsOf(events),
          env: { timeZone: 'UTC', weekStart: 0, now: GENERATED_NOW.getTime() },
        };
        const b = a.breakdown;
        const hogql = b?.type === 'hogql' ? parseHogql(b.key) : null;
        const input: RefFunnelInput = {
          events,
          from: RANGE_START,
          to: RANGE_END,
          window: { interval: 1, unit: 'day' },
          order: 'ordered',
          steps: a.steps.map(
            (s) => (e) =>
              (s.id === null || e.event === s.id) && matchesGroup(e, s.properties as RefGroup | undefined, ctx),
          ),
          filter: (e) => matchesGroup(e, a.properties as RefGroup | undefined, ctx),
          exclusions: [],
          ...(b
            ? {
                breakdown: {
                  type: b.type,
                  key: b.key,
                  limit: a.limit,
                  read: (e) =>
                    hogql
                      ? valueText(hogql, e, ctx.env)
                      : (() => {
                          const s = sessionOf(ctx.sessions, e);
                          return s === null ? null : sessionText(s, b.key);
                        })(),
                },
              }
            : {}),
        };
        const expected = referenceFunnel(input);
        const groups = b ? (result as FunnelStep[][]) : [result as FunnelStep[]];
        const got = groups.map((list) => ({
          value: b ? String(list[0]!.breakdown_value) : null,
          counts: list.map((s) => s.count),
        }));
        expect(got).toEqual(expected.map((g) => ({ value: b ? g.value : null, counts: g.steps.map((s) => s.count) })));
      }),
      { numRuns: runs },
    );
    expect(computed).toBeGreaterThan(runs / 2);
  });
});
