import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../../server/analytics/store/ingest-parse.ts';
import {
  bigQueryDestination,
  bigQueryMergeSql,
  bigQueryRow,
  bigQuerySchema,
  type BigQueryOptions,
} from '../../../server/batch-exports/destinations/bigquery.ts';
import { warehouseTable } from '../../../server/batch-exports/destinations/warehouse-columns.ts';
import type { RunnerOptions } from '../../../server/batch-exports/runner.ts';
import { createScheduler } from '../../../server/batch-exports/scheduler.ts';
import { createTestServer, HEDGEBOX } from '../helpers.ts';
import { exportHour as exportOne } from './export-hour.ts';
import { startBigQueryFake } from './fakes/bigquery-fake.ts';

const pem = (k: crypto.KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString();
const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const PRIVATE_KEY = pem(privateKey);
const KEY_ID = 'key-id-SECRET-7f3a';
const EMAIL = 'exporter@acme-analytics.iam.gserviceaccount.com';

const fake = startBigQueryFake({ project: 'acme-analytics', datasets: ['posthog'], clientEmail: EMAIL, publicKey });
const clock = new Date('2024-06-03T10:30:00.000Z');
const server = createTestServer({ now: () => clock });
const endpoint = await fake.ready;
const runner: RunnerOptions & BigQueryOptions = {
  retryDelayMs: 0,
  maxAttempts: 2,
  httpBatchSize: 2,
  allowHosts: ['127.0.0.1'],
  bigQueryApiEndpoint: endpoint,
};
const scheduler = createScheduler({ store: server.store, events: server.events, now: () => clock, runner });
const base = `/api/organizations/${server.orgIds[HEDGEBOX]!}/batch_exports/`;
let team = 0;

const event = (i: number, timestamp: string, properties: Record<string, unknown> = { i }): CaptureEvent => ({
  uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  event: i % 2 ? '$pageview' : 'signed_up',
  distinct_id: `user-${i % 3}`,
  timestamp: new Date(timestamp),
  properties,
  set: null,
  setOnce: null,
});

const config = (change: Record<string, unknown> = {}) => ({
  project_id: 'acme-analytics',
  dataset_id: 'posthog',
  table_id: 'events',
  private_key: PRIVATE_KEY,
  private_key_id: KEY_ID,
  client_email: EMAIL,
  token_uri: `${endpoint}/token`,
  ...change,
});

const exportHour = (destination: Record<string, unknown>, model = 'events', id?: string) =>
  exportOne(server, scheduler, base, 'BigQuery', destination, model, id);

beforeAll(async () => {
  team = (await server.get(`/api/organizations/${server.orgIds[HEDGEBOX]!}/`)).body.teams[0].id;
  await server.events.append(team, [
    event(1, '2024-06-03T05:10:00Z', { i: 1, $ip: '203.0.113.9', $set: { plan: 'pro' } }),
    event(2, '2024-06-03T05:20:00Z'),
    event(3, '2024-06-03T05:59:59Z'),
    event(4, '2024-06-03T06:00:00Z'),
    event(5, '2024-06-03T05:30:00Z', { nested: { a: [1, 2] } }),
  ]);
});
afterAll(async () => {
  await scheduler.stop();
  await server.close();
  await fake.close();
});

describe('what the BigQuery destination writes', () => {
  const events = warehouseTable('events', 'bigquery');

  it("creates the events table with production's columns (JSON kept as text)", () => {
    expect(bigQuerySchema(events).map((f) => `${f.name} ${f.type}`)).toEqual([
      'uuid STRING',
      'event STRING',
      'properties STRING',
      'elements STRING',
      'set STRING',
      'set_once STRING',
      'distinct_id STRING',
      'team_id INT64',
      'ip STRING',
      'site_url STRING',
      'timestamp TIMESTAMP',
      'bq_ingested_timestamp TIMESTAMP',
    ]);
    expect(bigQuerySchema(warehouseTable('persons', 'bigquery')).map((f) => `${f.name} ${f.type}`)).toEqual([
      'team_id INT64',
      'distinct_id STRING',
      'person_id STRING',
      'properties STRING',
      'person_version INT64',
      'person_distinct_id_version INT64',
      'created_at TIMESTAMP',
      '_inserted_at TIMESTAMP',
    ]);
  });

  it('turns an event into a row: properties as JSON text, $ip and $set lifted out', () => {
    const record = {
      uuid: 'u1',
      event: '$pageview',
      distinct_id: 'd1',
      timestamp: '2024-06-03T05:10:00.000Z',
      team_id: 7,
      properties: { $ip: '203.0.113.9', $set: { plan: 'pro' }, n: 1 },
    };
    expect(bigQueryRow(events, events.row(record, new Date('2024-06-03T07:00:00Z')))).toEqual({
      uuid: 'u1',
      event: '$pageview',
      properties: '{"$ip":"203.0.113.9","$set":{"plan":"pro"},"n":1}',
      elements: null,
      set: '{"plan":"pro"}',
      set_once: null,
      distinct_id: 'd1',
      team_id: 7,
      ip: '203.0.113.9',
      site_url: '',
      timestamp: '2024-06-03T05:10:00.000Z',
      bq_ingested_timestamp: '2024-06-03T07:00:00.000Z',
    });
  });

  it("merges on the model's key, quoting every name", () => {
    const sql = bigQueryMergeSql(warehouseTable('persons', 'bigquery'), 'p', 'd', 'my`table', 'stage_x');
    expect(sql).toContain(
      'MERGE `p`.`d`.`my\\`table` AS final\nUSING `p`.`d`.`stage_x` AS stage\nON final.`team_id` = stage.`team_id` AND final.`distinct_id` = stage.`distinct_id`',
    );
    expect(sql).toContain(
      'INSERT (`team_id`, `distinct_id`, `person_id`, `properties`, `person_version`, `person_distinct_id_version`, `created_at`, `_inserted_at`) VALUES (stage.`team_id`,',
    );
  });
});

describe('runs into BigQuery (the official client against a local stand-in)', () => {
  it("loads the interval's events once each into a created, day-partitioned table; a rerun adds nothing", async () => {
    const completedAtUpload: unknown[] = [];
    fake.state.onUpload = () =>
      completedAtUpload.push(
        server.store.db
          .prepare("SELECT records_completed FROM batch_export_runs WHERE status = 'Running'")
          .pluck()
          .get(),
      );
    const first = await exportHour(config());
    fake.state.onUpload = undefined;
    // The run's records_completed moves as each load job finishes.
    expect(completedAtUpload).toEqual([null, 2]);
    expect(first.latest, first.latest.latest_error ?? '').toMatchObject({
      status: 'Completed',
      records_completed: 4,
      records_total_count: 4,
    });
    const table = fake.state.tables.get('posthog.events')!;
    expect(table.fields.map((f) => f.name)).toEqual(
      bigQuerySchema(warehouseTable('events', 'bigquery')).map((f) => f.name),
    );
    expect(table.timePartitioning).toEqual({ type: 'DAY', field: 'timestamp' });
    const rows = () => fake.rows('posthog', 'events')!.toSorted((a, b) => String(a.uuid).localeCompare(String(b.uuid)));
    expect(rows().map((r) => r.uuid)).toEqual([1, 2, 3, 5].map((i) => event(i, '').uuid));
    expect(rows()[0]).toMatchObject({
      event: '$pageview',
      distinct_id: 'user-1',
      team_id: team,
      timestamp: '2024-06-03T05:10:00.000Z',
      ip: '203.0.113.9',
      set: '{"plan":"pro"}',
      site_url: '',
    });
    expect(JSON.parse(String(rows()[0]!.properties))).toEqual({ i: 1, $ip: '203.0.113.9', $set: { plan: 'pro' } });
    expect(JSON.parse(String(rows()[3]!.properties))).toEqual({ nested: { a: [1, 2] } });
    // Two load jobs of two records (the batch size), then one MERGE; no stage table is left.
    expect(fake.state.requests.filter((r) => r.startsWith('POST /upload/'))).toHaveLength(2);
    expect(fake.state.queries.at(-1)).toMatch(/^MERGE `acme-analytics`.`posthog`.`events` AS final/);
    expect([...fake.state.tables.keys()]).toEqual(['posthog.events']);

    const again = await exportHour(config(), 'events', first.id);
    expect(again.latest).toMatchObject({ status: 'Completed', records_completed: 4 });
    expect(rows().map((r) => r.uuid)).toEqual([1, 2, 3, 5].map((i) => event(i, '').uuid));
    expect(first.logs + again.logs).not.toContain(KEY_ID);
    expect(again.logs).not.toContain('PRIVATE KEY');
  });

  it('the persons model: one row per distinct id of the persons changed in the interval', async () => {
    const run = await exportHour(config({ table_id: 'persons' }), 'persons');
    const [{ n }] = (await server.events.all<{ n: number }>(
      `SELECT count(*)::DOUBLE AS n FROM person_distinct_ids d JOIN persons p ON p.team_id = d.team_id AND p.id = d.person_id
        WHERE p.team_id = $1 AND p.updated_at >= '2024-06-03T05:00:00Z'::TIMESTAMPTZ AND p.updated_at < '2024-06-03T06:00:00Z'::TIMESTAMPTZ`,
      [team],
    )) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
    expect(run.latest).toMatchObject({ status: 'Completed', records_completed: n });
    const rows = fake.rows('posthog', 'persons')!;
    expect(new Set(rows.map((r) => r.distinct_id)).size).toBe(n);
    expect(rows[0]).toMatchObject({
      team_id: team,
      properties: expect.stringMatching(/^\{/),
      person_version: expect.any(Number),
      person_distinct_id_version: expect.any(Number),
    });
  });

  it("a key that is not the service account's: Failed at once, naming authentication, never the key", async () => {
    const run = await exportHour(config({ table_id: 'wrong_key', private_key: pem(otherKey) }));
    expect(run.latest.status).toBe('Failed');
    expect(run.latest.latest_error).toMatch(
      /^BigQuery could not sign in as exporter@.*: authentication failed, the service account's key was refused \(invalid_grant/,
    );
    expect(run.logs).not.toMatch(/WARNING.*retrying/);
    expect(run.logs + JSON.stringify(run.runs)).not.toContain('PRIVATE KEY');
    expect(fake.rows('posthog', 'wrong_key')).toBeUndefined();
  });

  it('a dataset that does not exist: Failed at once, not found', async () => {
    const run = await exportHour(config({ dataset_id: 'missing' }));
    expect(run.latest.status).toBe('Failed');
    expect(run.latest.latest_error).toMatch(/not found \(Not found: Dataset acme-analytics:missing\)/);
    expect(run.logs).not.toMatch(/retrying/);
  });

  it('a token host that does not resolve: retried, then Failed naming DNS', async () => {
    const run = await exportHour(config({ token_uri: 'https://no-such-host.invalid/token' }));
    expect(run.latest.status).toBe('Failed');
    expect(run.latest.latest_error).toBe(
      'BigQuery could not connect: DNS: the host name does not resolve (ENOTFOUND).',
    );
    expect(run.logs).toMatch(/Attempt 1 of 2 failed, retrying/);
  });

  it('a 5xx outage is retried and the next attempt completes', async () => {
    fake.state.failNext = { status: 503, count: 1 };
    const run = await exportHour(config({ table_id: 'outage' }));
    expect(run.latest).toMatchObject({ status: 'Completed', records_completed: 4 });
    expect(run.logs).toMatch(/Attempt 1 of 2 failed, retrying: BigQuery .*answered 503/);
    expect(fake.rows('posthog', 'outage')).toHaveLength(4);
  });
});

describe('Test connection', () => {
  const options = () => ({ allowHosts: ['127.0.0.1'], bigQueryApiEndpoint: endpoint });

  it('passes each step and leaves no table behind', async () => {
    const before = [...fake.state.tables.keys()];
    const steps = await bigQueryDestination.check(config(), options());
    expect(steps.map((s) => `${s.step}: ${s.status}`)).toEqual([
      'Authenticate: passed',
      'Find the dataset: passed',
      'Create and drop a test table: passed',
    ]);
    expect([...fake.state.tables.keys()]).toEqual(before);
  });

  it('names the cause of the first failure and skips the rest', async () => {
    const noAllowList: BigQueryOptions = { bigQueryApiEndpoint: endpoint };
    const wrongKey = await bigQueryDestination.check(config({ private_key: pem(otherKey) }), options());
    expect(wrongKey.map((s) => s.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(wrongKey[0]!.detail).toMatch(
      /^Authentication failed, the service account's key was refused \(invalid_grant/,
    );
    const garbled = await bigQueryDestination.check(config({ private_key: 'not a key' }), options());
    expect(garbled[0]!.detail).toMatch(/^The private key could not be read/);
    const escaped = await bigQueryDestination.check(
      config({ private_key: PRIVATE_KEY.replaceAll('\n', '\\n') }),
      options(),
    );
    expect(escaped.map((s) => s.status)).toEqual(['passed', 'passed', 'passed']);
    const missing = await bigQueryDestination.check(config({ dataset_id: 'missing' }), options());
    expect(missing.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(missing[1]!.detail).toBe('Not found (Not found: Dataset acme-analytics:missing).');
    const blocked = await bigQueryDestination.check(config(), noAllowList);
    expect(blocked[0]!.detail).toMatch(/refused.*127\.0\.0\.1/i);
    expect(JSON.stringify([wrongKey, missing, blocked])).not.toContain('PRIVATE KEY');
  });
});
