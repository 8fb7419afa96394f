import { GROUP_TYPE_INDEX_MAX } from '../../../src/contract/analytics-filters.ts';
import type { FunnelGroupActor } from '../../../src/contract/persons.ts';
import { AnalyticsParamError } from '../errors.ts';
import { jsonPointer, propertyTextOf, type SqlParams } from './properties.ts';
import type { QueryContext } from '../types.ts';
import type { SqlRunner } from '../store/db-types.ts';

/**
 * Groups (docs/api.md, "Groups"). An event's `$groups` property maps a group type to the key of
 * its group (`{"company": "acme"}`); a `$groupidentify` event (`$group_type`, `$group_key`,
 * `$group_set`) sets a group's properties. Kept in the event store:
 *   group_types (team_id, group_type, group_type_index): a project's types, numbered 0–4 in the
 *                order first seen (by event time; ties by name); later types are not kept.
 *   groups      (team_id, group_type_index, group_key, key, properties, created_at): every group
 *                an event names, with an integer key unique in the store (what funnels and
 *                retention group by, as persons' keys) and its properties: the `$group_set`s of
 *                its `$groupidentify` events merged in time order (then uuid), later values winning.
 * Each event also stores the integer key of its group of each type (`events.group_0` …
 * `group_4`, from its `$groups`): analyses aggregate and join on these, as persons' on
 * `person_key`, without reading the event's JSON. The append path records the groups and
 * writes the keys with the events ({@link recordGroups}, {@link eventGroupKeys}); bulk writers
 * call {@link fillGroups} once their events are in.
 */

/** The events' group key columns, by type index (fixed names: only these become SQL text). */
export const GROUP_KEY_COLUMNS = ['group_0', 'group_1', 'group_2', 'group_3', 'group_4'] as const;

/** SQL of event `e`'s group key column of type `index` (INTEGER, NULL without such a group). */
export function groupKeyColumn(index: number, alias = 'e'): string {
  const column = GROUP_KEY_COLUMNS[index];
  if (column === undefined) throw new Error(`no group type ${index}`);
  return `${alias}.${column}`;
}

export const GROUPS_DDL = [
  `CREATE TABLE IF NOT EXISTS group_types (
     team_id INTEGER NOT NULL,
     group_type VARCHAR NOT NULL,
     group_type_index INTEGER NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS groups (
     team_id INTEGER NOT NULL,
     group_type_index INTEGER NOT NULL,
     group_key VARCHAR NOT NULL,
     key INTEGER NOT NULL,
     properties JSON NOT NULL DEFAULT '{}',
     created_at TIMESTAMPTZ NOT NULL
   )`,
];

/** The store's tables that hold a project's groups (purged with its events). */
export const GROUP_TABLES = ['group_types', 'groups'] as const;

/** Runs statements (the writer connection, or the store in tests). */
interface Db {
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  run(sql: string, params?: readonly unknown[]): Promise<void>;
}

/** A group's integer key by its type and key (`JSON.stringify([type, key])`), as {@link recordGroups} gives them. */
export type GroupKeys = ReadonlyMap<string, { index: number; key: number }>;

/** An event's group key columns' values (index i: its `$groups` group of type i), from `keys`. */
export function eventGroupKeys(properties: Record<string, unknown>, keys: GroupKeys): (number | null)[] {
  const out: (number | null)[] = GROUP_KEY_COLUMNS.map(() => null);
  for (const g of groupsOfEvent('', properties)) {
    const k = keys.get(JSON.stringify([g.type, g.key]));
    if (k) out[k.index] = k.key;
  }
  return out;
}

/** One group named by events: its type, key and the earliest time an event named it (ms). */
export interface GroupSighting {
  type: string;
  key: string;
  first: number;
}

export const GROUP_IDENTIFY = '$groupidentify';

/** The groups one event names: its `$groups` entries, and the group a `$groupidentify` identifies. */
export function groupsOfEvent(event: string, properties: Record<string, unknown>): { type: string; key: string }[] {
  const out: { type: string; key: string }[] = [];
  const groups = properties.$groups;
  if (groups !== null && typeof groups === 'object' && !Array.isArray(groups)) {
    for (const type of Object.keys(groups)) {
      const key = propertyTextOf(groups as Record<string, unknown>, type);
      if (key !== null && key !== '') out.push({ type, key });
    }
  }
  if (event === GROUP_IDENTIFY) {
    const type = propertyTextOf(properties, '$group_type');
    const key = propertyTextOf(properties, '$group_key');
    if (type !== null && type !== '' && key !== null && key !== '') out.push({ type, key });
  }
  return out;
}

