import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { insightEndpoints } from '@/contract/insights';
import { failWithServerError, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

/** Hedgebox Web, the first seeded project, with the seeded insights of server/seed/insights.ts. */
const PROJECT = 1;
const list = (search = '') => `/projects/${PROJECT}/insights${search}`;

interface StoredInsight {
  id: number;
  short_id: string;
  favorited: number;
  deleted: number;
}
const stored = (name: string) =>
  api()
    .store.db.prepare('SELECT id, short_id, favorited, deleted FROM insights WHERE project_id = ? AND name = ?')
    .get(PROJECT, name) as StoredInsight;

const table = () => screen.findByRole('table', { name: 'Insights' });

describe('saved insights list', () => {
  it('lists the saved insights with kind, derived name, description, tags and author; not the deleted one', async () => {
    renderApp(list(), { apiKey: api().demoKey });
    const rows = within(await table());
    const revenue = rows.getByRole('link', { name: 'Revenue' }).closest('tr')!;
    expect(revenue).toHaveTextContent('Trends');
    expect(revenue).toHaveTextContent('Sum of purchase revenue over the last 90 days.');
    expect(revenue).toHaveTextContent('revenue');
    expect(revenue).toHaveTextContent('Demo Admin');
    // No name: the derived one.
    expect(rows.getByRole('link', { name: 'User paths' }).closest('tr')).toHaveTextContent('Paths');
    expect(rows.getByRole('link', { name: 'Signup to purchase' }).closest('tr')).toHaveTextContent('Funnel');
    expect(rows.queryByRole('link', { name: 'Old pageview table' })).not.toBeInTheDocument();
    expect(screen.getByText('1–11 of 11')).toBeInTheDocument();
  });

  it('searches through the server and keeps the search in the URL', async () => {
    const { user, router } = renderApp(list(), { apiKey: api().demoKey });
    await table();
    await user.type(screen.getByRole('searchbox', { name: 'Search insights' }), 'revenue');
    await waitFor(() => expect(router.state.location.search).toMatchObject({ search: 'revenue' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pageviews' })).not.toBeInTheDocument());
    const rows = within(await table());
    expect(rows.getByRole('link', { name: 'Revenue' })).toBeInTheDocument();
    expect(rows.getByRole('link', { name: 'Purchases by plan' })).toBeInTheDocument();
  });

  it('filters by kind through the server and keeps the kind in the URL', async () => {
    const { user, router } = renderApp(list(), { apiKey: api().demoKey });
    await table();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'Funnel');
    await waitFor(() => expect(router.state.location.search).toMatchObject({ kind: 'FUNNELS' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Revenue' })).not.toBeInTheDocument());
    const rows = within(await table());
    expect(rows.getByRole('link', { name: 'Signup to purchase' })).toBeInTheDocument();
    for (const row of rows.getAllByRole('row').slice(1)) expect(row).toHaveTextContent('Funnel');
  });

  it('opens with the search and the favorites filter of the URL', async () => {
    renderApp(list('?favorited=true'), { apiKey: api().demoKey });
    const rows = within(await table());
    expect(screen.getByRole('checkbox', { name: 'Favorites only' })).toBeChecked();
    expect(rows.getAllByRole('link').map((link) => link.textContent)).toEqual(
      expect.arrayContaining(['Pageviews', 'Revenue', 'Signup to purchase']),
    );
    expect(rows.queryByRole('link', { name: 'Weekly retention' })).not.toBeInTheDocument();
  });

  it('"Created by me" shows only the insights of the key\'s user, and keeps the filter in the URL', async () => {
    // Another member of the organization saves an insight with a key of their own.
    const priya = api().store.users.getByEmail('priya@hedgebox.example')!;
    const priyaKey = api().store.apiKeys.create(
      { user_id: priya.id, label: 'priya', scopes: ['*'] },
      new Date().toISOString(),
    ).key;
    const created = await fetch(`${window.location.origin}/api/projects/${PROJECT}/insights/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${priyaKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Priya’s pageviews',
        saved: true,
        filters: { insight: 'TRENDS', events: [{ id: '$pageview' }] },
      }),
    });
    expect(created.status).toBe(201);

    const { user, router } = renderApp(list(), { apiKey: api().demoKey });
    expect(within(await table()).getByRole('link', { name: 'Priya’s pageviews' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Created by me' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ mine: true }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Priya’s pageviews' })).not.toBeInTheDocument());
    const rows = within(await table());
    expect(rows.getByRole('link', { name: 'Revenue' })).toBeInTheDocument();
    for (const row of rows.getAllByRole('row').slice(1)) expect(row).toHaveTextContent('Demo Admin');
  });

  it('stars an insight at once and stores it', async () => {
    const { user } = renderApp(list(), { apiKey: api().demoKey });
    await table();
    const star = screen.getByRole('button', { name: 'Favorite Weekly retention' });
    expect(star).toHaveAttribute('aria-pressed', 'false');
    await user.click(star);
    expect(screen.getByRole('button', { name: 'Favorite Weekly retention' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(stored('Weekly retention').favorited).toBe(1));
  });

  it('puts the star back with a toast when the server refuses', async () => {
    failWithServerError(insightEndpoints.update, { ms: 100 });
    const { user } = renderApp(list(), { apiKey: api().demoKey });
    await table();
    await user.click(screen.getByRole('button', { name: 'Favorite Weekly retention' }));
    expect(screen.getByRole('button', { name: 'Favorite Weekly retention' })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText(/Couldn't favorite “Weekly retention”/)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Favorite Weekly retention' })).toHaveAttribute(
        'aria-pressed',
        'false',
      ),
    );
    expect(stored('Weekly retention').favorited).toBe(0);
  });

  it('deletes an insight, and its toast’s Undo restores it', async () => {
    const { user } = renderApp(list(), { apiKey: api().demoKey });
    await table();
    await user.click(screen.getByRole('button', { name: 'Delete Pageviews by browser' }));
    expect(await screen.findByText('Deleted “Pageviews by browser”')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Pageviews by browser' })).not.toBeInTheDocument());
    expect(stored('Pageviews by browser').deleted).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('link', { name: 'Pageviews by browser' })).toBeInTheDocument();
    expect(stored('Pageviews by browser').deleted).toBe(0);
  });

  it('shows the insights the caller viewed last', async () => {
    await api().call('POST', `/api/projects/${PROJECT}/insights/${stored('Revenue').id}/viewed/`, {});
    renderApp(list(), { apiKey: api().demoKey });
    const recent = await screen.findByRole('navigation', { name: 'Recently viewed' });
    expect(within(recent).getByRole('link', { name: 'Revenue' })).toHaveAttribute(
      'href',
      `/projects/${PROJECT}/insights/${stored('Revenue').short_id}`,
    );
  });

  it('says so when nothing matches', async () => {
    renderApp(list('?search=nothing-like-this'), { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { name: 'No insights match' })).toBeInTheDocument();
  });
});
