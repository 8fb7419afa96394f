import { afterAll, describe, expect, it } from 'vitest';
import { batchExportSchema, pageSchema } from '../../src/contract/index.ts';
import { createTestServer, HEDGEBOX, NORTHWIND, type RequestOptions } from './helpers.ts';

let clock = new Date('2024-06-03T10:30:00.000Z');
const server = createTestServer({ now: () => clock });
afterAll(() => server.close());
const hedgebox = server.orgIds[HEDGEBOX]!;
const northwind = server.orgIds[NORTHWIND]!;
const base = `/api/organizations/${hedgebox}/batch_exports/`;

const SECRETS = ['s3-secret-VALUE-123', 'http-token-VALUE-456', 'pg-password-VALUE-789', 'new-token-VALUE-000'];
const bodies: string[] = [];
async function call(method: string, url: string, options: RequestOptions = {}) {
  const res = await server.request(method, url, options);
  bodies.push(res.text);
  return res;
}

const s3 = { bucket_name: 'b', region: 'eu-west-1', aws_access_key_id: 'AKIA1', aws_secret_access_key: SECRETS[0] };
const http = { url: 'https://receiver.example/in', token: SECRETS[1] };

async function create(json: Record<string, unknown>) {
  const res = await call('POST', base, { json: { name: 'Export', interval: 'hour', ...json } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('batch exports CRUD', () => {
  it('lists the seeded exports in the contract shape, with their latest runs', async () => {
    const res = await call('GET', base);
    expect(res.status).toBe(200);
    const page = pageSchema(batchExportSchema).parse(res.body);
    expect(page.count).toBe(6);
    expect(page.results.map((e) => e.destination.type).sort()).toEqual([
      'BigQuery',
      'HTTP',
      'NoOp',
      'Postgres',
      'S3',
      'Snowflake',
    ]);
    // Every destination this server cannot reach is seeded paused (only NoOp runs here).
    expect(page.results.filter((e) => !e.paused).map((e) => e.destination.type)).toEqual(['NoOp']);
    for (const e of page.results) {
      expect(e.latest_runs.length).toBeGreaterThan(0);
      expect(e.latest_runs.length).toBeLessThanOrEqual(5);
      const created = e.latest_runs.map((r) => r.created_at);
      expect(created).toEqual([...created].sort().reverse());
    }
    // A history that looks alive: the latest runs mostly completed, a failure here and there.
    const statuses = page.results.flatMap((e) => e.latest_runs.map((r) => r.status));
    expect(statuses.filter((s) => s === 'Completed').length).toBeGreaterThan(statuses.length * 0.8);
    expect(statuses).toContain('Failed');
    const limited = await call('GET', `${base}?limit=2&offset=2`);
    expect(limited.body.results).toHaveLength(2);
    expect(limited.body.next).toContain('offset=4');
  });

  it('creates an export with defaults applied and the first project as team', async () => {
    const e = await create({ destination: { type: 'S3', config: s3 } });
    expect(batchExportSchema.parse(e)).toMatchObject({
      name: 'Export',
      model: 'events',
      interval: 'hour',
      paused: false,
      last_paused_at: null,
      latest_runs: [],
      destination: { type: 'S3', config: { bucket_name: 'b', prefix: '', file_format: 'JSONLines' } },
    });
    expect(e.destination.config).not.toHaveProperty('aws_secret_access_key');
    const teams = (await call('GET', `/api/organizations/${hedgebox}/`)).body.teams;
    expect(e.team_id).toBe(teams[0].id);
    expect((await call('GET', `${base}${e.id}/`)).body).toEqual(e);
  });

  it('takes a team_id of the organization, 400 for another one', async () => {
    const teams = (await call('GET', `/api/organizations/${hedgebox}/`)).body.teams;
    const e = await create({ team_id: teams[1].id, destination: { type: 'NoOp', config: {} } });
    expect(e.team_id).toBe(teams[1].id);
    const other = (await call('GET', `/api/organizations/${northwind}/`)).body.teams[0].id;
    const res = await call('POST', base, {
      json: { name: 'x', interval: 'hour', team_id: other, destination: { type: 'NoOp', config: {} } },
    });
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe('team_id');
  });

  it.each([
    ['S3', { ...s3, bucket_name: undefined }, 'destination__config__bucket_name'],
    ['S3', { ...s3, aws_secret_access_key: undefined }, 'destination__config__aws_secret_access_key'],
    [
      'Snowflake',
      { account: 'a', user: 'u', password: 'p', database: 'd', warehouse: 'w', schema: 's' },
      'destination__config__table_name',
    ],
    ['Postgres', { host: 'h', database: 'd', user: 'u' }, 'destination__config__password'],
    ['Redshift', { database: 'd', user: 'u', password: 'p' }, 'destination__config__host'],
    [
      'BigQuery',
      { project_id: 'p', dataset_id: 'd', table_id: 't', private_key: 'k', private_key_id: 'i' },
      'destination__config__client_email',
    ],
    ['HTTP', { url: 'https://x.example/' }, 'destination__config__token'],
    ['HTTP', { url: 'not a url', token: 't' }, 'destination__config__url'],
    ['FTP', {}, 'destination__type'],
  ])('400 for a %s destination missing a field (%j)', async (type, config, attr) => {
    const res = await call('POST', base, { json: { name: 'x', interval: 'hour', destination: { type, config } } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'validation_error', attr });
  });

  it.each([
    [{ interval: 'month' }, 'interval'],
    [{ model: 'groups' }, 'model'],
    [{ name: '' }, 'name'],
    [{ start_at: '2024-06-02T00:00:00Z', end_at: '2024-06-01T00:00:00Z' }, 'end_at'],
    [{ start_at: 'yesterday' }, 'start_at'],
  ])('400 for %j', async (json, attr) => {
    const res = await call('POST', base, {
      json: { name: 'x', interval: 'hour', destination: { type: 'NoOp', config: {} }, ...json },
    });
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe(attr);
  });

  it('PATCH keeps an omitted secret, replaces a given one, and validates a type change whole', async () => {
    const e = await create({ destination: { type: 'HTTP', config: http } });
    const renamed = await call('PATCH', `${base}${e.id}/`, {
      json: { name: 'Renamed', destination: { type: 'HTTP', config: { url: 'https://other.example/' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      destination: { type: 'HTTP', config: { url: 'https://other.example/' } },
    });
    expect(renamed.body.last_updated_at).toBe(clock.toISOString());
    let stored = server.store.batchExports.get(e.id)!;
    expect(JSON.parse(stored.destination_config)).toEqual({ url: 'https://other.example/', token: SECRETS[1] });
    const retoken = await call('PATCH', `${base}${e.id}/`, {
      json: { destination: { type: 'HTTP', config: { url: 'https://other.example/', token: SECRETS[3] } } },
    });
    expect(retoken.status, retoken.text).toBe(200);
    stored = server.store.batchExports.get(e.id)!;
    expect(JSON.parse(stored.destination_config).token).toBe(SECRETS[3]);
    const switched = await call('PATCH', `${base}${e.id}/`, {
      json: { destination: { type: 'Postgres', config: { host: 'h', database: 'd', user: 'u' } } },
    });
    expect(switched.status).toBe(400);
    expect(switched.body.attr).toBe('destination__config__password');
    const ok = await call('PATCH', `${base}${e.id}/`, {
      json: {
        destination: { type: 'Postgres', config: { host: 'h', database: 'd', user: 'u', password: SECRETS[2] } },
      },
    });
    expect(ok.body.destination).toEqual({
      type: 'Postgres',
      config: {
        host: 'h',
        database: 'd',
        user: 'u',
        port: 5432,
        schema: 'public',
        table_name: 'events',
        has_self_signed_cert: false,
      },
    });
    const range = await call('PATCH', `${base}${e.id}/`, { json: { start_at: '2024-07-01T00:00:00Z' } });
    expect((await call('PATCH', `${base}${e.id}/`, { json: { end_at: '2024-06-01T00:00:00+02:00' } })).body.attr).toBe(
      'end_at',
    );
    expect(range.body.start_at).toBe('2024-07-01T00:00:00.000Z');
  });

  it('pause sets last_paused_at once; pause and unpause are idempotent', async () => {
    const e = await create({ destination: { type: 'NoOp', config: {} } });
    const first = await call('POST', `${base}${e.id}/pause/`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ paused: true, last_paused_at: clock.toISOString() });
    const pausedAt = clock.toISOString();
    clock = new Date(clock.getTime() + 60_000);
    const second = await call('POST', `${base}${e.id}/pause/`, { json: { ignored: true } });
    expect(second.body).toEqual(first.body);
    expect(second.body.last_paused_at).toBe(pausedAt);
    const unpaused = await call('POST', `${base}${e.id}/unpause/`);
    expect(unpaused.body).toMatchObject({
      paused: false,
      last_paused_at: pausedAt,
      last_updated_at: clock.toISOString(),
    });
    expect((await call('POST', `${base}${e.id}/unpause/`)).body).toEqual(unpaused.body);
  });

  it('PATCH of paused pauses and unpauses like the endpoints, with the same log entries', async () => {
    const e = await create({ destination: { type: 'NoOp', config: {} } });
    const paused = await call('PATCH', `${base}${e.id}/`, { json: { paused: true } });
    expect(paused.body).toMatchObject({ paused: true, last_paused_at: clock.toISOString() });
    const unpaused = await call('PATCH', `${base}${e.id}/`, { json: { paused: false } });
    expect(unpaused.body.paused).toBe(false);
    const logs = (await call('GET', `${base}${e.id}/logs/`)).body.results.map((l: { message: string }) => l.message);
    expect(logs).toEqual([
      expect.stringMatching(/^Export unpaused: the next run covers the interval ending /),
      'Export paused.',
    ]);
  });

  it('deletes an export (204, then 404)', async () => {
    const e = await create({ destination: { type: 'NoOp', config: {} } });
    const res = await call('DELETE', `${base}${e.id}/`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call('GET', `${base}${e.id}/`)).status).toBe(404);
    expect((await call('DELETE', `${base}${e.id}/`)).status).toBe(404);
  });
});

describe('batch export access', () => {
  it('needs batch_export:read to read and batch_export:write to write', async () => {
    const id = (await call('GET', base)).body.results[0].id;
    const read = server.makeKey({ scopes: ['batch_export:read'] });
    const none = server.makeKey({ scopes: ['organization:read'] });
    expect((await call('GET', base, { key: read })).status).toBe(200);
    for (const suffix of ['', `${id}/`, `${id}/runs/`, `${id}/logs/`]) {
      expect((await call('GET', `${base}${suffix}`, { key: read })).status).toBe(200);
      const denied = await call('GET', `${base}${suffix}`, { key: none });
      expect(denied.status).toBe(403);
      expect(denied.body.detail).toBe("API key missing required scope 'batch_export:read'");
    }
    const writes: [string, string][] = [
      ['POST', base],
      ['PATCH', `${base}${id}/`],
      ['DELETE', `${base}${id}/`],
      ['POST', `${base}${id}/pause/`],
      ['POST', `${base}${id}/unpause/`],
      ['POST', `${base}${id}/backfill/`],
    ];
    for (const [method, url] of writes) {
      const res = await call(method, url, { key: read, json: {} });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.detail).toBe("API key missing required scope 'batch_export:write'");
    }
    expect((await call('GET', base, { key: null })).status).toBe(401);
  });

  it("unknown organization → 404, unreachable one → 403, another organization's export → 404", async () => {
    expect((await call('GET', '/api/organizations/00000000-0000-4000-8000-000000000000/batch_exports/')).status).toBe(
      404,
    );
    const jonas = server.makeKey({ scopes: ['*'], userEmail: 'jonas@northwind.example' });
    expect((await call('GET', base, { key: jonas })).status).toBe(403);
    const scoped = server.makeKey({ scopes: ['*'], organizations: [northwind] });
    expect((await call('GET', base, { key: scoped })).status).toBe(403);
    const id = (await call('GET', base)).body.results[0].id;
    const other = `/api/organizations/${northwind}/batch_exports/${id}/`;
    for (const suffix of ['', 'runs/', 'logs/']) expect((await call('GET', `${other}${suffix}`)).status).toBe(404);
    expect((await call('POST', `${other}pause/`)).status).toBe(404);
    expect((await call('GET', `${base}not-an-id/`)).status).toBe(404);
  });

  it('deleting the organization deletes its exports, runs and logs', async () => {
    const org = (await call('POST', '/api/organizations/', { json: { name: 'Short lived' } })).body;
    const e = (
      await call('POST', `/api/organizations/${org.id}/batch_exports/`, {
        json: { name: 'x', interval: 'hour', destination: { type: 'NoOp', config: {} } },
      })
    ).body;
    await call('POST', `/api/organizations/${org.id}/batch_exports/${e.id}/pause/`);
    expect((await call('DELETE', `/api/organizations/${org.id}/`)).status).toBe(204);
    expect(server.store.batchExports.get(e.id)).toBeUndefined();
    const logs = server.store.db
      .prepare('SELECT COUNT(*) AS n FROM batch_export_logs WHERE batch_export_id = ?')
      .get(e.id) as { n: number };
    expect(logs.n).toBe(0);
  });
});

describe('secrets', () => {
  it('never appear in any response body of this file', async () => {
    const all = await call('GET', `${base}?limit=1000`);
    for (const e of all.body.results) await call('GET', `${base}${e.id}/logs/`);
    expect(bodies.length).toBeGreaterThan(50);
    for (const body of bodies) for (const secret of SECRETS) expect(body).not.toContain(secret);
    // The seeded secrets too.
    const ids = server.store.db.prepare('SELECT id FROM batch_exports').pluck().all() as string[];
    const seeded = ids.map((id) => server.store.batchExports.get(id)!);
    const seededSecrets = seeded.flatMap((r) =>
      Object.entries(JSON.parse(r.destination_config) as Record<string, unknown>)
        .filter(([k]) => ['token', 'password', 'aws_secret_access_key', 'private_key', 'private_key_id'].includes(k))
        .map(([, v]) => String(v)),
    );
    expect(seededSecrets.length).toBeGreaterThan(4);
    for (const body of bodies) for (const secret of seededSecrets) expect(body).not.toContain(secret);
  });
});
