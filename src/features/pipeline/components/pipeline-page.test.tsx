import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const destinations = () => `/organizations/${api().organizationId(HEDGEBOX)}/pipeline/destinations`;
const pluginId = (name: string) =>
  (api().store.db.prepare('SELECT id FROM plugins WHERE name = ?').get(name) as { id: number }).id;

describe('pipeline apps', () => {
  it('lists the group with type, version and update available; installs from the repository', async () => {
    const { user } = renderApp(destinations(), { apiKey: api().demoKey });
    const table = await screen.findByRole('table', { name: 'Destinations' });
    const webhook = within(table).getByRole('link', { name: 'Webhook' }).closest('tr')!;
    expect(webhook).toHaveTextContent('Repository');
    expect(webhook).toHaveTextContent('Update available: 1.2.0');
    expect(within(table).getByRole('link', { name: 'Signup forwarder' }).closest('tr')).toHaveTextContent('Source');
    // Which are enabled in no project, once the server has said.
    await waitFor(() =>
      expect(within(table).getByRole('link', { name: 'Slack notifications' }).closest('tr')).toHaveTextContent(
        'Enabled in no project',
      ),
    );
    expect(webhook).not.toHaveTextContent('Enabled in no project');
    // (a built-in one: plugins with code need compilePluginSourcesInTheseTests, see pipeline-list.test.tsx)
    await user.click(await screen.findByRole('button', { name: 'Install Slack notifications' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Destinations' })).getAllByRole('link', {
          name: 'Slack notifications',
        }),
      ).toHaveLength(2),
    );
  });

  it('configures a destination per project with its secret kept write-only, and shows a field error', async () => {
    const id = (
      api().store.db.prepare("SELECT id FROM plugins WHERE name = 'Slack notifications' ORDER BY id LIMIT 1").get() as {
        id: number;
      }
    ).id;
    const { user } = renderApp(`${destinations()}/${id}`, { apiKey: api().demoKey });
    const form = await screen.findByRole('form', { name: /Configuration in/ });
    await user.click(within(form).getByRole('checkbox', { name: /^Enabled in/ }));
    await user.click(within(form).getByRole('button', { name: 'Save configuration' }));
    expect(await within(form).findByText('Incoming webhook URL is required.')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Incoming webhook URL (required)'), 'https://hooks.slack.example/T1');
    await user.click(within(form).getByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText('A value is stored (never shown). Leave empty to keep it.')).toBeInTheDocument();
    const row = api()
      .store.db.prepare('SELECT enabled, config, secrets FROM plugin_configs WHERE plugin_id = ?')
      .get(id) as { enabled: number; config: string; secrets: string };
    expect(row.enabled).toBe(1);
    expect(row.config).not.toContain('hooks.slack.example');
    expect(
      within(screen.getByRole('form', { name: /Configuration in/ })).getByLabelText('Incoming webhook URL (required)'),
    ).toHaveValue('');
    expect(await screen.findByText(/^Enabled in /)).toBeInTheDocument();

    // Disabling says so too.
    const again = screen.getByRole('form', { name: /Configuration in/ });
    await user.click(within(again).getByRole('checkbox', { name: /^Enabled in/ }));
    await user.click(within(again).getByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText(/^Disabled in /)).toBeInTheDocument();
    expect(api().store.db.prepare('SELECT enabled FROM plugin_configs WHERE plugin_id = ?').pluck().get(id)).toBe(0);
  });

  it('upgrades after showing the tag change', async () => {
    const { user } = renderApp(`${destinations()}/${pluginId('Webhook')}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Upgrade…' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('1.1.0 → 1.2.0');
    await user.click(within(dialog).getByRole('button', { name: 'Upgrade to 1.2.0' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Upgrade…' })).not.toBeInTheDocument());
    expect(api().store.db.prepare("SELECT tag FROM plugins WHERE name = 'Webhook'").pluck().get()).toBe('1.2.0');
    // The page shows the new version without a reload.
    const header = screen.getByRole('heading', { level: 1, name: 'Webhook' }).closest('header')!;
    await waitFor(() => expect(header).not.toHaveTextContent('Update available'));
    expect(within(header).getByText('1.2.0')).toBeInTheDocument();
  });
});
