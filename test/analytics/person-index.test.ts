import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelParamsSchema, type FunnelParams } from '../../src/contract/analytics.ts';
import { funnelCorrelationParamsSchema } from '../../src/contract/index.ts';
import { computeFunnelCorrelation } from '../../server/analytics/engines/correlation.ts';
import { createEventStore, type EventStore } from '../../server/analytics/store/event-store.ts';
import { computeFunnel, computeFunnelPersons } from '../../server/analytics/engines/funnels.ts';
import { buildPersonIndex, type PersonIndex } from '../../server/analytics/person-index/person-index.ts';
import { createPersonIndexes } from '../../server/analytics/person-index/person-indexes.ts';
import type { QueryContext, ReferenceEvent } from '../../server/analytics/types.ts';
import { arbEvents, EVENT_NAMES, RANGE_END, RANGE_START, propertyRuns } from './generate.ts';
import { createHarness, DEFAULT_PROJECT, type Harness } from './harness.ts';

/**
 * Funnels read from the person index (person-index.ts) answer exactly as the same funnels read
 * with SQL: random events (many at one instant, uuids in another order than the rows) and random
 * funnels the index can answer, in each order type and result shape.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const iso = (t: number) => new Date(t).toISOString();

const arbFunnel = fc.record({
  steps: fc.array(fc.constantFrom<string | null>(...EVENT_NAMES, null), { minLength: 1, maxLength: 4 }),
  order: fc.constantFrom('ordered' as const, 'strict' as const, 'unordered' as const),
  window: fc.record({
    interval: fc.integer({ min: 1, max: 3 }),
    unit: fc.constantFrom('minute' as const, 'hour' as const, 'day' as const, 'week' as const, 'month' as const),
  }),
  exclusion: fc.option(fc.record({ id: fc.constantFrom(...EVENT_NAMES), a: fc.nat(3), b: fc.nat(3) }), {
    nil: undefined,
  }),
  from: fc.integer({ min: RANGE_START, max: RANGE_START + 7 * 86_400_000 }),
  to: fc.integer({ min: RANGE_END - 7 * 86_400_000, max: RANGE_END }),
});

type FunnelArb = typeof arbFunnel extends fc.Arbitrary<infer T> ? T : never;

function params(a: FunnelArb, viz: 'steps' | 'time_to_convert'): FunnelParams {
  const n = a.steps.length;
  let exclusions;
  if (a.exclusion && n > 1) {
    const from = a.order === 'unordered' ? 0 : Math.min(a.exclusion.a, n - 2);
    const to = a.order === 'unordered' ? n - 1 : from + 1 + (a.exclusion.b % (n - 1 - from));
    // An exclusion may not be one of its steps (a 400).
    if (!a.steps.slice(from, to + 1).some((s) => s === a.exclusion!.id || s === null)) {
      exclusions = [{ id: a.exclusion.id, type: 'events' as const, funnel_from_step: from, funnel_to_step: to }];
    }
  }
  return funnelParamsSchema.parse({
    events: a.steps.map((id, order) => ({ id, type: 'events', order })),
    funnel_order_type: a.order,
    funnel_window_interval: a.window.interval,
    funnel_window_interval_unit: a.window.unit,
    exclusions,
    funnel_viz_type: viz,
    date_from: iso(a.from),
    date_to: iso(a.to),
  });
}

/** Two persons' events on a handful of instants: several steps often share one (ties). */
const arbDense = fc
  .array(
    fc.record({
      event: fc.constantFrom(...EVENT_NAMES),
      person: fc.nat({ max: 1 }),
      at: fc.integer({ min: 0, max: 5 }),
    }),
    { minLength: 4, maxLength: 30 },
  )
  .map((raw) =>
    raw.map((r, i): ReferenceEvent => ({
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      event: r.event,
      distinct_id: `d${r.person}`,
      person_id: `p${r.person}`,
      timestamp: RANGE_START + 8 * 86_400_000 + r.at * 60_000,
      properties: {},
      person_properties: {},
    })),
  );

