import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { batchExportEndpoints } from '@/contract/batch-exports';
import { renderApp } from '@/test-utils/render-app';
import { apiUrl, mockApi } from '../../../../test/msw/handlers';
import { DEMO_KEY, READ_ONLY_KEY } from '../../../../test/msw/mock-api';
import { server, setupMockApi } from '../../../../test/msw/server';

setupMockApi();

function acme() {
  return mockApi().organizations.find((organization) => organization.name === 'Acme Inc')!;
}

function seedExports() {
  const organization = acme();
  const nightly = mockApi().addBatchExport(
    organization.id,
    { name: 'Nightly S3', interval: 'day', destination: { type: 'S3', config: { bucket_name: 'b', region: 'eu', prefix: '', aws_access_key_id: 'AKIA', aws_secret_access_key: 'sekret', file_format: 'JSONLines' } } },
    [{ status: 'Failed', latest_error: 'Access denied' }],
  );
  const hourly = mockApi().addBatchExport(organization.id, { name: 'Hourly webhook', destination: { type: 'HTTP', config: { url: 'https://example.com/hook' } } }, [
    { status: 'Completed' },
  ]);
  return { organization, nightly, hourly };
}

const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

describe('batch exports list', () => {
  it('lists the exports with destination, interval, state and last run', async () => {
    const { organization } = seedExports();
    renderApp(`/organizations/${organization.id}/batch-exports`, { apiKey: DEMO_KEY });
    const table = await screen.findByRole('table', { name: 'Batch exports' });
    const row = within(table).getByRole('link', { name: 'Nightly S3' }).closest('tr')!;
    expect(row).toHaveTextContent('Amazon S3');
    expect(row).toHaveTextContent('Daily');
    expect(row).toHaveTextContent('Active');
    expect(row).toHaveTextContent('Failed');
    expect(within(row).getByRole('switch', { name: 'Active: Nightly S3' })).toBeChecked();
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();
  });

  it('shows an empty state when the organization has no exports', async () => {
    renderApp(`/organizations/${acme().id}/batch-exports`, { apiKey: DEMO_KEY });
    expect(await screen.findByRole('heading', { name: 'No batch exports yet' })).toBeInTheDocument();
  });

  it('pauses at once, before the server answers', async () => {
    const { organization, hourly } = seedExports();
    server.use(
      http.post(apiUrl(batchExportEndpoints.pause), async () => {
        await delay(300);
        return HttpResponse.json({ ...hourly, paused: true });
      }),
    );
    const { user } = renderApp(`/organizations/${organization.id}/batch-exports`, { apiKey: DEMO_KEY });
    const toggle = await screen.findByRole('switch', { name: 'Active: Hourly webhook' });
    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(rowOf('Hourly webhook')).toHaveTextContent('Paused');
  });

  it('rolls the switch back with a toast when the server refuses', async () => {
    const { organization } = seedExports();
    server.use(
      http.post(apiUrl(batchExportEndpoints.pause), async () => {
        await delay(100);
        return HttpResponse.json(
          { type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null },
          { status: 500 },
        );
      }),
    );
    const { user } = renderApp(`/organizations/${organization.id}/batch-exports`, { apiKey: DEMO_KEY });
    const toggle = await screen.findByRole('switch', { name: 'Active: Hourly webhook' });
    await user.click(toggle);
    // Optimistic: paused at once...
    expect(toggle).not.toBeChecked();
    expect(rowOf('Hourly webhook')).toHaveTextContent('Paused');
    // ...then back, with the reason.
    expect(await screen.findByText(/Couldn't pause “Hourly webhook”/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Active: Hourly webhook' })).toBeChecked());
    expect(rowOf('Hourly webhook')).toHaveTextContent('Active');
    expect(mockApi().batchExports.find((entry) => entry.batchExport.name === 'Hourly webhook')?.batchExport.paused).toBe(false);
  });

  it('pauses several selected exports together', async () => {
    const { organization } = seedExports();
    const { user } = renderApp(`/organizations/${organization.id}/batch-exports`, { apiKey: DEMO_KEY });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all on this page' }));
    const bulk = screen.getByRole('group', { name: 'Selected batch exports' });
    expect(bulk).toHaveTextContent('2 selected');
    await user.click(within(bulk).getByRole('button', { name: 'Pause selected' }));
    expect(screen.getByRole('switch', { name: 'Active: Nightly S3' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Active: Hourly webhook' })).not.toBeChecked();
    await waitFor(() => expect(mockApi().batchExports.every((entry) => entry.batchExport.paused)).toBe(true));
  });

  it('a key without batch_export:write sees the switch disabled, with the missing scope named', async () => {
    const { organization } = seedExports();
    mockApi().addKey(READ_ONLY_KEY, ['organization:read', 'batch_export:read']);
    const { user } = renderApp(`/organizations/${organization.id}/batch-exports`, { apiKey: READ_ONLY_KEY });
    const toggle = await screen.findByRole('switch', { name: 'Active: Hourly webhook' });
    await waitFor(() => expect(toggle).toBeDisabled());
    const wrapper = toggle.closest('[data-missing-scope]') as HTMLElement;
    expect(wrapper).toHaveAccessibleDescription('Your API key lacks the batch_export:write scope');
    await user.hover(wrapper);
    expect(await screen.findByRole('tooltip', { name: /batch_export:write/ })).toBeVisible();
    await user.click(toggle);
    expect(toggle).toBeChecked();
    expect(screen.getByRole('button', { name: 'New batch export' })).toBeDisabled();
  });
});
