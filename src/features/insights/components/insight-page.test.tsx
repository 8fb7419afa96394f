import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, setupTestApi } from '@testing';
import { resultView } from './result-model';

const api = setupTestApi();

/** Hedgebox Web, the first seeded project, with the seeded insights of server/seed/insights.ts. */
const PROJECT = 1;

interface StoredInsight {
  id: number;
  name: string;
  description: string | null;
  tags: string;
}
const stored = (name: string) =>
  api()
    .store.db.prepare('SELECT id, name, description, tags FROM insights WHERE project_id = ? AND name = ?')
    .get(PROJECT, name) as StoredInsight;
const storedById = (id: number) =>
  api().store.db.prepare('SELECT id, name, description, tags FROM insights WHERE id = ?').get(id) as StoredInsight;
const page = (name: string, search = '') => `/projects/${PROJECT}/insights/${stored(name).id}${search}`;

interface Sharing {
  enabled: boolean;
  access_token: string | null;
}
const sharing = (id: number) => api().call<Sharing>('GET', `/api/projects/${PROJECT}/insights/${id}/sharing/`);

describe('insight page', () => {
  it('shows the result as a table under the chart, and records the view', async () => {
    const { id } = stored('Pageviews');
    renderApp(page('Pageviews'), { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: /Pageviews/ })).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Pageviews: chart' })).toBeInTheDocument();
    const data = screen.getByRole('table', { name: 'Pageviews: data' });
    expect(within(data).getByRole('columnheader', { name: 'Date' })).toBeInTheDocument();
    expect(screen.getByText(/^Computed/)).toBeInTheDocument();
    await waitFor(async () =>
      expect(
        await api().call<Array<{ id: number }>>('GET', `/api/projects/${PROJECT}/insights/my_last_viewed/`),
      ).toEqual([expect.objectContaining({ id })]),
    );
  });

  it('shows a funnel as steps with their conversion', async () => {
    renderApp(page('Signup to purchase'), { apiKey: api().demoKey });
    const data = await screen.findByRole('table', { name: 'Signup to purchase: data' });
    expect(within(data).getByRole('rowheader', { name: '1. user signed up' })).toBeInTheDocument();
    expect(within(data).getByRole('columnheader', { name: 'Conversion' })).toBeInTheDocument();
  });

  it('renames the insight in place', async () => {
    const { user } = renderApp(page('Revenue'), { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Edit name' }));
    const input = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(input);
    await user.type(input, 'Revenue (all plans){Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: /Revenue \(all plans\)/ })).toBeInTheDocument();
    expect(stored('Revenue (all plans)')).toBeDefined();
  });

  it('Escape leaves the name as it was', async () => {
    const { user } = renderApp(page('Revenue'), { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Edit name' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), ' changed{Escape}');
    expect(screen.getByRole('heading', { level: 1, name: /Revenue/ })).toBeInTheDocument();
    expect(stored('Revenue')).toBeDefined();
  });

  it('adds and removes tags', async () => {
    const { id } = stored('Revenue');
    const { user } = renderApp(page('Revenue'), { apiKey: api().demoKey });
    await user.type(await screen.findByRole('textbox', { name: 'New tag' }), 'finance{Enter}');
    await waitFor(() => expect(JSON.parse(storedById(id).tags)).toEqual(['revenue', 'finance']));
    // The tags can be changed again once the page has the saved answer (until then they are disabled).
    const remove = await screen.findByRole('button', { name: 'Remove tag revenue' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove tag finance' })).toBeEnabled());
    expect(remove).toBeEnabled();
    await user.click(remove);
    await waitFor(() => expect(JSON.parse(storedById(id).tags)).toEqual(['finance']));
  });

  it('shares the insight: the link appears, and a new link replaces it after a confirm', async () => {
    const { id } = stored('Revenue');
    const { user, router } = renderApp(page('Revenue'), { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Share' }));
    expect(router.state.location.search).toMatchObject({ share: true });
    const dialog = await screen.findByRole('dialog', { name: 'Share “Revenue”' });
    const toggle = await within(dialog).findByRole('switch', { name: 'Share with a link' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    const link = await within(dialog).findByRole('textbox', { name: 'Link' });
    const first = await sharing(id);
    expect(first.enabled).toBe(true);
    expect(link).toHaveValue(`${window.location.origin}/shared/${first.access_token}`);

    await user.click(within(dialog).getByRole('button', { name: 'New link' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Replace the link?' });
    await user.click(within(confirm).getByRole('button', { name: 'Replace link' }));
    await waitFor(async () => expect((await sharing(id)).access_token).not.toBe(first.access_token));
    const second = await sharing(id);
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Link' })).toHaveValue(
        `${window.location.origin}/shared/${second.access_token}`,
      ),
    );
  });

  it('lists the changes in words on the activity tab (in the URL)', async () => {
    const { id } = stored('Pageviews');
    await api().call('PATCH', `/api/projects/${PROJECT}/insights/${id}/`, { name: 'All pageviews' });
    renderApp(`/projects/${PROJECT}/insights/${id}?tab=activity`, { apiKey: api().demoKey });
    expect(await screen.findByText('Demo changed the name from “Pageviews” to “All pageviews”')).toBeInTheDocument();
    expect(screen.getByText('Demo added it to favorites')).toBeInTheDocument();
    expect(screen.getByText('Demo created the insight')).toBeInTheDocument();
  });

  it('duplicates the insight and opens the copy at its short_id', async () => {
    const { user, router } = renderApp(page('Revenue'), { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Duplicate' }));
    expect(await screen.findByRole('heading', { level: 1, name: /Revenue \(copy\)/ })).toBeInTheDocument();
    const copy = api()
      .store.db.prepare("SELECT short_id FROM insights WHERE project_id = ? AND name = 'Revenue (copy)'")
      .get(PROJECT) as { short_id: string };
    expect(router.state.location.pathname).toBe(`/projects/${PROJECT}/insights/${copy.short_id}`);
  });

  it('opens at its short_id as the production service addresses it, its Edit link too; an unknown short_id is not found', async () => {
    const { short_id: shortId } = api()
      .store.db.prepare("SELECT short_id FROM insights WHERE project_id = ? AND name = 'Revenue'")
      .get(PROJECT) as { short_id: string };
    const { user, router } = renderApp(`/projects/${PROJECT}/insights/${shortId}`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: /Revenue/ })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Revenue')).toHaveAttribute(
      'aria-current',
      'page',
    );
    await user.click(screen.getByRole('link', { name: 'Edit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${PROJECT}/insights/${shortId}/edit`));
    expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Revenue');
    await router.navigate({ href: `/projects/${PROJECT}/insights/Zz9Zz9Zz` });
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
  });
});

describe('shared insight page', () => {
  it('shows a shared insight without a key', async () => {
    const { id } = stored('Signup to purchase');
    const { access_token: token } = await sharing(id);
    renderApp(`/shared/${token}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Signup to purchase' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Signup to purchase: data' })).toBeInTheDocument();
  });

  it('says the link is not valid any more once sharing is off', async () => {
    const { id } = stored('Signup to purchase');
    const { access_token: token } = await sharing(id);
    await api().call('PATCH', `/api/projects/${PROJECT}/insights/${id}/sharing/`, { enabled: false });
    renderApp(`/shared/${token}`);
    expect(await screen.findByRole('heading', { name: 'This link is not valid any more' })).toBeInTheDocument();
  });
});

describe('trend series names', () => {
  const series = (name: string, value: string) => ({
    label: value,
    breakdown_value: value,
    count: 3,
    data: [1, 2],
    days: ['2024-01-01', '2024-01-02'],
    labels: ['1-Jan-2024', '2-Jan-2024'],
    action: { id: name, name, type: 'events', order: 0 },
  });
  const names = (result: unknown[]) => {
    const view = resultView({ filters: { insight: 'TRENDS' }, query: null, result });
    return view.type === 'trends' ? view.series.map((s) => s.label) : [];
  };

  it('are the breakdown values for one series, and "series · value" for several (never the value twice)', () => {
    expect(names([series('$pageview', 'Chrome'), series('$pageview', 'Safari')])).toEqual(['Chrome', 'Safari']);
    expect(names([series('$pageview', 'Chrome'), series('signup', 'Chrome')])).toEqual([
      'Pageview · Chrome',
      'signup · Chrome',
    ]);
  });
});
