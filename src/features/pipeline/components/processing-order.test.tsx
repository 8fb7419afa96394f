import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { pluginConfigEndpoints, type PluginConfig } from '@/contract/plugin-configs';
import { failWithServerError, HEDGEBOX, mswServer, renderApp, setupTestApi } from '@testing';
import { layOutSortableRowsInTheseTests } from '@testing/sortable-layout';

const api = setupTestApi();
const PROJECT = 1;
const destinations = () => `/organizations/${api().organizationId(HEDGEBOX)}/pipeline/destinations`;
const pluginId = (name: string) =>
  api().store.db.prepare('SELECT id FROM plugins WHERE name = ? ORDER BY id LIMIT 1').pluck().get(name) as number;
/** The project's destinations as the server orders them. */
const savedOrder = async () =>
  (await api().call<{ results: PluginConfig[] }>('GET', `/api/projects/${PROJECT}/plugin_configs/?limit=100`)).results
    .filter((c) => c.plugin_info?.group === 'pipeline_destinations')
    .map((c) => c.plugin_info?.name);
const shownOrder = (list: HTMLElement) =>
  within(list)
    .getAllByRole('link')
    .map((a) => a.textContent);

async function openOrder() {
  const app = renderApp(destinations(), { apiKey: api().demoKey });
  const list = await screen.findByRole('list', { name: /^Processing order in / });
  return { ...app, list };
}

describe('the processing order of a project’s destinations', () => {
  // Seeded: the webhook and the event logger enabled; Slack set up but not enabled.
  beforeEach(async () => {
    await api().call('POST', `/api/projects/${PROJECT}/plugin_configs/`, {
      plugin: pluginId('Slack notifications'),
      enabled: false,
    });
  });

  describe('by keyboard', () => {
    layOutSortableRowsInTheseTests();

    it('Space on the handle, arrow down twice, Space: saved, announced, and there after a reload', async () => {
      const { user, list, unmount } = await openOrder();
      expect(shownOrder(list)).toEqual(['Webhook', 'Event logger', 'Slack notifications']);
      expect(within(list).getAllByRole('listitem')[2]).toHaveTextContent('Disabled');

      screen.getByRole('button', { name: 'Reorder Webhook' }).focus();
      await user.keyboard('[Space]');
      expect(await screen.findByText('Webhook is over position 1 of 3.')).toBeInTheDocument();
      await act(async () => {
        await user.keyboard('[ArrowDown]');
      });
      await act(async () => {
        await user.keyboard('[ArrowDown]');
      });
      expect(await screen.findByText('Webhook is over position 3 of 3.')).toBeInTheDocument();
      await user.keyboard('[Space]');
      expect(await screen.findByText('Moved Webhook to position 3.')).toBeInTheDocument();
      expect(shownOrder(list)).toEqual(['Event logger', 'Slack notifications', 'Webhook']);
      expect(await screen.findByText('Order saved.')).toBeInTheDocument();
      expect(await savedOrder()).toEqual(['Event logger', 'Slack notifications', 'Webhook']);

      unmount();
      const again = await openOrder();
      expect(shownOrder(again.list)).toEqual(['Event logger', 'Slack notifications', 'Webhook']);
    });
  });

  it('a save that fails keeps the order on screen, says so, and Try again saves it', async () => {
    const { user, list } = await openOrder();
    expect(screen.getByRole('button', { name: 'Move Webhook up' })).toBeDisabled();
    failWithServerError(pluginConfigEndpoints.update);
    await user.click(screen.getByRole('button', { name: 'Move Slack notifications up' }));
    expect(await screen.findByText(/^The order was not saved: /)).toBeInTheDocument();
    expect(shownOrder(list)).toEqual(['Webhook', 'Slack notifications', 'Event logger']);
    expect(await savedOrder()).toEqual(['Webhook', 'Event logger', 'Slack notifications']);

    mswServer.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Order saved.')).toBeInTheDocument();
    expect(shownOrder(list)).toEqual(['Webhook', 'Slack notifications', 'Event logger']);
    expect(await savedOrder()).toEqual(['Webhook', 'Slack notifications', 'Event logger']);
  });

  it('Put back the saved order drops what failed to save', async () => {
    const { user, list } = await openOrder();
    failWithServerError(pluginConfigEndpoints.update);
    await user.click(screen.getByRole('button', { name: 'Move Webhook down' }));
    await user.click(await screen.findByRole('button', { name: 'Put back the saved order' }));
    await waitFor(() => expect(shownOrder(list)).toEqual(['Webhook', 'Event logger', 'Slack notifications']));
    expect(screen.queryByText(/not saved/)).not.toBeInTheDocument();
  });

  it('an app installed twice: its controls say which by position', async () => {
    const org = api().organizationId(HEDGEBOX);
    const second = await api().call<{ id: number }>('POST', `/api/organizations/${org}/pipeline_destinations/`, {
      plugin_type: 'repository',
      url: 'https://github.com/analytics-plugins/slack-destination',
    });
    await api().call('POST', `/api/projects/${PROJECT}/plugin_configs/`, { plugin: second.id, enabled: false });
    const { list } = await openOrder();
    expect(within(list).getByRole('button', { name: 'Reorder Webhook' })).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Reorder Slack notifications at position 3' })).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: 'Move Slack notifications at position 4 up' })).toBeInTheDocument();
  });
});
