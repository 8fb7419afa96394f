import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore, type EventStore } from '../../server/analytics/store/event-store.ts';
import { analyticsProject } from '../../server/analytics/project.ts';
import { demoEventCount, demoEventPlans, seedDemoEvents, DEFAULT_DEMO_EVENTS } from '../../server/seed/events.ts';
import { createTestServerWithEvents } from './helpers.ts';

const NOW = new Date('2025-06-18T12:34:56.000Z');
const PROJECTS = [
  { id: 1, name: 'Hedgebox Web' },
  { id: 2, name: 'Hedgebox Mobile' },
  { id: 3, name: 'Northwind Storefront' },
  { id: 4, name: 'Mine' },
];
const N = 30_000;
let a: EventStore;
let b: EventStore;

/** Everything that identifies the seeded data, as one digest per table. */
const fingerprint = (store: EventStore) =>
  store.all<{ events: string; persons: string; ids: string }>(`SELECT
  (SELECT md5(string_agg(concat_ws('|', uuid, team_id, event, distinct_id, epoch_ms(timestamp), properties), ',' ORDER BY uuid)) FROM events) AS events,
  (SELECT md5(string_agg(concat_ws('|', id, team_id, properties, is_identified), ',' ORDER BY id)) FROM persons) AS persons,
  (SELECT md5(string_agg(concat_ws('|', team_id, distinct_id, person_id), ',' ORDER BY distinct_id)) FROM person_distinct_ids) AS ids`);

beforeAll(async () => {
  a = createEventStore(':memory:');
  b = createEventStore(':memory:');
  await seedDemoEvents(a, demoEventPlans(PROJECTS, N), NOW);
  await seedDemoEvents(b, demoEventPlans(PROJECTS, N), NOW);
  // Two seeds take 7 s on an idle two-core machine: a busy one needs more than the default 10 s.
}, 60_000);
afterAll(async () => {
  await a.close();
  await b.close();
});

const one = async <T>(store: EventStore, sql: string, params: unknown[] = []) => (await store.all<T>(sql, params))[0]!;

