import { afterEach, describe, expect, it } from 'vitest';
import { trendParamsSchema, type TrendParamsInput } from '../../src/contract/analytics.ts';
import { AnalyticsParamError } from '../../server/analytics/errors.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import type { AnalyticsProject, ReferenceEvent } from '../../server/analytics/types.ts';
import { createHarness, type Harness } from './harness.ts';

/** Hand-worked trends: each expectation below was computed by hand from the rules. */

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let seq = 0;
const ev = (
  iso: string,
  event = '$pageview',
  properties: Record<string, unknown> = {},
  person = 'p1',
): ReferenceEvent => ({
  uuid: `00000000-0000-4000-8000-${String(seq++).padStart(12, '0')}`,
  event,
  distinct_id: person,
  person_id: person,
  timestamp: Date.parse(iso),
  properties,
  person_properties: {},
});

async function trend(
  events: ReferenceEvent[],
  input: Omit<TrendParamsInput, 'events'> & { events?: TrendParamsInput['events'] },
  project: Partial<AnalyticsProject> = {},
  now = '2024-04-01T12:00:00Z',
) {
  h = await createHarness(project, new Date(now));
  await h.load(events);
  return computeTrends(trendParamsSchema.parse({ events: [{ id: '$pageview' }], ...input }), h.ctx);
}

describe('week and month buckets', () => {
  const events = [ev('2024-03-02T12:00:00Z'), ev('2024-03-03T12:00:00Z'), ev('2024-03-04T12:00:00Z')];

  it('weeks start on Sunday by default', async () => {
    const [s] = await trend(events, { date_from: '2024-02-26', date_to: '2024-03-10', interval: 'week' });
    expect(s!.days).toEqual(['2024-02-25', '2024-03-03', '2024-03-10']);
    expect(s!.labels).toEqual(['25-Feb-2024', '3-Mar-2024', '10-Mar-2024']);
    expect(s!.data).toEqual([1, 2, 0]);
  });

  it('weeks start on Monday when the project says so', async () => {
    const [s] = await trend(
      events,
      { date_from: '2024-02-26', date_to: '2024-03-10', interval: 'week' },
      { week_start_day: 1 },
    );
    expect(s!.days).toEqual(['2024-02-26', '2024-03-04']);
    expect(s!.data).toEqual([2, 1]);
  });

  it('months are calendar months; the first bucket is whole (it starts before date_from)', async () => {
    const [s] = await trend(
      [
        ev('2023-12-31T23:59:59Z'),
        ev('2024-01-10T00:00:00Z'),
        ev('2024-01-31T23:30:00Z'),
        ev('2024-02-01T00:00:00Z'),
        ev('2024-02-29T23:59:59Z'),
        ev('2024-03-01T00:00:00Z'),
      ],
      { date_from: '2024-01-15', date_to: '2024-03-02', interval: 'month' },
    );
    expect(s!.days).toEqual(['2024-01-01', '2024-02-01', '2024-03-01']);
    expect(s!.data).toEqual([2, 2, 1]);
    expect(s!.count).toBe(5);
  });
});

describe('compare', () => {
  it('the previous period has the same length and ends where the current one starts', async () => {
    const result = await trend(
      [
        ev('2024-02-29T23:59:59.999Z'),
        ev('2024-03-01T00:00:00Z'),
        ev('2024-03-07T23:59:59.999Z'),
        ev('2024-03-08T00:00:00Z'),
        ev('2024-03-14T23:59:59.999Z'),
        ev('2024-03-15T00:00:00Z'),
      ],
      { date_from: '2024-03-08', date_to: '2024-03-14', compare: true },
    );
    const [current, previous] = result;
    expect(current!.compare_label).toBe('current');
    expect(current!.days).toEqual([
      '2024-03-08',
      '2024-03-09',
      '2024-03-10',
      '2024-03-11',
      '2024-03-12',
      '2024-03-13',
      '2024-03-14',
    ]);
    expect(current!.data).toEqual([1, 0, 0, 0, 0, 0, 1]);
    expect(previous!.compare_label).toBe('previous');
    expect(previous!.days[0]).toBe('2024-03-01');
    expect(previous!.days).toHaveLength(7);
    expect(previous!.data).toEqual([1, 0, 0, 0, 0, 0, 1]);
  });

  it('compare_to shifts the period back by a relative offset', async () => {
    const result = await trend([ev('2024-02-08T10:00:00Z'), ev('2024-03-08T10:00:00Z')], {
      date_from: '2024-03-08',
      date_to: '2024-03-09',
      compare: true,
      compare_to: '-1m',
    });
    expect(result[1]!.days).toEqual(['2024-02-08', '2024-02-09']);
    expect(result[1]!.data).toEqual([1, 0]);
  });
});

