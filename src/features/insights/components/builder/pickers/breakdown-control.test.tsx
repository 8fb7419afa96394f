import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setupTestApi } from '@testing';
import { BreakdownControl, type BreakdownValue } from './breakdown-control';
import { ingestPickerEvents, renderWithState } from '@testing/picker-harness';

const api = setupTestApi();
const PROJECT = 1;

function renderControl(initial: BreakdownValue, errors: Record<string, string> = {}) {
  return renderWithState<BreakdownValue>(api().demoKey, initial, (value, onChange) => (
    <BreakdownControl
      projectId={PROJECT}
      value={value}
      onChange={(next) => onChange({ ...value, ...next })}
      defaultLimit={25}
      errorFor={(attr) => errors[attr]}
    />
  ));
}

describe('BreakdownControl', () => {
  it('breaks down by an event property, with a limit', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderControl({});
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Breakdown by: Add breakdown' }));
    const list = await screen.findByRole('listbox', { name: 'Event properties' });
    await user.click(await within(list).findByRole('option', { name: /^Browser\s*\$browser/ }));
    expect(emitted.at(-1)).toEqual({ breakdown: '$browser', breakdown_type: 'event', breakdown_limit: 25 });

    const limit = screen.getByRole('spinbutton', { name: 'Show top' });
    expect(limit).toHaveValue(25);
    await user.clear(limit);
    await user.type(limit, '5');
    expect(emitted.at(-1)).toEqual({ breakdown: '$browser', breakdown_type: 'event', breakdown_limit: 5 });
    await user.type(limit, '0000');
    expect(limit).toHaveAccessibleDescription('Enter a whole number from 1 to 1000.');
    // 50, 500 were fine; 5000 is not sent.
    expect(emitted.at(-1)?.breakdown_limit).toBe(500);
  });

  it('breaks down by a cohort (its id in a list), without a limit', async () => {
    const cohort = await api().call<{ id: number }>('POST', `/api/projects/${PROJECT}/cohorts/`, {
      name: 'Power users',
      filters: { properties: { type: 'AND', values: [{ type: 'person', key: 'plan', value: 'pro' }] } },
    });
    const { user, emitted } = renderControl({});
    await user.click(screen.getByRole('button', { name: 'Breakdown by: Add breakdown' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Whose properties' })).getByRole('button', { name: 'Cohorts' }),
    );
    await user.click(
      await within(await screen.findByRole('listbox', { name: 'Cohorts' })).findByRole('option', {
        name: 'Power users',
      }),
    );
    expect(emitted.at(-1)).toEqual({ breakdown: [cohort.id], breakdown_type: 'cohort', breakdown_limit: undefined });
    expect(await screen.findByRole('button', { name: 'Breakdown by: Cohort: Power users' })).toBeInTheDocument();
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Compare with all users' }));
    expect(emitted.at(-1)).toEqual({
      breakdown: ['all', cohort.id],
      breakdown_type: 'cohort',
      breakdown_limit: undefined,
    });
    expect(screen.getByRole('button', { name: 'Breakdown by: Cohort: Power users' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove breakdown' }));
    expect(emitted.at(-1)).toEqual({ breakdown: null, breakdown_type: undefined, breakdown_limit: undefined });
  });

  it("breaks down by a property of one of the project's group types, named by its index", async () => {
    const { api_token: token } = await api().call<{ api_token: string }>('GET', `/api/projects/${PROJECT}/`);
    await api().call('POST', '/batch/', {
      api_key: token,
      batch: [
        { event: '$pageview', distinct_id: 'ann', properties: { $groups: { company: 'acme' } } },
        {
          event: '$groupidentify',
          distinct_id: 'ann',
          properties: { $group_type: 'company', $group_key: 'acme', $group_set: { plan: 'pro', employees: 12 } },
        },
      ],
    });
    const { user, emitted } = renderControl({});
    await user.click(screen.getByRole('button', { name: 'Breakdown by: Add breakdown' }));
    await user.click(
      await within(await screen.findByRole('group', { name: 'Whose properties' })).findByRole('button', {
        name: 'Company properties',
      }),
    );
    const list = await screen.findByRole('listbox', { name: 'Company properties' });
    expect((await within(list).findAllByRole('option')).map((o) => o.textContent)).toEqual(['employees', 'plan']);
    await user.click(within(list).getByRole('option', { name: 'plan' }));
    expect(emitted.at(-1)).toEqual({
      breakdown: 'plan',
      breakdown_type: 'group',
      breakdown_group_type_index: 0,
      breakdown_limit: 25,
    });
    expect(await screen.findByRole('button', { name: 'Breakdown by: plan (company)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove breakdown' }));
    expect(emitted.at(-1)).toEqual({ breakdown: null });
  });

  it('switches to a person property, and removes the breakdown', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderControl({ breakdown: '$browser', breakdown_type: 'event', breakdown_limit: 10 });
    await user.click(screen.getByRole('button', { name: 'Breakdown by: Browser' }));
    await user.click(await screen.findByRole('button', { name: 'Person properties' }));
    await user.click(await screen.findByRole('option', { name: /^email/ }));
    expect(emitted.at(-1)).toEqual({ breakdown: 'email', breakdown_type: 'person', breakdown_limit: 10 });
    expect(screen.getByRole('button', { name: 'Breakdown by: email (person)' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove breakdown' }));
    expect(emitted.at(-1)).toEqual({ breakdown: null, breakdown_type: undefined, breakdown_limit: undefined });
    expect(screen.getByRole('button', { name: 'Breakdown by: Add breakdown' })).toBeInTheDocument();
  });

  it('shows the API errors at the breakdown and the limit', () => {
    renderControl(
      { breakdown: 'plan', breakdown_type: 'event', breakdown_limit: 25 },
      {
        breakdown: 'Enter a property name, a cohort ID or a list of cohort IDs.',
        breakdown_limit: 'Ensure this value is less than or equal to 1000.',
      },
    );
    expect(screen.getByRole('button', { name: 'Breakdown by: plan' })).toHaveAccessibleDescription(
      'Enter a property name, a cohort ID or a list of cohort IDs.',
    );
    expect(screen.getByRole('spinbutton', { name: 'Show top' })).toHaveAccessibleDescription(
      'Ensure this value is less than or equal to 1000.',
    );
  });

  it('several breakdowns: up to three, each its own labelled picker, removable; a numeric one in buckets', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderControl({ breakdown: '$browser', breakdown_type: 'event', breakdown_limit: 5 }, {});
    // $browser is text: no buckets offered.
    expect(screen.queryByRole('checkbox', { name: /into buckets/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add breakdown' }));
    await user.click(
      await within(await screen.findByRole('listbox', { name: 'Event properties' })).findByRole('option', {
        name: /\$current_url/,
      }),
    );
    expect(emitted.at(-1)).toMatchObject({
      breakdown: null,
      breakdown_limit: 5,
      breakdowns: [
        { property: '$browser', type: 'event' },
        { property: '$current_url', type: 'event' },
      ],
    });
    expect(screen.getByRole('button', { name: 'Breakdown 1 by: Browser' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Breakdown 2 by: .*/ })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add breakdown' }));
    await user.click(
      await within(await screen.findByRole('listbox', { name: 'Event properties' })).findByRole('option', {
        name: /amount/,
      }),
    );
    expect(emitted.at(-1)?.breakdowns).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Add breakdown' })).not.toBeInTheDocument();

    // amount is numeric: it may be binned; a bad count says so and is not sent.
    await user.click(await screen.findByRole('checkbox', { name: 'Bin breakdown 3 into buckets' }));
    expect(emitted.at(-1)?.breakdowns?.[2]).toEqual({ property: 'amount', type: 'event', histogram_bin_count: 10 });
    const buckets = screen.getByRole('spinbutton', { name: 'Number of buckets for breakdown 3' });
    await user.clear(buckets);
    await user.type(buckets, '0');
    expect(buckets).toHaveAccessibleDescription('Enter a whole number of buckets from 1 to 100.');
    await user.clear(buckets);
    await user.type(buckets, '4');
    expect(buckets).not.toHaveAccessibleDescription();
    expect(emitted.at(-1)?.breakdowns?.[2]).toEqual({ property: 'amount', type: 'event', histogram_bin_count: 4 });

    // By keyboard: remove the first two; the last one left is a single breakdown again, bins kept.
    screen.getByRole('button', { name: 'Remove breakdown 1' }).focus();
    await user.keyboard('{Enter}');
    expect(emitted.at(-1)?.breakdowns?.map((b) => b.property)).toEqual(['$current_url', 'amount']);
    screen.getByRole('button', { name: 'Remove breakdown 1' }).focus();
    await user.keyboard(' ');
    expect(emitted.at(-1)).toMatchObject({
      breakdown: 'amount',
      breakdown_type: 'event',
      breakdown_histogram_bin_count: 4,
      breakdown_limit: 5,
      breakdowns: undefined,
    });
    expect(screen.getByRole('spinbutton', { name: 'Number of buckets for breakdown' })).toHaveValue(4);
  });
});
