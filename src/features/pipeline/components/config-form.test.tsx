import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PluginConfig } from '@/contract/plugin-configs';
import type { Plugin } from '@/contract/plugins';
import { pluginConfigEndpoints } from '@/contract/plugin-configs';
import { HEDGEBOX, override, renderApp, setupTestApi } from '@testing';
import { HttpResponse } from 'msw';

const api = setupTestApi();
const org = () => api().organizationId(HEDGEBOX);

/** A destination whose config_schema has a choice, a boolean and a JSON field (a `local` plugin: no code to compile). */
async function routerPlugin(): Promise<number> {
  const plugin = await api().call<Plugin>('POST', `/api/organizations/${org()}/pipeline_destinations/`, {
    plugin_type: 'local',
    name: 'Region router',
    config_schema: [
      { key: 'region', name: 'Region', type: 'choice', choices: ['us', 'eu', 'apac'], default: 'us', required: true },
      { key: 'batched', name: 'Send in batches', type: 'boolean', default: false },
      { key: 'mapping', name: 'Property mapping', type: 'json', default: '{}', hint: 'A JSON object.' },
    ],
  });
  return plugin.id;
}

/** The project the form is for (named in its label), and its config of the plugin as the API answers it. */
async function savedConfigs(projectName: string, pluginId: number): Promise<PluginConfig[]> {
  const projects = await api().call<{ results: { id: number; name: string; organization: string }[] }>(
    'GET',
    '/api/projects/?limit=1000',
  );
  const project = projects.results.find((p) => p.organization === org() && p.name === projectName)!;
  return (
    await api().call<{ results: PluginConfig[] }>(
      'GET',
      `/api/projects/${project.id}/plugin_configs/?plugin=${pluginId}`,
    )
  ).results;
}

async function openForm(pluginId: number) {
  const rendered = renderApp(`/organizations/${org()}/pipeline/destinations/${pluginId}`, { apiKey: api().demoKey });
  const form = await screen.findByRole('form', { name: /^Configuration in / });
  const projectName = form.getAttribute('aria-label')!.replace('Configuration in ', '');
  return { ...rendered, form, projectName };
}

