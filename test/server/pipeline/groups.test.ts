import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pageSchema,
  pluginConfigSchema,
  pluginRepositoryEntrySchema,
  pluginSchema,
} from '../../../src/contract/index.ts';
import { z } from '../../../src/contract/z.ts';
import { createPipelineServer, startReceiver, type Receiver } from './harness.ts';

/**
 * The three pipeline groups beyond what plugins-api.test.ts covers: the scopes of every group's
 * endpoints and of `{PRJ}/plugin_configs/`, the frontend-apps group's own endpoints, the Slack
 * destination, config order and value types, and the sandbox's memory limit.
 */
const server = createPipelineServer();
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server.close();
});
const ORG = `/api/organizations/${server.orgId}`;
const PRJ = `/api/projects/${server.projectId}`;
const FEEDBACK_WIDGET = 'https://github.com/analytics-plugins/feedback-widget';
const NOTIFICATION_BAR = 'https://github.com/analytics-plugins/notification-bar';
const SLACK = 'https://github.com/analytics-plugins/slack-destination';

type Group = 'pipeline_destinations' | 'pipeline_frontend_apps' | 'pipeline_import_apps';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Scope = 'plugin:read' | 'plugin:write';

const install = async (group: Group, json: Record<string, unknown>) => {
  const res = await server.request('POST', `${ORG}/${group}/`, { json });
  expect(res.status, res.text).toBe(201);
  return pluginSchema.parse(res.body);
};
const createConfig = async (json: Record<string, unknown>) => {
  const res = await server.request('POST', `${PRJ}/plugin_configs/`, { json });
  expect(res.status, res.text).toBe(201);
  return pluginConfigSchema.parse(res.body);
};
const logs = async (id: number) =>
  (await server.get(`${PRJ}/plugin_configs/${id}/logs/`)).body.results as { level: string; message: string }[];

/** A key holding exactly the required scope, and one lacking it (plugin:read for a write, an unrelated scope for a read). */
const keys = () => ({
  'plugin:read': {
    with: server.makeKey({ scopes: ['plugin:read'] }),
    without: server.makeKey({ scopes: ['insight:read'] }),
  },
  'plugin:write': {
    with: server.makeKey({ scopes: ['plugin:write'] }),
    without: server.makeKey({ scopes: ['plugin:read'] }),
  },
});

/**
 * The API's table of the pipeline plugin groups, with the scopes docs/api.md gives the †
 * endpoints (activity/ and exports_unsubscribe_configs/ left out here). `ok` is the status the
 * key holding the scope gets; DELETE comes last since it removes the plugin.
 */
const GROUP_OPERATIONS: {
  method: Method;
  suffix: string;
  scope: Scope;
  groups: 'all' | 'full';
  ok: number;
  json?: unknown;
}[] = [
  { method: 'GET', suffix: '', scope: 'plugin:read', groups: 'all', ok: 200 },
  {
    method: 'POST',
    suffix: '',
    scope: 'plugin:write',
    groups: 'all',
    ok: 201,
    json: { plugin_type: 'source', name: 'Made by a scoped key' },
  },
  { method: 'GET', suffix: ':id/', scope: 'plugin:read', groups: 'all', ok: 200 },
  {
    method: 'PATCH',
    suffix: ':id/',
    scope: 'plugin:write',
    groups: 'full',
    ok: 200,
    json: { description: 'patched by a scoped key' },
  },
  { method: 'GET', suffix: ':id/check_for_updates/', scope: 'plugin:read', groups: 'all', ok: 200 },
  { method: 'GET', suffix: ':id/source/', scope: 'plugin:read', groups: 'full', ok: 200 },
  {
    method: 'PATCH',
    suffix: ':id/update_source/',
    scope: 'plugin:write',
    groups: 'full',
    ok: 200,
    json: { 'notes.md': 'scoped' },
  },
  // a source plugin has no newer version: 400, not 403
  { method: 'POST', suffix: ':id/upgrade/', scope: 'plugin:write', groups: 'all', ok: 400, json: {} },
  { method: 'GET', suffix: 'repository/', scope: 'plugin:read', groups: 'full', ok: 200 },
  { method: 'GET', suffix: 'unused/', scope: 'plugin:read', groups: 'full', ok: 200 },
  { method: 'DELETE', suffix: ':id/', scope: 'plugin:write', groups: 'all', ok: 204 },
];
const GROUPS: Group[] = ['pipeline_destinations', 'pipeline_frontend_apps', 'pipeline_import_apps'];
const GROUP_ROWS = GROUPS.flatMap((group) =>
  GROUP_OPERATIONS.filter((op) => op.groups === 'all' || group !== 'pipeline_import_apps').map((op) => ({
    group,
    ...op,
  })),
);

