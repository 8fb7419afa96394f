import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Plugin } from '@/contract/plugins';
import { HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const org = () => api().organizationId(HEDGEBOX);
const importApps = async () =>
  (
    await api().call<{ results: Plugin[] }>('GET', `/api/organizations/${org()}/pipeline_import_apps/?limit=100`)
  ).results.map((p) => p.url);

async function openInstall() {
  const rendered = renderApp(`/organizations/${org()}/pipeline/import-apps`, { apiKey: api().demoKey });
  const section = (await screen.findByRole('heading', { name: 'Install from the repository' })).closest('section')!;
  return {
    ...rendered,
    field: within(section).getByRole('textbox', { name: 'Repository URL' }),
    install: within(section).getByRole('button', { name: 'Install' }),
  };
}

describe('installing an import app by URL', () => {
  it('puts a value that is not a URL’s message on the field and sends nothing', async () => {
    const before = await importApps();
    const { user, field, install } = await openInstall();
    expect(install).toBeDisabled();
    await user.type(field, 'csv-import');
    await user.click(install);
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(/Enter a valid URL\./);
    expect(field).toHaveFocus();
    expect(await importApps()).toEqual(before);
  });

  it('puts the server’s refusal of a URL not in the repository on the field', async () => {
    const { user, field, install } = await openInstall();
    await user.type(field, 'https://github.com/analytics-plugins/nothing-here');
    await user.click(install);
    await waitFor(() => expect(field).toHaveAccessibleDescription(/No plugin with this URL is in the repository\./));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('installs a catalogue URL (spaces around it trimmed), says so and empties the field', async () => {
    const csv = 'https://github.com/analytics-plugins/csv-import';
    const before = (await importApps()).filter((u) => u === csv).length;
    const { user, field, install } = await openInstall();
    await user.type(field, `  ${csv} `);
    await user.click(install);
    expect(await screen.findByText('“CSV importer” installed')).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveValue(''));
    expect((await importApps()).filter((u) => u === csv)).toHaveLength(before + 1);
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Import apps' })).getAllByRole('link', { name: 'CSV importer' }),
      ).toHaveLength(before + 1),
    );
  });
});
