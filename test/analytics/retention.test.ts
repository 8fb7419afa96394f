import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retentionParamsSchema, type PropertyGroup } from '../../src/contract/analytics.ts';
import { parseHogql } from '../../server/analytics/hogql/index.ts';
import { computeRetention } from '../../server/analytics/engines/retention.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { DAY, ev, HOUR } from './funnels-cases.ts';
import {
  arbEvents,
  arbPropertyGroup,
  EVENT_NAMES,
  EVENT_PROPERTY_KEYS,
  GENERATED_NOW,
  PERSON_PROPERTY_KEYS,
  RANGE_END,
  RANGE_START,
  propertyRuns,
} from './generate.ts';
import { createHarness, type Harness } from './harness.ts';
import { matchesGroup, textOf, type RefGroup } from './reference/filters.ts';
import { valueText, type RefEnv } from './reference/hogql.ts';
import { referenceRetentionGroups, type Period } from './reference/retention.ts';
import { PARTS_SEPARATOR } from './reference/breakdown-parts.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const counts = (r: { values: { count: number }[] }[]) => r.map((c) => c.values.map((v) => v.count));
const ENV: RefEnv = { timeZone: 'UTC', weekStart: 0, now: GENERATED_NOW.getTime() };

describe('retention, hand-worked', () => {
  // T0 = Fri 1 Mar 2024 12:00Z; date_to 3 Mar → cohorts 1, 2, 3 March.
  const events = [
    ev('a', '$pageview', -5 * DAY),
    ev('a', '$pageview', 0),
    ev('a', '$pageview', DAY),
    ev('a', '$pageview', 2 * DAY),
    ev('b', '$pageview', 0),
    ev('b', '$pageview', 2 * DAY),
    ev('c', '$pageview', DAY),
    ev('c', 'other', 2 * DAY),
  ];
  it('recurring: every period a person does the target is a cohort', async () => {
    await h.load(events);
    const r = await computeRetention(
      retentionParamsSchema.parse({ retention_type: 'recurring', total_intervals: 3, date_to: '2024-03-03' }),
      h.ctx,
    );
    expect(r.map((c) => c.label)).toEqual(['Day 0', 'Day 1', 'Day 2']);
    expect(r[0]!.date).toBe('2024-03-01T00:00:00Z');
    expect(counts(r)).toEqual([[2, 1, 2], [2, 1], [2]]);
  });
  it('by breakdown: each place in a cohort under the value of the event that made it; most places first, then None, then Other', async () => {
    const at = (person: string, day: number, browser?: string) =>
      ev(person, '$pageview', day * DAY, browser ? { $browser: browser } : {});
    await h.load([
      at('a', 0, 'Chrome'),
      at('a', 1, 'Safari'),
      at('a', 2, 'Chrome'),
      at('b', 0, 'Safari'),
      at('b', 2, 'Safari'),
      at('c', 1),
    ]);
    const run = async (limit?: number) =>
      (
        await computeRetention(
          retentionParamsSchema.parse({
            retention_type: 'recurring',
            total_intervals: 3,
            date_to: '2024-03-03',
            breakdown: '$browser',
            ...(limit ? { breakdown_limit: limit } : {}),
          }),
          h.ctx,
        )
      ).map((c) => [c.breakdown_value, c.values.map((v) => v.count)]);
    expect(await run()).toEqual([
      ['Safari', [1, 0, 1]],
      ['Safari', [1, 1]],
      ['Safari', [1]],
      ['Chrome', [1, 1, 1]],
      ['Chrome', [0, 0]],
      ['Chrome', [1]],
      ['$$_posthog_breakdown_null_$$', [0, 0, 0]],
      ['$$_posthog_breakdown_null_$$', [1, 0]],
      ['$$_posthog_breakdown_null_$$', [0]],
    ]);
    expect((await run(1)).map(([value]) => value)).toEqual([
      'Safari',
      'Safari',
      'Safari',
      '$$_posthog_breakdown_null_$$',
      '$$_posthog_breakdown_null_$$',
      '$$_posthog_breakdown_null_$$',
      '$$_posthog_breakdown_other_$$',
      '$$_posthog_breakdown_other_$$',
      '$$_posthog_breakdown_other_$$',
    ]);
  });
  it('first-time: the period of the first target event ever (a, whose first is earlier, is in none)', async () => {
    await h.load(events);
    const r = await computeRetention(
      retentionParamsSchema.parse({
        retention_type: 'retention_first_time',
        total_intervals: 3,
        date_to: '2024-03-03',
        period: 'day',
      }),
      h.ctx,
    );
    expect(counts(r)).toEqual([[1, 0, 1], [1, 0], [0]]);
  });
  it('a different returning event, hourly periods, default 7 intervals', async () => {
    await h.load([ev('a', 'signup', 0), ev('a', 'buy', HOUR), ev('a', 'buy', 3 * HOUR)]);
    const r = await computeRetention(
      retentionParamsSchema.parse({
        target_entity: { id: 'signup' },
        returning_entity: { id: 'buy' },
        period: 'Hour',
        date_to: '2024-03-01T18:00:00Z',
      }),
      h.ctx,
    );
    expect(r).toHaveLength(7);
    expect(counts(r)[0]).toEqual([1, 1, 0, 1, 0, 0, 0]);
  });
  it('buckets in the project time zone, across the DST change', async () => {
    const ny = await createHarness({ timezone: 'America/New_York' });
    try {
      await ny.load([
        { ...ev('a', '$pageview', 0), timestamp: Date.UTC(2024, 2, 10, 3) }, // 9 March 22:00 EST
        { ...ev('a', '$pageview', 0), timestamp: Date.UTC(2024, 2, 10, 12) }, // 10 March 08:00 EDT
      ]);
      const r = await computeRetention(
        retentionParamsSchema.parse({ retention_type: 'recurring', total_intervals: 2, date_to: '2024-03-10' }),
        ny.ctx,
      );
      expect(r.map((c) => c.date)).toEqual(['2024-03-09T00:00:00-05:00', '2024-03-10T00:00:00-05:00']);
      expect(counts(r)).toEqual([[1, 1], [1]]);
    } finally {
      ny.close();
    }
  });
});