describe('scopes of the three groups', () => {
  const ids = new Map<Group, number>();
  let key: ReturnType<typeof keys>;
  beforeAll(async () => {
    key = keys();
    for (const group of GROUPS)
      ids.set(group, (await install(group, { plugin_type: 'source', name: `Scopes ${group}` })).id);
  });

  it('the table covers every group: list, create, retrieve, check for updates, upgrade and delete for import apps, all eleven for the others', () => {
    expect(GROUP_ROWS.filter((r) => r.group === 'pipeline_import_apps').map((r) => `${r.method} ${r.suffix}`)).toEqual([
      'GET ',
      'POST ',
      'GET :id/',
      'GET :id/check_for_updates/',
      'POST :id/upgrade/',
      'DELETE :id/',
    ]);
    expect(GROUP_ROWS.filter((r) => r.group === 'pipeline_frontend_apps')).toHaveLength(GROUP_OPERATIONS.length);
  });

  it.each(GROUP_ROWS.map((r) => [`${r.method} {ORG}/${r.group}/${r.suffix} needs ${r.scope}`, r] as const))(
    '%s',
    async (_, { group, method, suffix, scope, ok, json }) => {
      const url = `${ORG}/${group}/${suffix.replace(':id', String(ids.get(group)))}`;
      const denied = await server.request(method, url, { key: key[scope].without, json });
      expect(denied.status, denied.text).toBe(403);
      expect(denied.body).toMatchObject({
        type: 'authentication_error',
        code: 'permission_denied',
        detail: `API key missing required scope '${scope}'`,
      });
      const allowed = await server.request(method, url, { key: key[scope].with, json });
      expect(allowed.status, allowed.text).not.toBe(403);
      expect(allowed.status, allowed.text).toBe(ok);
    },
  );

  it('the denied writes changed nothing, the allowed ones did', async () => {
    // DELETE ran for every group: those are gone
    for (const group of GROUPS)
      expect((await server.get(`${ORG}/${group}/${ids.get(group)}/`)).status, group).toBe(404);
    for (const group of GROUPS) {
      const names = pageSchema(pluginSchema)
        .parse((await server.get(`${ORG}/${group}/?limit=1000`)).body)
        .results.map((p) => p.name);
      expect(
        names.filter((n) => n === 'Made by a scoped key'),
        group,
      ).toHaveLength(1);
    }
  });
});

