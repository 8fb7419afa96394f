import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HttpResponse } from 'msw';
import { batchExportEndpoints, type BatchExport } from '@/contract/batch-exports';
import { HEDGEBOX, mswServer, NORTHWIND, override, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

function seededExport(name: string): { id: string; organizationId: string; config: Record<string, unknown> } {
  const { store } = api();
  const id = store.db.prepare('SELECT id FROM batch_exports WHERE name = ?').pluck().get(name) as string;
  // Through the repository: the file holds the configs sealed (encrypted at rest).
  const row = store.batchExports.get(id)!;
  return { id: row.id, organizationId: row.organization_id, config: JSON.parse(row.destination_config) as Record<string, unknown> };
}

const runsOf = (id: string) => api().store.batchExportRuns.countForExport(id);

/** A new hourly HTTP export in Northwind (no runs yet), made through the API. */
async function createHook(name: string): Promise<{ organizationId: string; batchExport: BatchExport }> {
  const organizationId = api().organizationId(NORTHWIND);
  const batchExport = await api().call<BatchExport>('POST', `/api/organizations/${organizationId}/batch_exports/`, {
    name,
    interval: 'hour',
    destination: { type: 'HTTP', config: { url: 'https://hooks.example.com/in', token: 'stored-token' } },
  });
  return { organizationId, batchExport };
}

describe('batch export detail', () => {
  it('shows the configuration with secrets masked, and the runs', async () => {
    const hook = seededExport('Webhook relay');
    renderApp(`/organizations/${hook.organizationId}/batch-exports/${hook.id}`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhook relay' })).toBeInTheDocument();
    const configuration = screen.getByRole('region', { name: 'Configuration' });
    expect(configuration).toHaveTextContent('https://hooks.hedgebox.example/batch-exports');
    expect(configuration).toHaveTextContent('(hidden)');
    expect(document.body).not.toHaveTextContent(String(hook.config.token));
    const runs = await screen.findByRole('table', { name: /Runs, newest first/ });
    expect(within(runs).getByText(/answered 503 Service Unavailable/)).toBeInTheDocument();
    expect(within(runs).getAllByRole('row')).toHaveLength(1 + 10);
    expect(screen.getByRole('tab', { name: 'Runs' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows the log entries in their tab, with the tab in the URL', async () => {
    const hook = seededExport('Webhook relay');
    const { user } = renderApp(`/organizations/${hook.organizationId}/batch-exports/${hook.id}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('tab', { name: 'Logs' }));
    const logs = await screen.findByRole('region', { name: 'Log entries, newest first' });
    expect(within(logs).getByText('Export paused.')).toBeInTheDocument();
    expect(window.location.search).toContain('tab=logs');
  });

  it('checks the backfill range before sending, then starts one run per interval', async () => {
    const { organizationId, batchExport } = await createHook('Hook');
    const { user } = renderApp(`/organizations/${organizationId}/batch-exports/${batchExport.id}?backfill=true`, {
      apiKey: api().demoKey,
    });
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
    expect(runsOf(batchExport.id)).toBe(0);

    await user.clear(end);
    await user.type(end, '2024-03-05T13:00');
    await user.click(within(dialog).getByRole('button', { name: 'Start backfill' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(runsOf(batchExport.id)).toBe(3);
    expect(await screen.findByText('Backfill started: 3 runs')).toBeInTheDocument();
    // The server queues the runs; its scheduler (not running in tests) would execute them.
    const runs = await screen.findByRole('table', { name: /Runs, newest first/ });
    expect(within(runs).getAllByText('Starting')).toHaveLength(3);
    expect(screen.getByText('A run is in progress: this page refreshes by itself.')).toBeInTheDocument();
    expect(window.location.search).not.toContain('backfill');
  });

  it('deletes behind a confirm dialog that names the export', async () => {
    const { organizationId, batchExport } = await createHook('Old hook');
    const { user } = renderApp(`/organizations/${organizationId}/batch-exports/${batchExport.id}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete batch export' });
    expect(dialog).toHaveTextContent('Old hook');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Old hook' }));
    expect(await screen.findByRole('heading', { name: 'No batch exports yet' })).toBeInTheDocument();
    expect(await screen.findByText('Batch export “Old hook” deleted')).toBeInTheDocument();
    expect(api().store.batchExports.get(batchExport.id)).toBeUndefined();
  });

  it('when its runs fail to load, says so in their place: the rest of the page stays, and Try again loads them', async () => {
    const hook = seededExport('Webhook relay');
    override(batchExportEndpoints.runs, () =>
      HttpResponse.json({ type: 'authentication_error', code: 'permission_denied', detail: 'You do not have permission to perform this action.', attr: null }, { status: 403 }));
    const { user } = renderApp(`/organizations/${hook.organizationId}/batch-exports/${hook.id}`, { apiKey: api().demoKey });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The runs could not be loaded.');
    expect(alert).toHaveTextContent('You do not have permission to perform this action.');
    // The export itself is still on the page.
    expect(screen.getByRole('heading', { level: 1, name: 'Webhook relay' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Configuration' })).toBeInTheDocument();

    mswServer.resetHandlers();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    const table = await screen.findByRole('table', { name: /Runs, newest first/ });
    expect(screen.queryByText('The runs could not be loaded.')).toBeNull();
    // The button went with the failure: focus stays in the runs' place, not on the page.
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement!.contains(table)).toBe(true);
  });

  it('says Not found for an export of another organization, with the way back to the list', async () => {
    const hook = seededExport('Webhook relay');
    const { user, router } = renderApp(`/organizations/${api().organizationId(NORTHWIND)}/batch-exports/${hook.id}`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(api().organizationId(HEDGEBOX)).toBe(hook.organizationId);
    await user.click(screen.getByRole('link', { name: 'Back to Batch exports' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organizations/${api().organizationId(NORTHWIND)}/batch-exports`));
  });
});
