import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  funnelParamsSchema,
  retentionParamsSchema,
  trendParamsSchema,
  type FunnelStep,
  type PropertyGroup,
} from '../../src/contract/analytics.ts';
import { computeFunnel, computeFunnelPersons } from '../../server/analytics/engines/funnels.ts';
import { buildPersonIndex } from '../../server/analytics/person-index/person-index.ts';
import { groupActor } from '../../server/analytics/person-index/person-indexes.ts';
import { computeRetention } from '../../server/analytics/engines/retention.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import type { QueryContext, ReferenceEvent } from '../../server/analytics/types.ts';
import {
  arbEvents,
  arbPropertyFilter,
  arbTimestamp,
  EVENT_NAMES,
  GENERATED_NOW,
  RANGE_END,
  RANGE_START,
  propertyRuns,
} from './generate.ts';
import { createHarness, type Harness } from './harness.ts';
import { matchesGroup, type FilterContext, type RefGroup } from './reference/filters.ts';
import { referenceFunnel, referenceFunnelPersons, type RefFunnelInput } from './reference/funnels.ts';
import { byGroup, referenceGroups } from './reference/groups.ts';
import { referenceRetention, type Period } from './reference/retention.ts';
import { referenceTrends } from './reference/trends.ts';

/**
 * Groups against the reference on random events: events carry `$groups` of two types (some
 * none), `$groupidentify` events set group properties (several per group, in any order).
 * Trends (unique maths and totals), funnels and retention aggregated by either type or by
 * persons, filtered by group properties beside other filters, trends broken down by a group
 * property. An index the project has no type for is a 400 on the field naming it.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness({}, GENERATED_NOW);
});
afterAll(() => h.close());

const COMPANIES = ['acme', 'globex', 'ünï "co"', '42'] as const;
const TEAMS = ['red', 'blue'] as const;
const GROUP_VALUES = ['free', 'pro', 'Pro', '', 5, 120, 2.5, null] as const;

const arbIdentify = fc.record({
  type: fc.constantFrom('company', 'team'),
  company: fc.constantFrom(...COMPANIES),
  team: fc.constantFrom(...TEAMS),
  timestamp: arbTimestamp,
  set: fc.record(
    { plan: fc.constantFrom(...GROUP_VALUES), employees: fc.constantFrom(...GROUP_VALUES) },
    { requiredKeys: [] },
  ),
});

/** Random events, each with a company and/or a team (or neither), and identify events. */
const arbGroupedEvents: fc.Arbitrary<ReferenceEvent[]> = fc
  .tuple(
    arbEvents,
    fc.array(
      fc.record({
        company: fc.option(fc.constantFrom(...COMPANIES), { freq: 3 }),
        team: fc.option(fc.constantFrom(...TEAMS)),
      }),
      { minLength: 60, maxLength: 60 },
    ),
    fc.array(arbIdentify, { maxLength: 8 }),
  )
  .map(([events, assigned, identifies]) => [
    ...events.map((e, i) => {
      const { company, team } = assigned[i]!;
      const groups = { ...(company === null ? {} : { company }), ...(team === null ? {} : { team }) };
      return Object.keys(groups).length === 0 ? e : { ...e, properties: { ...e.properties, $groups: groups } };
    }),
    ...identifies.map((x, i): ReferenceEvent => ({
      uuid: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
      event: '$groupidentify',
      distinct_id: 'server',
      person_id: 'server',
      timestamp: x.timestamp,
      person_properties: {},
      properties: { $group_type: x.type, $group_key: x.type === 'company' ? x.company : x.team, $group_set: x.set },
    })),
  ]);

const arbGroupFilter = fc
  .record({
    type: fc.constant('group' as const),
    group_type_index: fc.constantFrom(0, 1, 2),
    key: fc.constantFrom('plan', 'employees'),
  })
  .chain((f) =>
    fc.oneof(
      fc.record({
        ...constants(f),
        operator: fc.constantFrom('exact' as const, 'is_not' as const),
        value: fc.constantFrom('pro', 'free', '5', ['pro', 'Pro']),
      }),
      fc.record({
        ...constants(f),
        operator: fc.constantFrom('gt' as const, 'lt' as const),
        value: fc.constantFrom(3, 100),
      }),
      fc.record({
        ...constants(f),
        operator: fc.constantFrom('is_set' as const, 'is_not_set' as const, 'icontains' as const),
        value: fc.constant('pr'),
      }),
    ),
  );
