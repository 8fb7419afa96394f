import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunnelStep } from '../../src/contract/analytics.ts';
import { createHarness, type Harness } from './harness.ts';
import { DAY, ev, HOUR, MIN, RANGE_MS, runFunnel, stepNumbers, steps, T0 } from './funnels-cases.ts';
import { referenceFunnel, type RefFunnelInput } from './reference/funnels.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';

/** Hand-worked funnels: each case states its expectation and checks engine and reference. */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const is = (name: string) => (e: ReferenceEvent) => e.event === name;
const ref = (events: ReferenceEvent[], input: Partial<RefFunnelInput> & { steps: RefFunnelInput['steps'] }) =>
  referenceFunnel({
    events,
    from: RANGE_MS.from,
    to: RANGE_MS.to,
    window: { interval: 14, unit: 'day' },
    order: 'ordered',
    ...input,
  });
const counts = (r: unknown) => stepNumbers(r).map((s) => s.count);

describe('conversion window', () => {
  const events = [
    ev('a', 'A', 0),
    ev('a', 'B', HOUR), // converts within the hour
    ev('b', 'A', 0),
    ev('b', 'B', HOUR + 1), // 1 ms too late for a 1-hour window
    ev('c', 'A', 0),
    ev('c', 'B', 2 * DAY),
  ];
  it('counts a step exactly at the window end, not one millisecond after', async () => {
    await h.load(events);
    const r = await runFunnel(h.ctx, {
      events: steps('A', 'B'),
      funnel_window_interval: 1,
      funnel_window_interval_type: 'HOUR' as never,
    });
    expect(counts(r)).toEqual([3, 1]);
    expect(
      ref(events, { steps: [is('A'), is('B')], window: { interval: 1, unit: 'hour' } }).map((g) =>
        g.steps.map((s) => s.count),
      ),
    ).toEqual([[3, 1]]);
  });
  it('reads the production unit name and the deprecated funnel_window_days', async () => {
    await h.load(events);
    const unit = await runFunnel(h.ctx, {
      events: steps('A', 'B'),
      funnel_window_interval: 61,
      funnel_window_interval_unit: 'minute' as never,
    });
    expect(counts(unit)).toEqual([3, 2]);
    const days = await runFunnel(h.ctx, { events: steps('A', 'B'), funnel_window_days: 1 });
    expect(counts(days)).toEqual([3, 2]);
    const dflt = await runFunnel(h.ctx, { events: steps('A', 'B') });
    expect(counts(dflt)).toEqual([3, 3]);
  });
});

describe('order types', () => {
  const events = [
    ev('a', 'A', 0),
    ev('a', 'X', MIN),
    ev('a', 'B', 2 * MIN), // another event in between
    ev('b', 'A', 0),
    ev('b', 'B', MIN),
    ev('c', 'B', 0),
    ev('c', 'A', MIN), // reverse order
  ];
  it('ordered allows other events between steps; strict does not; unordered takes any order', async () => {
    await h.load(events);
    expect(counts(await runFunnel(h.ctx, { events: steps('A', 'B') }))).toEqual([3, 2]);
    expect(counts(await runFunnel(h.ctx, { events: steps('A', 'B'), funnel_order_type: 'strict' }))).toEqual([3, 1]);
    expect(counts(await runFunnel(h.ctx, { events: steps('A', 'B'), funnel_order_type: 'unordered' }))).toEqual([3, 3]);
    for (const order of ['ordered', 'strict', 'unordered'] as const) {
      const expected = ref(events, { steps: [is('A'), is('B')], order })[0]!.steps.map((s) => s.count);
      expect(counts(await runFunnel(h.ctx, { events: steps('A', 'B'), funnel_order_type: order }))).toEqual(expected);
    }
  });
  it('a step repeated later in the funnel (A → B → A) counts an A after the last B, in every order type', async () => {
    // The person's second A is step 3 of the attempt started at the first: it comes after the
    // last B, where no new attempt reaches step 2, so only a start-only event may be left out.
    const evs = [ev('a', 'A', 0), ev('a', 'B', 5 * MIN), ev('a', 'A', 10 * MIN), ev('b', 'A', 0), ev('b', 'B', MIN)];
    await h.load(evs);
    expect(counts(await runFunnel(h.ctx, { events: steps('A', 'B', 'A') }))).toEqual([2, 2, 1]);
    expect(counts(await runFunnel(h.ctx, { events: steps('A', 'B', null) }))).toEqual([2, 2, 1]);
    for (const order of ['ordered', 'strict', 'unordered'] as const) {
      const expected = ref(evs, { steps: [is('A'), is('B'), is('A')], order })[0]!.steps.map((s) => s.count);
      expect(counts(await runFunnel(h.ctx, { events: steps('A', 'B', 'A'), funnel_order_type: order }))).toEqual(
        expected,
      );
    }
  });
  it('reports mean and median seconds from the previous step, null on step 1', async () => {
    const evs = [
      ev('a', 'A', 0),
      ev('a', 'B', 10_000),
      ev('b', 'A', 0),
      ev('b', 'B', 20_000),
      ev('c', 'A', 0),
      ev('c', 'B', 60_000),
    ];
    await h.load(evs);
    const r = stepNumbers(await runFunnel(h.ctx, { events: steps('A', 'B') }));
    expect(r).toEqual([
      { count: 3, average: null, median: null },
      { count: 3, average: 30, median: 20 },
    ]);
  });
});