describe('scopes of {PRJ}/plugin_configs/', () => {
  let key: ReturnType<typeof keys>;
  let configId = 0;
  let freePlugin = 0;
  beforeAll(async () => {
    key = keys();
    const plugin = await install('pipeline_destinations', { plugin_type: 'source', name: 'Config scopes' });
    configId = (await createConfig({ plugin: plugin.id, enabled: false })).id;
    freePlugin = (
      await install('pipeline_destinations', { plugin_type: 'source', name: 'Config scopes, created by key' })
    ).id;
  });
  const rows: { method: Method; suffix: string; scope: Scope; ok: number; json?: () => unknown }[] = [
    { method: 'GET', suffix: '', scope: 'plugin:read', ok: 200 },
    {
      method: 'POST',
      suffix: '',
      scope: 'plugin:write',
      ok: 201,
      json: () => ({ plugin: freePlugin, enabled: false }),
    },
    { method: 'GET', suffix: ':id/', scope: 'plugin:read', ok: 200 },
    { method: 'PATCH', suffix: ':id/', scope: 'plugin:write', ok: 200, json: () => ({ order: 7 }) },
    { method: 'GET', suffix: ':id/logs/', scope: 'plugin:read', ok: 200 },
    // a destination has no import job: 400 on `job`, not 403
    { method: 'POST', suffix: ':id/job/', scope: 'plugin:write', ok: 400, json: () => ({ job: 'import' }) },
    { method: 'DELETE', suffix: ':id/', scope: 'plugin:write', ok: 204 },
  ];

  it.each(rows.map((r) => [`${r.method} {PRJ}/plugin_configs/${r.suffix} needs ${r.scope}`, r] as const))(
    '%s',
    async (_, { method, suffix, scope, ok, json }) => {
      const url = `${PRJ}/plugin_configs/${suffix.replace(':id', String(configId))}`;
      const body = json?.();
      const denied = await server.request(method, url, { key: key[scope].without, json: body });
      expect(denied.status, denied.text).toBe(403);
      expect(denied.body).toMatchObject({
        code: 'permission_denied',
        detail: `API key missing required scope '${scope}'`,
      });
      const allowed = await server.request(method, url, { key: key[scope].with, json: body });
      expect(allowed.status, allowed.text).toBe(ok);
    },
  );

  it('what the allowed writes did is visible', async () => {
    expect((await server.get(`${PRJ}/plugin_configs/${configId}/`)).status).toBe(404);
    const made = (await server.get(`${PRJ}/plugin_configs/?plugin=${freePlugin}`)).body.results;
    expect(made).toHaveLength(1);
  });
});