const arbRetention = fc.record({
  period: fc.constantFrom<Period>('Hour', 'Day', 'Week', 'Month'),
  intervals: fc.integer({ min: 1, max: 8 }),
  firstTime: fc.boolean(),
  target: fc.constantFrom(...EVENT_NAMES),
  returning: fc.constantFrom(...EVENT_NAMES),
  properties: fc.option(arbPropertyGroup, { nil: undefined, freq: 3 }),
  dateTo: fc.integer({ min: RANGE_START, max: RANGE_END + 7 * DAY }),
  weekStart: fc.constantFrom(0 as const, 1 as const),
  breakdown: fc.option(
    fc
      .oneof(
        fc.record({ type: fc.constant('event' as const), key: fc.constantFrom(...EVENT_PROPERTY_KEYS) }),
        fc.record({ type: fc.constant('person' as const), key: fc.constantFrom(...PERSON_PROPERTY_KEYS) }),
        fc.record({
          type: fc.constant('hogql' as const),
          key: fc.constantFrom("concat(event, '-', properties.$browser)", 'length(event) > 6'),
        }),
      )
      .chain((b) =>
        fc.record({
          type: fc.constant(b.type),
          key: fc.constant(b.key),
          limit: fc.integer({ min: 1, max: 3 }),
          // With the event's $browser too (breakdowns); bins of the first part, often over `amount`.
          several: fc.boolean(),
          bins: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined, freq: 2 }),
          amount: fc.boolean(),
        }),
      )
      .map((b) => (b.bins && b.amount && b.type === 'event' ? { ...b, key: 'amount' } : b)),
    { nil: undefined, freq: 2 },
  ),
});

const NONE = '$$_posthog_breakdown_null_$$';
const OTHER = '$$_posthog_breakdown_other_$$';
/** A breakdown's text of an event: its HogQL expression's, else its property's. */
const readOf =
  (b: { type: string; key: string }, hogql: ReturnType<typeof parseHogql> | null) =>
  (e: ReferenceEvent): string | null =>
    hogql ? valueText(hogql, e, ENV) : textOf(b.type === 'person' ? e.person_properties : e.properties, b.key);

describe('retention equals the reference', () => {
  it('cohort by cohort, period by period', async () => {
    await fc.assert(
      fc.asyncProperty(arbEvents, arbRetention, async (events, a) => {
        h.ctx.project = { ...h.ctx.project, week_start_day: a.weekStart };
        await h.load(events);
        const params = retentionParamsSchema.parse({
          period: a.period,
          total_intervals: a.intervals,
          retention_type: a.firstTime ? 'first_time' : 'recurring',
          target_entity: { id: a.target },
          returning_entity: { id: a.returning },
          properties: a.properties,
          date_to: new Date(a.dateTo).toISOString(),
          ...(a.breakdown?.several
            ? {
                breakdowns: [
                  {
                    property: a.breakdown.key,
                    type: a.breakdown.type,
                    ...(a.breakdown.bins ? { histogram_bin_count: a.breakdown.bins } : {}),
                  },
                  { property: '$browser' },
                ],
                breakdown_limit: a.breakdown.limit,
              }
            : a.breakdown
              ? {
                  breakdown: a.breakdown.key,
                  breakdown_type: a.breakdown.type,
                  breakdown_limit: a.breakdown.limit,
                  breakdown_histogram_bin_count: a.breakdown.bins,
                }
              : {}),
        });
        const result = await computeRetention(params, h.ctx);
        const b = a.breakdown;
        const hogql = b?.type === 'hogql' ? parseHogql(b.key) : null;
        const groups = referenceRetentionGroups({
          events,
          period: a.period,
          totalIntervals: a.intervals,
          firstTime: a.firstTime,
          dateTo: a.dateTo,
          weekStartDay: a.weekStart,
          target: (e: ReferenceEvent) => e.event === a.target,
          returning: (e: ReferenceEvent) => e.event === a.returning,
          filter: (e) => matchesGroup(e, a.properties as PropertyGroup as RefGroup | undefined),
          ...(b
            ? {
                breakdown: {
                  limit: b.limit,
                  ...(b.several || b.bins
                    ? {
                        parts: [
                          { read: readOf(b, hogql), bins: b.bins },
                          ...(b.several ? [{ read: (e: ReferenceEvent) => textOf(e.properties, '$browser') }] : []),
                        ],
                        several: b.several,
                      }
                    : { read: readOf(b, hogql) }),
                },
              }
            : {}),
        });
        const label = (v: unknown) =>
          Array.isArray(v)
            ? v.every((x) => x === OTHER)
              ? 'Other'
              : v.join(PARTS_SEPARATOR)
            : v === NONE
              ? 'None'
              : v === OTHER
                ? 'Other'
                : (v ?? null);
        const expected = groups.flatMap((g) => g.cohorts.map((c) => ({ ...c, value: g.value })));
        expect(result.map((c) => [label(c.breakdown_value), Date.parse(c.date)])).toEqual(
          expected.map((c) => [c.value, c.start]),
        );
        expect(counts(result)).toEqual(expected.map((c) => c.values));
      }),
      { numRuns: propertyRuns(120) },
    );
    h.ctx.project = { ...h.ctx.project, week_start_day: 0 };
  });
});
