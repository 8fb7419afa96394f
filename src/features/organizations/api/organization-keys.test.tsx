import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEDGEBOX, mswServer, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();

/** The paths of the API requests the app makes from now on. */
function recordRequests(): string[] {
  const paths: string[] = [];
  mswServer.events.on('request:start', ({ request }) => {
    paths.push(new URL(request.url).pathname);
  });
  return paths;
}

describe('query keys', () => {
  it('renaming an organization refetches the organization, never its batch exports', async () => {
    const organizationId = api().organizationId(HEDGEBOX);
    const { id: exportId } = api()
      .store.db.prepare("SELECT id FROM batch_exports WHERE name = 'Webhook relay'")
      .get() as { id: string };
    const { user, router } = renderApp(`/organizations/${organizationId}/batch-exports/${exportId}`, {
      apiKey: api().demoKey,
    });
    expect(await screen.findByRole('table', { name: /Runs, newest first/ })).toBeInTheDocument();

    // Rename from the organization's settings...
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    const name = await screen.findByLabelText('Name');
    const requests = recordRequests();
    await user.clear(name);
    await user.type(name, 'Hedgebox Labs');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();

    // ...then back to the export: it shows from the cache, under the new name, without a request.
    router.history.back();
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhook relay' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Hedgebox Labs'),
    ).toBeInTheDocument();
    expect(screen.getByRole('table', { name: /Runs, newest first/ })).toBeInTheDocument();
    expect(requests).toContain(`/api/organizations/${organizationId}/`);
    expect(requests.filter((path) => path.includes('/batch_exports/'))).toEqual([]);
  });
});