describe('the config form of a plugin', () => {
  it('saves a choice, a boolean and a JSON field, and the API answers them as entered', async () => {
    const id = await routerPlugin();
    const { user, form, projectName, unmount } = await openForm(id);
    expect(within(form).getByLabelText('Region (required)')).toHaveValue('us');
    expect(within(form).getByRole('checkbox', { name: 'Send in batches' })).not.toBeChecked();

    await user.selectOptions(within(form).getByLabelText('Region (required)'), 'eu');
    await user.click(within(form).getByRole('checkbox', { name: 'Send in batches' }));
    const mapping = within(form).getByLabelText('Property mapping');
    await user.clear(mapping);
    await user.click(mapping);
    await user.paste('{"plan": "tier", "seats": 3}');
    await user.click(within(form).getByRole('button', { name: 'Save configuration' }));

    await waitFor(async () => expect(await savedConfigs(projectName, id)).toHaveLength(1));
    const [saved] = await savedConfigs(projectName, id);
    expect(saved!.config).toEqual({ region: 'eu', batched: true, mapping: '{"plan": "tier", "seats": 3}' });
    expect(saved!.enabled).toBe(false);
    // Opened again, the form shows what was stored.
    unmount();
    const { form: reopened } = await openForm(id);
    expect(within(reopened).getByLabelText('Region (required)')).toHaveValue('eu');
    expect(within(reopened).getByRole('checkbox', { name: 'Send in batches' })).toBeChecked();
    expect(within(reopened).getByLabelText('Property mapping')).toHaveValue('{"plan": "tier", "seats": 3}');
  });

  it('a save shows at once in the app’s activity and in the list’s “enabled in no project”', async () => {
    const id = await routerPlugin();
    const list = `/organizations/${org()}/pipeline/destinations`;
    const { user, router } = renderApp(list, { apiKey: api().demoKey });
    const rowOf = async () =>
      within(await screen.findByRole('table', { name: 'Destinations' }))
        .getByRole('link', { name: 'Region router' })
        .closest('tr')!;
    // Marked as enabled nowhere (the list's answer is now cached).
    await waitFor(async () => expect(await rowOf()).toHaveTextContent('Enabled in no project'));

    await router.navigate({ to: `/organizations/${org()}/pipeline/destinations/${id}` });
    const form = await screen.findByRole('form', { name: /^Configuration in / });
    const activity = screen.getByRole('region', { name: 'Activity' });
    const entries = () => within(activity).queryAllByRole('listitem').length;
    await waitFor(() => expect(within(activity).queryByText('Loading…')).toBeNull());
    const before = entries();
    await user.click(within(form).getByRole('checkbox', { name: /^Enabled/ }));
    await user.click(within(form).getByRole('button', { name: 'Save configuration' }));
    await waitFor(() => expect(entries()).toBe(before + 1));

    // Back on the list, enabled in a project now: no longer marked.
    router.history.back();
    await waitFor(async () => expect(await rowOf()).not.toHaveTextContent('Enabled in no project'));
  });

  it('puts a bad JSON value’s message on its field and saves nothing', async () => {
    const id = await routerPlugin();
    const { user, form, projectName } = await openForm(id);
    await user.selectOptions(within(form).getByLabelText('Region (required)'), 'apac');
    const mapping = within(form).getByLabelText('Property mapping');
    await user.clear(mapping);
    await user.click(mapping);
    await user.paste('{"plan": ');
    await user.click(within(form).getByRole('button', { name: 'Save configuration' }));

    await waitFor(() =>
      expect(within(form).getByLabelText('Property mapping')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(within(form).getByLabelText('Property mapping')).toHaveAccessibleDescription(/Must be valid JSON\./);
    expect(within(form).getByLabelText('Region (required)')).not.toHaveAttribute('aria-invalid');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(await savedConfigs(projectName, id)).toEqual([]);
    // What was typed stays, to be corrected.
    expect(within(form).getByLabelText('Property mapping')).toHaveValue('{"plan": ');
  });

  it('enabling without a required value puts “… is required.” on that field, focuses it and saves nothing', async () => {
    const plugin = await api().call<Plugin>('POST', `/api/organizations/${org()}/pipeline_destinations/`, {
      plugin_type: 'local',
      name: 'Hook',
      config_schema: [{ key: 'endpoint', name: 'Endpoint', type: 'string', required: true }],
    });
    const { user, form, projectName } = await openForm(plugin.id);
    await user.click(within(form).getByRole('checkbox', { name: /^Enabled/ }));
    await user.click(within(form).getByRole('button', { name: 'Save configuration' }));

    const endpoint = within(form).getByLabelText('Endpoint (required)');
    await waitFor(() => expect(endpoint).toHaveAccessibleDescription('Endpoint is required.'));
    expect(endpoint).toHaveAttribute('aria-invalid', 'true');
    expect(endpoint).toHaveFocus();
    expect(await savedConfigs(projectName, plugin.id)).toEqual([]);

    // Filled in, it saves.
    await user.type(endpoint, 'https://hooks.example.com/in');
    await user.click(within(form).getByRole('button', { name: 'Save configuration' }));
    await waitFor(async () =>
      expect((await savedConfigs(projectName, plugin.id))[0]?.config).toEqual({
        endpoint: 'https://hooks.example.com/in',
      }),
    );
  });

  it('a refusal whose attr names a field (`config__mapping`) lands on that field', async () => {
    const id = await routerPlugin();
    // A production instance checks more than the reference server (a JSON object, not any JSON).
    override(pluginConfigEndpoints.create, () =>
      HttpResponse.json(
        { type: 'validation_error', code: 'invalid_input', detail: 'Must be a JSON object.', attr: 'config__mapping' },
        { status: 400 },
      ),
    );
    const { user, form } = await openForm(id);
    const mapping = within(form).getByLabelText('Property mapping');
    await user.clear(mapping);
    await user.click(mapping);
    await user.paste('[1, 2]');
    await user.click(within(form).getByRole('button', { name: 'Save configuration' }));

    await waitFor(() => expect(mapping).toHaveAccessibleDescription(/Must be a JSON object\./));
    expect(mapping).toHaveFocus();
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
  });
});
