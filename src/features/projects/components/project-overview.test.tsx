import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const PROJECT = 1;

describe('project overview', () => {
  it('says whether data arrives: events per hour and per day, the last one’s time, and the snippets to send more', async () => {
    const { api_token: token } = api().store.db.prepare('SELECT api_token FROM projects WHERE id = ?').get(PROJECT) as {
      api_token: string;
    };
    const at = new Date(Date.now() - 2 * 3_600_000).toISOString();
    await api().call('POST', '/batch/', {
      api_key: token,
      batch: [
        { event: 'signed up', distinct_id: 'u1', timestamp: at },
        { event: 'signed up', distinct_id: 'u2', timestamp: at },
      ],
    });

    const { user } = renderApp(`/projects/${PROJECT}`, { apiKey: api().demoKey });
    const activity = await screen.findByRole('region', { name: 'Activity' });
    expect(await within(activity).findByText(/^Last event received/)).toHaveTextContent(/hours? ago/);
    expect(await within(activity).findByRole('figure', { name: 'Events, last 24 hours: chart' })).toBeInTheDocument();
    expect(await within(activity).findByRole('figure', { name: 'Events, last 30 days: chart' })).toBeInTheDocument();
    // A glance: the charts without their tables.
    expect(within(activity).queryByRole('table')).toBeNull();

    const send = screen.getByRole('region', { name: 'Send events' });
    expect(within(send).getByLabelText('Web (posthog-js) snippet')).toHaveTextContent(
      `posthog.init('${token}', { api_host: '${window.location.origin}' })`,
    );
    await user.click(within(send).getByRole('tab', { name: 'Node.js (posthog-node)' }));
    expect(within(send).getByLabelText('Node.js (posthog-node) snippet')).toHaveTextContent(
      `new PostHog('${token}', { host: '${window.location.origin}' })`,
    );
    expect(screen.getByRole('region', { name: 'Settings' })).toHaveTextContent('Time zone');
  });
});
