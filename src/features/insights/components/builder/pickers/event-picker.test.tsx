import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eventDefinitionEndpoints } from '@/contract/definitions';
import { setupTestApi, slowDown } from '@testing';
import { EventPicker } from './event-picker';
import { ingestPickerEvents, renderWithState } from '@testing/picker-harness';

const api = setupTestApi();
const PROJECT = 1;

function renderPicker(initial: string | null, allowAll = false) {
  return renderWithState<string | null>(api().demoKey, initial, (value, onChange) => (
    <EventPicker projectId={PROJECT} value={value} onChange={onChange} label="Series A event" allowAll={allowAll} />
  ));
}

describe('EventPicker', () => {
  it('picks an event by typing and Enter, and gives focus back to its button', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderPicker('$pageview');
    const trigger = screen.getByRole('button', { name: 'Series A event: Pageview' });
    await user.click(trigger);
    const search = await screen.findByRole('combobox', { name: 'Search events' });
    expect(search).toHaveFocus();
    await user.type(search, 'sign');
    expect(await screen.findByRole('option', { name: /user signed up/ })).toBeInTheDocument();
    await screen.findByRole('listbox', { name: 'Events' });
    await user.keyboard('{Enter}');
    expect(emitted).toEqual(['user signed up']);
    const updated = screen.getByRole('button', { name: 'Series A event: user signed up' });
    expect(updated).toHaveFocus();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('typed before the list answered: Enter picks the match on top once it arrives, not the typed text', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    slowDown(eventDefinitionEndpoints.list, 2000);
    const { user, emitted } = renderPicker('$pageview');
    await user.click(screen.getByRole('button', { name: 'Series A event: Pageview' }));
    await user.type(await screen.findByRole('combobox', { name: 'Search events' }), 'purch');
    expect(screen.getByRole('option', { name: 'Use “purch”' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() =>
      expect(screen.getByRole('option', { name: /^purchase/ })).toHaveAttribute('aria-selected', 'true'),
    );
    await user.keyboard('{Enter}');
    expect(emitted).toEqual(['purchase']);
  });

  it('lists the events with their 30-day volume, most used first, and moves with the arrow keys', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderPicker(null, true);
    await user.click(screen.getByRole('button', { name: 'Series A event: All events' }));
    const list = await screen.findByRole('listbox', { name: 'Events' });
    const pageview = await within(list).findByRole('option', { name: /Pageview/ });
    expect(pageview).toHaveTextContent('$pageview');
    expect(pageview).toHaveTextContent('30');
    expect(within(list).getByRole('option', { name: /purchase/ })).toHaveTextContent('3');
    const names = within(list)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(names[0]).toBe('All events');
    expect(names.slice(1)).toEqual([
      expect.stringMatching(/^Pageview/),
      expect.stringMatching(/^user signed up/),
      expect.stringMatching(/^purchase/),
    ]);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(emitted).toEqual(['user signed up']);
  });

  it('says when nothing matches, and offers the typed name', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderPicker('$pageview');
    await user.click(screen.getByRole('button', { name: 'Series A event: Pageview' }));
    await user.type(await screen.findByRole('combobox', { name: 'Search events' }), 'checkout started');
    expect(await screen.findByText('No events match “checkout started”')).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Use “checkout started”' }));
    expect(emitted).toEqual(['checkout started']);
    expect(screen.getByRole('button', { name: 'Series A event: checkout started' })).toBeInTheDocument();
  });

  it('offers All events when allowed, and Escape keeps the event', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderPicker('purchase', true);
    await user.click(screen.getByRole('button', { name: 'Series A event: purchase' }));
    // The chosen event is the active option.
    const current = await screen.findByRole('option', { name: /purchase/ });
    await waitFor(() => expect(current).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Escape}');
    expect(emitted).toEqual([]);
    expect(screen.getByRole('button', { name: 'Series A event: purchase' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Series A event: purchase' }));
    await user.click(await screen.findByRole('option', { name: 'All events' }));
    expect(emitted).toEqual([null]);
  });

  it('says it is loading, then what the API refused, in words', async () => {
    slowDown(eventDefinitionEndpoints.list, 300);
    const { user } = renderWithState<string | null>(api().makeKey(['organization:read']), null, (value, onChange) => (
      <EventPicker projectId={PROJECT} value={value} onChange={onChange} label="Series A event" />
    ));
    await user.click(screen.getByRole('button', { name: 'Series A event: All events' }));
    expect(await screen.findByText('Loading events…')).toBeInTheDocument();
    expect(await screen.findByText(/^Couldn't load events: .*insight:read/)).toBeInTheDocument();
    // A name can still be typed in.
    await user.type(screen.getByRole('combobox', { name: 'Search events' }), 'signup');
    expect(screen.getByRole('option', { name: 'Use “signup”' })).toBeInTheDocument();
  });

  it('shows the error it is given under the button', () => {
    renderWithState<string | null>(api().demoKey, null, (value, onChange) => (
      <EventPicker
        projectId={PROJECT}
        value={value}
        onChange={onChange}
        label="Step 1 event"
        error="This field is required."
      />
    ));
    expect(screen.getByRole('button', { name: 'Step 1 event: All events' })).toHaveAccessibleDescription(
      'This field is required.',
    );
  });
});
