import { afterAll, describe, expect, it } from 'vitest';
import { HTTP_CONCURRENCY } from '../../../server/plugins/delivery-engine.ts';
import { createPipelineServer, startReceiver } from './harness.ts';

const server = createPipelineServer();
const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server.close();
});
const ORG = `/api/organizations/${server.orgId}`;
const PRJ = `/api/projects/${server.projectId}`;

async function installed(group: string, json: Record<string, unknown>) {
  const res = await server.request('POST', `${ORG}/${group}/`, { json });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}
async function enable(plugin: number, config: Record<string, unknown>) {
  const res = await server.request('POST', `${PRJ}/plugin_configs/`, { json: { plugin, enabled: true, config } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}
const logs = async (id: number) =>
  (await server.get(`${PRJ}/plugin_configs/${id}/logs/`)).body.results as { level: string; message: string }[];
const metrics = async (id: number) => (await server.get(`${PRJ}/plugin_configs/${id}/`)).body.metrics;

describe('destinations run', () => {
  it('a webhook enabled on a project gets exactly the events ingested afterwards, with its headers', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    expect(await server.send([{ event: 'before', distinct_id: 'u1' }])).toBe(200);
    const hook = await installed('pipeline_destinations', {
      plugin_type: 'repository',
      url: 'https://github.com/analytics-plugins/webhook-destination',
    });
    const config = await enable(hook, { url: `${receiver.url}/in`, headers: '{"X-Team":"blue"}', auth_token: 'tok-1' });
    expect(
      await server.send([
        { event: 'after-1', distinct_id: 'u1', properties: { plan: 'pro' } },
        { event: 'after-2', distinct_id: 'u2' },
      ]),
    ).toBe(200);
    await server.settle();
    const bodies = receiver.received.map(
      (r) => JSON.parse(r.body) as { event: string; distinct_id: string; properties: Record<string, unknown> },
    );
    expect(bodies.map((b) => b.event).sort()).toEqual(['after-1', 'after-2']);
    expect(bodies.find((b) => b.event === 'after-1')).toMatchObject({
      distinct_id: 'u1',
      properties: { plan: 'pro' },
      team_id: server.projectId,
    });
    expect(receiver.received[0]!.headers['x-team']).toBe('blue');
    expect(receiver.received[0]!.headers.authorization).toBe('Bearer tok-1');
    expect(await metrics(config)).toMatchObject({ delivered: 2, failed: 0 });
    // disabled: nothing more arrives
    await server.request('PATCH', `${PRJ}/plugin_configs/${config}/`, { json: { enabled: false } });
    await server.send([{ event: 'after-disable', distinct_id: 'u1' }]);
    await server.settle();
    expect(receiver.received).toHaveLength(2);
  });

  it('while batches queue up to be written, deliveries wait; they catch up once the burst is over', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = await installed('pipeline_destinations', {
      plugin_type: 'repository',
      url: 'https://github.com/analytics-plugins/webhook-destination',
      name: 'Patient',
    });
    const config = await enable(hook, { url: receiver.url });
    // eight writes in progress for a while: ingestion is under pressure
    const ends = Array.from({ length: 8 }, () => server.pipeline.ingesting());
    try {
      await new Promise((r) => setTimeout(r, 150));
      expect(await server.send([{ event: 'during-burst', distinct_id: 'b' }])).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(0);
    } finally {
      for (const end of ends) end();
    }
    await server.settle();
    expect(receiver.received.map((r) => JSON.parse(r.body).event)).toEqual(['during-burst']);
    await server.request('PATCH', `${PRJ}/plugin_configs/${config}/`, { json: { enabled: false } });
  });

  it('a failing receiver is retried, and counted as failed once the retries are spent', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = await installed('pipeline_destinations', {
      plugin_type: 'repository',
      url: 'https://github.com/analytics-plugins/webhook-destination',
      name: 'Flaky',
    });
    const config = await enable(hook, { url: receiver.url });
    receiver.failNext(2, 503);
    await server.send([{ event: 'retried', distinct_id: 'r' }]);
    await server.settle();
    expect(receiver.received.map((r) => JSON.parse(r.body).event)).toEqual(['retried']);
    expect(await metrics(config)).toMatchObject({ delivered: 1, failed: 0, retried: 2 });
    receiver.failNext(3, 500);
    await server.send([{ event: 'lost', distinct_id: 'r' }]);
    await server.settle();
    expect(await metrics(config)).toMatchObject({ delivered: 1, failed: 1, retried: 4 });
    expect((await logs(config))[0]).toMatchObject({ level: 'ERROR' });
    expect((await logs(config))[0]!.message).toMatch(/lost.*answered 500/);
    expect((await server.get(`${PRJ}/plugin_configs/${config}/`)).body.error.message).toMatch(/500/);
  });

  it('a source plugin runs in the sandbox: fetch to its configured host only, loops and allocations stopped, ingestion goes on', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const plugin = await installed('pipeline_destinations', { plugin_type: 'source', name: 'Sandboxed' });
    const url = `${ORG}/pipeline_destinations/${plugin}/update_source/`;
    const source = `export async function onEvent(event, { config }) {
  if (event.event === 'loop') { while (true) {} }
  if (event.event === 'alloc') { const a = []; while (true) a.push(new Array(100000).fill(1)) }
  if (event.event === 'elsewhere') { await fetch('http://127.0.0.1:9/x') }
  console.log('sending', event.event)
  await fetch(config.url, { method: 'POST', body: JSON.stringify({ got: event.event }) })
}\n`;
    expect((await server.request('PATCH', url, { json: { 'index.ts': source } })).status).toBe(200);
    const config = await enable(plugin, { url: `${receiver.url}/sink` });
    const started = Date.now();
    for (const event of ['loop', 'alloc', 'elsewhere', 'fine']) {
      expect(await server.send([{ event, distinct_id: 's' }])).toBe(200);
    }
    expect(Date.now() - started).toBeLessThan(1000); // ingestion never waits on the plugin
    await server.settle();
    // only the fine event arrives; at least once: a fetch made just before the sandbox was stopped
    // beside it is made again when its event runs again (docs/limits.md)
    const got = receiver.received.map((r) => JSON.parse(r.body) as { got: string });
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(new Set(got.map((g) => g.got))).toEqual(new Set(['fine']));
    expect(await metrics(config)).toMatchObject({ delivered: 1, failed: 3 });
    const messages = (await logs(config)).map((l) => l.message).join('\n');
    expect(messages).toMatch(/CPU time limit/);
    expect(messages).toMatch(/not allowed/);
    expect(messages).toMatch(/sending fine/);
  });

  it("a source plugin keeps its sandbox (and the state its code holds) until its code or its config's hosts change", async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const plugin = await installed('pipeline_destinations', { plugin_type: 'source', name: 'Counting' });
    const source = (word: string) => `let seen = 0
export async function onEvent(event, { config }) {
  seen += 1
  await fetch(config.url, { method: 'POST', body: '${word} ' + seen + ' ' + config.url.split('/').pop() })
}\n`;
    const save = async (word: string) => {
      const res = await server.request('PATCH', `${ORG}/pipeline_destinations/${plugin}/update_source/`, {
        json: { 'index.ts': source(word) },
      });
      expect(res.status, res.text).toBe(200);
    };
    await save('one');
    const config = await enable(plugin, { url: `${receiver.url}/a` });
    const deliver = async () => {
      await server.send([{ event: 'e', distinct_id: 'c' }]);
      await server.settle();
      return receiver.received.at(-1)!.body;
    };
    expect(await deliver()).toBe('one 1 a');
    expect(await deliver()).toBe('one 2 a');
    // the same config saved again, then a new value on the same host: the config changes, the sandbox stays
    await server.request('PATCH', `${PRJ}/plugin_configs/${config}/`, {
      json: { config: { url: `${receiver.url}/a` } },
    });
    expect(await deliver()).toBe('one 3 a');
    await server.request('PATCH', `${PRJ}/plugin_configs/${config}/`, {
      json: { config: { url: `${receiver.url}/b` } },
    });
    expect(await deliver()).toBe('one 4 b');
    // new code: a new sandbox
    await save('two');
    expect(await deliver()).toBe('two 1 b');
  });

  it('an import app pulls CSV and JSON lines from a URL into the events', async () => {
    const csv =
      'event,distinct_id,timestamp,plan\nimported signup,imp-1,2024-05-01T10:00:00Z,pro\n"imported, quoted",imp-2,2024-05-01T11:00:00Z,\n,missing-event,,\n';
    const jsonl =
      '{"event":"imported line","distinct_id":"imp-3","timestamp":"2024-05-02T00:00:00Z","properties":{"a":1}}\nnot json\n';
    const files = await startReceiver((path) =>
      path === '/data.csv'
        ? { status: 200, body: csv }
        : path === '/data.jsonl'
          ? { status: 200, body: jsonl }
          : undefined,
    );
    receivers.push(files);
    const csvApp = await installed('pipeline_import_apps', {
      plugin_type: 'repository',
      url: 'https://github.com/analytics-plugins/csv-import',
    });
    const csvConfig = await enable(csvApp, { url: `${files.url}/data.csv` });
    const started = await server.request('POST', `${PRJ}/plugin_configs/${csvConfig}/job/`, {
      json: { job: 'import' },
    });
    expect(started.status, started.text).toBe(200);
    expect(started.body.last_job.status).toBe('running');
    const jsonApp = await installed('pipeline_import_apps', {
      plugin_type: 'repository',
      url: 'https://github.com/analytics-plugins/jsonl-import',
    });
    const jsonConfig = await enable(jsonApp, { url: `${files.url}/data.jsonl`, format: 'jsonl' });
    await server.request('POST', `${PRJ}/plugin_configs/${jsonConfig}/job/`, { json: { job: 'import' } });
    await waitFor(
      async () =>
        (await server.get(`${PRJ}/plugin_configs/${jsonConfig}/`)).body.last_job.status !== 'running' &&
        (await server.get(`${PRJ}/plugin_configs/${csvConfig}/`)).body.last_job.status !== 'running',
    );
    expect((await server.get(`${PRJ}/plugin_configs/${csvConfig}/`)).body.last_job).toMatchObject({
      status: 'completed',
      rows_imported: 2,
      rows_failed: 1,
    });
    expect((await server.get(`${PRJ}/plugin_configs/${jsonConfig}/`)).body.last_job).toMatchObject({
      status: 'completed',
      rows_imported: 1,
      rows_failed: 1,
    });
    const rows = await server.events.all(
      `SELECT event, distinct_id FROM events WHERE team_id = ${server.projectId} AND distinct_id LIKE 'imp-%' ORDER BY distinct_id`,
    );
    expect(rows).toEqual([
      { event: 'imported signup', distinct_id: 'imp-1' },
      { event: 'imported, quoted', distinct_id: 'imp-2' },
      { event: 'imported line', distinct_id: 'imp-3' },
    ]);
    expect((await logs(csvConfig)).map((l) => l.message).join('\n')).toMatch(/Line 4 skipped/);
  });

  it('serves an enabled frontend app as a script with its public config', async () => {
    const app = await installed('pipeline_frontend_apps', {
      plugin_type: 'repository',
      url: 'https://github.com/analytics-plugins/notification-bar',
    });
    const config = (
      await server.request('POST', `${PRJ}/plugin_configs/`, {
        json: { plugin: app, enabled: true, config: { message: 'Sale </script> today' } },
      })
    ).body;
    expect(config.site_app_url).toMatch(new RegExp(`^/site_app/${config.id}/${server.token}/[0-9a-f]{16}/$`));
    const res = await server.app.request(config.site_app_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const script = await res.text();
    expect(script).toContain(`window['__$$ph_site_app_${config.id}']`);
    expect(script).not.toContain('</script>');
    const shown: string[] = [];
    const body = { appendChild: (el: { textContent: string }) => shown.push(el.textContent) };
    const element = () => ({ setAttribute() {}, style: {}, textContent: '' });
    new Function('window', 'document', script)(
      { [`__$$ph_site_app_${config.id}`]: { capture() {} } },
      { body, createElement: element },
    );
    expect(shown).toEqual(['Sale </script> today']);
    expect((await server.app.request(`/site_app/${config.id}/wrong-token/x/`)).status).toBe(404);
  });
});

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a stopping server', () => {
  /** A server of its own (its pipeline is closed here) with a webhook to a receiver that holds its answers. */
  async function withHeldWebhook() {
    const own = createPipelineServer();
    // the seeded destinations off: their made-up hosts take seconds to fail to resolve
    for (const c of (await own.get(`/api/projects/${own.projectId}/plugin_configs/`)).body.results as {
      id: number;
    }[]) {
      await own.request('PATCH', `/api/projects/${own.projectId}/plugin_configs/${c.id}/`, {
        json: { enabled: false },
      });
    }
    const receiver = await startReceiver();
    const hook = await own.request('POST', `/api/organizations/${own.orgId}/pipeline_destinations/`, {
      json: { plugin_type: 'repository', url: 'https://github.com/analytics-plugins/webhook-destination' },
    });
    const config = await own.request('POST', `/api/projects/${own.projectId}/plugin_configs/`, {
      json: { plugin: hook.body.id, enabled: true, config: { url: `${receiver.url}/in` } },
    });
    expect(config.status, config.text).toBe(201);
    const release = receiver.hold();
    const logs = async () =>
      (await own.get(`/api/projects/${own.projectId}/plugin_configs/${config.body.id}/logs/`)).body.results as {
        level: string;
        message: string;
      }[];
    return { own, receiver, release, logs };
  }

  it('delivers the events waiting for destinations before it stops', async () => {
    const { own, receiver, release, logs } = await withHeldWebhook();
    // more than a destination sends at once: some wait in its queue, not on the wire
    const events = Array.from({ length: HTTP_CONCURRENCY + 8 }, (_, i) => `e${i}`);
    expect(await own.send(events.map((event) => ({ event, distinct_id: 'd' })))).toBe(200);
    const until = Date.now() + 5000;
    while (receiver.waiting === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    setTimeout(release, 300); // the receiver answers while the server is stopping
    await own.pipeline.close(5000);
    expect(receiver.received.map((r) => JSON.parse(r.body).event).sort()).toEqual(events.sort());
    expect((await logs()).filter((l) => l.level === 'ERROR')).toEqual([]);
    await own.close();
    await receiver.close();
  });

  it("writes what it could not deliver in time to the destination's log", async () => {
    const { own, receiver, release, logs } = await withHeldWebhook();
    expect(await own.send(Array.from({ length: 3 }, (_, i) => ({ event: `late${i}`, distinct_id: 'd' })))).toBe(200);
    const started = Date.now();
    await own.pipeline.close(300);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await logs()).map((l) => l.message)).toContain(
      '3 events were not delivered when the server stopped (still waiting, or sent without an answer yet).',
    );
    release();
    await own.close();
    await receiver.close();
  });
});
