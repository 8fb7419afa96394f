import { describe, expect, it } from 'vitest';
import { setupTestApi } from '@testing';
import { BROWSERS, COUNTRIES, FILTERS, live, sendChartEvents } from '@testing/chart-fixtures';
import { formatWallTime } from '@/lib/dates';
import { formatDuration } from '../lib/format';
import { countryText, gridCsv, resultGrid } from '../lib/result-grid';
import type { FunnelView, TrendsView } from '../lib/view-types';
import { retentionView } from '../lib/funnel-view';
import { resultView, viewOf, viewOptions } from './result-model';

const api = setupTestApi();
const PROJECT = 1;

/** The seeded project's events plus the chart events; then the view of `filters`' live result. */
async function view(filters: Record<string, unknown>) {
  const { api_token: token } = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').get(PROJECT) as {
    api_token: string;
  };
  await sendChartEvents(api().call, token);
  const insight = await live(api().call, PROJECT, filters);
  return { insight, view: resultView(insight) };
}
const trends = async (filters: Record<string, unknown>) => (await view(filters)).view as TrendsView;
const sum = (data: number[]) => data.reduce((a, b) => a + b, 0);

describe('trends', () => {
  it('line: one series per event, the x labels of the range, the points as the table', async () => {
    const v = await trends(FILTERS.line);
    expect(v).toMatchObject({ type: 'trends', display: 'line', compare: false, unit: 'number' });
    expect(v.series.map((s) => s.label)).toEqual(['Pageview', 'user signed up']);
    expect(v.labels).toHaveLength(15);
    expect(sum(v.series[0]!.data)).toBeGreaterThan(0);
    const grid = resultGrid(v)!;
    expect(grid.columns).toEqual(['Date', 'Pageview', 'user signed up']);
    expect(grid.sections[0]!.rows.map((row) => row.cells[0])).toEqual(v.series[0]!.data);
  });

  it('breakdown: series named by value; "event · value" when there are several events', async () => {
    const one = await trends(FILTERS.byBrowser);
    expect(one.series.map((s) => s.label).sort()).toEqual([...BROWSERS].sort());
    expect(one.series.every((s) => s.breakdownValue === s.label)).toBe(true);
    const two = await trends(FILTERS.twoByBrowser);
    expect(two.series.map((s) => s.label)).toContain('Pageview · Chrome');
    expect(two.series.map((s) => s.label)).toContain('user signed up · Chrome');
  });

  it('the same event with another math is named by its math', async () => {
    const v = await trends({
      ...FILTERS.byBrowser,
      events: [
        { id: '$pageview', type: 'events', order: 0 },
        { id: '$pageview', type: 'events', order: 1, math: 'dau' },
      ],
    });
    expect(v.series.map((s) => s.label)).toContain('Pageview · Chrome');
    expect(v.series.map((s) => s.label)).toContain('Pageview (unique persons) · Chrome');
    expect(new Set(v.series.map((s) => s.key)).size).toBe(v.series.length);
  });

  it('without a breakdown a series is named by its event in words and its math', async () => {
    const v = await trends({
      ...FILTERS.line,
      events: [
        { id: '$pageview', type: 'events', order: 0 },
        { id: '$pageview', type: 'events', order: 1, math: 'dau' },
      ],
    });
    expect(v.series.map((s) => s.label)).toEqual(['Pageview', 'Pageview (unique persons)']);
    expect(resultGrid(v)!.columns).toEqual(['Date', 'Pageview', 'Pageview (unique persons)']);
  });

  it('by a group type, unique counts and funnel steps name what they count', async () => {
    const companies = { one: 'company', many: 'companies', groups: true };
    const { insight } = await view({
      ...FILTERS.line,
      events: [{ id: '$pageview', type: 'events', order: 0, math: 'dau' }],
    });
    const v = viewOf(insight.result, { ...viewOptions(insight), actors: companies }) as TrendsView;
    expect(v.series.map((s) => s.label)).toEqual(['Pageview (unique companies)']);
    expect(v.valueLabel).toBe('Companies');
    expect((resultView(insight) as TrendsView).valueLabel).toBe('Persons');
    const funnel = (await view(FILTERS.funnel)).insight;
    const steps = viewOf(funnel.result, { ...viewOptions(funnel), actors: companies });
    expect(resultGrid(steps, companies)!.columns.slice(0, 2)).toEqual(['Step', 'Companies']);
  });

  it('compare: current and previous paired in one colour, the previous labelled and dated on its own', async () => {
    const v = await trends(FILTERS.compare);
    expect(v.compare).toBe(true);
    const [current, previous] = v.series;
    expect(current).toMatchObject({ period: 'current', label: 'Pageview' });
    expect(previous).toMatchObject({ period: 'previous', label: 'Pageview (previous)', colour: current!.colour });
    expect(previous!.days[0]! < current!.days[0]!).toBe(true);
    const grid = resultGrid(v)!;
    expect(grid.columns).toEqual(['Date', 'Previous period date', 'Pageview', 'Pageview (previous)']);
    // The previous period's dates are written as the current period's ("12-Nov-2026", not "2026-11-12").
    const labelShape = /^\d{1,2}-[A-Z][a-z]{2}-\d{4}$/;
    expect(grid.sections[0]!.rows[0]!.head).toMatch(labelShape);
    expect(grid.sections[0]!.rows[0]!.cells[0]).toMatch(labelShape);
    expect(grid.sections[0]!.rows[0]!.cells[0]).toBe(previous!.labels[0]);
  });

  it('cumulative: the running totals the API returns, drawn as they are; the last point the series total', async () => {
    const { view: v } = await view(FILTERS.cumulative);
    const { display: _, ...line } = FILTERS.cumulative;
    const series = (v as TrendsView).series[0]!;
    // The same series per day, from the same events (sent once, by `view`).
    const perDay = (resultView(await live(api().call, PROJECT, line)) as TrendsView).series.find(
      (s) => s.breakdownValue === series.breakdownValue,
    )!.data;
    expect(sum(perDay)).toBeGreaterThan(0);
    let running = 0;
    expect(series.data).toEqual(perDay.map((n) => (running += n)));
    expect(series.total).toBe(sum(perDay));
    expect((v as TrendsView).display).toBe('cumulative');
  });

  it.each([
    ['table', FILTERS.table],
    ['pie', FILTERS.pie],
    ['map', FILTERS.map],
  ] as const)('%s: the aggregated value of each series, no x labels', async (display, filters) => {
    const { insight, view: v } = await view(filters);
    const t = v as TrendsView;
    expect(t.display).toBe(display);
    expect(t.labels).toEqual([]);
    expect(t.series.map((s) => s.total)).toEqual(
      (insight.result as Array<{ aggregated_value: number }>).map((s) => s.aggregated_value),
    );
    expect(resultGrid(t)!.columns).toEqual([display === 'map' ? 'Country' : 'Series', 'Value']);
  });

  it('map: the breakdown values are the country codes', async () => {
    const v = await trends(FILTERS.map);
    expect(v.series.map((s) => s.breakdownValue).sort()).toEqual([...COUNTRIES].sort());
    // The table names each country, with its code.
    const heads = resultGrid(v)!.sections[0]!.rows.map((row) => row.head);
    expect(heads).toContain('United States (US)');
    expect(heads).toContain('Germany (DE)');
    expect(countryText('not a code')).toBe('not a code');
  });

  it('bar by value and bold number with compare: current, previous and the change per series', async () => {
    const bars = await trends(FILTERS.barValue);
    expect(bars.display).toBe('bar-value');
    expect(resultGrid(bars)!.columns).toEqual(['Series', 'Current period', 'Previous period', 'Change']);
    const number = await trends(FILTERS.number);
    expect(number.display).toBe('number');
    const [row] = resultGrid(number)!.sections[0]!.rows;
    const [current, previous] = number.series;
    expect(row!.cells.slice(0, 2)).toEqual([current!.total, previous!.total]);
    expect(row!.cells[2]).toMatch(/^[+-]?\d/);
  });

  it('a time-series display of an aggregated result falls back to bars by value', () => {
    const v = resultView({
      filters: { insight: 'TRENDS', display: 'ActionsLineGraph' },
      query: null,
      result: [{ label: 'a', count: 3, aggregated_value: 3, data: [], days: [], labels: [] }],
    });
    expect(v).toMatchObject({ type: 'trends', display: 'bar-value' });
  });
});

