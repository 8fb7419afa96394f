import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../../server/analytics/store/ingest-parse.ts';
import {
  snowflakeCreateTableSql,
  snowflakeDestination,
  snowflakeMergeSql,
  snowflakeRow,
  type SnowflakeOptions,
} from '../../../server/batch-exports/destinations/snowflake.ts';
import { warehouseTable } from '../../../server/batch-exports/destinations/warehouse-columns.ts';
import type { RunnerOptions } from '../../../server/batch-exports/runner.ts';
import { createScheduler } from '../../../server/batch-exports/scheduler.ts';
import { createTestServer, HEDGEBOX } from '../helpers.ts';
import { exportHour as exportOne } from './export-hour.ts';
import { startSnowflakeFake } from './fakes/snowflake-fake.ts';

const PASSWORD = 'snow-SECRET-password-91';
const fake = startSnowflakeFake({
  user: 'EXPORTER',
  password: PASSWORD,
  warehouses: ['COMPUTE_WH'],
  databases: { ANALYTICS: ['PUBLIC', 'POSTHOG'] },
});
const accessUrl = await fake.ready;
const clock = new Date('2024-06-03T10:30:00.000Z');
const server = createTestServer({ now: () => clock });
const runner: RunnerOptions & SnowflakeOptions = {
  retryDelayMs: 0,
  maxAttempts: 2,
  httpBatchSize: 2,
  allowHosts: ['127.0.0.1'],
  snowflakeAccessUrl: accessUrl,
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
  account: 'acme-xy12345',
  user: 'EXPORTER',
  password: PASSWORD,
  database: 'ANALYTICS',
  warehouse: 'COMPUTE_WH',
  schema: 'POSTHOG',
  table_name: 'events',
  role: null,
  ...change,
});

const exportHour = (destination: Record<string, unknown>, model = 'events', id?: string) =>
  exportOne(server, scheduler, base, 'Snowflake', destination, model, id);

