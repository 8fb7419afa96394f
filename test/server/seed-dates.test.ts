import { afterAll, describe, expect, it } from 'vitest';
import { createScheduler } from '../../server/batch-exports/scheduler.ts';
import { createTestServer, HEDGEBOX, type TestServer } from './helpers.ts';

const DAY = 86_400_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** Schedules (next_run_at) lie ahead by design; migrations are dated when applied. */
const NOT_SEEDED = new Set(['batch_exports.next_run_at', 'schema_migrations.applied_at']);

/** Every ISO date stored anywhere in the store (all tables, all text columns), with where it is. */
function storedDates(server: TestServer): { where: string; ms: number }[] {
  const tables = server.store.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  const out: { where: string; ms: number }[] = [];
  for (const table of tables) {
    for (const row of server.store.db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === 'string' && ISO.test(value) && !NOT_SEEDED.has(`${table}.${column}`))
          out.push({ where: `${table}.${column} = ${value}`, ms: Date.parse(value) });
      }
    }
  }
  return out;
}

describe('seed: a demo that looks alive, dated relative to its moment', () => {
  it('dates everything within the 30 days before an injected clock', async () => {
    const now = new Date('2031-03-09T07:41:13.000Z');
    const server = createTestServer({ now: () => now });
    servers.push(server);
    const dates = storedDates(server);
    expect(dates.length).toBeGreaterThan(300);
    const outside = dates.filter((d) => d.ms > now.getTime() || d.ms < now.getTime() - 30 * DAY).map((d) => d.where);
    expect(outside).toEqual([]);

    // The first screens: the newest insight and its activity hours old, the active export's last run within the hour.
    const insights = (await server.get('/api/projects/1/insights/?order=-created_at&limit=1')).body.results as {
      created_at: string;
    }[];
    expect(now.getTime() - Date.parse(insights[0]!.created_at)).toBeLessThan(6 * 3_600_000);
    const activity = server.store.db.prepare('SELECT max(created_at) FROM activity_log').pluck().get() as string;
    expect(now.getTime() - Date.parse(activity)).toBeLessThan(6 * 3_600_000);
    const exports = (await server.get(`/api/organizations/${server.orgIds[HEDGEBOX]}/batch_exports/`)).body.results as {
      name: string;
      paused: boolean;
      latest_runs: { status: string; data_interval_end: string }[];
    }[];
    const active = exports.filter((e) => !e.paused);
    expect(active.map((e) => e.name)).toEqual(['Hourly export check']);
    expect(now.getTime() - Date.parse(active[0]!.latest_runs[0]!.data_interval_end)).toBeLessThan(2 * 3_600_000);
    expect(active[0]!.latest_runs.every((r) => r.status === 'Completed')).toBe(true);
  });

  it('a data dir seeded days ago catches up when the server starts: the latest run is current', async () => {
    const now = new Date('2031-03-09T07:41:13.000Z');
    const server = createTestServer({ now: () => now, seedNow: new Date(now.getTime() - 3 * DAY) });
    servers.push(server);
    const scheduler = createScheduler({
      store: server.store,
      events: server.events,
      now: () => now,
      runner: { retryDelayMs: 0 },
    });
    await scheduler.tick();
    const exports = (await server.get(`/api/organizations/${server.orgIds[HEDGEBOX]}/batch_exports/`)).body.results as {
      id: string;
      paused: boolean;
      latest_runs: { status: string; data_interval_end: string }[];
    }[];
    const active = exports.find((e) => !e.paused)!;
    expect(active.latest_runs[0]).toMatchObject({ status: 'Completed', data_interval_end: '2031-03-09T07:00:00.000Z' });
    const logs = server.store.db
      .prepare("SELECT message FROM batch_export_logs WHERE batch_export_id = ? AND level = 'WARNING'")
      .pluck()
      .all(active.id);
    expect(logs).toEqual([expect.stringMatching(/^Skipped \d+ missed intervals/)]);
  });
});