/** The events with uuids in a random order of their own, so that a tie's order is not the rows' order. */
const arbShuffled = fc.oneof(arbEvents, arbDense).chain((events) =>
  fc
    .shuffledSubarray(
      events.map((_, i) => i),
      { minLength: events.length, maxLength: events.length },
    )
    .map((perm) =>
      events.map((e, i): ReferenceEvent => ({
        ...e,
        uuid: `${String(perm[i]).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`,
      })),
    ),
);

/** ctx reading from `index`, counting the funnels that did. */
function indexed(index: PersonIndex): { ctx: QueryContext; reads: () => number } {
  let reads = 0;
  return {
    ctx: {
      ...h.ctx,
      personIndex: () => {
        reads += 1;
        return index;
      },
    },
    reads: () => reads,
  };
}

describe('funnels from the person index', { timeout: 90_000 }, () => {
  it('equal the same funnels read with SQL: steps, time to convert, and the persons of each step', async () => {
    await fc.assert(
      fc.asyncProperty(arbShuffled, arbFunnel, fc.nat(), fc.boolean(), async (events, a, pick, atEvent) => {
        await h.load(events);
        // A third of the events half a millisecond late; the range often ends at an event's instant.
        await h.db.run('UPDATE events SET timestamp = timestamp + INTERVAL 500 MICROSECOND WHERE hash(uuid) % 3 = 0');
        if (atEvent && events.length > 0) a = { ...a, to: Math.max(a.from, events[pick % events.length]!.timestamp) };
        const index = (await buildPersonIndex(h.db, DEFAULT_PROJECT.id))!;
        expect(index.rows).toBe(events.length);
        const { ctx, reads } = indexed(index);
        for (const viz of ['steps', 'time_to_convert'] as const) {
          const p = params(a, viz);
          expect(await computeFunnel(p, ctx)).toEqual(await computeFunnel(p, h.ctx));
        }
        const p = params(a, 'steps');
        const k = 1 + (pick % a.steps.length);
        const step = { ...p, funnel_step: pick % 2 === 1 && k > 1 ? -k : k };
        expect(await computeFunnelPersons(step, ctx, { limit: 1000, offset: 0 })).toEqual(
          await computeFunnelPersons(step, h.ctx, { limit: 1000, offset: 0 }),
        );
        // Each of the three read the index (else the comparison would prove nothing).
        expect(reads()).toBe(3);
      }),
      { numRuns: propertyRuns(80) },
    );
  });

  it('leaves to SQL what it cannot answer: filters, a breakdown, per-day conversion', async () => {
    await h.load([]);
    const index = (await buildPersonIndex(h.db, DEFAULT_PROJECT.id))!;
    const { ctx, reads } = indexed(index);
    const base = {
      events: [
        { id: '$pageview', type: 'events', order: 0 },
        { id: 'purchase', type: 'events', order: 1 },
      ],
      date_from: iso(RANGE_START),
      date_to: iso(RANGE_END),
    };
    for (const extra of [
      { properties: [{ key: '$browser', value: 'Chrome', type: 'event' }] },
      {
        events: [
          {
            id: '$pageview',
            type: 'events',
            order: 0,
            properties: [{ key: '$browser', value: 'Chrome', type: 'event' }],
          },
        ],
      },
      { breakdown: '$browser', breakdown_type: 'event' },
      { funnel_viz_type: 'trends', interval: 'day' },
    ])
      await computeFunnel(funnelParamsSchema.parse({ ...base, ...extra }), ctx);
    // The project's test-account filter, when asked for; correlation (it reads every event).
    const withTestAccounts = {
      ...ctx,
      project: {
        ...DEFAULT_PROJECT,
        test_account_filters: [
          { key: 'email', value: 'example.com', operator: 'icontains' as const, type: 'person' as const },
        ],
      },
    };
    await computeFunnel(funnelParamsSchema.parse({ ...base, filter_test_accounts: true }), withTestAccounts);
    await computeFunnelCorrelation(
      funnelCorrelationParamsSchema.parse({ ...base, funnel_correlation_type: 'events' }),
      ctx,
    );
    expect(reads()).toBe(0);
  });

  it('counts an event at the range end only when no microseconds follow it', async () => {
    const at = RANGE_START + 86_400_000;
    const mk = (uuid: string, event: string, t: number): ReferenceEvent => ({
      uuid,
      event,
      distinct_id: 'd',
      person_id: 'p',
      timestamp: t,
      properties: {},
      person_properties: {},
    });
    await h.load([
      mk('00000000-0000-4000-8000-000000000001', '$pageview', at - 60_000),
      mk('00000000-0000-4000-8000-000000000002', 'purchase', at),
      mk('00000000-0000-4000-8000-000000000003', 'sign up', at),
    ]);
    await h.db.run(
      "UPDATE events SET timestamp = timestamp + INTERVAL 500 MICROSECOND WHERE uuid = '00000000-0000-4000-8000-000000000003'",
    );
    const index = (await buildPersonIndex(h.db, DEFAULT_PROJECT.id))!;
    const { ctx } = indexed(index);
    const counts = async (last: string) => {
      const p = funnelParamsSchema.parse({
        events: [
          { id: '$pageview', type: 'events', order: 0 },
          { id: last, type: 'events', order: 1 },
        ],
        date_from: iso(at - 3_600_000),
        date_to: iso(at),
      });
      const sql = (await computeFunnel(p, h.ctx)) as { count: number }[];
      expect(await computeFunnel(p, ctx)).toEqual(sql);
      return sql.map((s) => s.count);
    };
    expect(await counts('purchase')).toEqual([1, 1]); // at the end itself
    expect(await counts('sign up')).toEqual([1, 0]); // half a millisecond past it

    // At the last millisecond the index holds events in uuid order: one past the end by
    // microseconds may come before one at the end itself.
    await h.load([
      mk('00000000-0000-4000-8000-000000000010', '$pageview', at - 60_000),
      mk('00000000-0000-4000-8000-000000000011', 'sign up', at),
      mk('00000000-0000-4000-8000-000000000012', 'purchase', at),
    ]);
    await h.db.run(
      "UPDATE events SET timestamp = timestamp + INTERVAL 500 MICROSECOND WHERE uuid = '00000000-0000-4000-8000-000000000011'",
    );
    const again = indexed((await buildPersonIndex(h.db, DEFAULT_PROJECT.id))!);
    const p = funnelParamsSchema.parse({
      events: [
        { id: '$pageview', type: 'events', order: 0 },
        { id: 'purchase', type: 'events', order: 1 },
      ],
      date_from: iso(at - 3_600_000),
      date_to: iso(at),
    });
    const sql = (await computeFunnel(p, h.ctx)) as { count: number }[];
    expect(sql.map((s) => s.count)).toEqual([1, 1]);
    expect(await computeFunnel(p, again.ctx)).toEqual(sql);
  });

  it('leaves a project with events before 1970 that have microseconds to SQL', async () => {
    await h.load([
      {
        uuid: '00000000-0000-4000-8000-000000000001',
        event: '$pageview',
        distinct_id: 'd',
        person_id: 'p',
        timestamp: -86_400_000,
        properties: {},
        person_properties: {},
      },
    ]);
    await h.db.run('UPDATE events SET timestamp = timestamp + INTERVAL 500 MICROSECOND');
    expect(await buildPersonIndex(h.db, DEFAULT_PROJECT.id)).toBeNull();
  });

  it('keeps instants a season apart, and more event names than one byte holds', async () => {
    const day = 86_400_000;
    const mk = (i: number, person: string, event: string, t: number): ReferenceEvent => ({
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      event,
      distinct_id: person,
      person_id: person,
      timestamp: t,
      properties: {},
      person_properties: {},
    });
    const t0 = Date.UTC(2024, 0, 1);
    // 130 names: one byte cannot hold their ids; a person whose events lie 60 and 200 days apart.
    const events = [
      ...Array.from({ length: 130 }, (_, i) => mk(i, 'many', `event ${i}`, t0 + i * 1000)),
      mk(200, 'far', 'event 1', t0),
      mk(201, 'far', 'event 2', t0 + 60 * day),
      mk(202, 'far', 'event 3', t0 + 200 * day),
      mk(203, 'far', 'event 2', t0 + 200 * day + 5),
    ];
    await h.load(events);
    const index = (await buildPersonIndex(h.db, DEFAULT_PROJECT.id))!;
    expect(index.name).toBeInstanceOf(Uint16Array);
    expect(index.far.size).toBe(2);
    const { ctx, reads } = indexed(index);
    // 'far' converts across 60 days in 3 months, and across 140 days in 6.
    for (const [first, second, months, counts] of [
      ['event 1', 'event 2', 3, [2, 2]],
      ['event 2', 'event 3', 6, [2, 2]],
      ['event 2', 'event 3', 4, [2, 1]],
      ['event 128', 'event 129', 1, [1, 1]],
    ] as const) {
      const p = funnelParamsSchema.parse({
        events: [
          { id: first, type: 'events', order: 0 },
          { id: second, type: 'events', order: 1 },
        ],
        funnel_window_interval: months,
        funnel_window_interval_unit: 'month',
        date_from: iso(t0),
        date_to: iso(t0 + 300 * day),
      });
      const sql = (await computeFunnel(p, h.ctx)) as { count: number }[];
      expect(sql.map((s) => s.count)).toEqual(counts);
      expect(await computeFunnel(p, ctx)).toEqual(sql);
    }
    expect(reads()).toBe(4);
  });
});

