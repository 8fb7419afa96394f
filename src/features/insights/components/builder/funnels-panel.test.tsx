import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { FunnelParamsInput } from '@/contract/analytics-params';
import { setupTestApi } from '@testing';
import { ingestPickerEvents } from '@testing/picker-harness';
import { resetCredentialsStore, setCredentials } from '@/lib/auth-store';
import { createQueryClient } from '@/lib/query-client';
import { stateIssues } from './builder-state';
import { FunnelsPanel } from './funnels-panel';

// jsdom has no scrollIntoView; cmdk (the event picker) calls it on the active item.
if (typeof Element.prototype.scrollIntoView !== 'function') Element.prototype.scrollIntoView = () => {};

const api = setupTestApi();
const PROJECT = 1;

const initial: FunnelParamsInput = {
  events: [
    { id: 'fx visit', name: 'fx visit', type: 'events', order: 0 },
    { id: 'fx signup', name: 'fx signup', type: 'events', order: 1 },
    { id: 'fx pay', name: 'fx pay', type: 'events', order: 2 },
  ],
  date_from: '-30d',
  funnel_window_interval: 14,
  funnel_window_interval_unit: 'day',
  funnel_order_type: 'ordered',
  funnel_viz_type: 'steps',
};

/** The steps' events and one other ("fx other", the most used), so the pickers have names. */
async function ingest() {
  const token = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').pluck().get(PROJECT) as string;
  const batch = ['fx other', 'fx other', 'fx other', 'fx visit', 'fx signup', 'fx pay'].map((event, i) => ({
    event,
    distinct_id: `fx-${i}`,
  }));
  await api().call('POST', '/batch/', { api_key: token, batch });
}

/** The panel as the builder holds it: the state, and the contract's complaints as errorFor. */
function renderPanel(start: FunnelParamsInput = initial) {
  resetCredentialsStore();
  setCredentials({ baseUrl: window.location.origin, key: api().demoKey }, false);
  const client = createQueryClient({ onUnauthorized: () => undefined });
  const seen: { state: FunnelParamsInput } = { state: start };
  function Harness() {
    const [state, setState] = useState(start);
    const issues = stateIssues('funnels', state);
    return (
      <FunnelsPanel
        projectId={PROJECT}
        state={state}
        onChange={(next) => {
          seen.state = next;
          setState(next);
        }}
        errorFor={(attr) => issues.get(attr)}
      />
    );
  }
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <Harness />
    </QueryClientProvider>,
  );
  return { user, seen };
}