describe('demo events', () => {
  it('are the same twice: same ids, times, properties and persons', async () => {
    expect(await fingerprint(a)).toEqual(await fingerprint(b));
  });

  it('give the first project about N events over the 90 days before the clock, the other seeded projects small sets', async () => {
    const rows = await a.all<{ team_id: number; n: number; first: Date; last: Date }>(
      'SELECT team_id, count(*)::INTEGER AS n, min(timestamp) AS first, max(timestamp) AS last FROM events GROUP BY team_id ORDER BY team_id',
    );
    expect(rows.map((r) => r.team_id)).toEqual([1, 2, 3]);
    expect(rows[0]!.n).toBe(N);
    expect(rows[1]!.n).toBeGreaterThan(N / 40);
    expect(rows[1]!.n).toBeLessThan(N / 15);
    for (const r of rows) {
      expect(r.last.getTime()).toBeLessThanOrEqual(NOW.getTime());
      expect(r.first.getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 90 * 86_400_000);
    }
    const persons = await one<{ n: number }>(a, 'SELECT count(*)::INTEGER AS n FROM persons WHERE team_id = 1');
    expect(persons.n).toBeGreaterThan(N * 0.025);
    expect(persons.n).toBeLessThanOrEqual(N * 0.03);
  });

  it('look like a product: the events, properties and a funnel that converts partially', async () => {
    const names = (
      await a.all<{ event: string }>('SELECT DISTINCT event FROM events WHERE team_id = 1 ORDER BY event')
    ).map((r) => r.event);
    expect(names).toEqual([
      '$groupidentify',
      '$identify',
      '$pageleave',
      '$pageview',
      '$screen',
      'Application Opened',
      'created project',
      'invited teammate',
      'purchase',
      'user signed up',
    ]);
    const pv = await one<{ urls: number; props: number }>(
      a,
      `SELECT count(DISTINCT json_extract_string(properties, '$."$current_url"'))::INTEGER AS urls,
      count(*) FILTER (WHERE json_extract_string(properties, '$."$pathname"') IS NOT NULL AND json_extract_string(properties, '$."$browser"') IS NOT NULL AND json_extract_string(properties, '$."$session_id"') IS NOT NULL
        AND json_extract_string(properties, '$."$os"') IS NOT NULL AND json_extract_string(properties, '$."$device_type"') IS NOT NULL AND json_extract_string(properties, '$."$geoip_country_code"') IS NOT NULL)::INTEGER
        - count(*)::INTEGER AS props FROM events WHERE team_id = 1 AND event = '$pageview'`,
    );
    expect(pv).toEqual({ urls: expect.any(Number), props: 0 });
    expect(pv.urls).toBeGreaterThanOrEqual(8);
    const screens = await one<{ n: number }>(
      a,
      `SELECT count(DISTINCT json_extract_string(properties, '$."$screen_name"'))::INTEGER AS n FROM events WHERE team_id = 1 AND event = '$screen'`,
    );
    expect(screens.n).toBeGreaterThanOrEqual(4);
    const revenue = await one<{ bad: number }>(
      a,
      `SELECT count(*) FILTER (WHERE NOT (CAST(json_extract_string(properties, '$."revenue"') AS DOUBLE) > 0))::INTEGER AS bad FROM events WHERE event = 'purchase'`,
    );
    expect(revenue.bad).toBe(0);
    const funnel = await a.all<{
      event: string;
      persons: number;
    }>(`SELECT e.event, count(DISTINCT pdi.person_id)::INTEGER AS persons FROM events e
      JOIN person_distinct_ids pdi ON pdi.team_id = e.team_id AND pdi.distinct_id = e.distinct_id
      WHERE e.team_id = 1 AND e.event IN ('$pageview', 'user signed up', 'created project', 'invited teammate', 'purchase') GROUP BY 1 ORDER BY 2 DESC`);
    expect(funnel.map((f) => f.event)).toEqual([
      '$pageview',
      'user signed up',
      'created project',
      'invited teammate',
      'purchase',
    ]);
    for (let i = 1; i < funnel.length; i++) expect(funnel[i]!.persons / funnel[i - 1]!.persons).toBeLessThan(0.9);
  });

  it('attribute every event to a person; anonymous events before sign-up follow the identified person', async () => {
    const orphans = await one<{ n: number }>(
      a,
      `SELECT count(*)::INTEGER AS n FROM events e LEFT JOIN person_distinct_ids pdi
      ON pdi.team_id = e.team_id AND pdi.distinct_id = e.distinct_id WHERE pdi.person_id IS NULL`,
    );
    expect(orphans.n).toBe(0);
    const merged = await one<{ n: number }>(
      a,
      `SELECT count(*)::INTEGER AS n FROM (SELECT person_id FROM person_distinct_ids WHERE team_id = 1 GROUP BY 1 HAVING count(*) = 2)`,
    );
    expect(merged.n).toBeGreaterThan(100);
    const plans = await a.all<{ plan: string }>(
      `SELECT DISTINCT json_extract_string(properties, '$."plan"') AS plan FROM persons WHERE team_id = 1 AND json_extract_string(properties, '$."plan"') IS NOT NULL ORDER BY 1`,
    );
    expect(plans.map((p) => p.plan)).toEqual(['enterprise', 'free', 'pro']);
    const testAccounts = await one<{ n: number }>(
      a,
      `SELECT count(*)::INTEGER AS n FROM persons WHERE team_id = 1 AND json_extract_string(properties, '$."email"') LIKE '%@hedgebox.example'`,
    );
    expect(testAccounts.n).toBeGreaterThanOrEqual(1);
    expect(testAccounts.n).toBeLessThanOrEqual(8);
  });

  it('put known persons in companies: their events name the company, which has a name, plan and employees', async () => {
    const types = await a.all<{ t: string }>(
      'SELECT group_type AS t FROM group_types WHERE team_id = 1 ORDER BY group_type_index',
    );
    expect(types.map((r) => r.t)).toEqual(['company']);
    const companies = await a.all<{ k: string; p: string }>(
      'SELECT group_key AS k, properties::VARCHAR AS p FROM groups WHERE team_id = 1',
    );
    expect(companies.length).toBeGreaterThan(10);
    for (const c of companies) {
      expect(Object.keys(JSON.parse(c.p) as object).sort()).toEqual(['employees', 'name', 'plan']);
    }
    expect(companies.map((c) => c.k)).toContain('acme');
    // Events of identified persons carry the company; anonymous ones do not.
    const r = await one<{ known: number; anon: number }>(
      a,
      `SELECT
      count(*) FILTER (WHERE distinct_id LIKE '%@%' AND json_extract_string(properties, '/$groups/company') IS NULL)::INTEGER AS known,
      count(*) FILTER (WHERE distinct_id NOT LIKE '%@%' AND json_extract_string(properties, '/$groups/company') IS NOT NULL)::INTEGER AS anon
      FROM events WHERE team_id = 1`,
    );
    expect(r).toEqual({ known: 0, anon: 0 });
  });

  it('have a weekly rhythm: fewer events per weekend day than per weekday', async () => {
    const r = await one<{ weekend: number; weekday: number }>(
      a,
      `SELECT
      count(*) FILTER (WHERE dayofweek(timestamp) IN (0, 6)) / count(DISTINCT CAST(timestamp AS DATE)) FILTER (WHERE dayofweek(timestamp) IN (0, 6)) AS weekend,
      count(*) FILTER (WHERE dayofweek(timestamp) NOT IN (0, 6)) / count(DISTINCT CAST(timestamp AS DATE)) FILTER (WHERE dayofweek(timestamp) NOT IN (0, 6)) AS weekday
      FROM events WHERE team_id = 1`,
    );
    expect(r.weekend).toBeLessThan(r.weekday * 0.75);
  });

  it('count comes from --demo-events, else SEED_EVENTS, else a million', () => {
    expect(demoEventCount(undefined, {})).toBe(DEFAULT_DEMO_EVENTS);
    expect(demoEventCount(undefined, { SEED_EVENTS: '0' })).toBe(0);
    expect(demoEventCount('500', { SEED_EVENTS: '0' })).toBe(500);
    expect(() => demoEventCount('many', {})).toThrow(/invalid demo event count 'many'/);
  });
});

describe('a test server with demo events', () => {
  let server: Awaited<ReturnType<typeof createTestServerWithEvents>>;
  afterAll(() => server.close());
  it('seeds them once into its data dir, and the project carries its test-account filters', async () => {
    server = await createTestServerWithEvents({ demoEvents: 2000, seedNow: NOW });
    expect(server.seeded?.events).toBeGreaterThan(2000);
    const project = analyticsProject(server.store, 1);
    expect(project).toEqual({
      id: 1,
      timezone: 'UTC',
      week_start_day: 0,
      test_account_filters: [{ key: 'email', value: '@hedgebox.example', operator: 'not_icontains', type: 'person' }],
    });
    expect(analyticsProject(server.store, 2)).toMatchObject({ timezone: 'Europe/London', week_start_day: 1 });
    expect(analyticsProject(server.store, 999)).toBeUndefined();
    const res = await server.get('/api/projects/1/');
    expect(res.body.test_account_filters).toEqual(project!.test_account_filters);
  });
});
