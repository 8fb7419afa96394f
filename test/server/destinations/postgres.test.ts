import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchExportRunSchema, pageSchema } from '../../../src/contract/index.ts';
import type { CaptureEvent } from '../../../server/analytics/store/ingest-parse.ts';
import { postgresDestination } from '../../../server/batch-exports/destinations/postgres.ts';
import { createScheduler } from '../../../server/batch-exports/scheduler.ts';
import { createTestServer, HEDGEBOX } from '../helpers.ts';
import { startPgServer, type PgServer } from './pg-server.ts';

const clock = new Date('2024-06-03T20:00:00.000Z');
const server = createTestServer({ now: () => clock });
const runner = { retryDelayMs: 0, maxAttempts: 3, allowHosts: ['127.0.0.1'] };
const scheduler = createScheduler({ store: server.store, events: server.events, now: () => clock, runner });
const hedgebox = server.orgIds[HEDGEBOX]!;
const base = `/api/organizations/${hedgebox}/batch_exports/`;
const PASSWORD = 'pg-SECRET-pass-7';
const USER = 'exporter';
let pgs: PgServer;
let team = 0;

const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const at = (hour: number, i: number) => new Date(Date.UTC(2024, 5, 3, hour, 0, 0, 0) + i * 1000);
const event = (i: number, time: Date, properties: Record<string, unknown> = {}): CaptureEvent => ({
  uuid: uuid(i),
  event: i % 2 ? '$pageview' : 'signed_up',
  distinct_id: `pg-user-${i % 4}`,
  timestamp: time,
  properties: { i, ...properties },
  set: null,
  setOnce: null,
});

// 05:00-06:00: a few events with the properties the table derives columns from.
const RICH = [
  event(1, at(5, 60), {
    $ip: '203.0.113.9',
    $set: { plan: 'pro' },
    $set_once: { first: 'yes' },
    $elements_chain: 'a:nth-child="1"',
    nested: { a: [1, 2, { b: 'c' }] },
  }),
  event(2, at(5, 120), { text: 'tab\there, newline\nthere, quote " and backslash \\ and NUL\0 and ✓' }),
  event(3, at(5, 3000)),
];
// 09:00-10:00: text that COPY's text format (escapes, `\N` for NULL, `\.` for the end) and SQL
// parameters must both carry through unchanged, in text columns and in JSON, keys included.
const HOSTILE_TEXT = [
  '\\N',
  '\\.',
  'back\\slash \\\\ two \\t not a tab',
  'tab\there',
  'new\nline',
  'cr\r\nlf',
  'quotes \' " ` ;--',
  'Zürich – 東京 ✓ 🚀 👩‍👩‍👧',
  '\u0001\u001f\u007f control',
  '{"not": "json"}',
  'last',
];
const HOSTILE = HOSTILE_TEXT.map((value, k) => ({
  ...event(5000 + k, at(9, k), { value, [`key\t${k}\n\\`]: [value, { value }] }),
  event: value,
  distinct_id: value,
}));
// 07:00-08:00: enough rows (about 600 kB of COPY data, more as INSERTs) that a session can be cut mid-write.
const MANY = Array.from({ length: 2500 }, (_, k) => event(1000 + k, at(7, k), { filler: 'x'.repeat(60), k }));

// The test server's certificate is self-signed (scripts/pg-cluster.mjs), as many a private database's is.
const config = (over: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: pgs.port,
  database: 'analytics',
  user: USER,
  password: PASSWORD,
  schema: 'public',
  table_name: 'events',
  has_self_signed_cert: true,
  ...over,
});