describe('funnels', () => {
  it('steps: conversion from the first and the previous step, drop-off, times', async () => {
    const v = (await view(FILTERS.funnel)).view as FunnelView;
    expect(v.groups).toBeNull();
    expect(v.steps.map((s) => s.count)).toEqual([10, 6, 3]);
    expect(v.steps[1]).toMatchObject({ conversion: 0.6, fromPrevious: 0.6, dropped: 4 });
    expect(v.steps[2]).toMatchObject({ conversion: 0.3, fromPrevious: 0.5, dropped: 3 });
    expect(v.steps[1]!.averageTime).toBe(2_100);
    const grid = resultGrid(v)!;
    expect(grid.columns).toEqual([
      'Step',
      'Persons',
      'Conversion',
      'From previous step',
      'Dropped off',
      'Average time',
      'Median time',
    ]);
    expect(grid.sections[0]!.rows[1]!.head).toBe('2. created project');
  });

  it('steps are named as the pickers name their events ("$pageview" → "Pageview")', async () => {
    const v = (
      await view({
        ...FILTERS.funnel,
        events: [
          { id: '$pageview', type: 'events', order: 0 },
          { id: 'user signed up', type: 'events', order: 1 },
        ],
      })
    ).view as FunnelView;
    expect(v.steps.map((s) => s.name)).toEqual(['Pageview', 'user signed up']);
    expect(resultGrid(v)!.sections[0]!.rows[0]!.head).toBe('1. Pageview');
  });

  it('breakdown: one group per value, and their sums', async () => {
    const v = (await view(FILTERS.funnelByBrowser)).view as FunnelView;
    expect(v.groups!.map((g) => g.breakdownValue).sort()).toEqual([...BROWSERS].sort());
    expect(v.steps.map((s) => s.count)).toEqual([10, 6, 3]);
    expect(sum(v.groups!.map((g) => g.steps[1]!.count))).toBe(6);
    expect(resultGrid(v)!.sections.map((s) => s.title)).toEqual(['All', ...v.groups!.map((g) => g.breakdownValue)]);
  });

  it('trends: conversion (%) over time; time to convert: bins', async () => {
    const t = (await view(FILTERS.funnelTrends)).view as TrendsView;
    expect(t).toMatchObject({ type: 'trends', display: 'line', unit: 'percent' });
    const ttc = (await view(FILTERS.timeToConvert)).view;
    expect(ttc.type).toBe('time-to-convert');
    if (ttc.type !== 'time-to-convert') return;
    expect(sum(ttc.bins.map((b) => b.count))).toBe(6);
    expect(resultGrid(ttc)!.sections[0]!.rows[0]!.head).toBe(formatDuration(ttc.bins[0]!.seconds));
  });
});