/** The sightings of events given in TypeScript (an append). */
export function sightingsOf(
  events: readonly { event: string; timestamp: Date; properties: Record<string, unknown> }[],
): { sightings: GroupSighting[]; identified: boolean } {
  const byPair = new Map<string, GroupSighting>();
  let identified = false;
  for (const e of events) {
    if (e.event === GROUP_IDENTIFY) identified = true;
    for (const g of groupsOfEvent(e.event, e.properties)) {
      const id = JSON.stringify([g.type, g.key]);
      const seen = byPair.get(id);
      if (!seen) byPair.set(id, { ...g, first: e.timestamp.getTime() });
      else seen.first = Math.min(seen.first, e.timestamp.getTime());
    }
  }
  return { sightings: [...byPair.values()], identified };
}

/**
 * Stores the types and groups of `sightings` that the project does not have yet: new types
 * take the next indexes (while there are any), ordered by their first sighting then name; new
 * groups the next integer keys. Returns the keys of the sighted groups (of kept types).
 */
export async function recordGroups(db: Db, teamId: number, sightings: readonly GroupSighting[]): Promise<GroupKeys> {
  const out = new Map<string, { index: number; key: number }>();
  if (sightings.length > 0) {
    const known = await db.all<{ t: string; i: number }>(
      'SELECT group_type AS t, group_type_index AS i FROM group_types WHERE team_id = $1',
      [teamId],
    );
    const index = new Map(known.map((r) => [r.t, Number(r.i)]));
    const firstOfType = new Map<string, number>();
    for (const s of sightings)
      if (!index.has(s.type)) firstOfType.set(s.type, Math.min(firstOfType.get(s.type) ?? Infinity, s.first));
    const fresh = [...firstOfType].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const added: { t: string; i: number }[] = [];
    for (const [t] of fresh) {
      if (index.size > GROUP_TYPE_INDEX_MAX) break;
      index.set(t, index.size);
      added.push({ t, i: index.size - 1 });
    }
    if (added.length > 0) {
      await db.run(
        `INSERT INTO group_types (team_id, group_type, group_type_index)
        SELECT $1, r.t, r.i FROM (SELECT unnest(from_json($2::JSON, '[{"t":"VARCHAR","i":"INTEGER"}]'), recursive := true)) r`,
        [teamId, JSON.stringify(added)],
      );
    }
    // One row per group (a group may be sighted by `$groups` and by its `$groupidentify`).
    const byPair = new Map<string, { i: number; k: string; f: number }>();
    for (const s of sightings) {
      const i = index.get(s.type);
      if (i === undefined) continue;
      const id = JSON.stringify([i, s.key]);
      byPair.set(id, { i, k: s.key, f: Math.min(byPair.get(id)?.f ?? Infinity, s.first) });
    }
    const groups = [...byPair.values()].map((g) => ({ ...g, f: new Date(g.f).toISOString() }));
    if (groups.length > 0) {
      await db.run(
        `INSERT INTO groups (team_id, group_type_index, group_key, key, created_at)
        SELECT $1, n.i, n.k, ((SELECT coalesce(max(key), 0) FROM groups) + row_number() OVER (ORDER BY n.i, n.k))::INTEGER, n.f::TIMESTAMPTZ
        FROM (SELECT unnest(from_json($2::JSON, '[{"i":"INTEGER","k":"VARCHAR","f":"VARCHAR"}]'), recursive := true)) n
        WHERE NOT EXISTS (SELECT 1 FROM groups g WHERE g.team_id = $1 AND g.group_type_index = n.i AND g.group_key = n.k)`,
        [teamId, JSON.stringify(groups)],
      );
      const rows = await db.all<{ i: number; k: string; key: number }>(
        `SELECT g.group_type_index AS i, g.group_key AS k, g.key FROM groups g
        JOIN (SELECT unnest(from_json($2::JSON, '[{"i":"INTEGER","k":"VARCHAR"}]'), recursive := true)) n ON n.i = g.group_type_index AND n.k = g.group_key
        WHERE g.team_id = $1`,
        [teamId, JSON.stringify(groups.map(({ i, k }) => ({ i, k })))],
      );
      const names = new Map([...index].map(([t, i]) => [i, t]));
      for (const r of rows)
        out.set(JSON.stringify([names.get(Number(r.i)), r.k]), { index: Number(r.i), key: Number(r.key) });
    }
  }
  return out;
}