describe('a person counts once, with the furthest conversion', () => {
  it('merged distinct ids are one person; the furthest attempt wins', async () => {
    const evs = [
      ev('p', 'A', 0, {}, { distinct_id: 'anon' }),
      ev('p', 'B', MIN, {}, { distinct_id: 'user' }),
      ev('p', 'A', HOUR),
      ev('p', 'B', HOUR + MIN),
      ev('p', 'C', HOUR + 2 * MIN),
    ];
    await h.load(evs);
    const r = await runFunnel(h.ctx, { events: steps('A', 'B', 'C') });
    expect(counts(r)).toEqual([1, 1, 1]);
    expect(stepNumbers(r)[1]!.average).toBe(60);
  });
});

describe('events outside every reachable attempt (skipped before the per-person sort)', () => {
  const evs = [
    // a: the first A cannot reach B in the hour; the A at 5h converts; the A after the last B reaches step 1 only
    ev('a', 'A', 0, { v: 'first' }),
    ev('a', 'X', 10 * MIN),
    ev('a', 'A', 5 * HOUR, { v: 'converting' }),
    ev('a', 'B', 5 * HOUR + 30 * MIN),
    ev('a', 'A', 8 * HOUR, { v: 'late' }),
    // b: B comes too late for every A: step 1 only, counted from (and broken down by) the first A
    ev('b', 'A', 0, { v: 'first' }),
    ev('b', 'X', 10 * MIN),
    ev('b', 'A', HOUR, { v: 'second' }),
    ev('b', 'B', 3 * HOUR),
    // c: no B at all
    ev('c', 'A', 0, { v: 'first' }),
    ev('c', 'A', HOUR, { v: 'second' }),
    // d: A half an hour after the only B: unordered, B then A converts; ordered and strict, A alone
    ev('d', 'X', 0),
    ev('d', 'B', 2 * HOUR),
    ev('d', 'A', 2 * HOUR + 30 * MIN, { v: 'after' }),
  ];
  const window = { funnel_window_interval: 1, funnel_window_interval_type: 'HOUR' as never };
  it('counts each person from the same attempt, with the same time and breakdown value, in every order type', async () => {
    await h.load(evs);
    const ordered = (await runFunnel(h.ctx, { events: steps('A', 'B'), ...window, breakdown: 'v' })) as FunnelStep[][];
    expect(ordered.map((list) => [list[0]!.breakdown_value, ...list.map((s) => s.count)])).toEqual([
      ['first', 2, 0],
      ['after', 1, 0],
      ['converting', 1, 1],
    ]);
    expect(ordered[2]![1]!.median_conversion_time).toBe(1800);
    // strict: a's A at 5h is followed by B; b's first A is followed by X; nobody else converts
    expect(counts(await runFunnel(h.ctx, { events: steps('A', 'B'), ...window, funnel_order_type: 'strict' }))).toEqual(
      [4, 1],
    );
    expect(
      stepNumbers(await runFunnel(h.ctx, { events: steps('A', 'B'), ...window, funnel_order_type: 'unordered' }))[1],
    ).toEqual({ count: 2, average: 1800, median: 1800 });
    for (const order of ['ordered', 'strict', 'unordered'] as const) {
      const expected = ref(evs, {
        steps: [is('A'), is('B')],
        order,
        window: { interval: 1, unit: 'hour' },
        breakdown: { type: 'event', key: 'v', limit: 10 },
      });
      const result = (await runFunnel(h.ctx, {
        events: steps('A', 'B'),
        ...window,
        funnel_order_type: order,
        breakdown: 'v',
      })) as FunnelStep[][];
      expect(
        result.map((list) => [list[0]!.breakdown_value, ...list.map((s) => [s.count, s.median_conversion_time])]),
      ).toEqual(expected.map((g) => [g.value, ...g.steps.map((s) => [s.count, s.median])]));
    }
  });
});

