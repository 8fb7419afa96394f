import type { EventStore } from '../analytics/store/event-store.ts';
import { inTransaction } from '../analytics/store/event-store.ts';
import { countEventProperties } from '../analytics/store/property-stats.ts';
import { fillGroups } from '../analytics/query/groups.ts';
import { ensurePersonKeysSql } from '../analytics/store/schema.ts';
import type { Store } from '../store/store.ts';
import { SEED_ORGANIZATIONS } from './data.ts';
import type { SeedProgressListener } from './progress.ts';
import {
  SEED_BROWSING,
  SEED_DROP,
  SEED_INSERT_DISTINCT_IDS,
  SEED_INSERT_EVENTS,
  SEED_INSERT_PERSONS,
  SEED_LIFECYCLE,
  SEED_MACROS,
  SEED_MATERIALIZED_PARAMS,
  SEED_PERSONS,
  SEED_SESSIONS,
  SEED_STAGE_EVENTS,
} from './events-sql.ts';

/** Demo events of the first seeded project unless `--demo-events N` / `SEED_EVENTS` say otherwise. */
export const DEFAULT_DEMO_EVENTS = 1_000_000;
export const DEMO_DAYS = 90;
/** The event store remembers that the demo events were written (so a restart never adds them twice). */
export const DEMO_EVENTS_META_KEY = 'demo_events';

export interface DemoEventsPlan {
  teamId: number;
  /** Mixed into every pseudo-random choice: each project gets its own people. */
  salt: string;
  events: number;
  persons: number;
  /** Share of persons using the mobile app (their events are `$screen`s). */
  mobileShare: number;
  host: string;
  testAccounts: number;
}

/** `--demo-events N`, else env `SEED_EVENTS`, else the default. A bad value is an error naming it. */
export function demoEventCount(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): number {
  const raw = flag ?? env.SEED_EVENTS;
  if (raw === undefined || raw === '') return DEFAULT_DEMO_EVENTS;
  if (!/^\d+$/.test(raw) || Number(raw) > 100_000_000) {
    throw new RangeError(`invalid demo event count '${raw}': expected an integer from 0 to 100000000`);
  }
  return Number(raw);
}

const SEEDED_PROJECTS: Record<string, { share: number; mobileShare: number; host: string }> = {
  'Hedgebox Web': { share: 1, mobileShare: 0.25, host: 'hedgebox.example' },
  'Hedgebox Mobile': { share: 1 / 25, mobileShare: 1, host: 'hedgebox.example' },
  'Northwind Storefront': { share: 1 / 25, mobileShare: 0.1, host: 'northwind.example' },
};

/** The first seeded project gets `total` events, the other seeded projects small sets. */
export function demoEventPlans(projects: readonly { id: number; name: string }[], total: number): DemoEventsPlan[] {
  const seededNames = new Set(SEED_ORGANIZATIONS.flatMap((o) => o.projects.map((p) => p.name)));
  const plans: DemoEventsPlan[] = [];
  for (const project of projects) {
    const shape = SEEDED_PROJECTS[project.name];
    if (!shape || !seededNames.has(project.name)) continue;
    const events = Math.round(total * shape.share);
    if (events === 0) continue;
    const persons = Math.max(1, Math.round(events * 0.03));
    plans.push({
      teamId: project.id,
      salt: `demo:${project.name}`,
      events,
      persons,
      mobileShare: shape.mobileShare,
      host: shape.host,
      testAccounts: Math.min(8, Math.max(1, Math.round(persons / 4000))),
    });
  }
  return plans;
}

/** Time slices the staged events are moved in (each sorted on its own; see SEED_INSERT_EVENTS). */
const SEED_INSERT_SLICES = 12;