async function exportTo(
  type: 'Postgres' | 'Redshift',
  cfg: Record<string, unknown>,
  model: 'events' | 'persons' = 'events',
) {
  const res = await server.request('POST', base, {
    json: { name: `pg ${model}`, interval: 'hour', paused: true, model, destination: { type, config: cfg } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
async function backfill(id: string, startHour: number, endHour = startHour + 1, using = scheduler) {
  const hh = (h: number) => `2024-06-03T${String(h).padStart(2, '0')}:00:00Z`;
  const res = await server.request('POST', `${base}${id}/backfill/`, {
    json: { start_at: hh(startHour), end_at: hh(endHour) },
  });
  expect(res.status, res.text).toBe(200);
  await using.tick();
}
const runs = async (id: string) =>
  pageSchema(batchExportRunSchema).parse((await server.get(`${base}${id}/runs/?limit=100`)).body).results;
const logText = async (id: string) => JSON.stringify((await server.get(`${base}${id}/logs/?limit=1000`)).body);
const rowsOf = (table: string, where = 'true') =>
  pgs.query(`SELECT * FROM public.${table} WHERE ${where} ORDER BY timestamp, uuid`);

beforeAll(async () => {
  pgs = await startPgServer({ database: 'analytics', owner: [USER, PASSWORD], users: { locked: 'locked-pass' } });
  team = (await server.get(`/api/organizations/${hedgebox}/`)).body.teams[0].id;
  await server.events.append(team, [...RICH, ...MANY, ...HOSTILE]);
}, 60_000); // initdb and the server's start: a few seconds, more on a busy machine
afterAll(async () => {
  await scheduler.stop();
  await pgs?.close();
  await server.close();
});

describe('Postgres destination, through the scheduler', () => {
  it('creates the table and writes each event once, with the production columns', async () => {
    const id = await exportTo('Postgres', config({ table_name: 'events_a' }));
    await backfill(id, 5);
    expect((await runs(id))[0]).toMatchObject({
      status: 'Completed',
      records_total_count: 3,
      records_completed: 3,
      latest_error: null,
    });
    const rows = await rowsOf('events_a');
    expect(rows.map((r) => r.uuid)).toEqual(RICH.map((e) => e.uuid));
    expect(rows[0]).toEqual({
      uuid: uuid(1),
      event: '$pageview',
      distinct_id: 'pg-user-1',
      team_id: team,
      timestamp: at(5, 60),
      properties: { ...RICH[0]!.properties },
      set: { plan: 'pro' },
      set_once: { first: 'yes' },
      elements: 'a:nth-child="1"',
      ip: '203.0.113.9',
      site_url: null,
    });
    // Control characters and quotes arrive intact; NUL, which Postgres text cannot hold, is dropped.
    expect(rows[1]!.properties).toEqual({
      i: 2,
      text: 'tab\there, newline\nthere, quote " and backslash \\ and NUL and ✓',
    });
    expect(rows[2]).toMatchObject({ set: null, set_once: null, elements: null, ip: null });
    const types = await pgs.query(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'events_a' ORDER BY ordinal_position",
    );
    expect(types.map((t) => `${t.column_name} ${t.data_type}`)).toEqual([
      'uuid character varying',
      'event character varying',
      'properties jsonb',
      'elements jsonb',
      'set jsonb',
      'set_once jsonb',
      'distinct_id character varying',
      'team_id integer',
      'ip character varying',
      'site_url character varying',
      'timestamp timestamp with time zone',
    ]);
    const logs = await logText(id);
    expect(logs).toContain('Created table');
    expect(logs).not.toContain(PASSWORD);
  });

  it('a rerun of the same interval replaces its rows: no duplicates', async () => {
    const id = await exportTo('Postgres', config({ table_name: 'events_a' }));
    await backfill(id, 5);
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 3 });
    expect((await rowsOf('events_a')).map((r) => r.uuid)).toEqual(RICH.map((e) => e.uuid));
    expect(await logText(id)).toContain('Replacing 3 rows');
  });

  it("reuses an existing table with the columns (extra columns and other projects' rows left alone)", async () => {
    await pgs.query(`CREATE TABLE public.events_b (note TEXT DEFAULT 'mine', uuid VARCHAR(200), event VARCHAR(200), properties JSONB, elements JSONB,
      "set" JSONB, set_once JSONB, distinct_id VARCHAR(200), team_id INTEGER, ip VARCHAR(200), site_url VARCHAR(200), "timestamp" TIMESTAMPTZ)`);
    await pgs.query(
      `INSERT INTO public.events_b (uuid, team_id, "timestamp") VALUES ('other-project', ${team + 1000}, '2024-06-03T05:30:00Z')`,
    );
    const id = await exportTo('Postgres', config({ table_name: 'events_b' }));
    await backfill(id, 5);
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 3 });
    const rows = await rowsOf('events_b');
    expect(rows.map((r) => r.uuid).sort()).toEqual([...RICH.map((e) => e.uuid), 'other-project'].sort());
    expect(rows.every((r) => r.note === 'mine')).toBe(true);
    expect(await logText(id)).toContain('existing table');
  });

  it('a table with other columns fails at once, naming the missing columns, and is not altered', async () => {
    await pgs.query('CREATE TABLE public.events_c (uuid TEXT, payload TEXT)');
    const id = await exportTo('Postgres', config({ table_name: 'events_c' }));
    await backfill(id, 5);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed' });
    expect(run!.latest_error).toMatch(
      /"public"\."events_c" exists but lacks the events model's columns event, properties, elements, set, set_once, distinct_id, team_id, ip, site_url, timestamp/,
    );
    expect(await logText(id)).not.toMatch(/Attempt 1 of 3 failed/);
    const columns = await pgs.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'events_c'");
    expect(columns.map((c) => c.column_name).sort()).toEqual(['payload', 'uuid']);
  });

  it('exports the persons model with the production persons columns: a row per distinct id', async () => {
    const id = await exportTo('Postgres', config({ table_name: 'persons_a' }), 'persons');
    const expected = await server.events.all<{ d: string; id: string; properties: string }>(
      `SELECT d.distinct_id AS d, p.id::VARCHAR AS id, p.properties::VARCHAR AS properties FROM persons p JOIN person_distinct_ids d ON d.team_id = p.team_id AND d.person_id = p.id
        WHERE p.team_id = $1 AND p.updated_at >= '2024-06-03T05:00:00Z'::TIMESTAMPTZ AND p.updated_at < '2024-06-03T08:00:00Z'::TIMESTAMPTZ ORDER BY d.distinct_id`,
      [team],
    );
    expect(expected.length).toBeGreaterThan(0);
    await backfill(id, 5, 8);
    expect((await runs(id)).map((r) => r.status)).toEqual(['Completed', 'Completed', 'Completed']);
    await backfill(id, 5, 8); // a rerun replaces the persons' rows
    const rows = await pgs.query('SELECT * FROM public.persons_a ORDER BY distinct_id');
    expect(rows.map((r) => [r.distinct_id, r.person_id])).toEqual(expected.map((p) => [p.d, p.id]));
    expect(rows.map((r) => r.properties)).toEqual(expected.map((p) => JSON.parse(p.properties)));
    expect(rows[0]).toMatchObject({
      team_id: String(team),
      is_deleted: false,
      person_version: '0',
      person_distinct_id_version: '0',
    });
    expect(Object.keys(rows[0]!).sort()).toEqual([
      'created_at',
      'distinct_id',
      'is_deleted',
      'person_distinct_id_version',
      'person_id',
      'person_version',
      'properties',
      'team_id',
    ]);
  });

  it('persons changed in a later interval: exported again with the new properties, merged distinct ids move, a rerun adds no row', async () => {
    const id = await exportTo('Postgres', config({ table_name: 'persons_changed' }), 'persons');
    const person = (i: number, hour: number, minute: number, over: Partial<CaptureEvent> = {}): CaptureEvent => ({
      ...event(i, at(hour, minute * 60)),
      distinct_id: 'pg-changed',
      ...over,
    });
    const table = async () =>
      pgs.query(
        'SELECT distinct_id, person_id, properties, person_version, person_distinct_id_version, created_at FROM public.persons_changed ORDER BY distinct_id',
      );
    // Interval 1 (10:00–11:00): two persons are created.
    await server.events.append(team, [
      person(7001, 10, 10, { set: { plan: 'free' } }),
      person(7002, 10, 20, { distinct_id: 'pg-laptop', set: { seen: 'laptop' } }),
    ]);
    await backfill(id, 10);
    const [created] = await table();
    expect(await table()).toEqual([
      {
        distinct_id: 'pg-changed',
        person_id: created!.person_id,
        properties: { plan: 'free' },
        person_version: '0',
        person_distinct_id_version: '0',
        created_at: at(10, 600),
      },
      expect.objectContaining({ distinct_id: 'pg-laptop', properties: { seen: 'laptop' } }),
    ]);
    await backfill(id, 11);
    // Interval 3 (12:00–13:00): the first person's plan changes and the laptop's person is merged into it.
    await server.events.append(team, [
      person(7003, 12, 20, { set: { plan: 'pro' } }),
      person(7004, 12, 30, { event: '$identify', properties: { $anon_distinct_id: 'pg-laptop' } }),
    ]);
    await backfill(id, 12);
    await backfill(id, 12); // a rerun of the interval
    expect((await runs(id)).map((r) => r.status)).toEqual(['Completed', 'Completed', 'Completed', 'Completed']);
    expect((await runs(id))[0]).toMatchObject({ records_total_count: 2, records_completed: 2 });
    const merged = { plan: 'pro', seen: 'laptop' };
    expect(await table()).toEqual([
      {
        distinct_id: 'pg-changed',
        person_id: created!.person_id,
        properties: merged,
        person_version: '1',
        person_distinct_id_version: '0',
        created_at: at(10, 600),
      },
      {
        distinct_id: 'pg-laptop',
        person_id: created!.person_id,
        properties: merged,
        person_version: '1',
        person_distinct_id_version: '1',
        created_at: at(10, 600),
      },
    ]);
  });

  it.each(['Postgres', 'Redshift'] as const)(
    '%s: tabs, newlines, backslashes, quotes, \\N and emoji read back equal',
    async (type) => {
      const table = `events_hostile_${type.toLowerCase()}`;
      const id = await exportTo(type, config({ table_name: table }));
      await backfill(id, 9);
      expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: HOSTILE.length });
      const rows = await rowsOf(table);
      const json = (v: unknown) => (type === 'Redshift' ? JSON.parse(v as string) : v);
      expect(rows.map((r) => ({ event: r.event, distinct_id: r.distinct_id, properties: json(r.properties) }))).toEqual(
        HOSTILE.map((e) => ({ event: e.event, distinct_id: e.distinct_id, properties: e.properties })),
      );
    },
  );

  it('Redshift: the same protocol, JSON kept as VARCHAR(65535) text, empty legacy columns', async () => {
    const id = await exportTo('Redshift', config({ table_name: 'events_rs' }));
    await backfill(id, 5);
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 3 });
    const rows = await rowsOf('events_rs');
    expect(rows.map((r) => JSON.parse(r.properties as string))).toEqual(
      RICH.map((e) => JSON.parse(JSON.stringify(e.properties).replace('\\u0000', ''))),
    );
    expect(rows[0]).toMatchObject({ set: '{"plan":"pro"}', elements: '', site_url: '', ip: '203.0.113.9' });
    const types = await pgs.query(
      "SELECT column_name, character_maximum_length AS n FROM information_schema.columns WHERE table_name = 'events_rs' AND data_type = 'character varying'",
    );
    expect(Object.fromEntries(types.map((t) => [t.column_name, t.n]))).toMatchObject({
      properties: 65535,
      set: 65535,
      set_once: 65535,
      elements: 65535,
      uuid: 200,
    });
  });
});