describe('exclusions', () => {
  const evs = [
    ev('a', 'A', 0),
    ev('a', 'X', MIN),
    ev('a', 'B', 2 * MIN), // X between steps 0 and 1: dropped
    ev('b', 'A', 0),
    ev('b', 'B', MIN),
    ev('b', 'X', 2 * MIN), // X after the to-step: kept
    ev('c', 'A', 0),
    ev('c', 'X', MIN), // to-step never comes, X within the window: dropped
    ev('d', 'A', 0),
    ev('d', 'X', 20 * DAY), // X after the window: kept
  ];
  it('drops a person whose excluded event falls between the from- and to-step', async () => {
    await h.load(evs);
    const r = await runFunnel(h.ctx, {
      events: steps('A', 'B'),
      exclusions: [{ id: 'X', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }],
    });
    expect(counts(r)).toEqual([2, 1]);
    const expected = ref(evs, { steps: [is('A'), is('B')], exclusions: [{ match: is('X'), from: 0, to: 1 }] });
    expect(counts(r)).toEqual(expected[0]!.steps.map((s) => s.count));
  });
});

describe('breakdown', () => {
  it('returns one step list per value, with Other and None', async () => {
    const evs = [
      ev('a', 'A', 0, { b: 'x' }),
      ev('a', 'B', MIN),
      ev('b', 'A', 0, { b: 'x' }),
      ev('c', 'A', 0, { b: 'y' }),
      ev('d', 'A', 0, { b: 'z' }),
      ev('e', 'A', 0),
    ];
    await h.load(evs);
    const r = (await runFunnel(h.ctx, {
      events: steps('A', 'B'),
      breakdown: 'b',
      breakdown_limit: 2,
    })) as FunnelStep[][];
    expect(r.map((list) => [list[0]!.breakdown_value, ...list.map((s) => s.count)])).toEqual([
      ['x', 2, 1],
      ['y', 1, 0],
      ['Other', 1, 0],
      ['None', 1, 0],
    ]);
    expect(r[0]![1]!.converted_people_url).toMatch(
      /^\/api\/projects\/\d+\/persons\/funnel\/\?.*funnel_step=2.*funnel_step_breakdown=x/,
    );
    expect(r[0]![0]!.dropped_people_url).toBeNull();
    expect(r[0]![1]!.dropped_people_url).toContain('funnel_step=-2');
  });

  it('a person who never reaches step 2 counts under the value of their first step-1 event, the first by uuid at one instant', async () => {
    // c and d never reach B. Each has step-1 events at one instant: the one first by uuid is
    // written last and its value is the larger text, so neither the write order nor the text
    // decides. a converts.
    const evs = [
      ev('c', 'A', HOUR, { b: 'c-aa' }, { uuid: '00000000-0000-4000-8000-ffffffff0002' }),
      ev('c', 'A', HOUR, { b: 'c-zz' }, { uuid: '00000000-0000-4000-8000-000000000002' }),
      ev('c', 'A', 2 * HOUR, { b: 'c-after' }),
      ev('d', 'A', 0, { b: 'aa' }, { uuid: '00000000-0000-4000-8000-ffffffff0001' }),
      ev('d', 'A', 0, { b: 'zz' }, { uuid: '00000000-0000-4000-8000-000000000001' }),
      ev('a', 'A', 0, { b: 'a' }),
      ev('a', 'B', MIN),
    ];
    await h.load(evs);
    for (const order of ['ordered', 'strict', 'unordered'] as const) {
      const r = (await runFunnel(h.ctx, {
        events: steps('A', 'B'),
        funnel_order_type: order,
        breakdown: 'b',
      })) as FunnelStep[][];
      const got = r.map((list) => [list[0]!.breakdown_value, ...list.map((s) => s.count)]);
      expect(got).toEqual([
        ['a', 1, 1],
        ['c-zz', 1, 0],
        ['zz', 1, 0],
      ]);
      const expected = ref(evs, {
        steps: [is('A'), is('B')],
        order,
        breakdown: { type: 'event', key: 'b', limit: 10 },
      });
      expect(got).toEqual(expected.map((g) => [g.value, ...g.steps.map((s) => s.count)]));
    }
  });
});

