import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Plugin } from '@/contract/plugins';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const org = () => api().organizationId(HEDGEBOX);
const destinations = () => `/organizations/${org()}/pipeline/destinations`;
const pluginId = (name: string) =>
  api().store.db.prepare('SELECT id FROM plugins WHERE name = ? ORDER BY id LIMIT 1').pluck().get(name) as number;
const listedNames = async () =>
  (
    await api().call<{ results: Plugin[] }>('GET', `/api/organizations/${org()}/pipeline_destinations/?limit=1000`)
  ).results.map((p) => p.name);

describe('a plugin’s actions', () => {
  it('deletes only once the confirm dialog is confirmed: Cancel keeps the app', async () => {
    const id = pluginId('Slack notifications');
    const { user, router } = renderApp(`${destinations()}/${id}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete Slack notifications' });
    expect(dialog).toHaveTextContent('its configuration in every project');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(await listedNames()).toContain('Slack notifications');
    expect(screen.getByRole('heading', { level: 1, name: 'Slack notifications' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete Slack notifications' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Slack notifications' }));
    // Back on the list, which no longer shows it (the repository still offers it).
    const table = await screen.findByRole('table', { name: 'Destinations' });
    expect(router.state.location.pathname).toBe(destinations());
    expect(within(table).getByRole('link', { name: 'Webhook' })).toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: 'Slack notifications' })).not.toBeInTheDocument();
    expect(await listedNames()).not.toContain('Slack notifications');
    expect(await screen.findByText('“Slack notifications” deleted')).toBeInTheDocument();
    // Back to the deleted app: the server's answer (Not found), not the page as it was.
    router.history.back();
    // The route's error boundary may draw its notice twice as the load settles: the one that stays counts.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Not found' })).toBeInTheDocument());
    expect(screen.queryByRole('heading', { level: 1, name: 'Slack notifications' })).toBeNull();
  });

  it('checks for updates: a newer version in the repository shows, with the Upgrade button', async () => {
    // The webhook as it was before the repository's 1.2.0 was known: 1.1.0, nothing newer seen.
    api().store.db.prepare("UPDATE plugins SET latest_tag = '1.1.0' WHERE name = 'Webhook'").run();
    const { user } = renderApp(`${destinations()}/${pluginId('Webhook')}`, { apiKey: api().demoKey });
    const check = await screen.findByRole('button', { name: 'Check for updates' });
    expect(screen.queryByRole('button', { name: 'Upgrade…' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Update available/)).not.toBeInTheDocument();

    await user.click(check);
    expect(await screen.findByText('Version 1.2.0 is available')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Upgrade…' })).toBeInTheDocument();
    expect(screen.getByText('Update available: 1.2.0')).toBeInTheDocument();
    expect(api().store.db.prepare("SELECT latest_tag FROM plugins WHERE name = 'Webhook'").pluck().get()).toBe('1.2.0');
  });

  it('checks for updates: an app at the repository’s version is up to date', async () => {
    const { user } = renderApp(`${destinations()}/${pluginId('Slack notifications')}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Check for updates' }));
    expect(await screen.findByText('This app is up to date')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upgrade…' })).not.toBeInTheDocument();
  });

  it('upgrades and removes an import app as the other groups: the new version shows at once, the list loses it', async () => {
    const importApps = `/organizations/${org()}/pipeline/import-apps`;
    // Seeded a version behind (0.9.0; the repository has 1.0.0).
    const { user, router } = renderApp(`${importApps}/${pluginId('JSON lines importer')}`, { apiKey: api().demoKey });
    const heading = await screen.findByRole('heading', { level: 1, name: 'JSON lines importer' });
    const header = heading.closest('header')!;
    expect(header).toHaveTextContent('Update available: 1.0.0');
    await user.click(within(header).getByRole('button', { name: 'Upgrade…' }));
    const upgrade = await screen.findByRole('alertdialog', { name: 'Upgrade JSON lines importer' });
    expect(upgrade).toHaveTextContent('0.9.0 → 1.0.0');
    await user.click(within(upgrade).getByRole('button', { name: 'Upgrade to 1.0.0' }));
    expect(await screen.findByText('Upgraded to 1.0.0')).toBeInTheDocument();
    await waitFor(() => expect(header).not.toHaveTextContent('Update available'));
    expect(within(header).getByText('1.0.0')).toBeInTheDocument();
    expect(within(header).queryByRole('button', { name: 'Upgrade…' })).not.toBeInTheDocument();

    await user.click(within(header).getByRole('button', { name: 'Delete' }));
    const remove = await screen.findByRole('alertdialog', { name: 'Delete JSON lines importer' });
    await user.click(within(remove).getByRole('button', { name: 'Delete JSON lines importer' }));
    const table = await screen.findByRole('table', { name: 'Import apps' });
    expect(router.state.location.pathname).toBe(importApps);
    expect(within(table).getByRole('link', { name: 'CSV importer' })).toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: 'JSON lines importer' })).not.toBeInTheDocument();
    expect(
      (await api().call<{ results: Plugin[] }>('GET', `/api/organizations/${org()}/pipeline_import_apps/`)).results.map(
        (p) => p.name,
      ),
    ).toEqual(['CSV importer']);
  });
});
