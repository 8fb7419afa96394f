import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EntityInput } from '@/contract/analytics-params';
import { setupTestApi } from '@testing';
import { ingestPickerEvents, renderWithState } from '@testing/picker-harness';
import { layOutSortableRowsInTheseTests } from '@testing/sortable-layout';
import type { ErrorFor } from './property-filters';
import { SeriesList } from './series-list';

const api = setupTestApi();
const PROJECT = 1;

function renderList(
  mode: 'trends' | 'funnel',
  initial: EntityInput[],
  extra: { errorFor?: ErrorFor; max?: number } = {},
) {
  return renderWithState<EntityInput[]>(api().demoKey, initial, (value, onChange) => (
    <SeriesList projectId={PROJECT} mode={mode} value={value} onChange={onChange} {...extra} />
  ));
}

const pageviews: EntityInput = { id: '$pageview', type: 'events', math: 'total', order: 0 };
const signups: EntityInput = { id: 'user signed up', type: 'events', math: 'dau', order: 1 };

describe('SeriesList (trends)', () => {
  it('adds a series, and keeps the last one', async () => {
    const { user, emitted } = renderList('trends', [pageviews]);
    const remove = screen.getByRole('button', { name: 'Remove series A' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription('A trend needs at least one series.');
    await user.click(screen.getByRole('button', { name: 'Add series' }));
    expect(emitted.at(-1)).toEqual([pageviews, { id: '$pageview', type: 'events', math: 'total', order: 1 }]);
    expect(screen.getByRole('button', { name: 'Series B event: Pageview' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove series A' })).toBeEnabled();
  });

  it('duplicates, removes (the letters follow) and renames', async () => {
    const { user, emitted } = renderList('trends', [pageviews, signups]);
    await user.click(screen.getByRole('button', { name: 'Duplicate series B' }));
    expect(emitted.at(-1)).toEqual([pageviews, signups, { ...signups, order: 2 }]);
    await user.click(screen.getByRole('button', { name: 'Remove series A' }));
    expect(emitted.at(-1)).toEqual([
      { ...signups, order: 0 },
      { ...signups, order: 1 },
    ]);
    expect(screen.getByRole('button', { name: 'Series A event: user signed up' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Rename series B' }));
    await user.type(screen.getByRole('textbox', { name: 'Series B name' }), 'Signups again{Enter}');
    expect(emitted.at(-1)).toEqual([
      { ...signups, order: 0 },
      { ...signups, order: 1, custom_name: 'Signups again' },
    ]);
    expect(screen.getByText('Signups again')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rename series B' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Rename series B' }));
    await user.type(screen.getByRole('textbox', { name: 'Series B name' }), ' (changed){Escape}');
    expect(emitted.at(-1)?.[1]?.custom_name).toBe('Signups again');
  });

  it('a property math asks for a numeric property; a count math drops it', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderList('trends', [
      pageviews,
      { id: 'purchase', type: 'events', math: 'total', order: 1 },
    ]);
    expect(screen.queryByRole('button', { name: /^Series B property/ })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Series B math' }), 'Sum of a property');
    expect(emitted.at(-1)?.[1]).toEqual({ id: 'purchase', type: 'events', math: 'sum', order: 1 });
    await user.click(screen.getByRole('button', { name: 'Series B property: Choose a numeric property' }));
    const list = await screen.findByRole('listbox', { name: 'Event properties' });
    const options = await within(list).findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['amountNumeric']);
    // Enter takes the highlighted option (the list highlights its first once it has drawn).
    await waitFor(() => expect(options[0]).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Enter}');
    expect(emitted.at(-1)?.[1]).toEqual({
      id: 'purchase',
      type: 'events',
      math: 'sum',
      math_property: 'amount',
      order: 1,
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Series B math' }), 'Unique users');
    expect(emitted.at(-1)?.[1]).toEqual({ id: 'purchase', type: 'events', math: 'dau', order: 1 });
  });

  it('picks the event of a series and filters it', async () => {
    await ingestPickerEvents(api().call, PROJECT);
    const { user, emitted } = renderList('trends', [pageviews]);
    await user.click(screen.getByRole('button', { name: 'Series A event: Pageview' }));
    await user.type(await screen.findByRole('combobox', { name: 'Search events' }), 'purch');
    await screen.findByRole('option', { name: /^purchase/ });
    await user.keyboard('{Enter}');
    expect(emitted.at(-1)).toEqual([{ id: 'purchase', type: 'events', math: 'total', order: 0 }]);

    const toggle = screen.getByRole('button', { name: 'Filters of series A' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Add filter to series A filters' }));
    // Only the properties seen on the series' event.
    const keys = await screen.findByRole('listbox', { name: 'Event properties' });
    await within(keys).findByRole('option', { name: /^amount/ });
    expect(within(keys).queryByRole('option', { name: /^Browser\s*\$browser/ })).not.toBeInTheDocument();
    await user.click(within(keys).getByRole('option', { name: /^coupon/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 operator' }), 'is set');
    expect(emitted.at(-1)).toEqual([
      {
        id: 'purchase',
        type: 'events',
        math: 'total',
        order: 0,
        properties: { type: 'AND', values: [{ key: 'coupon', type: 'event', operator: 'is_set' }] },
      },
    ]);
    expect(screen.getByRole('button', { name: 'Filters of series A (1)' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows the errors of a series at their controls', () => {
    const errors: Record<string, string> = {
      events__0__id: 'This field is required.',
      events__1__math_property: 'This field is required.',
      events__1__properties__values__0__value: 'Enter a number.',
    };
    renderList(
      'trends',
      [
        { ...pageviews, id: null },
        {
          ...signups,
          math: 'avg',
          properties: { type: 'AND', values: [{ key: 'amount', type: 'event', operator: 'gt', value: 'x' }] },
        },
      ],
      {
        errorFor: (attr) => errors[attr],
      },
    );
    expect(screen.getByRole('button', { name: 'Series A event: All events' })).toHaveAccessibleDescription(
      'This field is required.',
    );
    expect(
      screen.getByRole('button', { name: 'Series B property: Choose a numeric property' }),
    ).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByRole('spinbutton', { name: 'Filter 1 value' })).toHaveAccessibleDescription('Enter a number.');
  });

  it('stops adding at the limit, and says why', () => {
    renderList('trends', [pageviews, signups], { max: 2 });
    expect(screen.getByRole('button', { name: 'Add series' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add series' })).toHaveAccessibleDescription('At most 2 series.');
    expect(screen.getByRole('button', { name: 'Duplicate series A' })).toBeDisabled();
  });
});

describe('SeriesList reordering', () => {
  layOutSortableRowsInTheseTests();

  it('moves a series with the keyboard: Space on the handle, arrow down, Space', async () => {
    const { user, emitted } = renderList('trends', [
      pageviews,
      signups,
      { id: 'purchase', type: 'events', math: 'total', order: 2 },
    ]);
    screen.getByRole('button', { name: 'Reorder series A' }).focus();
    await user.keyboard('[Space]');
    expect(await screen.findByText('Series A is over position 1 of 3.')).toBeInTheDocument();
    await act(async () => {
      await user.keyboard('[ArrowDown]');
    });
    expect(await screen.findByText('Series A is over position 2 of 3.')).toBeInTheDocument();
    await user.keyboard('[Space]');
    expect(emitted.at(-1)).toEqual([
      { ...signups, order: 0 },
      { ...pageviews, order: 1 },
      { id: 'purchase', type: 'events', math: 'total', order: 2 },
    ]);
    expect(await screen.findByText('Moved series A to position 2.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Series B event: Pageview' })).toBeInTheDocument();
  });

  it('moves a step with the move buttons', async () => {
    const { user, emitted } = renderList('funnel', [
      { id: '$pageview', type: 'events', order: 0 },
      { id: 'purchase', type: 'events', order: 1 },
    ]);
    expect(screen.getByRole('button', { name: 'Move step 1 up' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Move step 2 up' }));
    expect(emitted.at(-1)).toEqual([
      { id: 'purchase', type: 'events', order: 0 },
      { id: '$pageview', type: 'events', order: 1 },
    ]);
    expect(screen.getByRole('button', { name: 'Step 1 event: purchase' })).toBeInTheDocument();
  });
});

describe('SeriesList (funnel)', () => {
  it('names steps by number, has no maths, and adds a step', async () => {
    const { user, emitted } = renderList('funnel', [{ id: '$pageview', type: 'events', order: 0 }]);
    expect(screen.queryByRole('combobox', { name: /math/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove step 1' })).toHaveAccessibleDescription(
      'A funnel needs at least one step.',
    );
    await user.click(screen.getByRole('button', { name: 'Add step' }));
    expect(emitted.at(-1)).toEqual([
      { id: '$pageview', type: 'events', order: 0 },
      { id: '$pageview', type: 'events', order: 1 },
    ]);
    expect(screen.getByRole('button', { name: 'Step 2 event: Pageview' })).toBeInTheDocument();
  });
});
