import { afterEach, describe, expect, it } from 'vitest';
import {
  pathParamsSchema,
  trendParamsSchema,
  type FunnelStep,
  type TrendParamsInput,
} from '../../src/contract/analytics.ts';
import { computePaths } from '../../server/analytics/engines/paths.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import type { AnalyticsProject, ReferenceEvent } from '../../server/analytics/types.ts';
import { runFunnel, stepNumbers, steps } from './funnels-cases.ts';
import { createHarness, type Harness } from './harness.ts';
import { referenceFunnel, type OrderType, type RefFunnelInput } from './reference/funnels.ts';
import { referencePaths } from './reference/paths.ts';
import { referenceTrends } from './reference/trends.ts';

/**
 * Hand-worked cases of the analytics rules of docs/api.md: relative dates are exact instants and
 * dates may omit zero padding; a range starts at the start of date_from's bucket; compare's
 * previous period; a person's conversion times come from the first-starting attempt that
 * reaches their furthest step; a later step at the same instant as an earlier one converts.
 * Each expectation was worked out by hand; the engine and the reference must both give it.
 */

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let seq = 0;
/** An event at `iso`; uuids count down so that a later-made event sorts first by uuid. */
const ev = (
  iso: string,
  event = '$pageview',
  person = 'p1',
  properties: Record<string, unknown> = {},
): ReferenceEvent => ({
  uuid: `00000000-0000-4000-8000-${String(999_999 - seq++).padStart(12, '0')}`,
  event,
  distinct_id: person,
  person_id: person,
  timestamp: Date.parse(iso),
  properties,
  person_properties: {},
});

async function trend(
  events: ReferenceEvent[],
  input: Omit<TrendParamsInput, 'events'>,
  now: string,
  project: Partial<AnalyticsProject> = {},
) {
  h = await createHarness(project, new Date(now));
  await h.load(events);
  const params = trendParamsSchema.parse({ events: [{ id: '$pageview' }], ...input });
  const engine = (await computeTrends(params, h.ctx)).map((s) => ({
    days: s.days,
    data: s.data,
    compare: s.compare_label ?? null,
  }));
  const reference = referenceTrends(params, { events, project: h.ctx.project, now: h.ctx.now }).map((s) => ({
    days: s.days,
    data: s.data,
    compare: s.compare_label,
  }));
  expect(engine).toEqual(reference);
  return engine;
}

const days = (first: string, n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(first) + i * 86_400_000).toISOString().slice(0, 10));