/** Recomputes every group's properties of the project from its `$groupidentify` events. */
export async function identifyGroups(db: Db, teamId: number): Promise<void> {
  const rows = await db.all<{ t: string; k: string; s: string | null }>(
    `SELECT json_extract_string(properties, '/$group_type') AS t,
      json_extract_string(properties, '/$group_key') AS k, json_extract(properties, '/$group_set')::VARCHAR AS s
    FROM events WHERE team_id = $1 AND event = $2 ORDER BY timestamp, uuid`,
    [teamId, GROUP_IDENTIFY],
  );
  const merged = new Map<string, { t: string; k: string; p: Record<string, unknown> }>();
  for (const r of rows) {
    if (!r.t || !r.k) continue;
    const id = JSON.stringify([r.t, r.k]);
    const entry = merged.get(id) ?? { t: r.t, k: r.k, p: {} };
    merged.set(id, entry);
    const set: unknown = r.s === null ? null : JSON.parse(r.s);
    if (set !== null && typeof set === 'object' && !Array.isArray(set)) Object.assign(entry.p, set);
  }
  if (merged.size === 0) return;
  await db.run(
    `UPDATE groups SET properties = u.p FROM (
      SELECT t.group_type_index AS i, r.k, r.p FROM (SELECT unnest(from_json($2::JSON, '[{"t":"VARCHAR","k":"VARCHAR","p":"JSON"}]'), recursive := true)) r
      JOIN group_types t ON t.team_id = $1 AND t.group_type = r.t) u
    WHERE groups.team_id = $1 AND groups.group_type_index = u.i AND groups.group_key = u.k`,
    [teamId, JSON.stringify([...merged.values()])],
  );
}

/**
 * Records the groups of every stored event of the project (bulk writers, files written before
 * groups were kept). Idempotent: what is recorded already stays as it is.
 */
export async function fillGroups(db: Db, teamId: number): Promise<void> {
  const rows = await db.all<{ t: string; k: string; f: unknown }>(
    `WITH g AS (
      SELECT e.timestamp AS ts, json_extract(e.properties, '/$groups') AS j FROM events e
      WHERE e.team_id = $1 AND json_type(json_extract(e.properties, '/$groups')) = 'OBJECT'),
    kv AS (SELECT ts, k, json_extract_string(j, '/' || replace(replace(k, '~', '~0'), '/', '~1')) AS v FROM g, unnest(json_keys(j)) AS u(k))
    SELECT k AS t, v AS k, epoch_ms(min(ts)) AS f FROM kv WHERE v IS NOT NULL AND v <> '' GROUP BY ALL
    UNION ALL
    SELECT json_extract_string(properties, '/$group_type'), json_extract_string(properties, '/$group_key'), epoch_ms(min(timestamp))
    FROM events WHERE team_id = $1 AND event = $2 GROUP BY ALL`,
    [teamId, GROUP_IDENTIFY],
  );
  const sightings = rows.filter((r) => r.t && r.k).map((r) => ({ type: r.t, key: r.k, first: Number(r.f) }));
  await recordGroups(db, teamId, sightings);
  if (rows.length > 0) await identifyGroups(db, teamId);
  // Each event's group keys, for the events written without them.
  const types = await groupTypesOf(db, teamId);
  for (const [i, type] of types.entries()) {
    await db.run(
      `UPDATE events SET ${GROUP_KEY_COLUMNS[i]} = g.key FROM groups g
      WHERE events.team_id = $1 AND events.${GROUP_KEY_COLUMNS[i]} IS NULL AND g.team_id = $1 AND g.group_type_index = $2
        AND g.group_key = json_extract_string(events.properties, $3)`,
      [teamId, i, jsonPointer('$groups') + jsonPointer(type)],
    );
  }
}

/**
 * Creates the group tables and the events' group key columns; a file written before them has
 * its events' groups recorded once.
 */
