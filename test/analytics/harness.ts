import { createHash } from 'node:crypto';
import { openEventDb } from '../../server/analytics/store/duckdb.ts';
import type { EventDb, SqlRunner } from '../../server/analytics/store/db-types.ts';
import { FILL_PERSON_KEYS } from '../../server/analytics/store/schema.ts';
import { fillGroups } from '../../server/analytics/query/groups.ts';
import type { AnalyticsProject, QueryContext, ReferenceEvent } from '../../server/analytics/types.ts';

/**
 * An in-memory event store (DuckDB with the real schema) loaded with reference events, and the
 * QueryContext an engine runs against. Shared by the trends and funnels tests.
 */
export interface Harness {
  ctx: QueryContext;
  db: EventDb;
  /** Replaces the events (and persons) of the project. */
  load(events: readonly ReferenceEvent[]): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_PROJECT: AnalyticsProject = {
  id: 1,
  timezone: 'UTC',
  week_start_day: 0,
  test_account_filters: [],
};

const CHUNK = 200;

/** Anything that runs a statement with bound parameters (EventDb, EventStore). */
export interface StatementRunner {
  run(sql: string, params?: readonly unknown[]): Promise<void>;
}

async function insertRows(
  db: StatementRunner,
  table: string,
  columns: string[],
  casts: string[],
  rows: unknown[][],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const refs = row.map((value, j) => {
        params.push(value);
        return `CAST($${params.length} AS ${casts[j]})`;
      });
      return `(${refs.join(', ')})`;
    });
    await db.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The stored id of a test person: person ids are UUIDs in the store, while tests name persons
 * ('alice', 'p3'); a name maps to a fixed UUID (one name, one UUID), a UUID stays itself.
 */
export function personUuid(id: string): string {
  if (UUID.test(id)) return id;
  const hex = createHash('md5').update(`test-person:${id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export async function loadEvents(
  db: StatementRunner & SqlRunner,
  teamId: number,
  events: readonly ReferenceEvent[],
): Promise<void> {
  await db.run('DELETE FROM events WHERE team_id = $1', [teamId]);
  await db.run('DELETE FROM persons WHERE team_id = $1', [teamId]);
  await db.run('DELETE FROM person_distinct_ids WHERE team_id = $1', [teamId]);
  await db.run('DELETE FROM person_overrides WHERE team_id = $1', [teamId]);
  await db.run('DELETE FROM person_keys WHERE team_id = $1', [teamId]);
  await db.run('DELETE FROM group_types WHERE team_id = $1', [teamId]);
  await db.run('DELETE FROM groups WHERE team_id = $1', [teamId]);
  const persons = new Map<string, Record<string, unknown>>();
  const distinctIds = new Map<string, string>();
  for (const e of events) {
    persons.set(e.person_id, e.person_properties);
    distinctIds.set(e.distinct_id, e.person_id);
  }
  // Every event stores its distinct id's final person: the reference's "person now".
  await insertRows(
    db,
    'events',
    ['uuid', 'team_id', 'event', 'distinct_id', 'person_id', 'timestamp', 'properties'],
    ['UUID', 'INTEGER', 'VARCHAR', 'VARCHAR', 'UUID', 'TIMESTAMPTZ', 'JSON'],
    events.map((e) => [
      e.uuid,
      teamId,
      e.event,
      e.distinct_id,
      personUuid(distinctIds.get(e.distinct_id)!),
      new Date(e.timestamp).toISOString(),
      JSON.stringify(e.properties),
    ]),
  );
  await insertRows(
    db,
    'persons',
    ['id', 'team_id', 'properties', 'created_at'],
    ['UUID', 'INTEGER', 'JSON', 'TIMESTAMPTZ'],
    [...persons].map(([id, props]) => [personUuid(id), teamId, JSON.stringify(props), '2020-01-01T00:00:00Z']),
  );
  await insertRows(
    db,
    'person_distinct_ids',
    ['team_id', 'distinct_id', 'person_id'],
    ['INTEGER', 'VARCHAR', 'UUID'],
    [...distinctIds].map(([distinctId, personId]) => [teamId, distinctId, personUuid(personId)]),
  );
  // Written around the store's append: the events get their person keys as a bulk writer's do.
  for (const sql of FILL_PERSON_KEYS) await db.run(sql);
  await fillGroups(db, teamId);
}

/** A fresh in-memory store for `project` (UTC, weeks from Sunday, no test filters by default). */
export async function createHarness(
  project: Partial<AnalyticsProject> = {},
  now = new Date('2024-04-01T12:00:00Z'),
): Promise<Harness> {
  const db = await openEventDb(':memory:');
  const full: AnalyticsProject = { ...DEFAULT_PROJECT, ...project };
  const ctx: QueryContext = { db, project: full, now };
  return {
    ctx,
    db,
    load: (events) => loadEvents(db, full.id, events),
    close: () => db.close(),
  };
}