function constants<T extends object>(o: T) {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fc.constant(v)])) as {
    [K in keyof T]: fc.Arbitrary<T[K]>;
  };
}
/** A property group holding a group filter beside a random other filter. */
const arbWithGroup = fc
  .tuple(arbGroupFilter, fc.option(arbPropertyFilter), fc.constantFrom('AND' as const, 'OR' as const))
  .map(([g, other, type]) => ({ type, values: other ? [g, other] : [g] }));
const arbAggregation = fc.option(fc.constantFrom(0, 1, 2), { nil: undefined, freq: 4 });

/** The group type indexes the params name. */
function indexesOf(...values: unknown[]): number[] {
  const out: number[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v))
        if (k.endsWith('group_type_index') && typeof x === 'number') out.push(x);
        else walk(x);
    }
  };
  values.forEach(walk);
  return out;
}

async function setUp(events: ReferenceEvent[]) {
  await h.load(events);
  const groups = referenceGroups(events);
  const ctx: FilterContext = {
    sessions: new Map(),
    env: { timeZone: 'UTC', weekStart: 0, now: GENERATED_NOW.getTime() },
    groups,
  };
  return { groups, ctx };
}

describe('groups equal the reference', { timeout: 90_000 }, () => {
  it('the store numbers group types by first sight and merges identified properties in time order', async () => {
    await fc.assert(
      fc.asyncProperty(arbGroupedEvents, async (events) => {
        const { groups } = await setUp(events);
        const types = await h.db.all<{ t: string }>(
          'SELECT group_type AS t FROM group_types WHERE team_id = 1 ORDER BY group_type_index',
        );
        expect(types.map((r) => r.t)).toEqual(groups.types);
        const rows = await h.db.all<{ i: number; k: string; p: string }>(
          'SELECT group_type_index AS i, group_key AS k, properties::VARCHAR AS p FROM groups WHERE team_id = 1',
        );
        const stored = new Map(rows.map((r) => [JSON.stringify([Number(r.i), r.k]), JSON.parse(r.p) as unknown]));
        for (const [id, props] of groups.properties) expect(stored.get(id)).toEqual(props);
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  it('trends: by persons or a group type, filtered by group properties, broken down by one', async () => {
    const arbTrend = fc.record({
      event: fc.constantFrom<string | null>(...EVENT_NAMES, null),
      math: fc.constantFrom('total' as const, 'dau' as const, 'weekly_active' as const, 'monthly_active' as const),
      aggregation: arbAggregation,
      properties: fc.option(arbWithGroup, { nil: undefined }),
      breakdown: fc.option(fc.record({ index: fc.constantFrom(0, 1), key: fc.constantFrom('plan', 'employees') }), {
        nil: undefined,
      }),
      interval: fc.constantFrom('day' as const, 'week' as const),
      display: fc.constantFrom('ActionsLineGraph', 'ActionsTable'),
    });
    await fc.assert(
      fc.asyncProperty(arbGroupedEvents, arbTrend, async (events, t) => {
        const { groups } = await setUp(events);
        const params = trendParamsSchema.parse({
          events: [{ id: t.event, type: 'events', math: t.math }],
          properties: t.properties,
          date_from: '2024-02-25',
          date_to: '2024-03-23',
          interval: t.interval,
          display: t.display,
          aggregation_group_type_index: t.aggregation,
          ...(t.breakdown
            ? { breakdown: t.breakdown.key, breakdown_type: 'group', breakdown_group_type_index: t.breakdown.index }
            : {}),
        });
        if (indexesOf(params).some((i) => i >= groups.types.length)) {
          await expect(computeTrends(params, h.ctx)).rejects.toMatchObject({
            attr: expect.stringMatching(/group_type_index$/),
          });
          return;
        }
        const actual = await computeTrends(params, h.ctx);
        const expected = referenceTrends(params, { events, project: h.ctx.project, now: h.ctx.now, groups });
        expect(actual.map((s) => [s.breakdown_value ?? null, s.data, s.aggregated_value ?? null])).toEqual(
          expected.map((s) => [s.breakdown_value, s.data, s.aggregated_value]),
        );
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('funnels: by persons or a group type, filtered by group properties globally or on a step', async () => {
    const arbFunnel = fc.record({
      steps: fc.array(
        fc.record({
          id: fc.constantFrom(...EVENT_NAMES),
          properties: fc.option(arbWithGroup, { nil: undefined, freq: 3 }),
        }),
        { minLength: 2, maxLength: 3 },
      ),
      properties: fc.option(arbWithGroup, { nil: undefined }),
      aggregation: arbAggregation,
      viz: fc.constantFrom('steps' as const, 'trends' as const),
    });
    await fc.assert(
      fc.asyncProperty(arbGroupedEvents, arbFunnel, async (events, f) => {
        const { groups, ctx } = await setUp(events);
        const params = funnelParamsSchema.parse({
          events: f.steps.map((s, order) => ({ id: s.id, type: 'events', order, properties: s.properties })),
          properties: f.properties,
          date_from: new Date(RANGE_START).toISOString(),
          date_to: new Date(RANGE_END).toISOString(),
          funnel_window_interval: 7,
          funnel_window_interval_type: 'day',
          aggregation_group_type_index: f.aggregation,
        });
        if (indexesOf(params).some((i) => i >= groups.types.length)) {
          await expect(computeFunnel(params, h.ctx)).rejects.toMatchObject({
            attr: expect.stringMatching(/group_type_index$/),
          });
          return;
        }
        const result = (await computeFunnel(params, h.ctx)) as FunnelStep[];
        const expected = referenceFunnel({
          events: f.aggregation === undefined ? events : byGroup(events, groups, f.aggregation),
          from: RANGE_START,
          to: RANGE_END,
          window: { interval: 7, unit: 'day' },
          order: 'ordered',
          steps: f.steps.map(
            (s) => (e: ReferenceEvent) =>
              e.event === s.id && matchesGroup(e, s.properties as RefGroup | undefined, ctx),
          ),
          filter: (e) => matchesGroup(e, f.properties as PropertyGroup as RefGroup | undefined, ctx),
        })[0]!.steps;
        expect(result.map((s) => s.count)).toEqual(expected.map((s) => s.count));
        expect(result.map((s) => s.average_conversion_time)).toEqual(expected.map((s) => s.average));
      }),
      { numRuns: propertyRuns(50) },
    );
  });

  it("funnels by a group type read from that type's index equal the reference and SQL: every order type, exclusions, each step's groups; a breakdown stays on SQL", async () => {
    const arbFunnel = fc.record({
      steps: fc.array(fc.constantFrom(...EVENT_NAMES), { minLength: 1, maxLength: 3 }),
      order: fc.constantFrom('ordered' as const, 'strict' as const, 'unordered' as const),
      window: fc.record({
        interval: fc.integer({ min: 1, max: 14 }),
        unit: fc.constantFrom('hour' as const, 'day' as const),
      }),
      aggregation: fc.constantFrom(0, 1),
      exclusion: fc.option(fc.constantFrom(...EVENT_NAMES), { nil: undefined }),
      breakdown: fc.boolean(),
      step: fc.integer({ min: 1, max: 3 }),
      dropped: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(arbGroupedEvents, arbFunnel, async (events, f) => {
        const { groups } = await setUp(events);
        if (f.aggregation >= groups.types.length) return; // a 400 (the test above)
        const index = (await buildPersonIndex(h.db, h.ctx.project.id, {}, groupActor(f.aggregation)))!;
        let reads = 0;
        const ctx: QueryContext = {
          ...h.ctx,
          personIndex: (g) => {
            reads += 1;
            return g === f.aggregation ? index : null;
          },
        };
        const n = f.steps.length;
        // Over the whole funnel (every order type takes that), unless it is one of the steps (a 400).
        const exclusion =
          f.exclusion !== undefined && n > 1 && !f.steps.includes(f.exclusion) ? f.exclusion : undefined;
        const params = funnelParamsSchema.parse({
          events: f.steps.map((id, order) => ({ id, type: 'events', order })),
          date_from: new Date(RANGE_START).toISOString(),
          date_to: new Date(RANGE_END).toISOString(),
          funnel_order_type: f.order,
          funnel_window_interval: f.window.interval,
          funnel_window_interval_unit: f.window.unit,
          aggregation_group_type_index: f.aggregation,
          exclusions: exclusion
            ? [{ id: exclusion, type: 'events', funnel_from_step: 0, funnel_to_step: n - 1 }]
            : undefined,
          ...(f.breakdown ? { breakdown: '$browser', breakdown_type: 'event' } : {}),
        });
        const input: RefFunnelInput = {
          events: byGroup(events, groups, f.aggregation),
          from: RANGE_START,
          to: RANGE_END,
          window: f.window,
          order: f.order,
          steps: f.steps.map((id) => (e: ReferenceEvent) => e.event === id),
          exclusions: exclusion ? [{ match: (e) => e.event === exclusion, from: 0, to: n - 1 }] : [],
          ...(f.breakdown ? { breakdown: { type: 'event' as const, key: '$browser', limit: 10 } } : {}),
        };
        const result = await computeFunnel(params, ctx);
        const lists = f.breakdown ? (result as FunnelStep[][]) : [result as FunnelStep[]];
        expect(
          lists.map((list) => list.map((s) => [s.count, s.average_conversion_time, s.median_conversion_time])),
        ).toEqual(referenceFunnel(input).map((g) => g.steps.map((s) => [s.count, s.average, s.median])));
        expect(result).toEqual(await computeFunnel(params, h.ctx));
        // The groups behind a step, by key (a step past the last is a 400).
        const k = Math.min(f.step, n);
        const step = f.dropped && k > 1 ? -k : k;
        const group = f.breakdown ? (lists[0]?.[0]?.breakdown_value as string | undefined) : undefined;
        const page = await computeFunnelPersons(
          { ...params, funnel_step: step, funnel_step_breakdown: group, limit: 1000, offset: 0 },
          ctx,
          { limit: 1000, offset: 0 },
        );
        const keys = page.people.map((a) => (a.type === 'group' ? `group:${String(a.group_key)}` : `person:${a.id}`));
        expect(keys.sort()).toEqual(referenceFunnelPersons(input, step, group));
        expect(page.people.every((a) => a.group_type_index === f.aggregation)).toBe(true);
        // Without a breakdown both read the index (else the comparison proves nothing); with one, neither.
        expect(reads).toBe(f.breakdown ? 0 : 2);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('retention: by persons or a group type, cohort by cohort', async () => {
    const arbRetention = fc.record({
      period: fc.constantFrom<Period>('Day', 'Week'),
      firstTime: fc.boolean(),
      aggregation: arbAggregation,
      target: fc.constantFrom(...EVENT_NAMES),
      returning: fc.constantFrom(...EVENT_NAMES),
      properties: fc.option(arbWithGroup, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(arbGroupedEvents, arbRetention, async (events, a) => {
        const { groups, ctx } = await setUp(events);
        const params = retentionParamsSchema.parse({
          period: a.period,
          total_intervals: 5,
          retention_type: a.firstTime ? 'first_time' : 'recurring',
          aggregation_group_type_index: a.aggregation,
          target_entity: { id: a.target },
          returning_entity: { id: a.returning },
          properties: a.properties,
          date_to: new Date(RANGE_END).toISOString(),
        });
        if (indexesOf(params).some((i) => i >= groups.types.length)) {
          await expect(computeRetention(params, h.ctx)).rejects.toMatchObject({
            attr: expect.stringMatching(/group_type_index$/),
          });
          return;
        }
        const result = await computeRetention(params, h.ctx);
        const expected = referenceRetention({
          events: a.aggregation === undefined ? events : byGroup(events, groups, a.aggregation),
          period: a.period,
          totalIntervals: 5,
          firstTime: a.firstTime,
          dateTo: RANGE_END,
          target: (e) => e.event === a.target,
          returning: (e) => e.event === a.returning,
          filter: (e) => matchesGroup(e, a.properties as PropertyGroup as RefGroup | undefined, ctx),
        });
        expect(result.map((c) => c.values.map((v) => v.count))).toEqual(expected.map((c) => c.values));
      }),
      { numRuns: propertyRuns(50) },
    );
  });
});
