import { afterAll, describe, expect, it } from 'vitest';
import { pageSchema, pluginConfigSchema, pluginSchema } from '../../../src/contract/index.ts';
import { NORTHWIND } from '../helpers.ts';
import { createPipelineServer } from './harness.ts';

const server = createPipelineServer();
afterAll(() => server.close());
const ORG = `/api/organizations/${server.orgId}`;
const PRJ = `/api/projects/${server.projectId}`;
const WEBHOOK = 'https://github.com/analytics-plugins/webhook-destination';

const install = async (group: string, json: Record<string, unknown>) => {
  const res = await server.request('POST', `${ORG}/${group}/`, { json });
  expect(res.status, res.text).toBe(201);
  return pluginSchema.parse(res.body);
};

describe('pipeline groups', () => {
  it('installs from the repository by url, lists and retrieves in its group only', async () => {
    const repo = await server.get(`${ORG}/pipeline_destinations/repository/`);
    expect(repo.status).toBe(200);
    expect(repo.body.map((e: { name: string }) => e.name)).toContain('Webhook');
    expect(repo.body.every((e: { group: string }) => e.group === 'pipeline_destinations')).toBe(true);
    const hook = await install('pipeline_destinations', { plugin_type: 'repository', url: WEBHOOK });
    expect(hook).toMatchObject({
      name: 'Webhook',
      plugin_type: 'repository',
      tag: '1.2.0',
      latest_tag: '1.2.0',
      capabilities: { methods: ['onEvent'] },
    });
    expect((hook.config_schema as { key: string }[]).map((f) => f.key)).toEqual([
      'url',
      'headers',
      'auth_token',
      'events',
    ]);
    const list = pageSchema(pluginSchema).parse((await server.get(`${ORG}/pipeline_destinations/`)).body);
    expect(list.results.map((p) => p.id)).toContain(hook.id);
    expect((await server.get(`${ORG}/pipeline_destinations/${hook.id}/`)).body.name).toBe('Webhook');
    // another group's endpoint does not know it
    expect((await server.get(`${ORG}/pipeline_frontend_apps/${hook.id}/`)).status).toBe(404);
    expect((await server.get(`${ORG}/pipeline_import_apps/${hook.id}/`)).status).toBe(404);
    expect((await server.request('DELETE', `${ORG}/pipeline_frontend_apps/${hook.id}/`)).status).toBe(404);
    // a catalogue plugin of another group cannot be installed here
    const wrong = await server.request('POST', `${ORG}/pipeline_frontend_apps/`, {
      json: { plugin_type: 'repository', url: WEBHOOK },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.attr).toBe('url');
  });

  it('import apps are upgraded and deleted as the other groups, and have no edit, source or group-wide endpoints', async () => {
    const app = await install('pipeline_import_apps', {
      plugin_type: 'repository',
      url: 'https://github.com/analytics-plugins/csv-import',
    });
    expect(app.public_jobs).toEqual({ import: { payload: {} } });
    expect((await server.get(`${ORG}/pipeline_import_apps/${app.id}/`)).status).toBe(200);
    expect(
      (await server.request('PATCH', `${ORG}/pipeline_import_apps/${app.id}/`, { json: { name: 'x' } })).status,
    ).toBe(405);
    expect((await server.get(`${ORG}/pipeline_import_apps/${app.id}/source/`)).status).toBe(404);
    expect((await server.get(`${ORG}/pipeline_import_apps/repository/`)).status).toBe(404);

    // An older version installed: the repository's newer one is found, and installed.
    server.store.db.prepare("UPDATE plugins SET tag = '0.9.0', latest_tag = '0.9.0' WHERE id = ?").run(app.id);
    expect((await server.get(`${ORG}/pipeline_import_apps/${app.id}/check_for_updates/`)).body).toMatchObject({
      tag: '0.9.0',
      latest_tag: '1.0.0',
    });
    const upgraded = await server.request('POST', `${ORG}/pipeline_import_apps/${app.id}/upgrade/`, { json: {} });
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(upgraded.body).toMatchObject({
      tag: '1.0.0',
      latest_tag: '1.0.0',
      public_jobs: { import: { payload: {} } },
    });
    expect(
      (await server.request('POST', `${ORG}/pipeline_import_apps/${app.id}/upgrade/`, { json: {} })).body,
    ).toMatchObject({ attr: 'tag' });

    expect((await server.request('DELETE', `${ORG}/pipeline_import_apps/${app.id}/`)).status).toBe(204);
    expect((await server.get(`${ORG}/pipeline_import_apps/${app.id}/`)).status).toBe(404);
    // A destination's id is not an import app's.
    const hook = await install('pipeline_destinations', { plugin_type: 'repository', url: WEBHOOK });
    expect((await server.request('DELETE', `${ORG}/pipeline_import_apps/${hook.id}/`)).status).toBe(404);
  });

  it('takes the scopes of the API and of docs/api.md', async () => {
    const read = server.makeKey({ scopes: ['plugin:read'] });
    const none = server.makeKey({ scopes: ['insight:read'] });
    const hook = await install('pipeline_destinations', {
      plugin_type: 'repository',
      url: WEBHOOK,
      name: 'Scoped hook',
    });
    for (const path of [
      '',
      `${hook.id}/`,
      `${hook.id}/check_for_updates/`,
      `${hook.id}/source/`,
      'activity/',
      'exports_unsubscribe_configs/',
      'repository/',
      'unused/',
    ]) {
      expect((await server.get(`${ORG}/pipeline_destinations/${path}`, { key: read })).status, path).toBe(200);
      const denied = await server.get(`${ORG}/pipeline_destinations/${path}`, { key: none });
      expect(denied.status, path).toBe(403);
      expect(denied.body.detail).toBe("API key missing required scope 'plugin:read'");
    }
    for (const [method, path, json] of [
      ['POST', '', { name: 'x' }],
      ['PATCH', `${hook.id}/`, {}],
      ['DELETE', `${hook.id}/`, undefined],
      ['PATCH', `${hook.id}/update_source/`, {}],
      ['POST', `${hook.id}/upgrade/`, {}],
    ] as const) {
      const res = await server.request(method, `${ORG}/pipeline_destinations/${path}`, { key: read, json });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toBe("API key missing required scope 'plugin:write'");
    }
    expect(
      (await server.request('POST', `${PRJ}/plugin_configs/`, { key: read, json: { plugin: hook.id } })).status,
    ).toBe(403);
    const other = server.orgIds[NORTHWIND]!;
    const scoped = server.makeKey({ scopes: ['*'], organizations: [other] });
    expect((await server.get(`${ORG}/pipeline_destinations/`, { key: scoped })).status).toBe(403);
  });

  it('PATCH, check_for_updates, upgrade with the tag change, unused, activity and delete', async () => {
    const hook = await install('pipeline_destinations', { plugin_type: 'repository', url: WEBHOOK, name: 'Old hook' });
    server.store.db.prepare("UPDATE plugins SET tag = '1.0.0', latest_tag = '1.0.0' WHERE id = ?").run(hook.id);
    const patched = await server.request('PATCH', `${ORG}/pipeline_destinations/${hook.id}/`, {
      json: { description: 'Mine', url: 'https://evil', latest_tag: '9' },
    });
    expect(patched.body).toMatchObject({ description: 'Mine', url: WEBHOOK, latest_tag: '1.0.0' });
    expect(
      (await server.request('POST', `${ORG}/pipeline_destinations/${hook.id}/upgrade/`, { json: {} })).status,
    ).toBe(400);
    expect((await server.get(`${ORG}/pipeline_destinations/${hook.id}/check_for_updates/`)).body).toMatchObject({
      tag: '1.0.0',
      latest_tag: '1.2.0',
    });
    const up = await server.request('POST', `${ORG}/pipeline_destinations/${hook.id}/upgrade/`, { json: {} });
    expect(up.body).toMatchObject({ tag: '1.2.0', latest_tag: '1.2.0' });
    expect(
      (await server.request('POST', `${ORG}/pipeline_destinations/${hook.id}/upgrade/`, { json: {} })).body.detail,
    ).toMatch(/up to date/);
    expect((await server.get(`${ORG}/pipeline_destinations/unused/`)).body).toContain(hook.id);
    const activity = await server.get(`${ORG}/pipeline_destinations/activity/`);
    const mine = activity.body.results.filter((a: { item_id: string }) => a.item_id === String(hook.id));
    expect(mine.map((a: { activity: string }) => a.activity)).toEqual(['updated', 'updated', 'installed']);
    expect(mine[0].detail.changes[0]).toMatchObject({ field: 'tag', before: '1.0.0', after: '1.2.0' });
    expect((await server.request('DELETE', `${ORG}/pipeline_destinations/${hook.id}/`)).status).toBe(204);
    expect((await server.get(`${ORG}/pipeline_destinations/${hook.id}/`)).status).toBe(404);
    // the uninstall stays in the group's activity, and nothing of it in another group's
    const after = (await server.get(`${ORG}/pipeline_destinations/activity/?limit=100`)).body.results as {
      item_id: string;
      activity: string;
    }[];
    expect(after.find((a) => a.item_id === String(hook.id))?.activity).toBe('uninstalled');
  });

  it("each group's activity/ lists its own plugins' changes only", async () => {
    const hook = await install('pipeline_destinations', {
      plugin_type: 'repository',
      url: WEBHOOK,
      name: 'Activity hook',
    });
    const bar = await install('pipeline_frontend_apps', { plugin_type: 'source', name: 'Activity bar' });
    await server.request('PATCH', `${ORG}/pipeline_frontend_apps/${bar.id}/`, {
      json: { description: 'Shown on the site' },
    });
    const enabled = await server.request('POST', `${PRJ}/plugin_configs/`, {
      json: { plugin: bar.id, enabled: true, config: {} },
    });
    expect(enabled.status, enabled.text).toBe(201);
    const items = async (group: string) =>
      (await server.get(`${ORG}/${group}/activity/?limit=100`)).body.results as { item_id: string; activity: string }[];
    const destinations = await items('pipeline_destinations');
    const apps = await items('pipeline_frontend_apps');
    expect(destinations.some((a) => a.item_id === String(hook.id))).toBe(true);
    expect(destinations.some((a) => a.item_id === String(bar.id))).toBe(false);
    expect(apps.filter((a) => a.item_id === String(bar.id)).map((a) => a.activity)).toEqual([
      'enabled',
      'updated',
      'installed',
    ]);
    expect(apps.some((a) => a.item_id === String(hook.id))).toBe(false);
    // the seeded plugins' entries are in their own groups too
    const groupOf = new Map<string, string>();
    for (const group of ['pipeline_destinations', 'pipeline_frontend_apps']) {
      for (const p of (await server.get(`${ORG}/${group}/?limit=100`)).body.results as { id: number }[])
        groupOf.set(String(p.id), group);
    }
    for (const [group, list] of [
      ['pipeline_destinations', destinations],
      ['pipeline_frontend_apps', apps],
    ] as const) {
      for (const a of list) if (groupOf.has(a.item_id)) expect(groupOf.get(a.item_id), a.item_id).toBe(group);
    }
  });

  it('exports_unsubscribe_configs/ lists the enabled configs of destinations that export events only', async () => {
    const hook = await install('pipeline_destinations', {
      plugin_type: 'repository',
      url: WEBHOOK,
      name: 'Exporting hook',
    });
    const idle = await install('pipeline_destinations', { plugin_type: 'custom', name: 'No code', config_schema: [] });
    const bar = await install('pipeline_frontend_apps', { plugin_type: 'source', name: 'Not an export' });
    const enable = async (plugin: number, config: Record<string, unknown>) => {
      const res = await server.request('POST', `${PRJ}/plugin_configs/`, { json: { plugin, enabled: true, config } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const hookConfig = await enable(hook.id, { url: 'https://x.example/in' });
    await enable(idle.id, {});
    await enable(bar.id, {});
    const destinations = (await server.get(`${ORG}/pipeline_destinations/exports_unsubscribe_configs/`)).body as {
      plugin: number;
    }[];
    expect(destinations).toContainEqual({ id: hookConfig, plugin: hook.id, team_id: server.projectId, enabled: true });
    expect(destinations.map((c) => c.plugin)).not.toContain(idle.id);
    expect((await server.get(`${ORG}/pipeline_frontend_apps/exports_unsubscribe_configs/`)).body).toEqual([]);
  });

  it('compiles source plugins on save: a syntax error is a 400 naming file and line, the old source stays', async () => {
    const plugin = await install('pipeline_destinations', { plugin_type: 'source', name: 'My destination' });
    const url = `${ORG}/pipeline_destinations/${plugin.id}`;
    const before = (await server.get(`${url}/source/`)).body;
    expect(Object.keys(before).sort()).toEqual(['index.ts', 'plugin.json']);
    const bad = await server.request('PATCH', `${url}/update_source/`, {
      json: { 'index.ts': 'export function onEvent(e) {\n  const x = ;\n}\n' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ attr: 'index.ts' });
    expect(bad.body.detail).toMatch(/^index\.ts, line 2: /);
    expect((await server.get(`${url}/source/`)).body).toEqual(before);
    const badJson = await server.request('PATCH', `${url}/update_source/`, {
      json: { 'plugin.json': '{\n "name": "x",\n oops\n}' },
    });
    expect(badJson.body).toMatchObject({ attr: 'plugin.json' });
    expect(badJson.body.detail).toMatch(/^plugin\.json, line 3: /);
    const good = await server.request('PATCH', `${url}/update_source/`, {
      json: {
        'index.ts': 'export function composeWebhook(event: { event: string }) { return null }\n',
        'notes.md': 'hi',
        'plugin.json': JSON.stringify({ name: 'Renamed', config: [{ key: 'k', type: 'string' }] }),
      },
    });
    expect(good.status, good.text).toBe(200);
    expect(good.body['notes.md']).toBe('hi');
    const after = (await server.get(`${url}/`)).body;
    expect(after).toMatchObject({
      name: 'Renamed',
      capabilities: { methods: ['composeWebhook'] },
      config_schema: [{ key: 'k', type: 'string' }],
    });
    expect(
      (await server.request('PATCH', `${url}/update_source/`, { json: { 'notes.md': null } })).body['notes.md'],
    ).toBeUndefined();
    const noExport = await server.request('PATCH', `${url}/update_source/`, {
      json: { 'index.ts': 'export const x = 1\n' },
    });
    expect(noExport.status).toBe(200);
    expect((await server.get(`${url}/`)).body.capabilities.not_runnable).toMatch(/onEvent/);
    // a frontend app's frontend.tsx holds JSX: it compiles as TSX, and its errors name it too
    const app = await install('pipeline_frontend_apps', { plugin_type: 'source', name: 'With JSX' });
    const appUrl = `${ORG}/pipeline_frontend_apps/${app.id}/update_source/`;
    const jsx = await server.request('PATCH', appUrl, {
      json: {
        'frontend.tsx': 'export const Banner = ({ text }: { text: string }) => <div className="b">{text}</div>;\n',
      },
    });
    expect(jsx.status, jsx.text).toBe(200);
    const badJsx = await server.request('PATCH', appUrl, {
      json: { 'frontend.tsx': 'export const A = () => (\n  <div>\n);\n' },
    });
    expect(badJsx.status).toBe(400);
    expect(badJsx.body.detail).toMatch(/^frontend\.tsx, line \d: /);
    const catalogue = await install('pipeline_destinations', {
      plugin_type: 'repository',
      url: WEBHOOK,
      name: 'Not editable',
    });
    expect(
      (
        await server.request('PATCH', `${ORG}/pipeline_destinations/${catalogue.id}/update_source/`, {
          json: { 'index.ts': '' },
        })
      ).status,
    ).toBe(400);
  });

  it('plugin configs: validated against config_schema, secrets write-only, PATCH merges', async () => {
    const hook = await install('pipeline_destinations', {
      plugin_type: 'repository',
      url: WEBHOOK,
      name: 'Config hook',
    });
    const missing = await server.request('POST', `${PRJ}/plugin_configs/`, {
      json: { plugin: hook.id, enabled: true, config: {} },
    });
    expect(missing.body).toMatchObject({ code: 'required', attr: 'config__url' });
    const badJson = await server.request('POST', `${PRJ}/plugin_configs/`, {
      json: { plugin: hook.id, enabled: true, config: { url: 'https://x.example', headers: '{nope' } },
    });
    expect(badJson.body).toMatchObject({ attr: 'config__headers' });
    const created = await server.request('POST', `${PRJ}/plugin_configs/`, {
      json: {
        plugin: hook.id,
        enabled: true,
        config: { url: 'https://x.example/in', auth_token: 'SECRET-TOKEN-1', unknown: 1 },
      },
    });
    expect(created.status, created.text).toBe(201);
    const config = pluginConfigSchema.parse(created.body);
    expect(config.config).toEqual({ url: 'https://x.example/in' });
    expect(config.secret_keys_set).toEqual(['auth_token']);
    expect(created.text).not.toContain('SECRET-TOKEN-1');
    expect((await server.request('POST', `${PRJ}/plugin_configs/`, { json: { plugin: hook.id } })).body.code).toBe(
      'unique',
    );
    const patched = await server.request('PATCH', `${PRJ}/plugin_configs/${config.id}/`, {
      json: { config: { events: 'signup' } },
    });
    expect(patched.body.config).toEqual({ url: 'https://x.example/in', events: 'signup' });
    expect(patched.body.secret_keys_set).toEqual(['auth_token']);
    expect(server.store.pluginConfigs.secretsOf(config.id)).toEqual({ auth_token: 'SECRET-TOKEN-1' });
    const list = await server.get(`${PRJ}/plugin_configs/?plugin=${hook.id}`);
    expect(list.body.results.map((c: { id: number }) => c.id)).toEqual([config.id]);
    expect(JSON.stringify(list.body)).not.toContain('SECRET-TOKEN-1');
    expect((await server.get(`${ORG}/pipeline_destinations/unused/`)).body).not.toContain(hook.id);
    expect((await server.get(`${ORG}/pipeline_destinations/exports_unsubscribe_configs/`)).body).toContainEqual({
      id: config.id,
      plugin: hook.id,
      team_id: server.projectId,
      enabled: true,
    });
    expect((await server.request('DELETE', `${PRJ}/plugin_configs/${config.id}/`)).status).toBe(204);
    expect((await server.get(`${PRJ}/plugin_configs/${config.id}/`)).status).toBe(404);
  });

  it('a custom plugin whose config_schema holds things that are not fields: those are skipped, configs still work', async () => {
    const odd = await install('pipeline_destinations', {
      plugin_type: 'custom',
      name: 'Odd schema',
      config_schema: [null, 3, 'x', { name: 'no key' }, { key: 'region', type: 'choice', choices: ['eu', 'us'] }],
      public_jobs: null,
    });
    const created = await server.request('POST', `${PRJ}/plugin_configs/`, {
      json: { plugin: odd.id, config: { region: 'eu' } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.config).toEqual({ region: 'eu' });
    const bad = await server.request('PATCH', `${PRJ}/plugin_configs/${created.body.id}/`, {
      json: { config: { region: 'mars' } },
    });
    expect(bad.body).toMatchObject({ attr: 'config__region' });
    const job = await server.request('POST', `${PRJ}/plugin_configs/${created.body.id}/job/`, {
      json: { job: 'import' },
    });
    expect(job.body).toMatchObject({ attr: 'job' });
  });
});