describe('failures', () => {
  it('a wrong password fails SCRAM authentication: the run fails once, naming it, with no password anywhere', async () => {
    const id = await exportTo('Postgres', config({ password: 'not-the-password' }));
    await backfill(id, 5);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed', records_completed: 0 });
    expect(run!.latest_error).toMatch(
      /password authentication failed for user "exporter" \(SQLSTATE 28P01\): check the user and password/,
    );
    const logs = await logText(id);
    expect(logs).not.toMatch(/Attempt 1 of 3 failed/);
    expect(logs + JSON.stringify(run)).not.toContain('not-the-password');
  });

  it('an unknown database fails with 3D000', async () => {
    const id = await exportTo('Postgres', config({ database: 'nope' }));
    await backfill(id, 5);
    expect((await runs(id))[0]!.latest_error).toMatch(/database "nope" does not exist \(SQLSTATE 3D000\)/);
  });

  it('a server that is down is retried: FailedRetryable, then the next attempt lands the interval once', async () => {
    const id = await exportTo('Postgres', config({ table_name: 'events_m' }));
    pgs.cutNextSessionAfter(300_000); // mid-run: after the first INSERT statements
    const before = pgs.sessions();
    await backfill(id, 7);
    expect((await runs(id))[0]).toMatchObject({
      status: 'Completed',
      records_total_count: 2500,
      records_completed: 2500,
    });
    expect(pgs.sessions() - before).toBe(2);
    expect(await logText(id)).toMatch(
      /Attempt 1 of 3 failed, retrying: Postgres destination .* failed while inserting batch 1: the connection was reset/,
    );
    const rows = await rowsOf('events_m');
    expect(rows.map((r) => r.uuid)).toEqual(MANY.map((e) => e.uuid));
  });

  it('a session cut with no attempt left leaves nothing of the interval; a rerun lands it once', async () => {
    const once = createScheduler({
      store: server.store,
      events: server.events,
      now: () => clock,
      runner: { ...runner, maxAttempts: 1 },
    });
    const id = await exportTo('Postgres', config({ table_name: 'events_n' }));
    pgs.cutNextSessionAfter(300_000);
    await backfill(id, 7, 8, once);
    const [failed] = await runs(id);
    expect(failed).toMatchObject({ status: 'Failed' });
    expect(failed!.latest_error).toMatch(/Nothing of this interval was kept/);
    expect(await pgs.query('SELECT count(*)::int AS n FROM public.events_n')).toEqual([{ n: 0 }]);
    await backfill(id, 7);
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 2500 });
    expect(await pgs.query('SELECT count(*)::int AS n, count(DISTINCT uuid)::int AS d FROM public.events_n')).toEqual([
      { n: 2500, d: 2500 },
    ]);
  });

  it('nothing listening: retryable, and Failed once the attempts are spent', async () => {
    const id = await exportTo('Postgres', config({ port: 1 }));
    await backfill(id, 5);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed' });
    expect(run!.latest_error).toMatch(/failed while connecting: the connection was refused/);
    expect((await logText(id)).match(/Attempt \d of 3 failed, retrying/g)).toHaveLength(2);
  });

  it('the outbound guard refuses 127.0.0.1 unless it is allowed', async () => {
    const guarded = createScheduler({
      store: server.store,
      events: server.events,
      now: () => clock,
      runner: { ...runner, allowHosts: [] },
    });
    const id = await exportTo('Postgres', config({ table_name: 'events_guarded' }));
    const sessions = pgs.sessions();
    await backfill(id, 5, 6, guarded);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed' });
    expect(run!.latest_error).toMatch(/is not allowed: 127\.0\.0\.1 is a private, loopback or link-local address/);
    expect(pgs.sessions()).toBe(sessions);
  });
});