describe('the indexes of a store', () => {
  let store: EventStore;
  beforeAll(() => {
    store = createEventStore(':memory:');
  });
  afterAll(() => store.close());

  const OTHER = DEFAULT_PROJECT.id + 1;
  const capture = (distinct_id: string, event: string, t: number, properties: Record<string, unknown> = {}) => ({
    uuid: crypto.randomUUID(),
    event,
    distinct_id,
    timestamp: new Date(t),
    properties,
    set: null,
    setOnce: null,
  });
  const ctxOf = (personIndex: () => PersonIndex | null): QueryContext => ({
    db: store,
    project: DEFAULT_PROJECT,
    now: new Date(RANGE_END),
    personIndex,
  });
  const funnel = funnelParamsSchema.parse({
    events: [
      { id: '$pageview', type: 'events', order: 0 },
      { id: 'purchase', type: 'events', order: 1 },
    ],
    date_from: iso(RANGE_START),
    date_to: iso(RANGE_END),
  });
  const t = RANGE_START + 86_400_000;

  it('is built once the project is quiet, serves its write version only, and follows merged persons', async () => {
    // anon-1 views, then signs in as user-1 (merging anon-1 into user-1), who buys.
    await store.append(DEFAULT_PROJECT.id, [
      capture('anon-1', '$pageview', t),
      capture('user-1', '$identify', t + 1000, { $anon_distinct_id: 'anon-1' }),
      capture('user-1', 'purchase', t + 2000),
    ]);
    const indexes = createPersonIndexes(store, { quietMs: 10 });
    expect(indexes.current(DEFAULT_PROJECT.id)).toBeNull(); // none yet: a build is asked for
    await indexes.settled();
    const index = indexes.current(DEFAULT_PROJECT.id)!;
    expect(index.rows).toBe(3);
    // The merged person is one run: the view and the purchase are one person's.
    expect(index.runs).toBe(1);
    const byIndex = await computeFunnel(
      funnel,
      ctxOf(() => index),
    );
    expect((byIndex as { count: number }[]).map((s) => s.count)).toEqual([1, 1]);
    expect(byIndex).toEqual(
      await computeFunnel(
        funnel,
        ctxOf(() => null),
      ),
    );

    // Another project's events leave it current; one of its own makes it stale at once.
    await store.append(OTHER, [capture('someone', '$pageview', t)]);
    expect(indexes.current(DEFAULT_PROJECT.id)).toBe(index);
    await store.append(DEFAULT_PROJECT.id, [capture('user-2', '$pageview', t)]);
    expect(indexes.current(DEFAULT_PROJECT.id)).toBeNull();
    await indexes.settled();
    expect(indexes.current(DEFAULT_PROJECT.id)?.rows).toBe(4);
  });

  it('is not built from a version written meanwhile, nor past its cap, where the least recently used goes first', async () => {
    const indexes = createPersonIndexes(store, { quietMs: 30 });
    expect(indexes.current(DEFAULT_PROJECT.id)).toBeNull();
    await store.append(DEFAULT_PROJECT.id, [capture('user-3', '$pageview', t)]); // within the quiet time
    await indexes.settled();
    expect(indexes.current(DEFAULT_PROJECT.id)).toBeNull(); // the build was dropped; this asks again
    await indexes.settled();
    expect(indexes.current(DEFAULT_PROJECT.id)?.rows).toBe(5);

    // Room for 7 events: the default project's 5 and the other's 2, not 2 more.
    await store.append(OTHER, [capture('someone', 'purchase', t + 1000)]);
    const small = createPersonIndexes(store, { quietMs: 0, maxRows: 7 });
    small.current(OTHER);
    small.current(DEFAULT_PROJECT.id);
    await small.settled();
    expect(small.current(OTHER)?.rows).toBe(2);
    expect(small.current(DEFAULT_PROJECT.id)?.rows).toBe(5);
    await store.append(OTHER, [capture('someone', '$pageview', t + 2000), capture('someone', '$pageview', t + 3000)]);
    expect(small.current(OTHER)).toBeNull();
    await small.settled();
    // The other project's 4 events and the default's 5 do not fit together: the one used last stays.
    expect(small.current(OTHER)?.rows).toBe(4);
    expect(small.current(DEFAULT_PROJECT.id)).toBeNull();

    const tiny = createPersonIndexes(store, { quietMs: 0, maxRows: 2 });
    tiny.current(DEFAULT_PROJECT.id);
    await tiny.settled();
    expect(tiny.current(DEFAULT_PROJECT.id)).toBeNull(); // 5 events > 2: SQL answers
  });

  it("keeps a group type's index beside the persons': the events naming such a group, group by group, in a budget of its own", async () => {
    const team = DEFAULT_PROJECT.id + 2;
    const acme = { $groups: { company: 'acme' } };
    await store.append(team, [
      capture('ann', '$pageview', t, acme),
      capture('bob', '$pageview', t + 1000, acme),
      capture('bob', 'purchase', t + 2000),
    ]);
    const indexes = createPersonIndexes(store, { quietMs: 0 });
    expect(indexes.current(team, 0)).toBeNull();
    await indexes.settled();
    const companies = indexes.current(team, 0)!;
    // ann's and bob's views are one run, acme's; bob's purchase names no company.
    expect([companies.rows, companies.runs]).toEqual([2, 1]);
    expect(indexes.current(team)).toBeNull();
    await indexes.settled();
    expect([indexes.current(team)?.rows, indexes.current(team)?.runs]).toEqual([3, 2]);
    expect(indexes.current(team, 0)).toBe(companies);

    // Room for 3 events of each kind: the persons' 3 and the companies' 2 both fit, each in its own budget.
    const tight = createPersonIndexes(store, { quietMs: 0, maxRows: 3 });
    tight.current(team);
    tight.current(team, 0);
    await tight.settled();
    expect([tight.current(team)?.rows, tight.current(team, 0)?.rows]).toEqual([3, 2]);
    // A second company's views: acme's 2 and globex's 2 are 4 events, past the groups' budget,
    // which is not built, while the persons' copy (now 5 rows) is not kept either.
    await store.append(team, [
      capture('cat', '$pageview', t, { $groups: { company: 'globex' } }),
      capture('cat', '$pageview', t + 1, { $groups: { company: 'globex' } }),
    ]);
    tight.current(team);
    tight.current(team, 0);
    await tight.settled();
    expect([tight.current(team), tight.current(team, 0)]).toEqual([null, null]);
  });
});
