import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setupTestApi } from '@testing';
import { ingestPickerEvents, renderWithState } from '@testing/picker-harness';
import { PropertyKeyPicker, type PropertyKey, type PropertyKeyPickerProps } from './property-key-picker';

const api = setupTestApi();
const PROJECT = 1;

function renderPicker(props: Partial<PropertyKeyPickerProps> = {}) {
  return renderWithState<PropertyKey | null>(api().demoKey, null, (value, onChange) => (
    <PropertyKeyPicker projectId={PROJECT} value={value} onChange={onChange} label="Filter 1 property" {...props} />
  ));
}

const optionNames = (list: HTMLElement) =>
  within(list)
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('PropertyKeyPicker', () => {
  it('lists event properties with their type, and picks one', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderPicker();
    await user.click(screen.getByRole('button', { name: 'Filter 1 property: Choose a property' }));
    const list = await screen.findByRole('listbox', { name: 'Event properties' });
    // Typing starts in the search, not on the Event/Person switch above it.
    expect(screen.getByRole('combobox', { name: 'Search properties' })).toHaveFocus();
    expect(await within(list).findByRole('option', { name: /^amount/ })).toHaveTextContent('Numeric');
    expect(within(list).getByRole('option', { name: /^plan/ })).toHaveTextContent('String');
    expect(within(list).getByRole('option', { name: /^Browser\s*\$browser/ })).toHaveTextContent('$browserString');
    expect(within(list).getByRole('option', { name: /^coupon/ })).toHaveTextContent('Boolean');
    // Its label as shown, in words: every word of the search is found in the key.
    await user.type(screen.getByRole('combobox', { name: 'Search properties' }), 'BROWSER $');
    await waitFor(() => expect(optionNames(list)).toEqual(['Browser$browserString', 'Use “BROWSER $”']));
    await user.keyboard('{Enter}');
    expect(emitted).toEqual([{ key: '$browser', type: 'event' }]);
    expect(screen.getByRole('button', { name: 'Filter 1 property: Browser' })).toHaveFocus();
  });

  it('lists only numeric properties when asked', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user } = renderPicker({ numericOnly: true });
    await user.click(screen.getByRole('button', { name: 'Filter 1 property: Choose a property' }));
    const list = await screen.findByRole('listbox', { name: 'Event properties' });
    await within(list).findByRole('option', { name: /^amount/ });
    expect(optionNames(list)).toEqual(['amountNumeric']);
  });

  it('narrows event properties to the given events', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user } = renderPicker({ eventNames: ['user signed up'] });
    await user.click(screen.getByRole('button', { name: 'Filter 1 property: Choose a property' }));
    const list = await screen.findByRole('listbox', { name: 'Event properties' });
    await within(list).findByRole('option', { name: /^plan/ });
    expect(within(list).queryByRole('option', { name: /^amount/ })).not.toBeInTheDocument();
    expect(within(list).queryByRole('option', { name: /^Browser\s*\$browser/ })).not.toBeInTheDocument();
  });

  it('switches to person properties, and takes a key that is not listed', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderPicker();
    await user.click(screen.getByRole('button', { name: 'Filter 1 property: Choose a property' }));
    await user.click(await screen.findByRole('button', { name: 'Person properties', pressed: false }));
    const list = await screen.findByRole('listbox', { name: 'Person properties' });
    await user.click(await within(list).findByRole('option', { name: /^email/ }));
    expect(emitted).toEqual([{ key: 'email', type: 'person' }]);
    await user.click(screen.getByRole('button', { name: 'Filter 1 property: email (person)' }));
    await user.type(await screen.findByRole('combobox', { name: 'Search properties' }), 'company');
    await user.click(await screen.findByRole('option', { name: 'Use “company”' }));
    expect(emitted.at(-1)).toEqual({ key: 'company', type: 'person' });
  });

  it('offers only the types it is given', async () => {
    const { user } = renderPicker({ types: ['event'] });
    await user.click(screen.getByRole('button', { name: 'Filter 1 property: Choose a property' }));
    await screen.findByRole('listbox', { name: 'Event properties' });
    expect(screen.queryByRole('button', { name: 'Person properties' })).not.toBeInTheDocument();
    expect(await screen.findByText('No event properties yet. Type a property name to use it.')).toBeInTheDocument();
  });
});