export async function openGroupTables(db: Db): Promise<void> {
  const had = await db.all<{ c: string }>(`SELECT column_name AS c FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'events' AND starts_with(column_name, 'group_')`);
  for (const sql of GROUPS_DDL) await db.run(sql);
  const missing = GROUP_KEY_COLUMNS.filter((c) => !had.some((r) => r.c === c));
  if (missing.length === 0) return;
  for (const c of missing) await db.run(`ALTER TABLE events ADD COLUMN IF NOT EXISTS ${c} INTEGER`);
  // DuckDB cannot replay an ALTER TABLE of this table from the WAL (schema.ts does the same).
  await db.run('CHECKPOINT');
  for (const { t } of await db.all<{ t: number }>('SELECT DISTINCT team_id AS t FROM events'))
    await fillGroups(db, Number(t));
}

/** The project's group types, index i at position i. */
export async function groupTypesOf(db: Pick<Db, 'all'>, teamId: number): Promise<string[]> {
  const rows = await db.all<{ t: string }>(
    'SELECT group_type AS t FROM group_types WHERE team_id = $1 ORDER BY group_type_index',
    [teamId],
  );
  return rows.map((r) => r.t);
}

/** The analysis' project's group types, read once per analysis (the context keeps them). */
export function groupTypesFor(ctx: QueryContext): Promise<string[]> {
  return ctx.groupTypes ? ctx.groupTypes() : groupTypesOf(ctx.db, ctx.project.id);
}

/** A 400 on `attr` unless the project has group type `index`; returns the type's name. */
export function checkGroupType(index: unknown, attr: string, types: readonly string[]): string {
  const name = typeof index === 'number' ? types[index] : undefined;
  if (name === undefined) {
    const known =
      types.length === 0
        ? 'this project has none yet'
        : `this project has ${types.map((t, i) => `${i} (${t})`).join(', ')}`;
    throw new AnalyticsParamError(attr, `Group type ${JSON.stringify(index)} does not exist: ${known}.`);
  }
  return name;
}

/**
 * The group type an analysis aggregates by (`aggregation_group_type_index`), checked against
 * the project's types (a 400 on that field); null: persons.
 */
export function aggregationOf(
  p: { aggregation_group_type_index?: number | null | undefined },
  types: readonly string[],
): number | null {
  const index = p.aggregation_group_type_index;
  if (index === null || index === undefined) return null;
  checkGroupType(index, 'aggregation_group_type_index', types);
  return index;
}

/** SQL VARCHAR of a property of event `e`'s group of type `index`; NULL when not set (or no group, or no such type). */
export function groupPropertyText(params: SqlParams, index: number, key: string): string {
  if (params.groupTypes[index] === undefined) return 'NULL::VARCHAR';
  // Group keys are unique in the store: the key column alone names the group.
  return `json_extract_string((SELECT g.properties FROM groups g WHERE g.key = ${groupKeyColumn(index)}), ${params.add(jsonPointer(key))})`;
}

/**
 * A page of the groups with integer keys `keys` (a funnel step's, aggregated by a group type), by
 * group key as `{PRJ}/groups/` lists them, in a funnel listing's actor shape; `more` when a next page has some.
 */
export async function readGroupsPage(
  db: SqlRunner,
  teamId: number,
  keys: readonly number[],
  page: { limit: number; offset: number },
): Promise<{ people: FunnelGroupActor[]; more: boolean }> {
  const rows = await db.all<{ i: number; k: string; p: string; c: unknown }>(
    `SELECT group_type_index AS i, group_key AS k, properties::VARCHAR AS p, epoch_ms(created_at) AS c FROM groups
     WHERE team_id = $1 AND key IN (SELECT unnest(from_json($2::JSON, '["INTEGER"]')))
     ORDER BY group_key LIMIT $3 OFFSET $4`,
    [teamId, JSON.stringify(keys), page.limit + 1, page.offset],
  );
  const people = rows.slice(0, page.limit).map((r): FunnelGroupActor => ({
    type: 'group',
    id: r.k,
    group_type_index: Number(r.i),
    group_key: r.k,
    group_properties: JSON.parse(r.p) as Record<string, unknown>,
    created_at: new Date(Number(r.c)).toISOString(),
  }));
  return { people, more: rows.length > page.limit };
}