describe('a non-UTC project time zone across a DST change (America/New_York, 10 March 2024)', () => {
  const tz = { timezone: 'America/New_York' };

  it('days are local days: 23 hours long on the change', async () => {
    const [s] = await trend(
      [
        ev('2024-03-10T04:59:00Z'), // 23:59 EST, 9 March
        ev('2024-03-10T05:00:00Z'), // 00:00 EST, 10 March
        ev('2024-03-11T03:59:00Z'), // 23:59 EDT, 10 March
        ev('2024-03-11T04:00:00Z'), // 00:00 EDT, 11 March
      ],
      { date_from: '2024-03-09', date_to: '2024-03-11' },
      tz,
    );
    expect(s!.days).toEqual(['2024-03-09', '2024-03-10', '2024-03-11']);
    expect(s!.data).toEqual([1, 2, 1]);
  });

  it('hours are local clock hours: the skipped 02:00 is an empty bucket', async () => {
    const [s] = await trend(
      [ev('2024-03-10T06:30:00Z'), ev('2024-03-10T07:30:00Z')],
      { date_from: '2024-03-10T00:00:00', date_to: '2024-03-10T05:00:00', interval: 'hour' },
      tz,
    );
    expect(s!.days).toEqual([
      '2024-03-10 00:00:00',
      '2024-03-10 01:00:00',
      '2024-03-10 02:00:00',
      '2024-03-10 03:00:00',
      '2024-03-10 04:00:00',
      '2024-03-10 05:00:00',
    ]);
    expect(s!.labels[1]).toBe('10-Mar-2024 01:00');
    expect(s!.data).toEqual([0, 1, 0, 1, 0, 0]);
  });
});

describe('formula', () => {
  const events = [
    ev('2024-03-01T10:00:00Z', 'a'),
    ev('2024-03-01T11:00:00Z', 'a'),
    ev('2024-03-01T12:00:00Z', 'b'),
    ev('2024-03-02T10:00:00Z', 'a'),
  ];
  const series = [{ id: 'a' }, { id: 'b' }];

  it('division by zero gives 0', async () => {
    const [s] = await trend(events, {
      events: series,
      date_from: '2024-03-01',
      date_to: '2024-03-02',
      formula: 'A / B',
    });
    expect(s!.label).toBe('A / B');
    expect(s!.data).toEqual([2, 0]);
    const [t] = await trend(events, {
      events: series,
      date_from: '2024-03-01',
      date_to: '2024-03-02',
      formula: '(A + B) / 0 + 1 % 0',
    });
    expect(t!.data).toEqual([0, 0]);
  });

  it('follows precedence and parentheses', async () => {
    const [s] = await trend(events, {
      events: series,
      date_from: '2024-03-01',
      date_to: '2024-03-02',
      formula: '(A - B) * 10 + A % 2',
    });
    expect(s!.data).toEqual([10, 11]);
  });

  it('a formula the engine cannot read is a 400 on formula', async () => {
    h = await createHarness();
    await expect(
      computeTrends({ ...trendParamsSchema.parse({ events: [{ id: 'a' }] }), formula: 'A +' }, h.ctx),
    ).rejects.toMatchObject({ attr: 'formula' });
    await expect(
      computeTrends({ ...trendParamsSchema.parse({ events: [{ id: 'a' }] }), formulas: ['A', 'A +'] }, h.ctx),
    ).rejects.toMatchObject({ attr: 'formulas__1' });
  });

  it('several formulas: a series each, in order; by breakdown value, each label names its formula', async () => {
    const range = { events: series, date_from: '2024-03-01', date_to: '2024-03-02' };
    const list = await trend(events, { ...range, formula: 'B', formulas: ['A + B', 'A - B'] });
    expect(list.map((s) => [s.label, s.data])).toEqual([
      ['A + B', [3, 1]],
      ['A - B', [1, 1]],
    ]);
    const withBrowser = [
      ev('2024-03-01T10:00:00Z', 'a', { $browser: 'Chrome' }),
      ev('2024-03-01T11:00:00Z', 'b', { $browser: 'Chrome' }),
      ev('2024-03-02T10:00:00Z', 'a', { $browser: 'Safari' }),
    ];
    const byBrowser = await trend(withBrowser, { ...range, formulas: ['A + B', 'A * 10'], breakdown: '$browser' });
    expect(byBrowser.map((s) => [s.label, s.breakdown_value, s.data])).toEqual([
      ['A + B · Chrome', 'Chrome', [2, 0]],
      ['A + B · Safari', 'Safari', [0, 1]],
      ['A * 10 · Chrome', 'Chrome', [10, 0]],
      ['A * 10 · Safari', 'Safari', [0, 10]],
    ]);
  });
});

