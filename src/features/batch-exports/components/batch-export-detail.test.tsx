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
  return {
    id: row.id,
    organizationId: row.organization_id,
    config: JSON.parse(row.destination_config) as Record<string, unknown>,
  };
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
    const { user } = renderApp(`/organizations/${hook.organizationId}/batch-exports/${hook.id}`, {
      apiKey: api().demoKey,
    });
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
    const { user } = renderApp(`/organizations/${organizationId}/batch-exports/${batchExport.id}`, {
      apiKey: api().demoKey,
    });
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
      HttpResponse.json(
        {
          type: 'authentication_error',
          code: 'permission_denied',
          detail: 'You do not have permission to perform this action.',
          attr: null,
        },
        { status: 403 },
      ),
    );
    const { user } = renderApp(`/organizations/${hook.organizationId}/batch-exports/${hook.id}`, {
      apiKey: api().demoKey,
    });
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
    const { user, router } = renderApp(`/organizations/${api().organizationId(NORTHWIND)}/batch-exports/${hook.id}`, {
      apiKey: api().demoKey,
    });
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(api().organizationId(HEDGEBOX)).toBe(hook.organizationId);
    await user.click(screen.getByRole('link', { name: 'Back to Batch exports' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/organizations/${api().organizationId(NORTHWIND)}/batch-exports`),
    );
  });
});

describe('runs and backfills an admin acts on', () => {
  it('Retry on a failed run queues a new run of its interval', async () => {
    const hook = seededExport('Webhook relay');
    const { user } = renderApp(`/organizations/${hook.organizationId}/batch-exports/${hook.id}`, {
      apiKey: api().demoKey,
    });
    const runs = await screen.findByRole('table', { name: /Runs, newest first/ });
    const failed = within(runs)
      .getAllByRole('row')
      .find((row) => within(row).queryByText('Failed'))!;
    const before = runsOf(hook.id);
    await user.click(within(failed).getByRole('button', { name: /^Retry the run of / }));
    expect(await screen.findByText(/^Retry queued: a new run will export/)).toBeInTheDocument();
    expect(runsOf(hook.id)).toBe(before + 1);
    await waitFor(() => expect(within(runs).getAllByText('Starting').length).toBeGreaterThan(0));
    // Only runs that ended without exporting offer it.
    const completed = within(runs)
      .getAllByRole('row')
      .find((row) => within(row).queryByText('Completed'))!;
    expect(within(completed).queryByRole('button', { name: /^Retry/ })).not.toBeInTheDocument();
  });

  it('a running run shows how far it got', async () => {
    const { organizationId, batchExport } = await createHook('Busy hook');
    const { store } = api();
    const id = store.batchExportRuns.create(
      {
        batch_export_id: batchExport.id,
        data_interval_start: '2024-03-05T10:00:00Z',
        data_interval_end: '2024-03-05T11:00:00Z',
      },
      '2024-03-05T11:00:00Z',
    );
    store.batchExportRuns.setProgress(
      id,
      {
        status: 'Running',
        records_completed: 3000,
        records_total_count: 10000,
        latest_error: null,
        finished_at: null,
        attempts: 1,
      },
      '2024-03-05T11:00:01Z',
    );
    renderApp(`/organizations/${organizationId}/batch-exports/${batchExport.id}`, { apiKey: api().demoKey });
    const bar = await screen.findByRole('progressbar', { name: /^Progress of the run from / });
    expect(bar).toHaveAttribute('aria-valuenow', '3000');
    expect(bar).toHaveAttribute('aria-valuemax', '10000');
    expect(screen.getByText('3,000 of 10,000 records')).toBeInTheDocument();
    expect(screen.getByText('A run is in progress: this page refreshes by itself.')).toBeInTheDocument();
  });

  it('lists backfills with their progress; Cancel, confirmed, cancels the runs still waiting', async () => {
    const { organizationId, batchExport } = await createHook('Backfilled hook');
    await api().call('POST', `/api/organizations/${organizationId}/batch_exports/${batchExport.id}/backfill/`, {
      start_at: '2024-03-05T10:00:00Z',
      end_at: '2024-03-05T14:00:00Z',
    });
    const { user } = renderApp(`/organizations/${organizationId}/batch-exports/${batchExport.id}?tab=backfills`, {
      apiKey: api().demoKey,
    });
    const table = await screen.findByRole('table', { name: 'Backfills, newest first' });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(row).toHaveTextContent('Running');
    expect(row).toHaveTextContent('0 of 4 runs · 0 records');

    await user.click(within(row!).getByRole('button', { name: /^Cancel the backfill of / }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this backfill?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it running' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(row).toHaveTextContent('Running');

    await user.click(within(row!).getByRole('button', { name: /^Cancel the backfill of / }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel backfill' }));
    await waitFor(() => expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Cancelled'));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('4 of 4 runs');
    expect(within(table).queryByRole('button', { name: /^Cancel the backfill/ })).not.toBeInTheDocument();
    const statuses = api()
      .store.db.prepare('SELECT status FROM batch_export_runs WHERE batch_export_id = ?')
      .pluck()
      .all(batchExport.id);
    expect(statuses).toEqual(['Cancelled', 'Cancelled', 'Cancelled', 'Cancelled']);
  });

  it('Test connection on the page tries the saved settings and tells each step', async () => {
    const organizationId = api().organizationId(NORTHWIND);
    // A private address: the server's outbound guard refuses it before any connection.
    const batchExport = await api().call<BatchExport>('POST', `/api/organizations/${organizationId}/batch_exports/`, {
      name: 'Checked hook',
      interval: 'hour',
      destination: { type: 'HTTP', config: { url: 'http://10.9.8.7/in', token: 'stored-token' } },
    });
    const { user } = renderApp(`/organizations/${organizationId}/batch-exports/${batchExport.id}`, {
      apiKey: api().demoKey,
    });
    const configuration = await screen.findByRole('region', { name: 'Configuration' });
    await user.click(within(configuration).getByRole('button', { name: 'Test connection' }));
    const steps = await within(configuration).findByRole('list', { name: 'Connection test steps' });
    expect(within(steps).getByRole('listitem')).toHaveTextContent(/^Failed: Send an empty batchRefused: /);
    expect(within(configuration).getByText('Connection failed at “Send an empty batch”.')).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('stored-token');
  });
});
