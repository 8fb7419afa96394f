import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { batchExportEndpoints } from '@/contract/batch-exports';
import { failWithServerError, HEDGEBOX, renderApp, setupTestApi, slowDown } from '@testing';

const api = setupTestApi();
const exportsPage = () => `/organizations/${api().organizationId(HEDGEBOX)}/batch-exports`;
/** The app's own status line for changes (not a toast's). */
const changeStatus = () => screen.getAllByRole('status').find((s) => /Sav|saved/i.test(s.textContent ?? ''));

describe('a change that takes time says so', () => {
  it('a slow pause says "Saving…" while the server works, then "Saved"', async () => {
    slowDown(batchExportEndpoints.pause, 1200);
    const { user } = renderApp(exportsPage(), { apiKey: api().demoKey });
    await user.click(await screen.findByRole('switch', { name: 'Active: Hourly export check' }));
    await waitFor(() => expect(changeStatus()).toHaveTextContent('Saving…'));
    await waitFor(() => expect(changeStatus()).toHaveTextContent('Saved'), { timeout: 5000 });
    // …and then it goes.
    await waitFor(() => expect(changeStatus()).toBeUndefined(), { timeout: 5000 });
  });

  it('a slow pause the server refuses ends in "Not saved", beside the message that says why', async () => {
    failWithServerError(batchExportEndpoints.pause, { ms: 1000 });
    const { user } = renderApp(exportsPage(), { apiKey: api().demoKey });
    await user.click(await screen.findByRole('switch', { name: 'Active: Hourly export check' }));
    await waitFor(() => expect(changeStatus()).toHaveTextContent('Saving…'));
    await waitFor(() => expect(changeStatus()).toHaveTextContent('Not saved: see the message'), { timeout: 5000 });
    expect(await screen.findByText(/Couldn't pause “Hourly export check”/)).toBeInTheDocument();
  });
});
