import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  funnelParamsSchema,
  pathParamsSchema,
  retentionParamsSchema,
  trendParamsSchema,
  type FunnelStep,
  type PropertyGroup,
} from '../../src/contract/analytics.ts';
import { cohortFiltersSchema, type CohortFilters } from '../../src/contract/cohorts.ts';
import { computeDynamicCohort } from '../../server/analytics/query/cohorts.ts';
import { computeFunnel } from '../../server/analytics/engines/funnels.ts';
import { buildPersonIndex } from '../../server/analytics/person-index/person-index.ts';
import { computePaths } from '../../server/analytics/engines/paths.ts';
import { computeRetention } from '../../server/analytics/engines/retention.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import {
  arbEvents,
  arbPropertyFilter,
  arbPropertyGroup,
  EVENT_NAMES,
  GENERATED_NOW,
  RANGE_END,
  RANGE_START,
  propertyRuns,
} from './generate.ts';
import { createHarness, personUuid, type Harness } from './harness.ts';
import { referenceCohortMembers } from './reference/cohorts.ts';
import { matchesGroup, type FilterContext, type RefGroup } from './reference/filters.ts';
import { referenceFunnel, type RefFunnelInput } from './reference/funnels.ts';
import { referencePaths } from './reference/paths.ts';
import { referenceRetention, type Period } from './reference/retention.ts';
import { referenceTrends } from './reference/trends.ts';

/**
 * Cohorts against the reference on random events: who a dynamic cohort holds (person and
 * behavioural criteria, AND/OR, negation), and trends, funnels (by SQL and by the person
 * index), retention and paths filtered by cohorts (in, not_in, beside other filters), trends
 * and funnels broken down by them.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness({}, GENERATED_NOW);
});
afterAll(() => h.close());

const arbBehavioral = fc.record({
  type: fc.constant('behavioral' as const),
  key: fc.constantFrom(...EVENT_NAMES),
  value: fc.constantFrom(
    'performed_event' as const,
    'performed_event_multiple' as const,
    'not_performed_event' as const,
  ),
  time_value: fc.integer({ min: 1, max: 30 }),
  time_interval: fc.constantFrom('hour' as const, 'day' as const, 'week' as const, 'month' as const),
  operator: fc.constantFrom('gte' as const, 'lte' as const, 'exact' as const, 'gt' as const, 'lt' as const),
  operator_value: fc.integer({ min: 0, max: 4 }),
  negation: fc.boolean(),
});
const arbPerson = fc
  .record({
    filter: arbPropertyFilter.filter((f) => f.type === 'person'),
    negation: fc.boolean(),
  })
  .map(({ filter, negation }) => ({ ...filter, negation }));
const arbCriterion = fc.oneof(arbBehavioral, arbPerson);
const arbCohortFilters: fc.Arbitrary<CohortFilters> = fc
  .record({
    type: fc.constantFrom('AND' as const, 'OR' as const),
    values: fc.array(
      fc.oneof(
        { weight: 3, arbitrary: arbCriterion },
        {
          weight: 1,
          arbitrary: fc.record({
            type: fc.constantFrom('AND' as const, 'OR' as const),
            values: fc.array(arbCriterion, { maxLength: 3 }),
          }),
        },
      ),
      { maxLength: 3 },
    ),
  })
  .map((properties) => cohortFiltersSchema.parse({ properties }) as CohortFilters);

const NOW = GENERATED_NOW.getTime();
const IDS = [101, 102];
const NAMES: Record<number, string> = { 101: 'Power "users"', 102: 'Dormant' };

/** Loads the events, computes both cohorts in the store and in the reference; the analysis context knows them. */
async function setUp(events: ReferenceEvent[], definitions: CohortFilters[]) {
  await h.load(events);
  await h.db.run('DELETE FROM cohort_people');
  const members = new Map<number, { name: string; members: Set<string> }>();
  for (const [i, id] of IDS.entries()) {
    await computeDynamicCohort(h.db, h.ctx.project.id, id, definitions[i]!, GENERATED_NOW);
    members.set(id, { name: NAMES[id]!, members: referenceCohortMembers(definitions[i]!, events, NOW) });
  }
  h.ctx.cohorts = (id) => (NAMES[id] ? { id, name: NAMES[id] } : null);
  return members;
}

const arbCohortFilter = fc.record({
  key: fc.constant('id'),
  type: fc.constant('cohort' as const),
  value: fc.constantFrom(...IDS),
  operator: fc.constantFrom('in' as const, 'not_in' as const),
});
/** A property group holding a cohort filter beside random others. */
const arbWithCohort = fc
  .tuple(arbPropertyGroup, arbCohortFilter, fc.constantFrom('AND' as const, 'OR' as const))
  .map(([group, cohort, type]) => ({ type, values: [cohort, ...group.values] }));

