import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { PluginConfig } from '@/contract/plugin-configs';
import { HEDGEBOX, mswServer, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
/** Where the seeded CSV importer's config points (server/seed/plugins.ts). */
const CSV_URL = 'https://files.hedgebox.example/events.csv';
const CSV = [
  'event,distinct_id,timestamp,plan',
  'signed up,import-1,2026-01-05T10:00:00Z,pro',
  'upgraded,import-1,2026-01-05T11:00:00Z,team',
  ',import-2,2026-01-05T12:00:00Z,free', // no event name: skipped
].join('\n');

describe('an import app’s job', () => {
  it('starts an import and shows its progress until it completes', async () => {
    // The file server answers once the test lets it, so the running state can be seen.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let requested = 0;
    mswServer.use(
      http.get(CSV_URL, async () => {
        requested += 1;
        await released;
        return HttpResponse.text(CSV);
      }),
    );
    const id = api().store.db.prepare("SELECT id FROM plugins WHERE name = 'CSV importer'").pluck().get() as number;
    const { user } = renderApp(`/organizations/${api().organizationId(HEDGEBOX)}/pipeline/import-apps/${id}`, {
      apiKey: api().demoKey,
    });
    const job = (await screen.findByRole('heading', { name: 'Import job' })).parentElement!;
    expect(within(job).getByRole('status')).toHaveTextContent('Last run completed: 1,250 rows imported, 3 skipped.');
    // enabling says what it does for an import app, not for a destination
    expect(screen.getByRole('checkbox', { name: 'Enabled in Hedgebox Web' })).toHaveAccessibleDescription(
      'An enabled import app can run its import job into this project.',
    );

    await user.click(within(job).getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(within(job).getByRole('status')).toHaveTextContent(/^Importing since .+\.$/));
    expect(job).toHaveTextContent('0 rows imported, 0 skipped so far.');
    expect(within(job).getByRole('button', { name: 'Importing…' })).toBeDisabled();
    expect(requested).toBe(1);

    release();
    await waitFor(
      () =>
        expect(within(job).getByRole('status')).toHaveTextContent('Last run completed: 2 rows imported, 1 skipped.'),
      { timeout: 8000 },
    );
    expect(within(job).getByRole('button', { name: 'Start import' })).toBeEnabled();
    const config = api().store.db.prepare('SELECT id, team_id FROM plugin_configs WHERE plugin_id = ?').get(id) as {
      id: number;
      team_id: number;
    };
    const stored = await api().call<PluginConfig>(
      'GET',
      `/api/projects/${config.team_id}/plugin_configs/${config.id}/`,
    );
    expect(stored.last_job).toMatchObject({ status: 'completed', rows_imported: 2, rows_failed: 1 });
  });
});