describe('breakdown', () => {
  const b = (v: unknown) => ({ $browser: v });
  const events = [
    ev('2024-03-01T01:00:00Z', '$pageview', b('Chrome')),
    ev('2024-03-01T02:00:00Z', '$pageview', b('Chrome')),
    ev('2024-03-02T01:00:00Z', '$pageview', b('Chrome')),
    ev('2024-03-01T03:00:00Z', '$pageview', b('Firefox')),
    ev('2024-03-02T03:00:00Z', '$pageview', b('Firefox')),
    ev('2024-03-01T04:00:00Z', '$pageview', b('Safari')),
    ev('2024-03-01T05:00:00Z', '$pageview', {}),
    ev('2024-03-02T05:00:00Z', '$pageview', b('')),
  ];

  it('keeps the top values, groups the rest as Other and missing values as None', async () => {
    const result = await trend(events, {
      date_from: '2024-03-01',
      date_to: '2024-03-02',
      breakdown: '$browser',
      breakdown_limit: 2,
    });
    expect(result.map((s) => [s.label, s.breakdown_value, s.data])).toEqual([
      ['Chrome', 'Chrome', [2, 1]],
      ['Firefox', 'Firefox', [1, 1]],
      ['None', '$$_posthog_breakdown_null_$$', [1, 1]],
      ['Other', '$$_posthog_breakdown_other_$$', [1, 0]],
    ]);
  });

  it('an aggregated display gives one value per series', async () => {
    const result = await trend(events, {
      date_from: '2024-03-01',
      date_to: '2024-03-02',
      breakdown: '$browser',
      display: 'ActionsPie',
    });
    expect(result.map((s) => [s.label, s.aggregated_value])).toEqual([
      ['Chrome', 3],
      ['Firefox', 2],
      ['Safari', 1],
      ['None', 2],
    ]);
    expect(result[0]!.data).toEqual([]);
  });

  it('cumulative lines add up', async () => {
    const [s] = await trend(events, {
      date_from: '2024-03-01',
      date_to: '2024-03-03',
      display: 'ActionsLineGraphCumulative',
    });
    expect(s!.data).toEqual([5, 8, 8]);
  });
});

describe('engine-level parameter errors', () => {
  it('actions are unknown: 400 on actions', async () => {
    h = await createHarness();
    const params = trendParamsSchema.parse({ actions: [{ id: 7 }] });
    await expect(computeTrends(params, h.ctx)).rejects.toBeInstanceOf(AnalyticsParamError);
    await expect(computeTrends(params, h.ctx)).rejects.toMatchObject({ attr: 'actions' });
  });

  it('an invalid regex is a 400 naming the filter value', async () => {
    h = await createHarness();
    const params = trendParamsSchema.parse({
      events: [{ id: 'x' }],
      properties: [{ key: 'a', operator: 'regex', value: '([' }],
    });
    await expect(computeTrends(params, h.ctx)).rejects.toMatchObject({ attr: 'properties__values__0__value' });
  });
});
