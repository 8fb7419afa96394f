import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { insightEndpoints } from '@/contract/insights';
import { mswServer, renderApp, setupTestApi, slowDown } from '@testing';

const api = setupTestApi();
/** The first result needs the chart code and the server's answer: more than a second on a busy machine. */
const SLOW = { timeout: 8000 };
const PROJECT = 1;
const TREND_URL = `/projects/${PROJECT}/insights/new/trends`;

interface Sent {
  body: Record<string, unknown>;
  signal: AbortSignal;
}

/** Every trend request the app sends, with its body and its abort signal. */
function recordTrendRequests(): Sent[] {
  const sent: Sent[] = [];
  mswServer.events.on('request:start', ({ request }) => {
    if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/insights/trend/')) return;
    const { signal } = request;
    void request
      .clone()
      .json()
      .then((body: Record<string, unknown>) => sent.push({ body, signal }));
  });
  return sent;
}

/** Pageviews for the last days, so the chart has numbers. */
async function ingestPageviews() {
  const { api_token: token } = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').get(PROJECT) as {
    api_token: string;
  };
  const now = Date.now();
  const batch = Array.from({ length: 30 }, (_, i) => ({
    event: i % 3 === 0 ? 'user signed up' : '$pageview',
    distinct_id: `person-${i % 7}`,
    timestamp: new Date(now - (i % 6) * 86_400_000 - 3_600_000).toISOString(),
    properties: { $browser: i % 2 ? 'Chrome' : 'Safari', $current_url: `https://hedgebox.example/${i % 4}` },
  }));
  await api().call('POST', '/batch/', { api_key: token, batch });
}

const lastBody = (sent: Sent[]) => sent.at(-1)?.body;

/**
 * The calendar of the custom date range, moved back `months` from the month it opened on: its
 * grid, and the day button of the `day`th as `YYYY-MM-DD` (read from the calendar's own caption,
 * so a test that starts just before midnight picks what the calendar shows).
 */