describe('TLS and SCRAM', () => {
  const allowed = { allowHosts: ['127.0.0.1'] };

  it('has_self_signed_cert: the run lands over TLS, logged in with SCRAM-SHA-256', async () => {
    const before = pgs.log().length;
    const id = await exportTo('Postgres', config({ table_name: 'events_tls' }));
    await backfill(id, 5);
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 3 });
    expect(await logText(id)).toContain('as exporter over TLS (certificate not verified: self-signed)');
    // The server's own account of the session: TLS, and the password checked by SCRAM.
    const server = pgs.log().slice(before);
    expect(server).toMatch(/connection authenticated: identity="exporter" method=scram-sha-256/);
    expect(server).toMatch(
      /connection authorized: user=exporter database=analytics application_name=batch-export SSL enabled \(protocol=TLSv1\.[23]/,
    );
  });

  it('without has_self_signed_cert a self-signed server fails the run and the Connect step, naming TLS', async () => {
    const id = await exportTo('Postgres', config({ table_name: 'events_tls_strict', has_self_signed_cert: false }));
    const sessions = pgs.sessions();
    await backfill(id, 5);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed', records_completed: 0 });
    expect(run!.latest_error).toMatch(
      /failed while connecting: TLS: the server's certificate is self-signed \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
    );
    // A certificate that fails verification is the config's to fix: not retried, and never downgraded to plain TCP.
    expect(await logText(id)).not.toMatch(/Attempt 1 of 3 failed/);
    expect(pgs.sessions() - sessions).toBe(1);
    const check = await postgresDestination.check(config({ has_self_signed_cert: false }), allowed);
    expect(check.map((c) => `${c.step}: ${c.status}`)).toEqual([
      'Resolve host: passed',
      'Connect: failed',
      'Authenticate: skipped',
      'Create and drop a test table: skipped',
      'Table: skipped',
    ]);
    expect(check[1]!.detail).toMatch(/^TLS: the server's certificate is self-signed/);
  });

  it('a server that offers no TLS: plain TCP without the setting, refused with it', async () => {
    const plain = config({ port: pgs.plainPort, table_name: 'events_plain', has_self_signed_cert: false });
    const id = await exportTo('Postgres', plain);
    await backfill(id, 5);
    expect((await runs(id))[0]).toMatchObject({ status: 'Completed', records_completed: 3 });
    expect(await logText(id)).toContain('over plain TCP (the server offers no TLS)');
    expect((await postgresDestination.check(plain, allowed))[1]!.detail).toMatch(
      /the server offers no TLS, so the connection is plain TCP/,
    );

    const insisting = config({ port: pgs.plainPort, table_name: 'events_plain' });
    const refused = await exportTo('Postgres', insisting);
    await backfill(refused, 5);
    expect((await runs(refused))[0]!.latest_error).toMatch(
      /TLS: the server does not accept TLS connections, which a self-signed certificate setting requires/,
    );
    const check = await postgresDestination.check(insisting, allowed);
    expect(check[1]).toMatchObject({ step: 'Connect', status: 'failed' });
    expect(check[1]!.detail).toMatch(/^TLS: the server does not accept TLS/);
  });
});