describe('frontend apps', () => {
  it('a source frontend app: create, PATCH, source/ and update_source/ round trip, served once enabled, unused/, DELETE', async () => {
    const app = await install('pipeline_frontend_apps', { plugin_type: 'source', name: 'My banner' });
    expect(app).toMatchObject({ plugin_type: 'source', name: 'My banner', url: null, organization_id: server.orgId });
    expect((app.capabilities as { methods: string[] }).methods).toEqual(['inject']);
    expect(app.capabilities).not.toHaveProperty('not_runnable');
    const url = `${ORG}/pipeline_frontend_apps/${app.id}`;

    const patched = await server.request('PATCH', `${url}/`, {
      json: { description: 'A banner on the site', icon: 'flag' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      id: app.id,
      name: 'My banner',
      description: 'A banner on the site',
      icon: 'flag',
    });
    expect((await server.get(`${url}/`)).body).toMatchObject({ description: 'A banner on the site', icon: 'flag' });

    const before = await server.get(`${url}/source/`);
    expect(before.status).toBe(200);
    expect(Object.keys(before.body).sort()).toEqual(['plugin.json', 'site.ts']);
    const site = `export function inject({ config }) {\n  const el = document.createElement('p')\n  el.textContent = 'BANNER-MARK ' + config.text\n  document.body.appendChild(el)\n}\n`;
    const pluginJson = JSON.stringify({
      name: 'Site banner',
      description: 'Says it',
      config: [{ key: 'text', name: 'Text', type: 'string', required: true }],
    });
    const saved = await server.request('PATCH', `${url}/update_source/`, {
      json: { 'site.ts': site, 'plugin.json': pluginJson },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ 'site.ts': site, 'plugin.json': pluginJson });
    expect((await server.get(`${url}/source/`)).body).toEqual({ 'site.ts': site, 'plugin.json': pluginJson });
    expect((await server.get(`${url}/`)).body).toMatchObject({
      name: 'Site banner',
      description: 'Says it',
      capabilities: { methods: ['inject'] },
      config_schema: [{ key: 'text', type: 'string', required: true }],
    });

    // unused until a project enables it (a disabled config does not count)
    expect((await server.get(`${ORG}/pipeline_frontend_apps/unused/`)).body).toContain(app.id);
    const config = await createConfig({ plugin: app.id, enabled: false, config: { text: 'hello' } });
    expect((await server.get(`${ORG}/pipeline_frontend_apps/unused/`)).body).toContain(app.id);
    const enabled = await server.request('PATCH', `${PRJ}/plugin_configs/${config.id}/`, { json: { enabled: true } });
    expect(enabled.status, enabled.text).toBe(200);
    expect((await server.get(`${ORG}/pipeline_frontend_apps/unused/`)).body).not.toContain(app.id);
    // the saved site.ts is what web sites load
    const script = await server.app.request(enabled.body.site_app_url as string);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('BANNER-MARK');

    // a frontend app without site.ts saves but is not runnable
    expect((await server.request('PATCH', `${url}/update_source/`, { json: { 'site.ts': null } })).status).toBe(200);
    expect((await server.get(`${url}/`)).body.capabilities.not_runnable).toMatch(/site\.ts/);

    expect((await server.request('DELETE', `${url}/`)).status).toBe(204);
    expect((await server.get(`${url}/`)).status).toBe(404);
    expect((await server.get(`${url}/source/`)).status).toBe(404);
    const list = pageSchema(pluginSchema).parse((await server.get(`${ORG}/pipeline_frontend_apps/?limit=1000`)).body);
    expect(list.results.map((p) => p.id)).not.toContain(app.id);
  });

  it('a catalogue frontend app a version behind: check_for_updates/ reports, upgrade/ moves the tag once', async () => {
    const app = await install('pipeline_frontend_apps', {
      plugin_type: 'repository',
      url: FEEDBACK_WIDGET,
      name: 'Old widget',
    });
    expect(app).toMatchObject({ plugin_type: 'repository', url: FEEDBACK_WIDGET, tag: '0.9.0', latest_tag: '0.9.0' });
    // as if installed before 0.9.0 came out
    server.store.db.prepare("UPDATE plugins SET tag = '0.8.0', latest_tag = '0.8.0' WHERE id = ?").run(app.id);
    const url = `${ORG}/pipeline_frontend_apps/${app.id}`;
    const early = await server.request('POST', `${url}/upgrade/`, { json: {} });
    expect(early.status).toBe(400);
    expect(early.body.type).toBe('validation_error');
    const checked = await server.get(`${url}/check_for_updates/`);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ id: app.id, tag: '0.8.0', latest_tag: '0.9.0' });
    expect((await server.get(`${url}/`)).body).toMatchObject({ tag: '0.8.0', latest_tag: '0.9.0' });
    const up = await server.request('POST', `${url}/upgrade/`, { json: {} });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toMatchObject({ id: app.id, tag: '0.9.0', latest_tag: '0.9.0', name: 'Old widget' });
    const again = await server.request('POST', `${url}/upgrade/`, { json: {} });
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/up to date/);
    // a catalogue app's files are not editable
    expect(
      (await server.request('PATCH', `${url}/update_source/`, { json: { 'site.ts': 'export function inject() {}\n' } }))
        .status,
    ).toBe(400);
  });

  it("repository/ lists only the frontend apps' catalogue entries", async () => {
    const res = await server.get(`${ORG}/pipeline_frontend_apps/repository/`);
    expect(res.status).toBe(200);
    const entries = z.array(pluginRepositoryEntrySchema).parse(res.body);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.group === 'pipeline_frontend_apps')).toBe(true);
    expect(entries.map((e) => e.url)).toEqual(expect.arrayContaining([NOTIFICATION_BAR, FEEDBACK_WIDGET]));
    expect(entries.map((e) => e.url)).not.toContain(SLACK);
    expect(entries.map((e) => e.url)).not.toContain('https://github.com/analytics-plugins/csv-import');
  });
});

