import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
/** The first result needs the chart code and the server's answer: more than a second on a busy machine. */
const SLOW = { timeout: 8000 };
const PROJECT = 1;

interface StoredInsight {
  id: number;
  short_id: string;
  name: string;
  description: string | null;
  filters: string;
  saved: number;
}
const stored = (name: string) =>
  api()
    .store.db.prepare(
      'SELECT id, short_id, name, description, filters, saved FROM insights WHERE project_id = ? AND name = ? AND deleted = 0',
    )
    .get(PROJECT, name) as StoredInsight | undefined;

describe('saving a builder', { timeout: 30_000 }, () => {
  it('"Save" on a new trend creates the insight with its parameters and opens its edit URL', async () => {
    const { user, router } = renderApp(
      `/projects/${PROJECT}/insights/new/trends?interval=%22week%22&date_from=%22-30d%22`,
      { apiKey: api().demoKey },
    );
    await screen.findByRole('table', { name: 'New trend: data' }, SLOW);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save insight' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
      'Give the insight a name.',
    );
    await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Weekly pageviews');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Last month, by week');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saved “Weekly pageviews”')).toBeInTheDocument();
    const insight = stored('Weekly pageviews');
    expect(insight).toMatchObject({ description: 'Last month, by week', saved: 1 });
    expect(JSON.parse(insight!.filters)).toMatchObject({
      insight: 'TRENDS',
      interval: 'week',
      date_from: '-30d',
      events: [{ id: '$pageview', math: 'total' }],
    });
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/projects/${PROJECT}/insights/${insight!.short_id}/edit`),
    );
    expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Weekly pageviews');
  });

  it("the edit route loads a saved insight's parameters and PATCHes the changes", async () => {
    const revenue = stored('Revenue')!;
    const { user, router } = renderApp(`/projects/${PROJECT}/insights/${revenue.id}/edit`, { apiKey: api().demoKey });
    // Revenue: a sum of `revenue` over 90 days, shown as a number.
    const chart = await screen.findByRole('combobox', { name: 'Chart type' }, SLOW);
    expect(chart).toHaveValue('BoldNumber');
    expect(screen.getByRole('combobox', { name: 'Date range' })).toHaveValue('-90d');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Date range' }), 'Last 30 days');
    expect(await screen.findByText('Unsaved changes')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toMatchObject({ date_from: '-30d' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Revenue (30 days)');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saved “Revenue (30 days)”')).toBeInTheDocument();
    const after = stored('Revenue (30 days)')!;
    expect(after.id).toBe(revenue.id);
    expect(JSON.parse(after.filters)).toMatchObject({
      insight: 'TRENDS',
      date_from: '-30d',
      display: 'BoldNumber',
      events: [{ id: 'purchase', math: 'sum', math_property: 'revenue' }],
    });
    // Saved: the URL holds no edits any more, and nothing is unsaved.
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
  });

  it('warns before leaving the edit route with unsaved changes, and "Save as new" makes a copy', async () => {
    const revenue = stored('Revenue')!;
    const { user, router } = renderApp(`/projects/${PROJECT}/insights/${revenue.id}/edit`, { apiKey: api().demoKey });
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Date range' }, SLOW), 'Last 14 days');
    await screen.findByText('Unsaved changes');

    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(confirm).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe(`/projects/${PROJECT}/insights/${revenue.id}/edit`);

    await user.click(await screen.findByRole('button', { name: 'Save as new' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as a new insight' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Revenue (copy)');
    await user.click(within(dialog).getByRole('button', { name: 'Save as new' }));
    expect(await screen.findByText('Saved “Revenue (copy)”')).toBeInTheDocument();
    const copy = stored('Revenue (copy)')!;
    expect(JSON.parse(copy.filters)).toMatchObject({ date_from: '-14d', display: 'BoldNumber' });
    // The original is unchanged.
    expect(JSON.parse(stored('Revenue')!.filters)).toMatchObject({ date_from: '-90d' });
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/projects/${PROJECT}/insights/${copy.short_id}/edit`),
    );
  });

  it('the list\'s "New insight" menu links to the four builders', async () => {
    const { user } = renderApp(`/projects/${PROJECT}/insights`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'New insight' }));
    const menu = await screen.findByRole('navigation', { name: 'New insight' });
    for (const [name, kind] of [
      ['Trends', 'trends'],
      ['Funnel', 'funnels'],
      ['Retention', 'retention'],
      ['Paths', 'paths'],
    ]) {
      expect(within(menu).getByRole('link', { name })).toHaveAttribute(
        'href',
        `/projects/${PROJECT}/insights/new/${kind}`,
      );
    }
    await user.click(within(menu).getByRole('link', { name: 'Retention' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'New retention' })).toBeInTheDocument();
  });

  it('the insight page (opened at its numeric id, as older links do) links to its edit route at its short_id', async () => {
    const revenue = stored('Revenue')!;
    renderApp(`/projects/${PROJECT}/insights/${revenue.id}`, { apiKey: api().demoKey });
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      `/projects/${PROJECT}/insights/${revenue.short_id}/edit`,
    );
  });
});