describe('Test connection', () => {
  const steps = (list: { step: string; status: string }[]) => list.map((s) => `${s.step}: ${s.status}`);
  const allowed = { allowHosts: ['127.0.0.1'] };

  it('passes every step against a reachable server', async () => {
    const result = await postgresDestination.check(config({ table_name: 'events_a' }), allowed);
    expect(steps(result)).toEqual([
      'Resolve host: passed',
      'Connect: passed',
      'Authenticate: passed',
      'Create and drop a test table: passed',
      'Table: passed',
    ]);
    expect(result[1]!.detail).toMatch(/over TLS \(certificate not verified: self-signed\)/);
    expect(result[4]!.detail).toMatch(/exists with the events model's columns/);
    const left = await pgs.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name LIKE 'batch_export_check_%'",
    );
    expect(left).toEqual([{ n: 0 }]);
  });

  it('fails at Authenticate with a wrong password, at Table for a foreign table, at Resolve host for an unknown name', async () => {
    const wrong = await postgresDestination.check(config({ password: 'nope' }), allowed);
    expect(steps(wrong).slice(2)).toEqual([
      'Authenticate: failed',
      'Create and drop a test table: skipped',
      'Table: skipped',
    ]);
    expect(wrong[2]!.detail).toMatch(/password authentication failed.*28P01/);
    const foreign = await postgresDestination.check(config({ table_name: 'events_c' }), allowed);
    expect(foreign[4]).toMatchObject({ step: 'Table', status: 'failed' });
    expect(foreign[4]!.detail).toMatch(/lacks the .* model's columns/);
    const dns = await postgresDestination.check(config({ host: 'no-such-host.invalid' }), allowed);
    expect(dns[0]).toMatchObject({ step: 'Resolve host', status: 'failed' });
    expect(dns[0]!.detail).toMatch(/^DNS/);
    const refused = await postgresDestination.check(config(), {});
    expect(refused[0]!.detail).toMatch(/^Refused: 127\.0\.0\.1 is a private/);
  });

  it('a user without CREATE on the schema: the check and the run both name the permission', async () => {
    const cfg = config({ user: 'locked', password: 'locked-pass' });
    const result = await postgresDestination.check(cfg, allowed);
    expect(result[3]).toMatchObject({ step: 'Create and drop a test table', status: 'failed' });
    expect(result[3]!.detail).toMatch(/permission denied for schema public \(SQLSTATE 42501\): grant the user CREATE/);
    const id = await exportTo('Postgres', cfg);
    await backfill(id, 5);
    const [run] = await runs(id);
    expect(run).toMatchObject({ status: 'Failed' });
    expect(run!.latest_error).toMatch(/permission denied.*42501/);
    expect(await logText(id)).not.toMatch(/Attempt 1 of 3 failed/);
  });
});
