import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

describe('the activity of a plugin', () => {
  it('lists a change made through the API, newest first, with who made it and what changed', async () => {
    const org = api().organizationId(HEDGEBOX);
    const pluginId = (name: string) =>
      api().store.db.prepare('SELECT id FROM plugins WHERE name = ?').pluck().get(name) as number;
    const id = pluginId('Slack notifications');
    await api().call('PATCH', `/api/organizations/${org}/pipeline_destinations/${id}/`, {
      name: 'Slack alerts',
      icon: 'bell',
    });
    // Another plugin's change is not this one's activity.
    await api().call('PATCH', `/api/organizations/${org}/pipeline_destinations/${pluginId('Webhook')}/`, {
      description: 'Elsewhere.',
    });

    renderApp(`/organizations/${org}/pipeline/destinations/${id}`, { apiKey: api().demoKey });
    const section = (await screen.findByRole('heading', { level: 2, name: 'Activity' })).closest('section')!;
    const entries = await within(section).findAllByRole('listitem');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toHaveTextContent(
      /Demo updated · name: Slack notifications → Slack alerts · icon: message-square → bell$/,
    );
    expect(entries[0]!.querySelector('time')).toHaveAttribute('datetime');
    expect(entries[1]).toHaveTextContent(/The system installed$/);
    expect(section).not.toHaveTextContent('Elsewhere.');
  });
});