describe('cohorts equal the reference', { timeout: 90_000 }, () => {
  it('a dynamic cohort holds exactly the persons its criteria describe', async () => {
    await fc.assert(
      fc.asyncProperty(arbEvents, arbCohortFilters, async (events, filters) => {
        await h.load(events);
        await h.db.run('DELETE FROM cohort_people');
        const count = await computeDynamicCohort(h.db, h.ctx.project.id, 7, filters, GENERATED_NOW);
        const rows = await h.db.all<{ id: string }>(
          'SELECT person_id::VARCHAR AS id FROM cohort_people WHERE cohort_id = 7 ORDER BY 1',
        );
        const expected = [...referenceCohortMembers(filters, events, NOW)].map(personUuid).sort();
        expect(rows.map((r) => r.id)).toEqual(expected);
        expect(count).toBe(expected.length);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('trends filtered by cohorts (in and not_in, with other filters) or broken down by them', async () => {
    const arbTrend = fc.record({
      event: fc.constantFrom<string | null>(...EVENT_NAMES, null),
      math: fc.constantFrom('total' as const, 'dau' as const, 'weekly_active' as const, 'sum' as const),
      properties: fc.option(arbWithCohort, { nil: undefined }),
      seriesProperties: fc.option(arbWithCohort, { nil: undefined }),
      breakdown: fc.option(fc.shuffledSubarray<number | 'all'>([...IDS, 'all'], { minLength: 1 }), { nil: undefined }),
      interval: fc.constantFrom('day' as const, 'week' as const),
      compare: fc.boolean(),
      display: fc.constantFrom('ActionsLineGraph', 'ActionsTable'),
    });
    await fc.assert(
      fc.asyncProperty(arbEvents, arbCohortFilters, arbCohortFilters, arbTrend, async (events, d1, d2, t) => {
        const cohorts = await setUp(events, [d1, d2]);
        const params = trendParamsSchema.parse({
          events: [
            { id: t.event, type: 'events', math: t.math, math_property: 'amount', properties: t.seriesProperties },
          ],
          properties: t.properties,
          date_from: '2024-02-25',
          date_to: '2024-03-23',
          interval: t.interval,
          compare: t.compare,
          display: t.display,
          ...(t.breakdown ? { breakdown: t.breakdown, breakdown_type: 'cohort' } : {}),
        });
        const actual = await computeTrends(params, h.ctx);
        const expected = referenceTrends(params, { events, project: h.ctx.project, now: h.ctx.now, cohorts });
        expect(
          actual.map((s) => [
            s.label,
            s.breakdown_value ?? null,
            s.compare_label ?? null,
            s.data,
            s.aggregated_value ?? null,
          ]),
        ).toEqual(expected.map((s) => [s.label, s.breakdown_value, s.compare_label, s.data, s.aggregated_value]));
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('funnels filtered by a cohort, globally or on a step, and broken down by cohorts', async () => {
    const arbFunnel = fc.record({
      steps: fc.array(
        fc.record({
          id: fc.constantFrom(...EVENT_NAMES),
          properties: fc.option(arbWithCohort, { nil: undefined, freq: 3 }),
        }),
        { minLength: 2, maxLength: 3 },
      ),
      // Cohort filters alone: the funnel may walk the person index, skipping whole persons.
      properties: fc.option(
        fc.oneof(
          arbWithCohort,
          fc.array(arbCohortFilter, { minLength: 1, maxLength: 2 }).map((values) => ({ type: 'AND' as const, values })),
        ),
        { nil: undefined },
      ),
      breakdown: fc.option(fc.shuffledSubarray<number | 'all'>([...IDS, 'all'], { minLength: 1 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(arbEvents, arbCohortFilters, arbCohortFilters, arbFunnel, async (events, d1, d2, f) => {
        const cohorts = await setUp(events, [d1, d2]);
        const ctx: FilterContext = {
          sessions: new Map(),
          env: { timeZone: 'UTC', weekStart: 0, now: NOW },
          cohorts: new Map([...cohorts].map(([id, c]) => [id, c.members])),
        };
        const params = funnelParamsSchema.parse({
          events: f.steps.map((s, order) => ({ id: s.id, type: 'events', order, properties: s.properties })),
          properties: f.properties,
          date_from: new Date(RANGE_START).toISOString(),
          date_to: new Date(RANGE_END).toISOString(),
          funnel_window_interval: 7,
          funnel_window_interval_type: 'day',
          ...(f.breakdown ? { breakdown: f.breakdown, breakdown_type: 'cohort' } : {}),
        });
        const input = (only?: ReadonlySet<string>): RefFunnelInput => ({
          events,
          from: RANGE_START,
          to: RANGE_END,
          window: { interval: 7, unit: 'day' },
          order: 'ordered',
          steps: f.steps.map(
            (s) => (e: ReferenceEvent) =>
              e.event === s.id && matchesGroup(e, s.properties as RefGroup | undefined, ctx),
          ),
          filter: (e) =>
            (only === undefined || only.has(e.person_id)) &&
            matchesGroup(e, f.properties as PropertyGroup as RefGroup | undefined, ctx),
        });
        const counts = (steps: { count: number }[]) => steps.map((s) => s.count);
        const result = await computeFunnel(params, h.ctx);
        if (!f.breakdown) {
          const expected = counts(referenceFunnel(input())[0]!.steps);
          expect(counts(result as FunnelStep[])).toEqual(expected);
          const index = await buildPersonIndex(h.db, h.ctx.project.id);
          if (index)
            expect(
              counts((await computeFunnel(params, { ...h.ctx, personIndex: () => index })) as FunnelStep[]),
            ).toEqual(expected);
          return;
        }
        const lists = result as FunnelStep[][];
        expect(lists.map((l) => l[0]!.breakdown_value)).toEqual(f.breakdown);
        lists.forEach((list, i) => {
          const id = f.breakdown![i]!;
          expect(counts(list)).toEqual(
            counts(referenceFunnel(input(id === 'all' ? undefined : cohorts.get(id)!.members))[0]!.steps),
          );
        });
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});

describe('retention and paths filtered by cohorts equal the reference', { timeout: 90_000 }, () => {
  const contextOf = (cohorts: Map<number, { members: Set<string> }>): FilterContext => ({
    sessions: new Map(),
    env: { timeZone: 'UTC', weekStart: 0, now: NOW },
    cohorts: new Map([...cohorts].map(([id, c]) => [id, c.members])),
  });

  it('retention: cohort by cohort, period by period', async () => {
    const arbRetention = fc.record({
      period: fc.constantFrom<Period>('Day', 'Week'),
      firstTime: fc.boolean(),
      target: fc.constantFrom(...EVENT_NAMES),
      returning: fc.constantFrom(...EVENT_NAMES),
      properties: arbWithCohort,
    });
    await fc.assert(
      fc.asyncProperty(arbEvents, arbCohortFilters, arbCohortFilters, arbRetention, async (events, d1, d2, a) => {
        const ctx = contextOf(await setUp(events, [d1, d2]));
        const params = retentionParamsSchema.parse({
          period: a.period,
          total_intervals: 5,
          retention_type: a.firstTime ? 'first_time' : 'recurring',
          target_entity: { id: a.target },
          returning_entity: { id: a.returning },
          properties: a.properties,
          date_to: new Date(RANGE_END).toISOString(),
        });
        const result = await computeRetention(params, h.ctx);
        const expected = referenceRetention({
          events,
          period: a.period,
          totalIntervals: 5,
          firstTime: a.firstTime,
          dateTo: RANGE_END,
          target: (e) => e.event === a.target,
          returning: (e) => e.event === a.returning,
          filter: (e) => matchesGroup(e, a.properties as PropertyGroup as RefGroup, ctx),
        });
        expect(result.map((c) => c.values.map((v) => v.count))).toEqual(expected.map((c) => c.values));
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  it('paths: edge by edge', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbEvents,
        arbCohortFilters,
        arbCohortFilters,
        arbWithCohort,
        async (events, d1, d2, properties) => {
          const ctx = contextOf(await setUp(events, [d1, d2]));
          const result = await computePaths(
            pathParamsSchema.parse({
              properties,
              step_limit: 5,
              date_from: new Date(RANGE_START).toISOString(),
              date_to: new Date(RANGE_END).toISOString(),
            }),
            h.ctx,
          );
          const expected = referencePaths({
            events,
            from: RANGE_START,
            to: RANGE_END,
            stepLimit: 5,
            filter: (e) => matchesGroup(e, properties as PropertyGroup as RefGroup, ctx),
          });
          expect(result.map((e) => [e.source, e.target, e.value])).toEqual(
            expected.map((e) => [e.source, e.target, e.value]),
          );
        },
      ),
      { numRuns: propertyRuns(40) },
    );
  });
});

describe('hand-worked cohorts', () => {
  const t = (day: number, hour = 12) => Date.UTC(2024, 2, day, hour);
  let n = 0;
  const ev = (
    event: string,
    person: string,
    time: number,
    personProps: Record<string, unknown> = {},
  ): ReferenceEvent => ({
    uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    event,
    distinct_id: person,
    person_id: person,
    timestamp: time,
    properties: {},
    person_properties: personProps,
  });
  // Now is 26 Mar 15:30. ann: 3 purchases (20, 24, 25 Mar), pro. bob: 1 purchase (1 Mar), free.
  // cat: pageviews only, pro.
  const events = [
    ev('purchase', 'ann', t(20), { plan: 'pro' }),
    ev('purchase', 'ann', t(24), { plan: 'pro' }),
    ev('purchase', 'ann', t(25), { plan: 'pro' }),
    ev('purchase', 'bob', t(1), { plan: 'free' }),
    ev('$pageview', 'bob', t(25), { plan: 'free' }),
    ev('$pageview', 'cat', t(25), { plan: 'pro' }),
    ev('$pageview', 'cat', t(26, 9), { plan: 'pro' }),
  ];
  const members = async (properties: unknown) => {
    await h.load(events);
    await computeDynamicCohort(h.db, h.ctx.project.id, 9, cohortFiltersSchema.parse({ properties }), GENERATED_NOW);
    const rows = await h.db.all<{ id: string }>(
      'SELECT person_id::VARCHAR AS id FROM cohort_people WHERE cohort_id = 9',
    );
    return ['ann', 'bob', 'cat'].filter((p) => rows.some((r) => r.id === personUuid(p)));
  };
  const bought = (value: string, extra: Record<string, unknown> = {}) => ({
    type: 'behavioral',
    key: 'purchase',
    value,
    time_value: 7,
    time_interval: 'day',
    ...extra,
  });

  it('performed at least N times in the last D days, did not perform, person properties, AND/OR', async () => {
    expect(await members({ type: 'AND', values: [bought('performed_event')] })).toEqual(['ann']);
    expect(
      await members({
        type: 'AND',
        values: [bought('performed_event_multiple', { operator: 'gte', operator_value: 3 })],
      }),
    ).toEqual(['ann']);
    expect(
      await members({
        type: 'AND',
        values: [bought('performed_event_multiple', { operator: 'gte', operator_value: 4 })],
      }),
    ).toEqual([]);
    // The last 30 days reach bob's purchase of 1 Mar (26 Mar − 30 days = 25 Feb).
    expect(await members({ type: 'AND', values: [bought('performed_event', { time_value: 30 })] })).toEqual([
      'ann',
      'bob',
    ]);
    expect(await members({ type: 'AND', values: [bought('not_performed_event')] })).toEqual(['bob', 'cat']);
    expect(
      await members({
        type: 'AND',
        values: [
          bought('performed_event', { negation: true }),
          { type: 'person', key: 'plan', operator: 'exact', value: 'pro' },
        ],
      }),
    ).toEqual(['cat']);
    expect(
      await members({
        type: 'OR',
        values: [
          { type: 'AND', values: [bought('performed_event')] },
          { type: 'AND', values: [{ type: 'person', key: 'plan', value: 'free' }] },
        ],
      }),
    ).toEqual(['ann', 'bob']);
  });

  it('a trend split by cohort: one series per listed cohort, its name as label, its id as breakdown_value', async () => {
    await h.load(events);
    await h.db.run('DELETE FROM cohort_people');
    await computeDynamicCohort(
      h.db,
      h.ctx.project.id,
      101,
      cohortFiltersSchema.parse({
        properties: { type: 'AND', values: [{ type: 'person', key: 'plan', value: 'pro' }] },
      }),
      GENERATED_NOW,
    );
    h.ctx.cohorts = (id) => (id === 101 ? { id, name: 'Pro' } : null);
    const params = trendParamsSchema.parse({
      events: [{ id: '$pageview' }],
      date_from: '2024-03-20',
      date_to: '2024-03-26',
      display: 'ActionsTable',
      breakdown: ['all', 101],
      breakdown_type: 'cohort',
    });
    const result = await computeTrends(params, h.ctx);
    expect(result.map((s) => [s.label, s.breakdown_value, s.aggregated_value])).toEqual([
      ['all users', 'all', 3],
      ['Pro', 101, 2],
    ]);
    const filtered = await computeTrends(
      trendParamsSchema.parse({
        ...params,
        breakdown: undefined,
        properties: [{ type: 'cohort', key: 'id', value: 101, operator: 'not_in' }],
      }),
      h.ctx,
    );
    expect(filtered.map((s) => s.aggregated_value)).toEqual([1]);
    await expect(
      computeTrends(trendParamsSchema.parse({ ...params, breakdown: [101, 55] }), h.ctx),
    ).rejects.toMatchObject({ attr: 'breakdown' });
    await expect(
      computeTrends(
        trendParamsSchema.parse({
          ...params,
          breakdown: undefined,
          properties: [{ type: 'cohort', key: 'id', value: 55 }],
        }),
        h.ctx,
      ),
    ).rejects.toMatchObject({ attr: 'properties__values__0__value' });
  });
});