beforeAll(async () => {
  team = (await server.get(`/api/organizations/${server.orgIds[HEDGEBOX]!}/`)).body.teams[0].id;
  await server.events.append(team, [
    event(1, '2024-06-03T05:10:00Z', { i: 1, $ip: '203.0.113.9', $set_once: { first: 'ad' } }),
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

describe('what the Snowflake destination writes', () => {
  const events = warehouseTable('events', 'snowflake');

  it("creates the events table with production's columns, JSON as VARIANT, only when missing", () => {
    expect(snowflakeCreateTableSql(events, 'my"events')).toBe(
      'CREATE TABLE IF NOT EXISTS "my""events" ("uuid" STRING, "event" STRING, "properties" VARIANT, "elements" VARIANT, "people_set" VARIANT, ' +
        '"people_set_once" VARIANT, "distinct_id" STRING, "team_id" INTEGER, "ip" STRING, "site_url" STRING, "timestamp" TIMESTAMP) COMMENT = \'Created by a batch export\'',
    );
    expect(snowflakeCreateTableSql(warehouseTable('persons', 'snowflake'), 'persons')).toBe(
      'CREATE TABLE IF NOT EXISTS "persons" ("team_id" INTEGER, "distinct_id" STRING, "person_id" STRING, "properties" VARIANT, "person_version" INTEGER, ' +
        '"person_distinct_id_version" INTEGER, "created_at" TIMESTAMP, "_inserted_at" TIMESTAMP) COMMENT = \'Created by a batch export\'',
    );
  });

  it('stages an event as a JSON line whose VARIANT columns are objects', () => {
    const record = {
      uuid: 'u1',
      event: '$pageview',
      distinct_id: 'd1',
      timestamp: '2024-06-03T05:10:00.000Z',
      team_id: 7,
      properties: { $set: { plan: 'pro' }, n: 1 },
    };
    expect(snowflakeRow(events, events.row(record, new Date()))).toEqual({
      uuid: 'u1',
      event: '$pageview',
      properties: { $set: { plan: 'pro' }, n: 1 },
      elements: null,
      people_set: { plan: 'pro' },
      people_set_once: null,
      distinct_id: 'd1',
      team_id: 7,
      ip: null,
      site_url: '',
      timestamp: '2024-06-03T05:10:00.000Z',
    });
  });

  it('merges persons on team and distinct id', () => {
    expect(snowflakeMergeSql(warehouseTable('persons', 'snowflake'), 'persons', 'stage_p')).toMatch(
      /^MERGE INTO "persons" AS final USING "stage_p" AS stage\nON final."team_id" = stage."team_id" AND final."distinct_id" = stage."distinct_id"\nWHEN MATCHED THEN UPDATE SET final."team_id" = stage."team_id", /,
    );
  });
});

describe('runs into Snowflake (the official driver against a local stand-in)', () => {
  it("PUTs and copies the interval's events once each into a created table; a rerun adds nothing", async () => {
    const first = await exportHour(config());
    expect(first.latest, first.latest.latest_error ?? '').toMatchObject({
      status: 'Completed',
      records_completed: 4,
      records_total_count: 4,
    });
    const table = fake.state.tables.get('ANALYTICS.POSTHOG.events')!;
    expect(table.columns.map((c) => `${c.name} ${c.type}`)).toEqual([
      'uuid STRING',
      'event STRING',
      'properties VARIANT',
      'elements VARIANT',
      'people_set VARIANT',
      'people_set_once VARIANT',
      'distinct_id STRING',
      'team_id INTEGER',
      'ip STRING',
      'site_url STRING',
      'timestamp TIMESTAMP',
    ]);
    const rows = () =>
      fake.rows('ANALYTICS.POSTHOG.events')!.toSorted((a, b) => String(a.uuid).localeCompare(String(b.uuid)));
    expect(rows().map((r) => r.uuid)).toEqual([1, 2, 3, 5].map((i) => event(i, '').uuid));
    expect(rows()[0]).toEqual({
      uuid: event(1, '').uuid,
      event: '$pageview',
      distinct_id: 'user-1',
      team_id: team,
      timestamp: '2024-06-03T05:10:00.000Z',
      properties: { i: 1, $ip: '203.0.113.9', $set_once: { first: 'ad' } },
      elements: null,
      people_set: null,
      people_set_once: { first: 'ad' },
      ip: '203.0.113.9',
      site_url: '',
    });
    expect(rows()[3]!.properties).toEqual({ nested: { a: [1, 2] } });
    const kinds = fake.state.statements.map((s) => /^\w+( INTO| TABLE| \w+)?/.exec(s)![0]);
    expect(kinds).toEqual([
      'USE WAREHOUSE',
      'USE DATABASE',
      'USE SCHEMA',
      'CREATE TABLE',
      'DROP TABLE',
      'CREATE TABLE',
      'PUT',
      'PUT',
      'COPY INTO',
      'MERGE INTO',
      'DROP TABLE',
    ]);
    expect([...fake.state.tables.keys()]).toEqual(['ANALYTICS.POSTHOG.events']);

    const again = await exportHour(config(), 'events', first.id);
    expect(again.latest).toMatchObject({ status: 'Completed', records_completed: 4 });
    expect(rows().map((r) => r.uuid)).toEqual([1, 2, 3, 5].map((i) => event(i, '').uuid));
    expect(first.logs + again.logs + fake.state.statements.join('\n')).not.toContain(PASSWORD);
    expect(fs.readdirSync(process.cwd())).not.toContain('snowflake.log');
  });

  it('the persons model: one row per distinct id of the persons changed in the interval', async () => {
    const run = await exportHour(config({ table_name: 'persons' }), 'persons');
    const [{ n }] = (await server.events.all<{ n: number }>(
      `SELECT count(*)::DOUBLE AS n FROM person_distinct_ids d JOIN persons p ON p.team_id = d.team_id AND p.id = d.person_id
        WHERE p.team_id = $1 AND p.updated_at >= '2024-06-03T05:00:00Z'::TIMESTAMPTZ AND p.updated_at < '2024-06-03T06:00:00Z'::TIMESTAMPTZ`,
      [team],
    )) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
    expect(run.latest).toMatchObject({ status: 'Completed', records_completed: n });
    const rows = fake.rows('ANALYTICS.POSTHOG.persons')!;
    expect(new Set(rows.map((r) => r.distinct_id)).size).toBe(n);
    expect(rows[0]).toMatchObject({
      team_id: team,
      properties: expect.any(Object),
      person_version: expect.any(Number),
      person_distinct_id_version: expect.any(Number),
    });
  });

  it('a wrong password: Failed at once, naming the login failure, never the password', async () => {
    const run = await exportHour(config({ table_name: 'wrong_password', password: 'not-it' }));
    expect(run.latest.status).toBe('Failed');
    expect(run.latest.latest_error).toBe(
      'Snowflake could not connect to account acme-xy12345: authentication failed (Incorrect username or password was specified. 390100).',
    );
    expect(run.logs).not.toMatch(/retrying/);
    expect(run.logs + JSON.stringify(run.runs)).not.toContain('not-it');
    expect(fake.rows('ANALYTICS.POSTHOG.wrong_password')).toBeUndefined();
  });

  it('a database that does not exist: Failed at once, saying so', async () => {
    const run = await exportHour(config({ database: 'MISSING' }));
    expect(run.latest.status).toBe('Failed');
    expect(run.latest.latest_error).toBe(
      'Snowflake could not use the warehouse, database and schema: SQL compilation error: Object does not exist, or operation cannot be performed. (002043).',
    );
    expect(run.logs).not.toMatch(/retrying/);
  });

  it('a host that does not resolve: retried, then Failed naming DNS', async () => {
    runner.snowflakeAccessUrl = 'http://no-such-host.invalid:1';
    try {
      const run = await exportHour(config());
      expect(run.latest.status).toBe('Failed');
      expect(run.latest.latest_error).toBe(
        'Snowflake could not connect to account acme-xy12345: DNS: the host name does not resolve (ENOTFOUND).',
      );
      expect(run.logs).toMatch(/Attempt 1 of 2 failed, retrying/);
    } finally {
      runner.snowflakeAccessUrl = accessUrl;
    }
  });

  it('a 5xx answer to the login is retried and the next attempt completes', async () => {
    fake.state.failNextLogin = { status: 503, count: 1 };
    const run = await exportHour(config({ table_name: 'outage' }));
    expect(run.latest).toMatchObject({ status: 'Completed', records_completed: 4 });
    expect(run.logs).toMatch(
      /Attempt 1 of 2 failed, retrying: Snowflake could not connect to account acme-xy12345: answered 503/,
    );
    expect(fake.rows('ANALYTICS.POSTHOG.outage')).toHaveLength(4);
  });
});

describe('Test connection', () => {
  const options = () => ({ allowHosts: ['127.0.0.1'], snowflakeAccessUrl: accessUrl });

  it('passes each step and leaves no table behind', async () => {
    const before = [...fake.state.tables.keys()];
    const steps = await snowflakeDestination.check(config(), options());
    expect(steps.map((s) => `${s.step}: ${s.status}`)).toEqual([
      'Connect and log in: passed',
      'Use the warehouse, database and schema: passed',
      'Create and drop a test table: passed',
    ]);
    expect([...fake.state.tables.keys()]).toEqual(before);
  });

  it('names the cause of the first failure and skips the rest', async () => {
    const noAllowList: SnowflakeOptions = { snowflakeAccessUrl: accessUrl };
    const wrong = await snowflakeDestination.check(config({ password: 'not-it' }), options());
    expect(wrong.map((s) => s.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(wrong[0]!.detail).toBe('Authentication failed (Incorrect username or password was specified. 390100).');
    const missing = await snowflakeDestination.check(config({ warehouse: 'NOPE' }), options());
    expect(missing.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(missing[1]!.detail).toMatch(/Object does not exist/);
    const blocked = await snowflakeDestination.check(config(), noAllowList);
    expect(blocked[0]!.detail).toMatch(/^Refused, 127\.0\.0\.1 is a private/);
    expect(JSON.stringify([wrong, missing, blocked])).not.toContain(PASSWORD);
  });
});
