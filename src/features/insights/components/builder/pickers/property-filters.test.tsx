import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PropertyGroupInput } from '@/contract/analytics-params';
import { setupTestApi } from '@testing';
import { ingestPickerEvents, renderWithState } from '@testing/picker-harness';
import { PropertyFilters, type ErrorFor } from './property-filters';

const api = setupTestApi();
const PROJECT = 1;

function renderFilters(initial: PropertyGroupInput | undefined, extra: { groups?: boolean; errorFor?: ErrorFor } = {}) {
  return renderWithState<PropertyGroupInput | undefined>(api().demoKey, initial, (value, onChange) => (
    <PropertyFilters
      projectId={PROJECT}
      value={value}
      onChange={onChange}
      label="Filters"
      attrPrefix="properties"
      {...extra}
    />
  ));
}

describe('PropertyFilters', () => {
  it('builds a filter from key, operator and value; an unfinished row is not sent', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderFilters(undefined);
    await user.click(screen.getByRole('button', { name: 'Add filter to filters' }));
    // The new row's key list opens at once.
    const keys = await screen.findByRole('listbox', { name: 'Event properties' });
    await user.click(await within(keys).findByRole('option', { name: /^Browser\s*\$browser/ }));
    expect(emitted).toEqual([]);
    expect(screen.getByRole('combobox', { name: 'Filter 1 operator' })).toHaveDisplayValue('equals');
    await user.click(screen.getByRole('button', { name: 'Filter 1 value: choose values' }));
    await user.click(await screen.findByRole('option', { name: /Chrome/ }));
    expect(emitted).toEqual([
      { type: 'AND', values: [{ key: '$browser', type: 'event', operator: 'exact', value: ['Chrome'] }] },
    ]);
    await user.keyboard('{Escape}');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 operator' }), "doesn't contain");
    expect(emitted.at(-1)).toEqual({
      type: 'AND',
      values: [{ key: '$browser', type: 'event', operator: 'not_icontains', value: 'Chrome' }],
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 operator' }), 'is set');
    expect(emitted.at(-1)).toEqual({ type: 'AND', values: [{ key: '$browser', type: 'event', operator: 'is_set' }] });

    await user.click(screen.getByRole('button', { name: 'Remove filter 1' }));
    expect(emitted.at(-1)).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Add filter to filters' })).toHaveFocus();
  });

  it("filters by a cohort: picked from the project's cohorts by name, in or not in it", async () => {
    const cohort = await api().call<{ id: number }>('POST', `/api/projects/${PROJECT}/cohorts/`, {
      name: 'Power users',
      filters: { properties: { type: 'AND', values: [{ type: 'person', key: 'plan', value: 'pro' }] } },
    });
    const { user, emitted } = renderFilters(undefined);
    await user.click(screen.getByRole('button', { name: 'Add filter to filters' }));
    await user.click(
      within(await screen.findByRole('group', { name: 'Whose properties' })).getByRole('button', { name: 'Cohorts' }),
    );
    await user.click(
      await within(await screen.findByRole('listbox', { name: 'Cohorts' })).findByRole('option', {
        name: 'Power users',
      }),
    );
    expect(emitted.at(-1)).toEqual({
      type: 'AND',
      values: [{ key: 'id', type: 'cohort', operator: 'in', value: cohort.id }],
    });
    expect(screen.getByRole('button', { name: 'Filter 1 property: Cohort: Power users' })).toBeInTheDocument();
    const operator = screen.getByRole('combobox', { name: 'Filter 1 operator' });
    expect(
      within(operator)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['in cohort', 'not in cohort']);
    await user.selectOptions(operator, 'not in cohort');
    expect(emitted.at(-1)).toEqual({
      type: 'AND',
      values: [{ key: 'id', type: 'cohort', operator: 'not_in', value: cohort.id }],
    });
    expect(screen.queryByRole('group', { name: 'Filter 1 value' })).not.toBeInTheDocument();
  });

  it("filters by a property of one of the project's group types, its index sent with it", async () => {
    const { api_token: token } = await api().call<{ api_token: string }>('GET', `/api/projects/${PROJECT}/`);
    await api().call('POST', '/batch/', {
      api_key: token,
      batch: [
        { event: '$pageview', distinct_id: 'ann', properties: { $groups: { company: 'acme' } } },
        {
          event: '$groupidentify',
          distinct_id: 'ann',
          properties: { $group_type: 'company', $group_key: 'acme', $group_set: { plan: 'pro' } },
        },
      ],
    });
    const { user, emitted } = renderFilters(undefined);
    await user.click(screen.getByRole('button', { name: 'Add filter to filters' }));
    await user.click(
      await within(await screen.findByRole('group', { name: 'Whose properties' })).findByRole('button', {
        name: 'Company properties',
      }),
    );
    await user.click(
      await within(await screen.findByRole('listbox', { name: 'Company properties' })).findByRole('option', {
        name: 'plan',
      }),
    );
    // Values are suggested from the type's groups.
    await user.click(screen.getByRole('button', { name: 'Filter 1 value: choose values' }));
    await user.click(await screen.findByRole('option', { name: /^pro/ }));
    expect(emitted.at(-1)).toEqual({
      type: 'AND',
      values: [{ key: 'plan', type: 'group', group_type_index: 0, operator: 'exact', value: ['pro'] }],
    });
    await user.keyboard('{Escape}');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 operator' }), 'contains');
    await user.clear(screen.getByRole('textbox', { name: 'Filter 1 value' }));
    await user.type(screen.getByRole('textbox', { name: 'Filter 1 value' }), 'pr');
    await waitFor(() =>
      expect(emitted.at(-1)).toEqual({
        type: 'AND',
        values: [{ key: 'plan', type: 'group', group_type_index: 0, operator: 'icontains', value: 'pr' }],
      }),
    );
    expect(await screen.findByRole('button', { name: 'Filter 1 property: plan (company)' })).toBeInTheDocument();
  });

  it('lists every operator in words', () => {
    renderFilters({ type: 'AND', values: [{ key: 'plan', type: 'event', operator: 'exact', value: ['pro'] }] });
    const options = within(screen.getByRole('combobox', { name: 'Filter 1 operator' }))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'equals',
      "doesn't equal",
      'contains',
      "doesn't contain",
      'matches regex',
      "doesn't match regex",
      'greater than',
      'less than',
      'is set',
      'is not set',
    ]);
    expect(screen.getByRole('group', { name: 'Filter 1 value' })).toHaveTextContent('pro');
  });

  it('nests a group of filters', async () => {
    const initial: PropertyGroupInput = {
      type: 'AND',
      values: [{ key: 'plan', type: 'event', operator: 'exact', value: ['pro'] }],
    };
    const { user, emitted } = renderFilters(initial, { groups: true });
    await user.click(screen.getByRole('button', { name: 'Add filter group to filters' }));
    await user.type(await screen.findByRole('combobox', { name: 'Search properties' }), 'amount');
    await user.click(await screen.findByRole('option', { name: 'Use “amount”' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Group 1 filter 1 operator' }), 'greater than');
    await user.type(screen.getByRole('spinbutton', { name: 'Group 1 filter 1 value' }), '20');
    expect(emitted.at(-1)).toEqual({
      type: 'AND',
      values: [
        { key: 'plan', type: 'event', operator: 'exact', value: ['pro'] },
        { type: 'AND', values: [{ key: 'amount', type: 'event', operator: 'gt', value: 20 }] },
      ],
    });
    const group = screen.getByRole('group', { name: 'Group 1' });
    const sent = emitted.length;
    await user.click(within(group).getByRole('button', { name: 'Add filter to group 1' }));
    await user.keyboard('{Escape}');
    expect(within(group).getByRole('button', { name: 'Group 1 filter 2 property: Choose a property' })).toHaveFocus();
    expect(emitted).toHaveLength(sent);
  });

  it('combines with OR at the top and inside a group, and removes a group', async () => {
    const initial: PropertyGroupInput = {
      type: 'AND',
      values: [
        { key: 'plan', type: 'event', operator: 'exact', value: ['pro'] },
        {
          type: 'AND',
          values: [
            { key: 'amount', type: 'event', operator: 'gt', value: 20 },
            { key: 'email', type: 'person', operator: 'is_not_set' },
          ],
        },
      ],
    };
    const { user, emitted } = renderFilters(initial, { groups: true });
    await user.click(
      within(screen.getByRole('group', { name: 'Group 1: combine with' })).getByRole('button', { name: 'OR' }),
    );
    await user.click(
      within(screen.getByRole('group', { name: 'Filters: combine with' })).getByRole('button', { name: 'OR' }),
    );
    expect(emitted.at(-1)).toEqual({
      type: 'OR',
      values: [
        { key: 'plan', type: 'event', operator: 'exact', value: ['pro'] },
        {
          type: 'OR',
          values: [
            { key: 'amount', type: 'event', operator: 'gt', value: 20 },
            { key: 'email', type: 'person', operator: 'is_not_set' },
          ],
        },
      ],
    });
    expect(
      within(screen.getByRole('group', { name: 'Filters: combine with' })).getByRole('button', { name: 'OR' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await user.click(
      within(screen.getByRole('group', { name: 'Group 1' })).getByRole('button', { name: 'Remove group 1' }),
    );
    expect(emitted.at(-1)).toEqual({
      type: 'OR',
      values: [{ key: 'plan', type: 'event', operator: 'exact', value: ['pro'] }],
    });
  });

  it('shows the API errors under the control they name', async () => {
    const errors: Record<string, string> = {
      properties__values__1__value: 'Enter a number.',
      properties__values__0__values__0__key: 'Ensure this field has no more than 400 characters.',
    };
    renderFilters(
      {
        type: 'AND',
        values: [
          { type: 'AND', values: [{ key: 'x'.repeat(401), type: 'event', operator: 'exact', value: ['a'] }] },
          { key: 'amount', type: 'event', operator: 'gt', value: 'lots' },
        ],
      },
      { groups: true, errorFor: (attr) => errors[attr] },
    );
    expect(screen.getByRole('spinbutton', { name: 'Filter 1 value' })).toHaveAccessibleDescription('Enter a number.');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Group 1 filter 1 property/ })).toHaveAccessibleDescription(
        'Ensure this field has no more than 400 characters.',
      ),
    );
  });
});