describe('funnels panel', () => {
  it('sets the conversion window, and says when it is longer than the contract allows', async () => {
    const { user, seen } = renderPanel();
    const length = screen.getByRole('spinbutton', { name: 'Conversion window length' });
    await user.clear(length);
    expect(screen.getByText('Enter a whole number, 1 or more.')).toBeInTheDocument();
    await user.type(length, '3');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Conversion window unit' }), 'weeks');
    expect(seen.state).toMatchObject({ funnel_window_interval: 3, funnel_window_interval_unit: 'week' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Conversion window unit' }), 'months');
    await user.clear(length);
    await user.type(length, '13');
    expect(seen.state).toMatchObject({ funnel_window_interval: 13, funnel_window_interval_unit: 'month' });
    expect(length).toHaveAccessibleDescription(/at most 366 days.*The conversion window can be at most 366 days/);
    expect(length).toBeInvalid();
  });

  it('reads a legacy window in days and writes it under the production names', async () => {
    const { user, seen } = renderPanel({ events: initial.events, funnel_window_days: 7 });
    const length = screen.getByRole('spinbutton', { name: 'Conversion window length' });
    expect(length).toHaveValue(7);
    expect(screen.getByRole('combobox', { name: 'Conversion window unit' })).toHaveDisplayValue('days');
    await user.type(length, '0');
    expect(seen.state).toMatchObject({ funnel_window_interval: 70, funnel_window_interval_unit: 'day' });
    expect(seen.state).not.toHaveProperty('funnel_window_days');
  });

  it('changes the step order and the graph type', async () => {
    const { user, seen } = renderPanel();
    const order = screen.getByRole('combobox', { name: 'Step order' });
    expect(order).toHaveAccessibleDescription('Steps in this order; other events may happen between them.');
    await user.selectOptions(order, 'Strict order');
    expect(seen.state.funnel_order_type).toBe('strict');
    await user.selectOptions(order, 'Any order');
    expect(seen.state.funnel_order_type).toBe('unordered');
    expect(screen.queryByRole('combobox', { name: 'Interval' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Graph type' }), 'Conversion over time');
    expect(seen.state.funnel_viz_type).toBe('trends');
    // Conversion over time is a time series: its interval appears.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Interval' }), 'Week');
    expect(seen.state.interval).toBe('week');
    expect(screen.queryByRole('combobox', { name: 'Time from step' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Graph type' }), 'Time to convert');
    expect(seen.state.funnel_viz_type).toBe('time_to_convert');
    // Between any two steps: the first and the last unless chosen; an end past the other is not offered.
    const from = screen.getByRole('combobox', { name: 'Time from step' });
    const to = screen.getByRole('combobox', { name: 'To step' });
    expect(from).toHaveValue('0');
    expect(to).toHaveValue(String(within(to).getAllByRole('option').length - 1));
    await user.selectOptions(from, '1');
    expect(seen.state.funnel_from_step).toBe(1);
    expect(within(to).getByRole('option', { name: /^Step 2:/ })).toBeDisabled();
    await user.selectOptions(to, '2');
    await user.selectOptions(from, '0');
    expect(seen.state).not.toHaveProperty('funnel_from_step');
  });

  it('adds, edits and removes exclusions, with the contract’s errors at the row', async () => {
    await ingest();
    const { user, seen } = renderPanel();
    await user.click(screen.getByRole('button', { name: 'Add exclusion' }));
    // The most used event that is not a step, over the whole funnel.
    const row = (await screen.findByRole('button', { name: 'Exclusion 1 event: fx other' })).closest('li')!;
    expect(seen.state.exclusions).toEqual([
      { id: 'fx other', name: 'fx other', type: 'events', funnel_from_step: 0, funnel_to_step: 2 },
    ]);
    const from = within(row).getByRole('combobox', { name: 'Exclusion 1: from step' });
    const to = within(row).getByRole('combobox', { name: 'Exclusion 1: to step' });
    expect(
      within(to)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Step 1: fx visit', 'Step 2: fx signup', 'Step 3: fx pay']);

    await user.selectOptions(from, 'Step 2: fx signup');
    await user.selectOptions(to, 'Step 2: fx signup');
    expect(
      within(row).getByText('Exclusion event range is invalid. End of range should be greater than start.'),
    ).toBeInTheDocument();
    expect(to).toBeInvalid();
    await user.selectOptions(to, 'Step 3: fx pay');
    expect(within(row).queryByText(/range is invalid/)).not.toBeInTheDocument();
    expect(seen.state.exclusions?.[0]).toMatchObject({ funnel_from_step: 1, funnel_to_step: 2 });

    // Any order takes only whole-funnel exclusions.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Step order' }), 'Any order');
    expect(within(row).getByText('Partial Exclusions not allowed in unordered funnels.')).toBeInTheDocument();
    expect(from).toBeInvalid();
    await user.selectOptions(from, 'Step 1: fx visit');
    expect(within(row).queryByText(/Partial Exclusions/)).not.toBeInTheDocument();

    // A step's own event cannot be excluded within its range.
    await user.click(within(row).getByRole('button', { name: 'Exclusion 1 event: fx other' }));
    await user.click(await screen.findByRole('option', { name: /^fx signup/ }));
    expect(
      within(row).getByText("Exclusion steps cannot contain an event that's part of funnel steps."),
    ).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Remove exclusion 1' }));
    expect(seen.state).not.toHaveProperty('exclusions');
    expect(screen.queryByRole('button', { name: /^Exclusion 1 event/ })).not.toBeInTheDocument();
  });

  it('shows a step removed from under an exclusion as an error at the row', () => {
    renderPanel({
      ...initial,
      events: initial.events!.slice(0, 2),
      exclusions: [{ id: 'fx other', type: 'events', funnel_from_step: 0, funnel_to_step: 2 }],
    });
    expect(screen.getByRole('combobox', { name: 'Exclusion 1: to step' })).toHaveDisplayValue('Step 3 (removed)');
    expect(
      screen.getByText('Exclusion event range is invalid. End of range is greater than number of steps.'),
    ).toBeInTheDocument();
  });

  it('edits the steps: move, remove, add', async () => {
    const { user, seen } = renderPanel();
    const names = () => (seen.state.events as Array<{ id: string; order: number }>).map((e) => [e.id, e.order]);
    await user.click(screen.getByRole('button', { name: 'Move step 1 down' }));
    expect(names()).toEqual([
      ['fx signup', 0],
      ['fx visit', 1],
      ['fx pay', 2],
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove step 3' }));
    expect(names()).toEqual([
      ['fx signup', 0],
      ['fx visit', 1],
    ]);
    await user.click(screen.getByRole('button', { name: 'Add step' }));
    expect(seen.state.events).toHaveLength(3);
    expect(within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('bins a numeric breakdown into buckets, as trends do; a text one is not offered buckets', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, seen } = renderPanel({ ...initial, breakdown: '$browser', breakdown_type: 'event' });
    expect(screen.queryByRole('checkbox', { name: /into buckets/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Breakdown by: Browser' }));
    await user.click(
      await within(await screen.findByRole('listbox', { name: 'Event properties' })).findByRole('option', {
        name: /amount/,
      }),
    );
    await user.click(await screen.findByRole('checkbox', { name: 'Bin breakdown into buckets' }));
    expect(seen.state).toMatchObject({ breakdown: 'amount', breakdown_histogram_bin_count: 10 });
    const buckets = screen.getByRole('spinbutton', { name: 'Number of buckets for breakdown' });
    await user.clear(buckets);
    await user.type(buckets, '3');
    expect(seen.state.breakdown_histogram_bin_count).toBe(3);
  });

  it('says it aggregates by persons, and toggles test accounts', async () => {
    const { user, seen } = renderPanel();
    expect(screen.getByText('Aggregating by:').parentElement).toHaveTextContent('Aggregating by: Persons');
    await user.click(screen.getByRole('switch', { name: 'Filter out internal and test users' }));
    expect(seen.state.filter_test_accounts).toBe(true);
  });
});