describe('retention and paths', () => {
  it('retention: a period reached only by cohorts of nobody averages to nothing ("–"), not 0%', () => {
    // The API's shape: each cohort's counts per period, the later cohorts with fewer periods.
    const cohort = (date: string, counts: number[]) => ({
      label: 'Month 0',
      date,
      values: counts.map((count) => ({ count })),
    });
    const v = retentionView([
      cohort('2026-07-01T00:00:00Z', [4, 2, 0, 0]),
      cohort('2026-08-01T00:00:00Z', [0, 0, 0]),
      cohort('2026-09-01T00:00:00Z', [0, 0]),
    ]);
    expect(v.curve).toEqual([1, 0.5, 0, 0]);
    // Hourly cohorts show their hour, midnight's too.
    const hourly = retentionView([
      { label: 'Hour 0', date: '2026-11-24T23:00:00Z', values: [{ count: 1 }] },
      { label: 'Hour 0', date: '2026-11-25T00:00:00Z', values: [{ count: 1 }] },
    ]);
    expect(hourly.cohorts.map((c) => c.head)).toEqual([
      formatWallTime('2026-11-24T23:00:00Z'),
      formatWallTime('2026-11-25T00:00:00Z', true),
    ]);
    expect(hourly.cohorts[1]!.head).not.toBe(formatWallTime('2026-11-25T00:00:00Z'));
    const empty = retentionView([cohort('2026-08-01T00:00:00Z', [0, 0, 0]), cohort('2026-09-01T00:00:00Z', [0, 0])]);
    expect(empty.curve).toEqual([null, null, null]);
    const average = resultGrid(empty)!.sections[0]!.rows.at(-1)!;
    expect(average.head).toBe('Average');
    expect(average.cells).toEqual([null, null, null]);
  });

  it('retention: the cohorts, and the curve starting at 100%', async () => {
    const { insight, view: v } = await view(FILTERS.retention);
    expect(v.type).toBe('retention');
    if (v.type !== 'retention') return;
    expect(v.curve[0]).toBe(1);
    expect(v.curve.every((share) => share === null || (share >= 0 && share <= 1))).toBe(true);
    const grid = resultGrid(v)!;
    const rows = grid.sections[0]!.rows;
    expect(rows.at(-1)!.head).toBe('Average');
    // Cohorts are read by their start date (in the project's zone), periods by the API's unit (Day).
    expect(v.periodName).toBe('Day');
    expect(grid.columns.slice(0, 3)).toEqual(['Cohort', 'Day 0', 'Day 1']);
    const first = (insight.result as Array<{ date: string }>)[0]!;
    expect(rows[0]!.head).toBe(formatWallTime(first.date));
    expect(rows[0]!.head).toMatch(/\d{4}/);
    expect(rows[0]!.cells[0]).toMatchObject({ note: '100%', shade: 1 });
  });

  it('paths: the edges with their persons and times; the table writes each node as its step and item', async () => {
    const { insight, view: v } = await view(FILTERS.paths);
    expect(v.type).toBe('paths');
    if (v.type !== 'paths') return;
    expect(v.edges[0]!.source).toMatch(/^1_https:\/\/example\.com\//);
    const grid = resultGrid(v)!;
    expect(grid.columns).toEqual(['From', 'To', 'Persons', 'Average time']);
    const row = grid.sections[0]!.rows[0]!;
    expect(row.head).toBe(`1. ${v.edges[0]!.source.slice(2)}`);
    expect(row.cells[0]).toBe(`2. ${v.edges[0]!.target.slice(2)}`);
    expect(row.cells[1]).toBe(v.edges[0]!.value);
    // The API's times are milliseconds; the table's, seconds: within a session (a gap of 30
    // minutes or more starts a new one), so under half an hour.
    const ms = (insight.result as Array<{ average_conversion_time: number | null }>)[0]!.average_conversion_time!;
    expect(ms).toBeGreaterThan(0);
    expect(row.cells[2]).toEqual({ value: ms / 1000, unit: 'duration' });
    expect(ms / 1000).toBeLessThan(30 * 60);
  });
});

describe('CSV', () => {
  it('quotes commas, quotes and line breaks, defuses formulas, keeps numbers plain, ends lines with CRLF', () => {
    const csv = gridCsv({
      columns: ['Series', 'Value', 'Change'],
      sections: [
        {
          title: null,
          rows: [
            { head: 'a, "b"\nc', cells: [1234.5, '-12.5%'] },
            { head: '=HYPERLINK("x")', cells: [{ value: 0.25, unit: 'ratio' }, null] },
          ],
        },
      ],
    });
    expect(csv).toBe('Series,Value,Change\r\n"a, ""b""\nc",1234.5,-12.5%\r\n"\'=HYPERLINK(""x"")",25%,\r\n');
  });

  it('of a breakdown funnel: a Breakdown column first', async () => {
    const v = (await view(FILTERS.funnelByBrowser)).view;
    const lines = gridCsv(resultGrid(v)!).trim().split('\r\n');
    expect(lines[0]).toBe('Breakdown,Step,Persons,Conversion,From previous step,Dropped off,Average time,Median time');
    expect(lines[1]).toMatch(/^All,1\. user signed up,10,100%,100%,,,$/);
  });

  it('durations read as people say them', () => {
    expect([0.5, 45, 200, 7_500, 90_000, 86_400].map(formatDuration)).toEqual([
      '0.5s',
      '45s',
      '3m 20s',
      '2h 5m',
      '1d 1h',
      '1d',
    ]);
  });
});