async function calendarMonthsBack(user: User, months: number) {
  const dialog = await screen.findByRole('dialog', { name: 'Choose the dates' });
  for (let i = 0; i < months; i += 1)
    await user.click(within(dialog).getByRole('button', { name: 'Go to the Previous Month' }));
  const grid = within(dialog).getByRole('grid');
  const caption = grid.getAttribute('aria-label') ?? '';
  const first = new Date(`${caption} 1`);
  const monthName = first.toLocaleString('en-US', { month: 'long' });
  const iso = (d: number) =>
    `${first.getFullYear()}-${String(first.getMonth() + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const ordinal = (d: number) =>
    `${d}${d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th'}`;
  const dayButton = (d: number) =>
    within(grid).getByRole('button', { name: new RegExp(`\\b${monthName} ${ordinal(d)}, ${first.getFullYear()}`) });
  return { dialog, caption, iso, dayButton };
}

type User = ReturnType<typeof renderApp>['user'];
type Calendar = Awaited<ReturnType<typeof calendarMonthsBack>>;

/** Clicks day `from`, then day `to`, of the open calendar; resolves once a request asks for that range. */
async function pickDays(user: User, sent: Sent[], calendar: Calendar, from: number, to: number) {
  await user.click(calendar.dayButton(from));
  await user.click(calendar.dayButton(to));
  await waitFor(() =>
    expect(lastBody(sent)).toMatchObject({ date_from: calendar.iso(from), date_to: calendar.iso(to) }),
  );
}

/** Closes the calendar (Escape) and opens it again from its trigger, at the month it opens on. */
async function reopenCalendar(user: User, calendar: Calendar): Promise<Calendar> {
  await user.keyboard('{Escape}');
  await waitFor(() => expect(calendar.dialog).not.toBeInTheDocument());
  await user.click(screen.getByRole('button', { name: /^Custom dates: / }));
  return calendarMonthsBack(user, 0);
}

describe('trends builder', { timeout: 30_000 }, () => {
  it('opens with one pageview series over the last 7 days, the chart and its table', async () => {
    await ingestPageviews();
    const sent = recordTrendRequests();
    renderApp(TREND_URL, { apiKey: api().demoKey });
    const table = await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    expect(within(table).getByRole('columnheader', { name: 'Pageview' })).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'New trend: chart' })).toBeInTheDocument();
    expect(lastBody(sent)).toMatchObject({
      events: [{ id: '$pageview', math: 'total' }],
      date_from: '-7d',
      interval: 'day',
    });
    // 20 pageviews were ingested in the range: the table sums to them.
    const cells = within(table)
      .getAllByRole('cell')
      .map((c) => Number(c.textContent?.replace(/,/g, '')));
    expect(cells.reduce((a, b) => a + (Number.isNaN(b) ? 0 : b), 0)).toBe(20);
  });

  it('each control changes the request: interval, compare, date range, display — and the URL keeps them', async () => {
    const sent = recordTrendRequests();
    const { user, router } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Interval' }), 'week');
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ interval: 'week' }));

    await user.click(screen.getByRole('switch', { name: 'Compare to the previous period' }));
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ interval: 'week', compare: true }));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Date range' }), 'Last 30 days');
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ date_from: '-30d', compare: true }));

    await user.click(screen.getByRole('switch', { name: 'Filter out internal and test users' }));
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ filter_test_accounts: true }));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Chart type' }), 'World map');
    await waitFor(() =>
      expect(lastBody(sent)).toMatchObject({
        display: 'WorldMap',
        breakdown: '$geoip_country_code',
        breakdown_type: 'event',
      }),
    );
    expect(screen.getByText(/broken down by country code/)).toBeInTheDocument();

    expect(router.state.location.search).toMatchObject({
      interval: 'week',
      compare: true,
      date_from: '-30d',
      filter_test_accounts: true,
      display: 'WorldMap',
    });
    // Back steps through the edits: the world map is undone, the controls follow.
    router.history.back();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Chart type' })).toHaveValue('ActionsLineGraph'));
    expect(router.state.location.search).toMatchObject({ display: 'ActionsLineGraph', filter_test_accounts: true });
  });

  it('a click after a pause recomputes at once; quick edits after it are gathered into one request', async () => {
    const sent = recordTrendRequests();
    const { router } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const interval = screen.getByRole('combobox', { name: 'Interval' });
    const choose = (value: string) => fireEvent.change(interval, { target: { value } });

    // Three choices in one go, the clock held still between them (so the test does not depend on
    // how fast this machine renders). The first after the pause reaches the URL in its own change
    // handler: the history has it at once, with no debounce to wait out.
    const clock = vi.spyOn(performance, 'now').mockReturnValue(performance.now());
    try {
      choose('week');
      expect(new URLSearchParams(router.history.location.search).get('interval')).toBe('week');
      // The two that follow it at once are gathered: only the last is sent.
      choose('month');
      choose('hour');
    } finally {
      clock.mockRestore();
    }
    await waitFor(() => expect(router.state.location.search).toMatchObject({ interval: 'hour' }));
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ interval: 'hour' }));
    expect(sent.some((s) => s.body.interval === 'month')).toBe(false);
  });

  it('an edit sends one request: the page takes the one the edit started instead of asking again', async () => {
    const sent = recordTrendRequests();
    const { user } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    const table = () => screen.getByRole('table', { name: 'New trend: data' });
    const edits: Array<[() => Promise<void>, Record<string, unknown>]> = [
      [() => user.selectOptions(screen.getByRole('combobox', { name: 'Interval' }), 'week'), { interval: 'week' }],
      [
        () => user.click(screen.getByRole('switch', { name: 'Compare to the previous period' })),
        { interval: 'week', compare: true },
      ],
      [
        () => user.selectOptions(screen.getByRole('combobox', { name: 'Date range' }), 'Last 30 days'),
        { date_from: '-30d', compare: true },
      ],
    ];
    for (const [edit, expected] of edits) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = sent.length;
      await edit();
      await waitFor(() => expect(lastBody(sent)).toMatchObject(expected));
      // The answer is drawn (the URL has long been written): no second request followed.
      await waitFor(() => expect(within(table()).getAllByRole('row').length).toBeGreaterThan(1));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(sent.slice(before).map((s) => s.body)).toEqual([expect.objectContaining(expected)]);
    }
  });

  it("a custom range picked on the calendar is the request's date_from and date_to, and the button says it", async () => {
    const sent = recordTrendRequests();
    const { user, router } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Date range' }), 'Custom range…');
    // Two months back: both days lie before the 30 days "Custom range…" starts with.
    const calendar = await calendarMonthsBack(user, 2);
    const { dialog, iso, dayButton } = calendar;
    await pickDays(user, sent, calendar, 10, 20);
    expect(router.state.location.search).toMatchObject({ date_from: iso(10), date_to: iso(20) });
    // The picked days are shown selected, and the trigger names the range.
    expect(dayButton(10)).toHaveAccessibleName(/selected/);
    expect(dayButton(20)).toHaveAccessibleName(/selected/);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    const from = new Date(`${iso(10)}T00:00:00`);
    const label = (d: Date) => d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    expect(screen.getByRole('button', { name: /^Custom dates: / })).toHaveAccessibleName(
      `Custom dates: ${label(from)} – ${label(new Date(`${iso(20)}T00:00:00`))}`,
    );
    expect(screen.getByRole('combobox', { name: 'Date range' })).toHaveDisplayValue('Custom range…');
  });

  it('reopening the calendar, the two days picked are the new range ("Pick the first day, then the last")', async () => {
    const sent = recordTrendRequests();
    const { user } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Date range' }), 'Custom range…');
    const first = await calendarMonthsBack(user, 2);
    await pickDays(user, sent, first, 10, 20);

    // A narrower range inside the first: the 12th, then the 15th.
    const again = await reopenCalendar(user, first);
    expect(again.caption).toBe(first.caption);
    await pickDays(user, sent, again, 12, 15);
  });

  it('a day clicked twice is a range of one day; reopened, a click on it starts a new range', async () => {
    const sent = recordTrendRequests();
    const { user } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Date range' }), 'Custom range…');
    const month = await calendarMonthsBack(user, 2);
    await pickDays(user, sent, month, 10, 10);

    // The one-day range reopened: the 10th starts a new range, the 15th ends it.
    const again = await reopenCalendar(user, month);
    expect(again.caption).toBe(month.caption);
    await pickDays(user, sent, again, 10, 15);
  });

  it('refuses an hourly interval over 90 days at the control, saying why', async () => {
    const { user } = renderApp(`${TREND_URL}?date_from=%22-90d%22`, { apiKey: api().demoKey });
    const interval = await screen.findByRole('combobox', { name: 'Interval' });
    expect(within(interval).getByRole('option', { name: 'Hour (too many points)' })).toBeDisabled();
    expect(screen.getByText(/Hourly would make 2,1\d\d points; a chart holds at most 1,000\./)).toBeInTheDocument();
    await user.selectOptions(interval, 'week');
    expect(interval).toHaveValue('week');
  });

  it("checks the formula as it is typed, and shows the server's 400 beside it", async () => {
    const sent = recordTrendRequests();
    const { user } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    const formula = screen.getByRole('textbox', { name: 'Formula' });

    // B is not a series of this insight: the contract says so at once, and nothing is sent.
    await user.type(formula, 'B');
    expect(await screen.findAllByText(/"B" is not a series of this insight/)).not.toHaveLength(0);
    expect(formula).toHaveAttribute('aria-invalid', 'true');
    const before = sent.length;

    // "A *" passes the client's check; the server refuses it and its words land on the field.
    await user.clear(formula);
    await user.type(formula, 'A *');
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ formula: 'A *' }));
    expect(sent.length).toBeGreaterThan(before);
    await waitFor(() => expect(formula).toHaveAccessibleDescription(/formula/i));
    expect(formula).toHaveAttribute('aria-invalid', 'true');
    // The last chart stays, dimmed; the chart area names the problem too.
    expect(screen.getByRole('table', { name: 'New trend: data' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/not updated until this is fixed/);
  });

  it('several formulas on one chart: a line each, in the request as formulas, each error on its own field', async () => {
    const sent = recordTrendRequests();
    const { user, router } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    expect(screen.queryByRole('button', { name: 'Add a formula' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Formula' }), 'A * 2');
    await user.click(screen.getByRole('button', { name: 'Add a formula' }));
    const second = screen.getByRole('textbox', { name: 'Formula 2' });
    await user.type(second, 'C');
    expect(await screen.findAllByText(/"C" is not a series of this insight/)).not.toHaveLength(0);
    expect(second).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Formula' })).not.toHaveAttribute('aria-invalid');
    await user.clear(second);
    await user.type(second, 'A / 2');
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ formulas: ['A * 2', 'A / 2'] }));
    expect(lastBody(sent)).not.toHaveProperty('formula');
    const table = await screen.findByRole('table', { name: 'New trend: data' });
    await waitFor(() => expect(within(table).getByText('A / 2')).toBeInTheDocument(), SLOW);
    expect(within(table).getByText('A * 2')).toBeInTheDocument();
    // Back to one: it is the single `formula` again. Its result may come from the cache (the
    // builder may have asked for `A * 2` alone while it was typed), so the table and the URL say so.
    await user.click(screen.getByRole('button', { name: 'Remove formula 2' }));
    await waitFor(() => expect(within(table).queryByText('A / 2')).not.toBeInTheDocument());
    expect(within(table).getByText('A * 2')).toBeInTheDocument();
    expect(router.state.location.search).toMatchObject({ formula: 'A * 2' });
    expect(router.state.location.search).not.toHaveProperty('formulas');
  });

  it('several breakdowns: the request carries them, the URL keeps them, series are named by the values joined', async () => {
    await ingestPageviews();
    const sent = recordTrendRequests();
    const { user, router } = renderApp(TREND_URL, { apiKey: api().demoKey });
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    await user.click(screen.getByRole('button', { name: 'Breakdown by: Add breakdown' }));
    await user.click(
      await within(await screen.findByRole('listbox', { name: 'Event properties' })).findByRole('option', {
        name: /^Browser\s*\$browser/,
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Add breakdown' }));
    await user.click(
      await within(await screen.findByRole('listbox', { name: 'Event properties' })).findByRole('option', {
        name: /\$current_url/,
      }),
    );
    const breakdowns = [
      { property: '$browser', type: 'event' },
      { property: '$current_url', type: 'event' },
    ];
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ breakdowns }));
    expect(lastBody(sent)).not.toHaveProperty('breakdown');
    expect(router.state.location.search).toMatchObject({ breakdowns });
    const table = await screen.findByRole('table', { name: 'New trend: data' });
    // Chrome pageviews are on pages 1 and 3 (ingestPageviews).
    expect(await within(table).findByText('Chrome · https://hedgebox.example/1', {}, SLOW)).toBeInTheDocument();
    expect(within(table).getByText('Chrome · https://hedgebox.example/3')).toBeInTheDocument();
  });

  it('keeps the old chart visible, dimmed and busy, while the new one loads; a superseded request is aborted', async () => {
    const sent = recordTrendRequests();
    const { user } = renderApp(TREND_URL, { apiKey: api().demoKey });
    const table = await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    slowDown(insightEndpoints.trend, 1500);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Interval' }), 'week');
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ interval: 'week' }));
    expect(table).toBeInTheDocument();
    expect(table.closest('[aria-busy="true"]')).not.toBeNull();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Interval' }), 'month');
    await waitFor(() => expect(lastBody(sent)).toMatchObject({ interval: 'month' }));
    const week = sent.find((s) => s.body.interval === 'week');
    await waitFor(() => expect(week?.signal.aborted).toBe(true));

    await waitFor(
      () => expect(screen.getByRole('table', { name: 'New trend: data' }).closest('[aria-busy="true"]')).toBeNull(),
      { timeout: 4000 },
    );
  });
});