describe('viz types', () => {
  it("trends in the project's zone: days are local days on both sides of a DST change (America/New_York, 10 March 2024)", async () => {
    const ny = await createHarness({ timezone: 'America/New_York' });
    try {
      const at = (iso: string) => Date.parse(iso) - T0;
      await ny.load([
        ev('a', 'A', at('2024-03-10T04:30:00Z')),
        ev('a', 'B', at('2024-03-10T04:40:00Z')), // 9 Mar 23:30 EST
        ev('b', 'A', at('2024-03-10T05:30:00Z')), //                                           10 Mar 00:30 EST
        ev('c', 'A', at('2024-03-11T03:30:00Z')),
        ev('c', 'B', at('2024-03-11T03:35:00Z')), // 10 Mar 23:30 EDT
        ev('d', 'A', at('2024-03-11T04:30:00Z')),
        ev('d', 'B', at('2024-03-11T04:31:00Z')), // 11 Mar 00:30 EDT
      ]);
      const trends = (await runFunnel(ny.ctx, {
        events: steps('A', 'B'),
        funnel_viz_type: 'trends',
        date_from: '2024-03-09',
        date_to: '2024-03-11',
      })) as { data: number[]; days: string[] }[];
      expect(trends[0]!.days).toEqual(['2024-03-09', '2024-03-10', '2024-03-11']);
      expect(trends[0]!.data).toEqual([100, 50, 100]);
    } finally {
      await ny.close();
    }
  });

  it('trends: conversion rate per day; time_to_convert: a histogram', async () => {
    const evs = [ev('a', 'A', 0), ev('a', 'B', MIN), ev('b', 'A', 0), ev('c', 'A', DAY), ev('c', 'B', DAY + 2 * MIN)];
    await h.load(evs);
    const trends = (await runFunnel(h.ctx, {
      events: steps('A', 'B'),
      funnel_viz_type: 'trends',
      date_from: '2024-03-01',
      date_to: '2024-03-03',
    })) as { data: number[]; days: string[] }[];
    expect(trends).toHaveLength(1);
    expect(trends[0]!.days).toEqual(['2024-03-01', '2024-03-02', '2024-03-03']);
    expect(trends[0]!.data).toEqual([50, 100, 0]);
    const ttc = (await runFunnel(h.ctx, { events: steps('A', 'B'), funnel_viz_type: 'time_to_convert' })) as {
      bins: [number, number][];
      average_conversion_time: number;
    };
    expect(ttc.average_conversion_time).toBe(90);
    expect(ttc.bins.reduce((s, b) => s + b[1], 0)).toBe(2);
  });
});
