import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { batchExportEndpoints } from '@/contract/batch-exports';
import { failWithServerError, HEDGEBOX, NORTHWIND, renderApp, setupTestApi, slowDown } from '@testing';

const api = setupTestApi();

const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr')!;
const pausedInStore = (name: string) =>
  (api().store.db.prepare('SELECT paused FROM batch_exports WHERE name = ?').get(name) as { paused: number }).paused ===
  1;

/** Hedgebox's seeded exports (server/seed/batch-exports.ts): six, all but the NoOp one paused. */
const hedgeboxExports = () => `/organizations/${api().organizationId(HEDGEBOX)}/batch-exports`;

describe('batch exports list', () => {
  it('lists the exports with destination, interval, state and last run', async () => {
    renderApp(hedgeboxExports(), { apiKey: api().demoKey });
    const table = await screen.findByRole('table', { name: 'Batch exports' });
    const row = within(table).getByRole('link', { name: 'Event archive (S3)' }).closest('tr')!;
    expect(row).toHaveTextContent('Amazon S3');
    expect(row).toHaveTextContent('Daily');
    expect(row).toHaveTextContent('Paused');
    expect(row).toHaveTextContent('Failed');
    expect(within(row).getByRole('switch', { name: 'Active: Event archive (S3)' })).not.toBeChecked();
    const hourly = within(table).getByRole('link', { name: 'Hourly export check' }).closest('tr')!;
    expect(hourly).toHaveTextContent('Active');
    expect(hourly).toHaveTextContent('Completed');
    expect(screen.getByText('1–6 of 6')).toBeInTheDocument();
  });

  it('shows an empty state when the organization has no exports', async () => {
    renderApp(`/organizations/${api().organizationId(NORTHWIND)}/batch-exports`, { apiKey: api().demoKey });
    expect(await screen.findByRole('heading', { name: 'No batch exports yet' })).toBeInTheDocument();
  });

  it('says when the page in the URL is past the last one', async () => {
    const { user } = renderApp(`${hedgeboxExports()}?page=3`, { apiKey: api().demoKey });
    expect(await screen.findByText(/There are 6 batch exports, but page 3 is past the last one/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Go to the first page' }));
    expect(await screen.findByRole('table', { name: 'Batch exports' })).toBeInTheDocument();
  });

  it('pauses at once, before the server answers', async () => {
    slowDown(batchExportEndpoints.pause, 300);
    const { user } = renderApp(hedgeboxExports(), { apiKey: api().demoKey });
    const toggle = await screen.findByRole('switch', { name: 'Active: Hourly export check' });
    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(rowOf('Hourly export check')).toHaveTextContent('Paused');
    expect(pausedInStore('Hourly export check')).toBe(false);
    await waitFor(() => expect(pausedInStore('Hourly export check')).toBe(true));
  });

  it('rolls the switch back with a toast when the server refuses', async () => {
    failWithServerError(batchExportEndpoints.pause, { ms: 100 });
    const { user } = renderApp(hedgeboxExports(), { apiKey: api().demoKey });
    const toggle = await screen.findByRole('switch', { name: 'Active: Hourly export check' });
    await user.click(toggle);
    // Optimistic: paused at once...
    expect(toggle).not.toBeChecked();
    expect(rowOf('Hourly export check')).toHaveTextContent('Paused');
    // ...then back, with the reason.
    expect(await screen.findByText(/Couldn't pause “Hourly export check”/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Active: Hourly export check' })).toBeChecked());
    expect(rowOf('Hourly export check')).toHaveTextContent('Active');
    expect(pausedInStore('Hourly export check')).toBe(false);
  });

  it('pauses several selected exports together', async () => {
    // The seed pauses every export this server cannot reach: make two of them active first.
    for (const name of ['Warehouse sync', 'Weekly marketing export']) {
      const { id } = api().store.db.prepare('SELECT id FROM batch_exports WHERE name = ?').get(name) as { id: string };
      await api().call('POST', `/api/organizations/${api().organizationId(HEDGEBOX)}/batch_exports/${id}/unpause/`);
    }
    const { user } = renderApp(hedgeboxExports(), { apiKey: api().demoKey });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Hourly export check' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Warehouse sync' }));
    const bulk = screen.getByRole('group', { name: 'Selected batch exports' });
    expect(bulk).toHaveTextContent('2 selected');
    await user.click(within(bulk).getByRole('button', { name: 'Pause selected' }));
    expect(screen.getByRole('switch', { name: 'Active: Hourly export check' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Active: Warehouse sync' })).not.toBeChecked();
    await waitFor(() => expect(pausedInStore('Hourly export check') && pausedInStore('Warehouse sync')).toBe(true));
    expect(pausedInStore('Weekly marketing export')).toBe(false);
  });

  it('selects every row of the page at once, and clears the selection', async () => {
    const { user } = renderApp(hedgeboxExports(), { apiKey: api().demoKey });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all on this page' }));
    const bulk = screen.getByRole('group', { name: 'Selected batch exports' });
    expect(bulk).toHaveTextContent('6 selected');
    await user.click(within(bulk).getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('group', { name: 'Selected batch exports' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Warehouse sync' })).not.toBeChecked();
  });

  it('a key without batch_export:write sees the switch disabled, with the missing scope named', async () => {
    const key = api().makeKey(['organization:read', 'batch_export:read']);
    const { user } = renderApp(hedgeboxExports(), { apiKey: key });
    const toggle = await screen.findByRole('switch', { name: 'Active: Hourly export check' });
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