describe('dates and buckets', () => {
  it('hourly -1d at 13:05 starts at yesterday 13:00: an event at 13:01 yesterday counts, 12:59 does not', async () => {
    const [s] = await trend(
      [ev('2024-01-03T12:59:00Z'), ev('2024-01-03T13:01:00Z'), ev('2024-01-04T13:04:00Z')],
      { date_from: '-1d', interval: 'hour' },
      '2024-01-04T13:05:00Z',
    );
    expect(s!.days[0]).toBe('2024-01-03 13:00:00');
    expect(s!.days).toHaveLength(25);
    expect(s!.data[0]).toBe(1);
    expect(s!.data.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('daily -7d starts at midnight; date_to -1d is now minus one day to the millisecond', async () => {
    const [s] = await trend(
      [ev('2023-12-28T00:30:00Z'), ev('2024-01-03T13:04:59Z'), ev('2024-01-03T13:05:01Z'), ev('2024-01-04T10:00:00Z')],
      { date_from: '-7d', date_to: '-1d', interval: 'day' },
      '2024-01-04T13:05:00Z',
    );
    expect(s!.days).toEqual(days('2023-12-28', 7));
    expect(s!.data).toEqual([1, 0, 0, 0, 0, 0, 1]);
  });

  it('dates may omit zero padding (2024-1-2 is 2024-01-02)', async () => {
    const [s] = await trend(
      [ev('2024-01-02T00:00:00Z'), ev('2024-01-03T23:59:59Z'), ev('2024-01-04T00:00:00Z')],
      { date_from: '2024-1-2', date_to: '2024-1-3' },
      '2024-01-10T00:00:00Z',
    );
    expect(s!.days).toEqual(['2024-01-02', '2024-01-03']);
    expect(s!.data).toEqual([1, 1]);
  });

  it('weekly from a Wednesday counts the whole week from its Sunday', async () => {
    const [s] = await trend(
      [ev('2024-01-07T01:00:00Z'), ev('2024-01-09T12:00:00Z')],
      { date_from: '2024-01-10', date_to: '2024-01-20', interval: 'week' },
      '2024-02-01T00:00:00Z',
    );
    expect(s!.days).toEqual(['2024-01-07', '2024-01-14']);
    expect(s!.data).toEqual([2, 0]);
  });
});

describe('compare', () => {
  it('-7d at 13:00 on Jan 4: Dec 28 … Jan 4, and before it Dec 21 … Dec 28 (each bucket whole)', async () => {
    const events = [
      ev('2023-12-20T23:00:00Z'), // before both periods
      ev('2023-12-21T09:00:00Z'), // previous, first bucket (before the exact Dec 21 13:00)
      ev('2023-12-28T10:00:00Z'), // the last previous bucket and the first current one
      ev('2024-01-04T12:00:00Z'), // current, last bucket
    ];
    const [current, previous] = await trend(events, { date_from: '-7d', compare: true }, '2024-01-04T13:00:00Z');
    expect(current).toEqual({ days: days('2023-12-28', 8), data: [1, 0, 0, 0, 0, 0, 0, 1], compare: 'current' });
    expect(previous).toEqual({ days: days('2023-12-21', 8), data: [1, 0, 0, 0, 0, 0, 0, 1], compare: 'previous' });
  });

  it('the previous period starts at the bucket holding date_from − (date_to − date_from), with as many buckets', async () => {
    // 2 Jan 18:00 → 4 Jan 06:00 is 36 hours: the previous period starts in the bucket of 1 Jan 06:00.
    const [current, previous] = await trend(
      [ev('2024-01-01T00:00:00Z'), ev('2024-01-03T23:00:00Z')],
      { date_from: '2024-01-02T18:00:00Z', date_to: '2024-01-04T06:00:00Z', compare: true },
      '2024-01-10T00:00:00Z',
    );
    expect(current!.days).toEqual(days('2024-01-02', 3));
    expect(current!.data).toEqual([0, 1, 0]);
    expect(previous!.days).toEqual(days('2024-01-01', 3));
    expect(previous!.data).toEqual([1, 0, 1]);
  });

  it('an absolute range of whole days: the same number of days just before it', async () => {
    const [current, previous] = await trend(
      [ev('2024-03-01T00:00:00Z'), ev('2024-03-07T23:59:59Z'), ev('2024-03-08T00:00:00Z')],
      { date_from: '2024-03-08', date_to: '2024-03-14', compare: true },
      '2024-04-01T00:00:00Z',
    );
    expect(current!.days).toEqual(days('2024-03-08', 7));
    expect(previous!.days).toEqual(days('2024-03-01', 7));
    expect([current!.data[0], previous!.data[0], previous!.data[6]]).toEqual([1, 1, 1]);
  });

  it('a range of whole local days across a daylight-saving change (New York, an hour longer): still the days just before', async () => {
    // 1 … 7 Nov 2024 in New York is 7 days and an hour (clocks went back on 3 Nov); its previous
    // period is 25 … 31 Oct, not 24 … 30 Oct.
    const ny = { timezone: 'America/New_York' };
    const [current, previous] = await trend(
      [ev('2024-10-25T04:30:00Z'), ev('2024-10-25T03:30:00Z')],
      { date_from: '2024-11-01', date_to: '2024-11-07', compare: true },
      '2024-12-01T00:00:00Z',
      ny,
    );
    expect(current!.days).toEqual(days('2024-11-01', 7));
    expect(previous!.days).toEqual(days('2024-10-25', 7));
    // 04:30Z on 25 Oct is 00:30 in New York (the previous period's first day); 03:30Z is the 24th.
    expect(previous!.data).toEqual([1, 0, 0, 0, 0, 0, 0]);
    // And the spring change (an hour shorter): 8 … 14 Mar 2024 after 1 … 7 Mar.
    const [, spring] = await trend(
      [],
      { date_from: '2024-03-08', date_to: '2024-03-14', compare: true },
      '2024-04-01T00:00:00Z',
      ny,
    );
    expect(spring!.days).toEqual(days('2024-03-01', 7));
  });

  it('mStart: as many days as this month has had so far, just before its first', async () => {
    // 1 … 15 Mar (15 days, the last one until 13:00) after 15 … 29 Feb.
    const [current, previous] = await trend(
      [ev('2024-02-15T00:00:00Z'), ev('2024-02-14T23:00:00Z')],
      { date_from: 'mStart', compare: true },
      '2024-03-15T13:00:00Z',
    );
    expect(current!.days).toEqual(days('2024-03-01', 15));
    expect(previous!.days).toEqual(days('2024-02-15', 15));
    expect(previous!.data[0]).toBe(1);
  });

  it('yStart by month: this year’s months after as many of the last year’s', async () => {
    const [current, previous] = await trend(
      [ev('2023-10-01T00:00:00Z'), ev('2023-09-30T23:00:00Z')],
      { date_from: 'yStart', interval: 'month', compare: true },
      '2024-03-15T13:00:00Z',
    );
    expect(current!.days).toEqual(['2024-01-01', '2024-02-01', '2024-03-01']);
    expect(previous!.days).toEqual(['2023-10-01', '2023-11-01', '2023-12-01']);
    expect(previous!.data).toEqual([1, 0, 0]);
  });

  it('hourly across a daylight-saving change: real hours, the previous period ends where the current begins', async () => {
    // -24h at 12:30 on 3 Nov 2024 in New York (17:30Z) starts at 13:00 on 2 Nov (17:00Z); the
    // buckets are local hours, so the repeated 01:00 is one bucket and there are 24. The previous
    // period goes back 24 real hours: 13:00 on 1 Nov to 12:59 on 2 Nov, next to the current one.
    const [current, previous] = await trend(
      [ev('2024-11-01T17:10:00Z'), ev('2024-11-02T16:59:00Z')],
      { date_from: '-24h', interval: 'hour', compare: true },
      '2024-11-03T17:30:00Z',
      { timezone: 'America/New_York' },
    );
    expect(current!.days[0]).toBe('2024-11-02 13:00:00');
    expect(current!.days).toHaveLength(24);
    expect(previous!.days[0]).toBe('2024-11-01 13:00:00');
    expect(previous!.days.at(-1)).toBe('2024-11-02 12:00:00');
    expect(previous!.data[0]).toBe(1);
    expect(previous!.data[23]).toBe(1);
    expect(previous!.data.reduce((a, b) => a + b, 0)).toBe(2);
  });
});

describe('funnels and paths start at the start of date_from’s bucket', () => {
  it('a funnel from 12:30 counts the day from midnight; hourly from 12:00', async () => {
    h = await createHarness();
    const events = [
      ev('2024-03-01T08:00:00Z', 'A', 'a'),
      ev('2024-03-01T09:00:00Z', 'B', 'a'),
      ev('2024-03-01T12:10:00Z', 'A', 'b'),
    ];
    await h.load(events);
    const range = { date_from: '2024-03-01T12:30:00Z', date_to: '2024-03-05T00:00:00Z' };
    const daily = stepNumbers(await runFunnel(h.ctx, { ...range, events: steps('A', 'B') })).map((s) => s.count);
    const hourly = stepNumbers(await runFunnel(h.ctx, { ...range, interval: 'hour', events: steps('A', 'B') })).map(
      (s) => s.count,
    );
    expect(daily).toEqual([2, 1]);
    expect(hourly).toEqual([1, 0]);
    const ref = (interval: 'Day' | 'Hour') =>
      referenceFunnel({
        events,
        from: Date.parse(range.date_from),
        to: Date.parse(range.date_to),
        interval,
        order: 'ordered',
        window: { interval: 14, unit: 'day' },
        steps: [(e) => e.event === 'A', (e) => e.event === 'B'],
      })[0]!.steps.map((s) => s.count);
    expect([ref('Day'), ref('Hour')]).toEqual([daily, hourly]);
  });

  it('paths from 12:30 include that morning', async () => {
    h = await createHarness();
    const events = [ev('2024-03-01T08:00:00Z', 'A', 'a'), ev('2024-03-01T08:01:00Z', 'B', 'a')];
    await h.load(events);
    const r = await computePaths(
      pathParamsSchema.parse({ date_from: '2024-03-01T12:30:00Z', date_to: '2024-03-02T00:00:00Z' }),
      h.ctx,
    );
    expect(r.map((e) => [e.source, e.target, e.value])).toEqual([['1_A', '2_B', 1]]);
    const expected = referencePaths({
      events,
      from: Date.parse('2024-03-01T12:30:00Z'),
      to: Date.parse('2024-03-02T00:00:00Z'),
      stepLimit: 5,
    });
    expect(expected.map((e) => [e.source, e.target, e.value])).toEqual([['1_A', '2_B', 1]]);
  });
});

describe('funnel attempts', () => {
  const at = (minute: number) => new Date(Date.UTC(2024, 2, 1, 12, minute)).toISOString();
  const range = { date_from: '2024-03-01', date_to: '2024-03-02' };
  async function funnel(
    events: ReferenceEvent[],
    names: string[],
    order: OrderType,
    window = { interval: 14, unit: 'day' as 'day' | 'minute' },
  ) {
    h ??= await createHarness();
    await h.load(events);
    const engine = stepNumbers(
      (await runFunnel(h.ctx, {
        ...range,
        events: steps(...names),
        funnel_order_type: order,
        funnel_window_interval: window.interval,
        funnel_window_interval_unit: window.unit,
      })) as FunnelStep[],
    );
    const input: RefFunnelInput = {
      events,
      from: Date.parse(range.date_from),
      to: Date.parse('2024-03-02T23:59:59.999Z'),
      order,
      window,
      steps: names.map((n) => (e: ReferenceEvent) => e.event === n),
    };
    expect(referenceFunnel(input)[0]!.steps).toEqual(engine);
    return engine;
  }

  it('ordered: of two attempts reaching step 2, the first-starting one gives the time', async () => {
    const r = await funnel([ev(at(0), 'A'), ev(at(10), 'A'), ev(at(20), 'B')], ['A', 'B'], 'ordered');
    expect(r[1]).toEqual({ count: 1, average: 1200, median: 1200 });
  });

  it('ordered: the first start whose window still reaches the step (A at 0, 5, 10; B at 20; 15-minute window)', async () => {
    const r = await funnel([ev(at(0), 'A'), ev(at(5), 'A'), ev(at(10), 'A'), ev(at(20), 'B')], ['A', 'B'], 'ordered', {
      interval: 15,
      unit: 'minute',
    });
    expect(r[1]).toEqual({ count: 1, average: 900, median: 900 });
  });

  it('ordered with a breakdown: the value is the first start’s, also when it has none', async () => {
    h ??= await createHarness();
    await h.load([ev(at(0), 'A'), ev(at(5), 'A', 'p1', { $browser: 'Chrome' }), ev(at(10), 'B')]);
    const r = (await runFunnel(h.ctx, {
      ...range,
      events: steps('A', 'B'),
      breakdown: '$browser',
      breakdown_type: 'event',
    })) as FunnelStep[][];
    expect(r.map((g) => [g[0]!.breakdown_value, g[1]!.count, g[1]!.average_conversion_time])).toEqual([
      ['None', 1, 600],
    ]);
  });

  it('strict: the first of two complete attempts', async () => {
    const r = await funnel([ev(at(0), 'A'), ev(at(10), 'B'), ev(at(20), 'A'), ev(at(25), 'B')], ['A', 'B'], 'strict');
    expect(r[1]).toEqual({ count: 1, average: 600, median: 600 });
  });

  it('unordered: the attempt anchored first (A then B, 5 minutes), not the later B then A', async () => {
    const r = await funnel([ev(at(0), 'A'), ev(at(5), 'B'), ev(at(30), 'A')], ['A', 'B'], 'unordered');
    expect(r[1]).toEqual({ count: 1, average: 300, median: 300 });
  });

  it('a furthest attempt still wins over an earlier shorter one (strict: the first stops at A)', async () => {
    const r = await funnel(
      [ev(at(0), 'A'), ev(at(1), 'B'), ev(at(10), 'A'), ev(at(12), 'B'), ev(at(13), 'C')],
      ['A', 'B', 'C'],
      'strict',
    );
    expect(r.map((s) => s.count)).toEqual([1, 1, 1]);
    expect(r[1]!.average).toBe(120);
  });

  it.each(['ordered', 'strict', 'unordered'] as const)(
    '%s: a later step at the same instant converts, whatever the uuids',
    async (order) => {
      // B is made after A, so its uuid sorts before A's: the order at one instant is by step.
      const r = await funnel([ev(at(0), 'A'), ev(at(0), 'B'), ev(at(0), 'C', 'p1')], ['A', 'B', 'C'], order);
      expect(r.map((s) => s.count)).toEqual([1, 1, 1]);
      expect(r[2]).toEqual({ count: 1, average: 0, median: 0 });
    },
  );
});
