import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test-utils/render-app';
import { mockApi } from '../../../../test/msw/handlers';
import { DEMO_KEY } from '../../../../test/msw/mock-api';
import { setupMockApi } from '../../../../test/msw/server';

setupMockApi();

function acme() {
  return mockApi().organizations.find((organization) => organization.name === 'Acme Inc')!;
}

describe('batch export detail', () => {
  it('shows the configuration with secrets masked, and the runs', async () => {
    const organization = acme();
    const batchExport = mockApi().addBatchExport(
      organization.id,
      { name: 'Hook', destination: { type: 'HTTP', config: { url: 'https://hooks.example.com', token: 'stored-token' } } },
      [{ status: 'Failed', latest_error: 'Connection refused', records_completed: 0 }, { status: 'Completed', records_completed: 42 }],
    );
    renderApp(`/organizations/${organization.id}/batch-exports/${batchExport.id}`, { apiKey: DEMO_KEY });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hook' })).toBeInTheDocument();
    const configuration = screen.getByRole('region', { name: 'Configuration' });
    expect(configuration).toHaveTextContent('https://hooks.example.com');
    expect(configuration).toHaveTextContent('(hidden)');
    expect(document.body).not.toHaveTextContent('stored-token');
    const runs = await screen.findByRole('table', { name: /Runs, newest first/ });
    expect(within(runs).getByText('Connection refused')).toBeInTheDocument();
    expect(within(runs).getByText('42')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Runs' })).toHaveAttribute('aria-selected', 'true');
  });

  it('checks the backfill range before sending: the end must be after the start and not in the future', async () => {
    const organization = acme();
    const batchExport = mockApi().addBatchExport(organization.id, { name: 'Hook', interval: 'hour' });
    const { user } = renderApp(`/organizations/${organization.id}/batch-exports/${batchExport.id}?backfill=true`, { apiKey: DEMO_KEY });
    const dialog = await screen.findByRole('dialog', { name: 'Backfill Hook' });
    const start = within(dialog).getByLabelText('Start');
    const end = within(dialog).getByLabelText('End');
    await user.clear(start);
    await user.type(start, '2024-03-05T10:00');
    await user.clear(end);
    await user.type(end, '2024-03-05T09:00');
    await user.click(within(dialog).getByRole('button', { name: 'Start backfill' }));
    await waitFor(() => expect(end).toHaveAccessibleDescription('The end of the backfill must be after its start.'));
    await user.clear(end);
    await user.type(end, '2999-01-01T00:00');
    await user.click(within(dialog).getByRole('button', { name: 'Start backfill' }));
    await waitFor(() => expect(end).toHaveAccessibleDescription("The end can't be in the future."));
    expect(mockApi().batchExports[0]!.runs).toHaveLength(0);

    await user.clear(end);
    await user.type(end, '2024-03-05T13:00');
    await user.click(within(dialog).getByRole('button', { name: 'Start backfill' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(mockApi().batchExports[0]!.runs).toHaveLength(3);
    const runs = await screen.findByRole('table', { name: /Runs, newest first/ });
    expect(within(runs).getAllByText('Completed')).toHaveLength(3);
    expect(window.location.search).not.toContain('backfill');
  });

  it('deletes behind a confirm dialog that names the export', async () => {
    const organization = acme();
    const batchExport = mockApi().addBatchExport(organization.id, { name: 'Old hook' });
    const { user } = renderApp(`/organizations/${organization.id}/batch-exports/${batchExport.id}`, { apiKey: DEMO_KEY });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete batch export' });
    expect(dialog).toHaveTextContent('Old hook');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Old hook' }));
    expect(await screen.findByRole('heading', { name: 'No batch exports yet' })).toBeInTheDocument();
    expect(mockApi().batchExports).toHaveLength(0);
  });
});