describe('the Slack destination', () => {
  it('posts {"text": …} with {person} and {event} filled, for the chosen event only', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const slack = await install('pipeline_destinations', { plugin_type: 'repository', url: SLACK, name: 'Team Slack' });
    await createConfig({
      plugin: slack.id,
      enabled: true,
      config: {
        webhook_url: `${receiver.url}/services/T0/B0/x`,
        events: 'signed up',
        message: '{person} did {event} (welcome {person})',
      },
    });
    expect(
      await server.send([
        { event: 'signed up', distinct_id: 'ada@example.com' },
        { event: '$pageview', distinct_id: 'bob@example.com' },
      ]),
    ).toBe(200);
    await server.settle();
    expect(receiver.received).toHaveLength(1);
    const [post] = receiver.received;
    expect(post!.path).toBe('/services/T0/B0/x');
    expect(post!.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(post!.body)).toEqual({ text: 'ada@example.com did signed up (welcome ada@example.com)' });
  });
});

describe('plugin config order', () => {
  it('lists configs by order, and a PATCH of order moves one', async () => {
    const first = await install('pipeline_destinations', { plugin_type: 'source', name: 'Ordered first' });
    const second = await install('pipeline_destinations', { plugin_type: 'source', name: 'Ordered second' });
    const a = await createConfig({ plugin: first.id, enabled: false, order: 5 });
    const b = await createConfig({ plugin: second.id, enabled: false, order: 2 });
    expect(a.order).toBe(5);
    expect(b.order).toBe(2);
    const mine = async () =>
      pageSchema(pluginConfigSchema)
        .parse((await server.get(`${PRJ}/plugin_configs/?limit=1000`)).body)
        .results.filter((c) => c.id === a.id || c.id === b.id)
        .map((c) => c.id);
    expect(await mine()).toEqual([b.id, a.id]);
    const moved = await server.request('PATCH', `${PRJ}/plugin_configs/${a.id}/`, { json: { order: 1 } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.order).toBe(1);
    expect((await server.get(`${PRJ}/plugin_configs/${a.id}/`)).body.order).toBe(1);
    expect(await mine()).toEqual([a.id, b.id]);
  });
});

describe('config value types', () => {
  it('a boolean field and a choice field take only their type: else 400 naming the field', async () => {
    const plugin = await install('pipeline_destinations', {
      plugin_type: 'custom',
      name: 'Typed config',
      config_schema: [
        { key: 'verbose', name: 'Verbose', type: 'boolean' },
        { key: 'region', name: 'Region', type: 'choice', choices: ['eu', 'us'] },
      ],
    });
    for (const [config, attr] of [
      [{ verbose: 'yes' }, 'config__verbose'],
      [{ verbose: 1 }, 'config__verbose'],
      [{ verbose: ['true'] }, 'config__verbose'],
      [{ region: 1 }, 'config__region'],
      [{ region: ['eu'] }, 'config__region'],
      [{ region: true }, 'config__region'],
    ] as const) {
      const res = await server.request('POST', `${PRJ}/plugin_configs/`, { json: { plugin: plugin.id, config } });
      expect(res.status, JSON.stringify(config)).toBe(400);
      expect(res.body, JSON.stringify(config)).toMatchObject({ type: 'validation_error', code: 'invalid_input', attr });
      expect(typeof res.body.detail).toBe('string');
    }
    // nothing was stored by the refused requests
    expect((await server.get(`${PRJ}/plugin_configs/?plugin=${plugin.id}`)).body.count).toBe(0);
    const good = await createConfig({ plugin: plugin.id, config: { verbose: false, region: 'us' } });
    expect(good.config).toEqual({ verbose: false, region: 'us' });
    const bad = await server.request('PATCH', `${PRJ}/plugin_configs/${good.id}/`, {
      json: { config: { verbose: 'maybe' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'validation_error', attr: 'config__verbose' });
    expect((await server.get(`${PRJ}/plugin_configs/${good.id}/`)).body.config).toEqual({
      verbose: false,
      region: 'us',
    });
  });
});

describe('the sandbox memory limit', () => {
  it('an onEvent that allocates without end fails with a log line saying memory ran out; the next event runs', async () => {
    // 1 MB strings: the harness's 16 MB limit is reached within a few dozen turns of the loop
    const plugin = await install('pipeline_destinations', { plugin_type: 'source', name: 'Hungry' });
    const source = `export function onEvent(event) {
  if (event.event === 'grow') { const kept = []; while (true) kept.push('x'.repeat(1 << 20) + kept.length) }
  console.log('handled ' + event.event)
}\n`;
    const saved = await server.request('PATCH', `${ORG}/pipeline_destinations/${plugin.id}/update_source/`, {
      json: { 'index.ts': source },
    });
    expect(saved.status, saved.text).toBe(200);
    const config = await createConfig({
      plugin: plugin.id,
      enabled: true,
      config: { url: 'https://example.com/unused' },
    });
    expect(await server.send([{ event: 'grow', distinct_id: 'm' }])).toBe(200);
    await server.settle();
    const failure = (await logs(config.id)).find((l) => l.level === 'ERROR');
    expect(failure, JSON.stringify(await logs(config.id))).toBeDefined();
    expect(failure!.message).toMatch(/grow/);
    // it says memory ran out: not the CPU budget, not the wall-time stop that only guesses at the cause
    expect(failure!.message).toMatch(/memory/i);
    expect(failure!.message).not.toMatch(/CPU time/);
    expect(failure!.message).not.toMatch(/ran longer than/);
    expect((await server.get(`${PRJ}/plugin_configs/${config.id}/`)).body.metrics).toMatchObject({
      delivered: 0,
      failed: 1,
    });
    // a new sandbox for the next event
    await server.send([{ event: 'small', distinct_id: 'm' }]);
    await server.settle();
    expect((await logs(config.id)).map((l) => l.message)).toContain('handled small');
  });
});

describe('a plugin that floods its log', () => {
  it('keeps 100 lines of an event and says how many it dropped', async () => {
    const plugin = await install('pipeline_destinations', { plugin_type: 'source', name: 'Chatty' });
    const source = `export function onEvent(event) {
  for (let i = 0; i < 150; i++) console.log('line ' + i + ' of ' + event.event)
}\n`;
    expect(
      (
        await server.request('PATCH', `${ORG}/pipeline_destinations/${plugin.id}/update_source/`, {
          json: { 'index.ts': source },
        })
      ).status,
    ).toBe(200);
    const config = await createConfig({
      plugin: plugin.id,
      enabled: true,
      config: { url: 'https://example.com/unused' },
    });
    for (const n of [1, 2]) {
      expect(await server.send([{ event: `flood-${n}`, distinct_id: 'f' }])).toBe(200);
      await server.settle();
    }
    const page = (await server.get(`${PRJ}/plugin_configs/${config.id}/logs/?limit=1000`)).body as {
      results: { level: string; message: string }[];
    };
    for (const n of [1, 2]) {
      const kept = page.results.filter((l) => l.message.endsWith(` of flood-${n}`)).map((l) => l.message);
      expect(kept).toHaveLength(100);
      expect(kept).toContain(`line 0 of flood-${n}`);
      expect(kept).toContain(`line 99 of flood-${n}`);
    }
    const dropped = page.results.filter((l) => l.level === 'WARN' && /dropped/.test(l.message)).map((l) => l.message);
    expect(dropped).toEqual([
      '50 log lines were dropped: a plugin writes at most 100 lines per event to its log.',
      '50 log lines were dropped: a plugin writes at most 100 lines per event to its log.',
    ]);
    expect((await server.get(`${PRJ}/plugin_configs/${config.id}/`)).body.metrics).toMatchObject({
      delivered: 2,
      failed: 0,
    });
  });
});
