import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PropertyOperator } from '@/contract/analytics-params';
import { setupTestApi } from '@testing';
import { ingestPickerEvents, renderWithState } from '@testing/picker-harness';
import { PropertyValueInput } from './property-value-input';

const api = setupTestApi();
const PROJECT = 1;

function renderInput(operator: PropertyOperator, initial: unknown, key = '$browser') {
  return renderWithState<unknown>(api().demoKey, initial, (value, onChange) => (
    <PropertyValueInput
      projectId={PROJECT}
      property={{ key, type: 'event' }}
      operator={operator}
      value={value}
      onChange={onChange}
      label="Filter 1 value"
      eventName="$pageview"
    />
  ));
}

describe('PropertyValueInput', () => {
  it('suggests the values the property takes, most frequent first; several values become chips', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderInput('exact', undefined);
    await user.click(screen.getByRole('button', { name: 'Filter 1 value: choose values' }));
    const list = await screen.findByRole('listbox', { name: 'Values of Browser' });
    const options = await within(list).findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Chrome20', 'Firefox10']);
    // Enter takes the highlighted option (the list highlights its first once it has drawn).
    await waitFor(() => expect(options[0]).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Enter}');
    expect(emitted).toEqual([['Chrome']]);
    await user.click(within(list).getByRole('option', { name: /Firefox/ }));
    expect(emitted.at(-1)).toEqual(['Chrome', 'Firefox']);
    await user.type(screen.getByRole('combobox', { name: 'Search values' }), 'Safari{Enter}');
    expect(emitted.at(-1)).toEqual(['Chrome', 'Firefox', 'Safari']);
    await user.keyboard('{Escape}');
    const group = screen.getByRole('group', { name: 'Filter 1 value' });
    await user.click(within(group).getByRole('button', { name: 'Remove value Firefox' }));
    expect(emitted.at(-1)).toEqual(['Chrome', 'Safari']);
  });

  it('narrows suggestions by what is typed', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user } = renderInput('is_not', ['Chrome']);
    await user.click(screen.getByRole('button', { name: 'Filter 1 value: add a value' }));
    await user.type(await screen.findByRole('combobox', { name: 'Search values' }), 'fire');
    const list = screen.getByRole('listbox', { name: 'Values of Browser' });
    expect(await within(list).findByRole('option', { name: /Firefox/ })).toBeInTheDocument();
    expect(within(list).queryByRole('option', { name: /Chrome/ })).not.toBeInTheDocument();
  });

  it('takes one number for greater than', async () => {
    const { user, emitted } = renderInput('gt', undefined, 'amount');
    await user.type(screen.getByRole('spinbutton', { name: 'Filter 1 value' }), '15');
    expect(emitted.at(-1)).toBe(15);
    await user.clear(screen.getByRole('spinbutton', { name: 'Filter 1 value' }));
    expect(emitted.at(-1)).toBeUndefined();
  });

  it('takes one text for contains and regex', async () => {
    const { user, emitted } = renderInput('regex', ['Chrome']);
    const input = screen.getByRole('textbox', { name: 'Filter 1 value' });
    expect(input).toHaveValue('Chrome');
    await user.clear(input);
    await user.type(input, '^Fire');
    expect(emitted.at(-1)).toBe('^Fire');
  });

  it('shows nothing for is set', () => {
    renderInput('is_set', undefined);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