/** Writes one project's demo events, persons and distinct ids (one transaction), deterministic for a given `now`. */
async function seedProject(
  events: EventStore,
  plan: DemoEventsPlan,
  now: Date,
  onWritten: (events: number) => void,
): Promise<void> {
  const nowS = now.getTime() / 1000;
  const epochDay0 = Math.floor(nowS / 86_400) - (DEMO_DAYS - 1);
  // Browsing makes most of the events: about 1.8 milestone events per person, 6.5 events a session.
  const browsing = Math.max(0, plan.events - 1.8 * plan.persons);
  const sessionsPerPerson = Math.max(1, (browsing * 1.25) / (plan.persons * 6.5));
  const params = {
    team: plan.teamId,
    salt: plan.salt,
    persons: plan.persons,
    days: DEMO_DAYS,
    day0: epochDay0 * 86_400,
    epoch_day0: epochDay0,
    now_s: nowS,
    mobile_share: plan.mobileShare,
    sessions_per_person: sessionsPerPerson,
    host: plan.host,
    test_accounts: plan.testAccounts,
  };
  const pick = (sql: string, names: readonly string[]) =>
    Object.fromEntries(Object.entries(params).filter(([k]) => names.includes(k) && new RegExp(`\\$${k}\\b`).test(sql)));
  const all = Object.keys(params);
  await events.write(async (db) => {
    for (const sql of SEED_MACROS) await db.run(sql);
    for (const sql of [SEED_PERSONS, SEED_SESSIONS, SEED_BROWSING, SEED_LIFECYCLE]) await db.run(sql, pick(sql, all));
    const [{ n }] = (await db.all<{ n: bigint | number }>('SELECT count(*) AS n FROM seed_lifecycle')) as [
      { n: bigint | number },
    ];
    const limit = Math.max(0, plan.events - Number(n));
    await db.run(SEED_STAGE_EVENTS, { limit, ...SEED_MATERIALIZED_PARAMS });
    const [range] = await db.all<{ lo: number | null; hi: number | null }>(
      'SELECT min(ts_s) AS lo, max(ts_s) AS hi FROM seed_all',
    );
    await inTransaction(db, async () => {
      const lo = Math.floor(Number(range?.lo ?? 0));
      const hi = Math.floor(Number(range?.hi ?? 0)) + 1;
      const step = Math.max(1, Math.ceil((hi - lo) / SEED_INSERT_SLICES));
      await db.run(SEED_INSERT_PERSONS, { team: plan.teamId, now_s: nowS });
      await db.run(SEED_INSERT_DISTINCT_IDS, { team: plan.teamId, now_s: nowS });
      await db.run(ensurePersonKeysSql('SELECT team_id, person_id FROM person_distinct_ids WHERE team_id = $team'), {
        team: plan.teamId,
      });
      // Each slice's count, asked once: what the progress says after writing it.
      const counts = new Map(
        (
          await db.all<{ k: number; n: bigint | number }>(
            'SELECT floor((ts_s - $lo) / $step)::INTEGER AS k, count(*) AS n FROM seed_all GROUP BY k',
            { lo, step },
          )
        ).map((r) => [Number(r.k), Number(r.n)]),
      );
      for (let from = lo, k = 0; from < hi; from += step, k++) {
        await db.run(SEED_INSERT_EVENTS, { team: plan.teamId, from_s: from, to_s: Math.min(hi, from + step) });
        onWritten(counts.get(k) ?? 0);
      }
      await countEventProperties(db, plan.teamId);
      await fillGroups(db, plan.teamId);
    });
    for (const sql of SEED_DROP) await db.run(sql);
  });
}

export interface DemoEventsResult {
  events: number;
  persons: number;
  milliseconds: number;
}

/** Seeds every plan, then records it in the store's meta table; `onProgress` hears of each slice written. */
export async function seedDemoEvents(
  events: EventStore,
  plans: readonly DemoEventsPlan[],
  now: Date,
  onProgress?: SeedProgressListener,
): Promise<DemoEventsResult> {
  const started = performance.now();
  const total = plans.reduce((sum, p) => sum + p.events, 0);
  let written = 0;
  const report = () =>
    onProgress?.({ written: Math.min(written, total), total, elapsedMs: performance.now() - started });
  report();
  for (const plan of plans) {
    await seedProject(events, plan, now, (n) => {
      written += n;
      report();
    });
  }
  await events.setMeta(
    DEMO_EVENTS_META_KEY,
    JSON.stringify({ at: now.toISOString(), plans: plans.map((p) => [p.teamId, p.events]) }),
  );
  const [row] = await events.all<{ events: bigint; persons: bigint }>(
    'SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM persons) AS persons',
  );
  return {
    events: Number(row?.events ?? 0),
    persons: Number(row?.persons ?? 0),
    milliseconds: Math.round(performance.now() - started),
  };
}

/**
 * Seeds the demo events once per data dir: when `count` > 0, they were never seeded, and the
 * store holds no events yet (a data dir that already received events is left alone).
 */
export async function ensureDemoEvents(
  store: Store,
  events: EventStore,
  options: { count: number; now: Date; onProgress?: SeedProgressListener },
): Promise<DemoEventsResult | null> {
  if (options.count <= 0) return null;
  if ((await events.getMeta(DEMO_EVENTS_META_KEY)) !== null) return null;
  const [any] = await events.all('SELECT 1 AS one FROM events LIMIT 1');
  if (any) return null;
  const projects = store.db.prepare('SELECT id, name FROM projects ORDER BY id').all() as {
    id: number;
    name: string;
  }[];
  return seedDemoEvents(events, demoEventPlans(projects, options.count), options.now, options.onProgress);
}
