import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setupTestApi } from '@testing';
import { FILTERS, live, sendChartEvents } from '@testing/chart-fixtures';
import { colour } from './charts/chart-frame';
import { LABELLED_WIDTH } from './charts/paths-sankey';
import { InsightResult } from './insight-result';

const api = setupTestApi();
const PROJECT = 1;

async function insightOf(filters: Record<string, unknown>) {
  const { api_token: token } = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').get(PROJECT) as {
    api_token: string;
  };
  await sendChartEvents(api().call, token);
  return live(api().call, PROJECT, filters);
}

const figure = () => screen.getByRole('figure', { name: 'Chart test: chart' });
/** The series drawn over time (one path each). */
const lines = () => figure().querySelectorAll('path[data-series]');

describe('InsightResult: trends displays', () => {
  it('line: a curve per series, the table under it; the legend hides and shows a series', async () => {
    const user = userEvent.setup();
    render(<InsightResult insight={await insightOf(FILTERS.byBrowser)} title="Chart test" />);
    await waitFor(() => expect(lines()).toHaveLength(3));
    expect(screen.getByRole('table', { name: 'Chart test: data' })).toBeInTheDocument();
    const safari = within(figure()).getByRole('button', { name: 'Safari' });
    expect(safari).toHaveAttribute('aria-pressed', 'true');
    await user.click(safari);
    expect(safari).toHaveAttribute('aria-pressed', 'false');
    expect(lines()).toHaveLength(2);
    await user.click(safari);
    expect(lines()).toHaveLength(3);
  });

  it('the pointer at a point lists every series with its value; the value axis says what is counted', async () => {
    const { api_token: token } = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').get(PROJECT) as {
      api_token: string;
    };
    // 16 plans, plan-k with k + 1 pageviews around noon (UTC) yesterday: 16 series on one day.
    const noon = new Date();
    noon.setUTCDate(noon.getUTCDate() - 1);
    noon.setUTCHours(12, 0, 0, 0);
    const batch = Array.from({ length: 16 }, (_, k) =>
      Array.from({ length: k + 1 }, (_, n) => ({
        event: '$pageview',
        distinct_id: `plan-person-${k}-${n}`,
        timestamp: new Date(noon.getTime() + 60_000 * n).toISOString(),
        properties: { plan: `plan-${k}` },
      })),
    ).flat();
    await api().call('POST', '/batch/', { api_key: token, batch });
    const filters = {
      insight: 'TRENDS',
      events: [{ id: '$pageview', type: 'events', order: 0 }],
      date_from: '-7d',
      interval: 'day',
      breakdown: 'plan',
      breakdown_limit: 25,
    };
    const insight = await live(api().call, PROJECT, filters);
    // The day the pageviews fell on (the project's time zone decides which).
    const day = (insight.result as Array<{ data: number[] }>)[0]!.data.findIndex((value) => value > 0);
    render(<InsightResult insight={insight} title="Chart test" />);
    await waitFor(() => expect(lines()).toHaveLength(16));
    expect(figure().querySelector('[data-axis-title="y"]')).toHaveTextContent('Events');

    const plot = within(figure()).getByRole('img');
    plot.focus();
    fireEvent.keyDown(plot, { key: 'Home' });
    for (let i = 0; i < day; i += 1) fireEvent.keyDown(plot, { key: 'ArrowRight' });
    const label = (insight.result as Array<{ labels: string[] }>)[0]!.labels[day]!;
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent(label));
    const box = screen.getByRole('tooltip');
    const rows = within(box).getAllByRole('listitem');
    expect(rows).toHaveLength(16);
    // Largest first: plan-15 had 16 pageviews today, plan-0 one.
    expect(rows[0]).toHaveTextContent(/plan-15\s*16/);
    expect(rows[15]).toHaveTextContent(/plan-0\s*1/);
    // Chosen with the keyboard, the point is also read out: its date and every series' value.
    expect(figure().querySelector('[aria-live="polite"]')).toHaveTextContent(
      new RegExp(`^${label}\\. plan-15: 16; plan-14: 15;`),
    );
    expect(plot).toHaveAccessibleName(/^Line chart of Events, 16 series over 8 points/);
  });

  it('the value axis names what the series count: persons for unique users, a running total when cumulative', async () => {
    const dau = { ...FILTERS.byBrowser, events: [{ id: '$pageview', type: 'events', order: 0, math: 'dau' }] };
    const { unmount } = render(<InsightResult insight={await insightOf(dau)} title="Chart test" />);
    await waitFor(() => expect(figure().querySelector('[data-axis-title="y"]')).toHaveTextContent(/^Persons$/));
    unmount();
    render(<InsightResult insight={await live(api().call, PROJECT, FILTERS.cumulative)} title="Chart test" />);
    await waitFor(() =>
      expect(figure().querySelector('[data-axis-title="y"]')).toHaveTextContent('Events (running total)'),
    );
  });

  it('compare: the previous period is drawn dashed in the same colour', async () => {
    render(<InsightResult insight={await insightOf(FILTERS.compare)} title="Chart test" />);
    await waitFor(() => expect(lines()).toHaveLength(2));
    const [current, previous] = [...lines()];
    expect(current!.getAttribute('stroke-dasharray')).toBeNull();
    expect(previous!.getAttribute('stroke-dasharray')).toBe('6 4');
    expect(previous!.getAttribute('stroke')).toBe(current!.getAttribute('stroke'));
    expect(within(figure()).getByRole('button', { name: 'Pageview (previous)' })).toBeInTheDocument();
  });

  it.each([
    ['cumulative', FILTERS.cumulative, 'path[data-series]', 3],
    ['bar over time', FILTERS.bar, 'path[data-series]', 3],
    ['pie', FILTERS.pie, '.recharts-pie-sector', 3],
    ['bar by value', FILTERS.barValue, '.recharts-bar', 2],
  ] as const)('%s: drawn', async (_, filters, selector, count) => {
    render(<InsightResult insight={await insightOf(filters)} title="Chart test" />);
    await waitFor(() => expect(figure().querySelectorAll(selector)).toHaveLength(count));
    expect(screen.getByRole('table', { name: 'Chart test: data' })).toBeInTheDocument();
  });

  it.each([
    ['pie', FILTERS.pie, '.recharts-pie'],
    // The first bar is the current period (the previous one has the same colours, fainter).
    ['bar by value', FILTERS.barValue, '.recharts-bar'],
  ] as const)('%s: each of the 3 series in its own colour, as in the legend', async (_, filters, group) => {
    render(<InsightResult insight={await insightOf(filters)} title="Chart test" />);
    const shapes = () =>
      [...(figure().querySelector(group)?.querySelectorAll('path') ?? [])].filter((p) =>
        p.closest('.recharts-pie-sector, .recharts-bar-rectangle'),
      );
    await waitFor(() => expect(shapes()).toHaveLength(3));
    expect(new Set(shapes().map((shape) => shape.getAttribute('fill')))).toEqual(
      new Set([colour(0), colour(1), colour(2)]),
    );
  });

  it('world map: the countries of the result shaded, from its own chunk', async () => {
    const insight = await insightOf(FILTERS.map);
    render(<InsightResult insight={insight} title="Chart test" />);
    await waitFor(() => expect(figure().querySelector('[data-country="US"]')).not.toBeNull(), { timeout: 10_000 });
    expect(figure().querySelector('[data-country="DE"]')!.getAttribute('style')).toMatch(/fill: rgba?\(99, 102, 241/);
    expect(within(figure()).getByText(/Not on the map.*SG/)).toBeInTheDocument();
    // The legend: the scale from 0 to the largest country's value, and the shade of "no data".
    const largest = Math.max(
      ...(insight.result as Array<{ breakdown_value: string; count: number }>)
        .filter((s) => s.breakdown_value !== 'SG')
        .map((s) => s.count),
    );
    const legend = within(figure()).getByRole('group', { name: 'Map legend' });
    expect(legend).toHaveTextContent(new RegExp(`^0${largest.toLocaleString('en-US')}No data$`));
  });

  it('bold number: the total and its change against the previous period', async () => {
    const insight = await insightOf(FILTERS.number);
    const [current, previous] = (insight.result as Array<{ aggregated_value: number }>).map((s) => s.aggregated_value);
    render(<InsightResult insight={insight} title="Chart test" />);
    expect(await within(figure()).findByText(current!.toLocaleString('en-US'))).toBeInTheDocument();
    const change = (current! - previous!) / previous!;
    const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(change);
    expect(
      within(figure()).getByText(`${change > 0 ? '+' : ''}${percent} vs previous period`, { exact: false }),
    ).toBeInTheDocument();
  });

  it('table: the table alone, no chart', async () => {
    render(<InsightResult insight={await insightOf(FILTERS.table)} title="Chart test" />);
    expect(screen.getByRole('table', { name: 'Chart test: data' })).toBeInTheDocument();
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it('paths with a start point that matches nothing say so, and how points are matched', () => {
    render(
      <InsightResult
        insight={{ filters: { insight: 'PATHS', start_point: '/pricing' }, query: null, result: [] }}
        title="Paths test"
      />,
    );
    expect(
      screen.getByText(/^No paths start at “\/pricing” in this date range\. A start or end point is matched whole/),
    ).toBeInTheDocument();
    cleanup();
    render(<InsightResult insight={{ filters: { insight: 'PATHS' }, query: null, result: [] }} title="Paths test" />);
    expect(screen.getByText("There is nothing to show for this insight's date range yet.")).toBeInTheDocument();
  });

  it('stale: the result stays, dimmed and busy while a new one loads; held back, it says so and is not busy', async () => {
    const insight = await insightOf(FILTERS.table);
    const { container, rerender } = render(<InsightResult insight={insight} title="Chart test" stale="loading" />);
    expect(container.firstElementChild).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Updating…');
    expect(screen.getByRole('table', { name: 'Chart test: data' })).toBeInTheDocument();
    rerender(<InsightResult insight={insight} title="Chart test" stale="held" />);
    expect(container.firstElementChild).not.toHaveAttribute('aria-busy');
    expect(screen.getByRole('status')).toHaveTextContent(/^Not updated$/);
    expect(screen.getByRole('table', { name: 'Chart test: data' })).toBeInTheDocument();
  });
});

describe('InsightResult: funnels, retention, paths', () => {
  it('funnel steps: the converted and dropped counts call back with their step', async () => {
    const user = userEvent.setup();
    const onFunnelPersons = vi.fn();
    render(
      <InsightResult insight={await insightOf(FILTERS.funnel)} title="Chart test" onFunnelPersons={onFunnelPersons} />,
    );
    await user.click(await within(figure()).findByRole('button', { name: 'Step 2: 6 converted' }));
    expect(onFunnelPersons).toHaveBeenLastCalledWith({ step: 2, dropped: false });
    await user.click(within(figure()).getByRole('button', { name: 'Step 3: 3 dropped off' }));
    expect(onFunnelPersons).toHaveBeenLastCalledWith({ step: 3, dropped: true });
  });

  it('funnel steps with a breakdown: grouped per value, the value in the callback; without a callback, text', async () => {
    const user = userEvent.setup();
    const onFunnelPersons = vi.fn();
    const insight = await insightOf(FILTERS.funnelByBrowser);
    const { unmount } = render(
      <InsightResult insight={insight} title="Chart test" onFunnelPersons={onFunnelPersons} />,
    );
    await user.click(await within(figure()).findByRole('button', { name: 'Chrome, Step 2: 2 converted' }));
    expect(onFunnelPersons).toHaveBeenLastCalledWith({ step: 2, dropped: false, breakdownValue: 'Chrome' });
    expect(
      within(screen.getByRole('table', { name: 'Chart test: data' })).getByRole('columnheader', { name: 'Chrome' }),
    ).toBeInTheDocument();
    unmount();
    render(<InsightResult insight={insight} title="Chart test" />);
    expect(await within(figure()).findAllByText(/converted/)).not.toHaveLength(0);
    expect(within(figure()).queryByRole('button')).toBeNull();
  });

  it('time to convert and funnel trends: drawn', async () => {
    const { unmount } = render(<InsightResult insight={await insightOf(FILTERS.timeToConvert)} title="Chart test" />);
    await waitFor(() => expect(figure().querySelectorAll('.recharts-bar-rectangle').length).toBeGreaterThan(0));
    expect(within(figure()).getByText(/Average time to convert/)).toBeInTheDocument();
    expect([...figure().querySelectorAll('[data-axis-title]')].map((t) => t.textContent)).toEqual([
      'Persons',
      'Time to convert',
    ]);
    unmount();
    render(<InsightResult insight={await insightOf(FILTERS.funnelTrends)} title="Chart test" />);
    await waitFor(() => expect(lines()).toHaveLength(1));
    expect(within(figure()).getAllByText(/^\d+(\.\d)?%$/).length).toBeGreaterThan(1);
    expect(figure().querySelector('[data-axis-title="y"]')).toHaveTextContent('Conversion rate');
  });

  it('retention: the curve, and the grid shaded by the share retained', async () => {
    render(<InsightResult insight={await insightOf(FILTERS.retention)} title="Chart test" />);
    await waitFor(() => expect(figure().querySelectorAll('.recharts-line-curve')).toHaveLength(1));
    const table = screen.getByRole('table', { name: 'Chart test: data' });
    const first = within(table).getAllByRole('cell')[0]!;
    expect(first).toHaveTextContent('(100%)');
    expect(first.style.backgroundColor).toMatch(/^rgba?\(67, 56, 202/);
    expect(within(table).getByRole('rowheader', { name: 'Average' })).toBeInTheDocument();
  });

  it('paths: a Sankey link per edge with its count; hovering one highlights its path', async () => {
    // 80 more persons on one path yesterday, and 2 on another: beside the first, the second's link is thin.
    const { api_token: token } = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').get(PROJECT) as {
      api_token: string;
    };
    const at = Date.now() - 86_400_000;
    const walk = (persons: number, pages: string[], name: string) =>
      Array.from({ length: persons }, (_, p) =>
        pages.map((page, k) => ({
          event: '$pageview',
          distinct_id: `${name}-${p}`,
          timestamp: new Date(at + k * 60_000).toISOString(),
          properties: { $current_url: `https://example.com${page}` },
        })),
      ).flat();
    const batch = [...walk(80, ['/landing', '/welcome'], 'many'), ...walk(2, ['/rare', '/rarer'], 'few')];
    await api().call('POST', '/batch/', { api_key: token, batch });
    const insight = await insightOf(FILTERS.paths);
    render(<InsightResult insight={insight} title="Chart test" />);
    await waitFor(() => expect(figure().querySelectorAll('[data-path-link]').length).toBeGreaterThan(2));
    // A link thick enough carries its count (the API's edge value); a thin one shows it when pointed at.
    const edges = (insight.result as Array<{ source: string; target: string; value: number }>).filter(
      (e) => e.value > 0 && e.source !== e.target,
    );
    const drawn = [...figure().querySelectorAll('[data-path-link]')].map((path) => ({
      path,
      width: Number(path.getAttribute('stroke-width')),
      count: path.parentElement!.querySelector('[data-link-count]')?.textContent ?? null,
    }));
    expect(
      drawn.map((d) => Number(d.path.querySelector('title')!.textContent!.split(': ').at(-1))).sort((a, b) => a - b),
    ).toEqual(edges.map((e) => e.value).sort((a, b) => a - b));
    for (const link of drawn) {
      const value = link.path.querySelector('title')!.textContent!.split(': ').at(-1);
      expect(link.count).toBe(link.width >= LABELLED_WIDTH ? value : null);
    }
    // The fixture has both: thick links with their counts, and thin ones that show theirs when pointed at.
    expect(drawn.some((d) => d.count !== null)).toBe(true);
    const thin = drawn.find((d) => d.count === null)!;
    expect(thin).toBeDefined();
    fireEvent.mouseEnter(thin.path);
    expect(thin.path.parentElement!.querySelector('[data-link-count]')).toHaveTextContent(
      thin.path.querySelector('title')!.textContent!.split(': ').at(-1)!,
    );
    fireEvent.mouseLeave(thin.path);
    const links = [...figure().querySelectorAll('[data-path-link]')];
    fireEvent.mouseEnter(links[0]!);
    const opacities = [...figure().querySelectorAll('[data-path-link]')].map((link) =>
      link.getAttribute('stroke-opacity'),
    );
    expect(opacities[0]).toBe('0.6');
    expect(opacities).toContain('0.08');
    expect(within(figure()).getByText(/→ .*persons$/)).toBeInTheDocument();
    // Wider than a phone: the diagram says it scrolls (the hint is hidden from `sm` up by CSS).
    expect(within(figure()).getByText('Scroll the diagram sideways to see every step.')).toBeInTheDocument();
  });
});

describe('InsightResult: downloads', () => {
  afterEach(() => vi.restoreAllMocks());

  it('Download CSV saves the table as CSV named after the title', async () => {
    const user = userEvent.setup();
    // jsdom has no object URLs and does not download: record the Blob and the anchor clicked.
    const blobs: Blob[] = [];
    URL.createObjectURL = (blob: Blob | MediaSource) => (blobs.push(blob as Blob), 'blob:chart-test');
    URL.revokeObjectURL = () => {};
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    render(<InsightResult insight={await insightOf(FILTERS.funnel)} title="Signup → purchase, Q4" downloads />);
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(clicked[0]!.download).toBe('Signup-purchase-Q4.csv');
    expect(clicked[0]!.href).toBe('blob:chart-test');
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const text = await blobs[0]!.text();
    expect(text.split('\r\n').slice(0, 3)).toEqual([
      'Step,Persons,Conversion,From previous step,Dropped off,Average time,Median time',
      '1. user signed up,10,100%,100%,,,',
      '2. created project,6,60%,60%,4,35m,35m',
    ]);
    expect(screen.getByRole('button', { name: 'Download PNG' })).toBeInTheDocument();
  });

  it('no download buttons unless asked', async () => {
    render(<InsightResult insight={await insightOf(FILTERS.table)} title="Chart test" />);
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });
});
