import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mswServer, renderApp, setupTestApi } from '@testing';
import { ingestPickerEvents } from '@testing/picker-harness';

// jsdom has no scrollIntoView; cmdk (the event picker) calls it on the active item.
if (typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = () => {};

const api = setupTestApi();
const PROJECT = 1;

/** The bodies the app POSTs to an analysis endpoint (`retention`, `path`). */
function recordBodies(endpoint: string): Record<string, unknown>[] {
  const sent: Record<string, unknown>[] = [];
  mswServer.events.on('request:start', ({ request }) => {
    if (request.method === 'POST' && new URL(request.url).pathname.endsWith(`/insights/${endpoint}/`)) {
      void request
        .clone()
        .json()
        .then((body: Record<string, unknown>) => sent.push(body));
    }
  });
  return sent;
}

/** A daily retention over the picker's events, opened in the app, and the bodies it sends. */
async function dailyRetention() {
  await ingestPickerEvents(api().call, PROJECT);
  const sent = recordBodies('retention');
  const { user } = renderApp(`/projects/${PROJECT}/insights/new/retention?period=%22Day%22`, {
    apiKey: api().demoKey,
  });
  expect(await screen.findByRole('heading', { level: 1, name: 'New retention' })).toBeInTheDocument();
  return { sent, user };
}

describe('retention and paths builders', { timeout: 30_000 }, () => {
  it('retention: period, number of periods and recurring reach the request', async () => {
    const sent = recordBodies('retention');
    const { user } = renderApp(`/projects/${PROJECT}/insights/new/retention`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'New retention' })).toBeInTheDocument();
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({ period: 'Week', total_intervals: 8, target_entity: { id: '$pageview' } }),
    );

    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'Day');
    const periods = screen.getByRole('spinbutton', { name: 'Number of periods' });
    await user.clear(periods);
    await user.type(periods, '12');
    await user.click(screen.getByRole('radio', { name: /Recurring/ }));
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({ period: 'Day', total_intervals: 12, retention_type: 'retention_recurring' }),
    );

    // Over 100 periods: the contract's words at the field, and nothing sent.
    const count = sent.length;
    await user.type(periods, '5');
    expect(await screen.findAllByText('Ensure this value is less than or equal to 100.')).not.toHaveLength(0);
    expect(periods).toHaveAttribute('aria-invalid', 'true');
    await new Promise((r) => setTimeout(r, 400));
    expect(sent.length).toBe(count);
  });

  it('retention by a breakdown: the property reaches the request, and the table has a part per value', async () => {
    const { sent, user } = await dailyRetention();
    await user.click(screen.getByRole('button', { name: 'Breakdown by: Add breakdown' }));
    const list = await screen.findByRole('listbox', { name: 'Event properties' });
    await user.click(await within(list).findByRole('option', { name: /^Browser\s*\$browser/ }));
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ breakdown: '$browser', breakdown_type: 'event' }));
    const table = await screen.findByRole('table', { name: 'New retention: data' });
    // The picker's events: Chrome and Firefox pageviews in the last day and a half.
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: 'Chrome' })).toBeInTheDocument());
    expect(within(table).getByRole('columnheader', { name: 'Firefox' })).toBeInTheDocument();
  });

  it('retention by several breakdowns and a binned one: each combination a part of the table', async () => {
    const { sent, user } = await dailyRetention();
    const pick = async (name: RegExp) =>
      user.click(
        await within(await screen.findByRole('listbox', { name: 'Event properties' })).findByRole('option', { name }),
      );
    await user.click(screen.getByRole('button', { name: 'Breakdown by: Add breakdown' }));
    await pick(/^Browser\s*\$browser/);
    await user.click(await screen.findByRole('button', { name: 'Add breakdown' }));
    await pick(/\$current_url/);
    const breakdowns = [
      { property: '$browser', type: 'event' },
      { property: '$current_url', type: 'event' },
    ];
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ breakdowns }));
    expect(sent.at(-1)).not.toHaveProperty('breakdown');
    const table = await screen.findByRole('table', { name: 'New retention: data' });
    // Each person's first pageview (the picker's events): Chrome or Firefox, on home or pricing.
    await waitFor(() =>
      expect(
        within(table).getByRole('columnheader', { name: 'Chrome · https://hedgebox.example/home' }),
      ).toBeInTheDocument(),
    );
    expect(
      within(table).getByRole('columnheader', { name: 'Firefox · https://hedgebox.example/home' }),
    ).toBeInTheDocument();

    // A third, numeric: it may be binned, and no fourth is offered.
    await user.click(screen.getByRole('button', { name: 'Add breakdown' }));
    await pick(/amount/);
    expect(screen.queryByRole('button', { name: 'Add breakdown' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('checkbox', { name: 'Bin breakdown 3 into buckets' }));
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({
        breakdowns: [...breakdowns, { property: 'amount', type: 'event', histogram_bin_count: 10 }],
      }),
    );
  });

  it('paths: event types, step limit, a start point and a cleaning rule whose regex is checked as it is typed', async () => {
    const sent = recordBodies('path');
    const { user } = renderApp(`/projects/${PROJECT}/insights/new/paths`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'New paths' })).toBeInTheDocument();
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ include_event_types: ['$pageview'], step_limit: 5 }));

    await user.click(screen.getByRole('checkbox', { name: 'Custom events' }));
    const steps = screen.getByRole('spinbutton', { name: 'Steps' });
    await user.clear(steps);
    await user.type(steps, '8');
    await user.type(screen.getByRole('combobox', { name: 'Starts at' }), 'https://hedgebox.example/');
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({
        include_event_types: ['$pageview', 'custom_event'],
        step_limit: 8,
        start_point: 'https://hedgebox.example/',
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    const regex = screen.getByRole('textbox', { name: 'Rule 1 regex' });
    await user.clear(regex);
    // `[[` types one `[` (user-event's key syntax).
    await user.type(regex, '([[a-z');
    expect(await screen.findAllByText('Enter a valid regular expression.')).not.toHaveLength(0);
    expect(regex).toHaveAttribute('aria-invalid', 'true');
    await user.type(regex, ']+)');
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({ local_path_cleaning_filters: [{ regex: '([a-z]+)', alias: '/:id' }] }),
    );
    expect(regex).not.toHaveAttribute('aria-invalid');
  });

  it('paths by a HogQL expression: its field appears with the type, reaches the request, and a refused expression is said under it', async () => {
    const sent = recordBodies('path');
    const { user, router } = renderApp(`/projects/${PROJECT}/insights/new/paths`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'New paths' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Path item (HogQL)' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'HogQL expression' }));
    const field = await screen.findByRole('textbox', { name: 'Path item (HogQL)' });
    await user.type(field, 'nope(event)');
    await waitFor(() => expect(field).toHaveAccessibleDescription(/nope/));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    await user.type(field, 'lower(event)');
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({
        include_event_types: ['$pageview', 'hogql'],
        paths_hogql_expression: 'lower(event)',
      }),
    );
    await waitFor(() => expect(field).not.toHaveAttribute('aria-invalid'));
    expect(router.state.location.search).toMatchObject({ paths_hogql_expression: 'lower(event)' });
  });

  it('retention: a URL without its events shows the pageviews the API counts, not all events', async () => {
    const sent = recordBodies('retention');
    renderApp(`/projects/${PROJECT}/insights/new/retention?period=%22Day%22`, { apiKey: api().demoKey });
    expect(await screen.findByRole('button', { name: 'First did: Pageview' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Came back to do: Pageview' })).toBeInTheDocument();
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ period: 'Day' }));
    expect(sent.at(-1)).not.toHaveProperty('target_entity.id', null);
  });

  it('retention: the "First did" and "Came back to do" events reach the request, and the URL keeps them', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const sent = recordBodies('retention');
    const { user, router } = renderApp(`/projects/${PROJECT}/insights/new/retention`, { apiKey: api().demoKey });
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({ target_entity: { id: '$pageview' }, returning_entity: { id: '$pageview' } }),
    );

    await user.click(await screen.findByRole('button', { name: 'First did: Pageview' }));
    await user.click(await screen.findByRole('option', { name: /^user signed up/ }));
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({
        target_entity: { id: 'user signed up', type: 'events' },
        returning_entity: { id: '$pageview' },
      }),
    );
    expect(screen.getByRole('button', { name: 'First did: user signed up' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Came back to do: Pageview' }));
    await user.click(await screen.findByRole('option', { name: /^purchase/ }));
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({
        target_entity: { id: 'user signed up' },
        returning_entity: { id: 'purchase', type: 'events' },
      }),
    );
    expect(screen.getByRole('button', { name: 'Came back to do: purchase' })).toBeInTheDocument();
    expect(router.state.location.search).toMatchObject({
      target_entity: { id: 'user signed up' },
      returning_entity: { id: 'purchase' },
    });
  });

  it('paths: an end point, and excluded events added, changed and removed, reach the request', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const sent = recordBodies('path');
    const { user, router } = renderApp(`/projects/${PROJECT}/insights/new/paths`, { apiKey: api().demoKey });
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ step_limit: 5 }));
    expect(sent.at(-1)).not.toHaveProperty('end_point');
    expect(sent.at(-1)).not.toHaveProperty('exclude_events');

    const end = screen.getByRole('combobox', { name: 'Ends at' });
    await user.type(end, 'https://hedgebox.example/pricing');
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ end_point: 'https://hedgebox.example/pricing' }));

    const excluded = screen.getByRole('region', { name: 'Exclude events' });
    await user.click(within(excluded).getByRole('button', { name: 'Exclude an event' }));
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({
        end_point: 'https://hedgebox.example/pricing',
        exclude_events: ['$pageleave'],
      }),
    );

    // Each row's picker changes its event; a second row is added after the first.
    await user.click(within(excluded).getByRole('button', { name: 'Excluded event 1: Pageleave' }));
    await user.click(await screen.findByRole('option', { name: /^purchase/ }));
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ exclude_events: ['purchase'] }));
    await user.click(within(excluded).getByRole('button', { name: 'Exclude an event' }));
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ exclude_events: ['purchase', '$pageleave'] }));
    await user.click(within(excluded).getByRole('button', { name: 'Excluded event 2: Pageleave' }));
    await user.click(await screen.findByRole('option', { name: /^user signed up/ }));
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ exclude_events: ['purchase', 'user signed up'] }));

    // Removing the first keeps the second.
    await user.click(within(excluded).getByRole('button', { name: 'Remove excluded event 1' }));
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({
        end_point: 'https://hedgebox.example/pricing',
        exclude_events: ['user signed up'],
      }),
    );
    expect(within(excluded).getByRole('button', { name: 'Excluded event 1: user signed up' })).toBeInTheDocument();

    // Removing the last leaves none in the URL the chart follows (the answer for that state
    // was already fetched, so it is reused rather than asked again).
    await user.click(within(excluded).getByRole('button', { name: 'Remove excluded event 1' }));
    await waitFor(() => expect(router.state.location.search).not.toHaveProperty('exclude_events'));
    expect(within(excluded).queryByRole('button', { name: /^Excluded event/ })).not.toBeInTheDocument();
    expect(router.state.location.search).toMatchObject({ end_point: 'https://hedgebox.example/pricing' });
    expect(sent.some((b) => Array.isArray(b.exclude_events) && b.exclude_events.length === 0)).toBe(false);
  });

  it('a builder kind that does not exist is a page not found, not a blank builder', async () => {
    renderApp(`/projects/${PROJECT}/insights/new/nonsense`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
