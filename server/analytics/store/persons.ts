import { randomUUID } from 'node:crypto';
import type { FunnelPerson } from '../../../src/contract/persons.ts';
import type { SqlParams } from '../query/properties.ts';
import type { SqlRunner, SqlConnection } from './db-types.ts';
import type { CaptureEvent } from './ingest-parse.ts';

type Json = Record<string, unknown>;

interface PersonState {
  id: string;
  properties: Json;
  is_identified: boolean;
  created_at: Date;
  /** The time (an event's timestamp) of the latest change to the person or its distinct ids: what a persons export reads. */
  updated_at: Date;
  /** Counts the batches that changed the person: 0 when created. */
  version: number;
  /** Not in the database yet. */
  isNew: boolean;
  dirty: boolean;
}

/** A list bound as one JSON parameter and unnested by DuckDB: never spliced into SQL text. */
export const unnestJson = (param: string, shape: string) =>
  `(SELECT unnest(from_json(${param}::JSON, '${shape}'), max_depth := 1) AS r)`;
const STRINGS = `(SELECT unnest(from_json($2::JSON, '["VARCHAR"]')))`;
const UUIDS = `(SELECT unnest(from_json($2::JSON, '["UUID"]')))`;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringProp = (props: Json, key: string): string | null => {
  const v = props[key];
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v !== '' ? v : null;
};

/** The distinct id an identity event links to its own: `[other, markIdentified]`, or null. */
function linkOf(e: CaptureEvent): [string, boolean] | null {
  if (e.event === '$identify') {
    const anon = stringProp(e.properties, '$anon_distinct_id');
    return anon ? [anon, true] : null;
  }
  if (e.event === '$create_alias' || e.event === '$merge_dangerously') {
    const alias = stringProp(e.properties, 'alias');
    return alias ? [alias, false] : null;
  }
  return null;
}

/** A stored properties value (JSON text or an object) as an object; anything else is `{}`. */
export function parseProps(v: unknown): Json {
  if (isObject(v)) return v;
  if (typeof v !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(v);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * The integer keys (schema.ts) of persons `ids`, numbering those that have none: one scan of
 * `person_keys`, and the new keys written from here (the writer's transaction holds the only
 * writer, so the next free key cannot be taken meanwhile).
 */
export async function personKeys(
  db: SqlConnection,
  teamId: number,
  ids: readonly string[],
): Promise<ReadonlyMap<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all<{ person_id: string; key: number }>(
    `SELECT person_id, key FROM person_keys WHERE team_id = $1 AND person_id IN ${UUIDS}`,
    [teamId, JSON.stringify(ids)],
  );
  const keys = new Map(rows.map((r) => [String(r.person_id), Number(r.key)]));
  const missing = ids.filter((id) => !keys.has(id));
  if (missing.length > 0) {
    const [top] = await db.all<{ k: number }>('SELECT coalesce(max(key), 0)::INTEGER AS k FROM person_keys');
    missing.forEach((id, i) => keys.set(id, Number(top?.k ?? 0) + 1 + i));
    await db.run(
      `INSERT INTO person_keys (team_id, person_id, key) SELECT $2, r.p, r.k FROM ${unnestJson('$1', '[{"p":"UUID","k":"INTEGER"}]')}`,
      [JSON.stringify(missing.map((id) => ({ p: id, k: keys.get(id) }))), teamId],
    );
  }
  return keys;
}

/**
 * Applies the person side of a batch, in event order, on the writer connection (inside the
 * caller's transaction): new distinct ids get a person; `$identify` with `$anon_distinct_id`
 * and `$create_alias` with `alias` link the two ids, merging their persons when both exist
 * (every distinct id of the merged person moves to the surviving one, and an override sends
 * the merged person's stored events to it: past events follow); `$set` overwrites and
 * `$set_once` fills person properties. Returns the person of every distinct id of the batch
 * after it, which its events store.
 */
export async function applyPersons(
  db: SqlConnection,
  teamId: number,
  events: readonly CaptureEvent[],
): Promise<ReadonlyMap<string, string>> {
  const ids = new Set<string>();
  for (const e of events) {
    ids.add(e.distinct_id);
    const link = linkOf(e);
    if (link) ids.add(link[0]);
  }
  const idList = JSON.stringify([...ids]);
  const mapped = await db.all<{ distinct_id: string; person_id: string }>(
    `SELECT distinct_id, person_id FROM person_distinct_ids WHERE team_id = $1 AND distinct_id IN ${STRINGS}`,
    [teamId, idList],
  );
  const map = new Map(mapped.map((r) => [r.distinct_id, r.person_id]));
  const persons = new Map<string, PersonState>();
  if (map.size > 0) {
    const rows = await db.all<{
      id: string;
      properties: unknown;
      is_identified: boolean;
      created_at: Date;
      updated_at: Date;
      version: number;
    }>(
      `SELECT id, properties, is_identified, created_at, coalesce(updated_at, created_at) AS updated_at, coalesce(version, 0)::INTEGER AS version
        FROM persons WHERE team_id = $1 AND id IN ${UUIDS}`,
      [teamId, JSON.stringify([...new Set(map.values())])],
    );
    for (const r of rows) {
      persons.set(r.id, {
        id: r.id,
        properties: parseProps(r.properties),
        is_identified: r.is_identified,
        created_at: r.created_at,
        updated_at: r.updated_at,
        version: Number(r.version),
        isNew: false,
        dirty: false,
      });
    }
  }
  const newIds = new Set<string>();
  const mergedInto = new Map<string, string>(); // stored person id → the person it was merged into

  const personOf = (distinctId: string): PersonState | undefined => {
    const id = map.get(distinctId);
    return id === undefined ? undefined : persons.get(id);
  };
  /** Marks a change made by an event at `at`: the update time never goes back (events may come out of order). */
  const touch = (person: PersonState, at: Date) => {
    person.dirty = true;
    if (at > person.updated_at) person.updated_at = at;
  };
  const create = (distinctId: string, at: Date): PersonState => {
    const person: PersonState = {
      id: randomUUID(),
      properties: {},
      is_identified: false,
      created_at: at,
      updated_at: at,
      version: 0,
      isNew: true,
      dirty: true,
    };
    persons.set(person.id, person);
    map.set(distinctId, person.id);
    newIds.add(distinctId);
    return person;
  };
  const attach = (distinctId: string, person: PersonState, at: Date) => {
    map.set(distinctId, person.id);
    newIds.add(distinctId);
    touch(person, at);
  };
  const merge = (from: PersonState, into: PersonState, at: Date) => {
    into.properties = { ...from.properties, ...into.properties };
    if (from.created_at < into.created_at) into.created_at = from.created_at;
    into.is_identified ||= from.is_identified;
    touch(into, at);
    for (const [d, p] of map) if (p === from.id) map.set(d, into.id);
    for (const [s, t] of mergedInto) if (t === from.id) mergedInto.set(s, into.id);
    if (!from.isNew) mergedInto.set(from.id, into.id);
    persons.delete(from.id);
  };

  for (const e of events) {
    const link = linkOf(e);
    if (link && link[0] !== e.distinct_id) {
      const [other, identify] = link;
      const mine = personOf(e.distinct_id);
      const theirs = personOf(other);
      if (!mine && !theirs) attach(other, create(e.distinct_id, e.timestamp), e.timestamp);
      else if (mine && !theirs) attach(other, mine, e.timestamp);
      else if (!mine && theirs) attach(e.distinct_id, theirs, e.timestamp);
      else if (mine && theirs && mine !== theirs) merge(theirs, mine, e.timestamp);
      if (identify) {
        const p = personOf(e.distinct_id)!;
        if (!p.is_identified) touch(p, e.timestamp);
        p.is_identified = true;
      }
    }
    const person = personOf(e.distinct_id) ?? create(e.distinct_id, e.timestamp);
    if (e.timestamp < person.created_at) {
      person.created_at = e.timestamp;
      person.dirty = true;
    }
    if (e.set) {
      person.properties = { ...person.properties, ...e.set };
      touch(person, e.timestamp);
    }
    if (e.setOnce) {
      for (const [k, v] of Object.entries(e.setOnce)) {
        if (!(k in person.properties)) {
          person.properties[k] = v;
          touch(person, e.timestamp);
        }
      }
    }
  }
  await writePersons(db, teamId, { persons: [...persons.values()], mergedInto, newIds: [...newIds], map });
  return map;
}

const PERSON_SHAPE =
  '[{"id":"UUID","properties":"JSON","is_identified":"BOOLEAN","created_at":"VARCHAR","updated_at":"VARCHAR","version":"BIGINT"}]';

async function writePersons(
  db: SqlConnection,
  teamId: number,
  changes: {
    persons: PersonState[];
    mergedInto: Map<string, string>;
    newIds: string[];
    map: Map<string, string>;
  },
): Promise<void> {
  const rows = (list: PersonState[]) =>
    JSON.stringify(
      list.map((p) => ({
        id: p.id,
        properties: p.properties,
        is_identified: p.is_identified,
        created_at: p.created_at.toISOString(),
        updated_at: p.updated_at.toISOString(),
        version: p.isNew ? p.version : p.version + 1,
      })),
    );
  const fresh = changes.persons.filter((p) => p.isNew);
  const dirty = changes.persons.filter((p) => !p.isNew && p.dirty);
  if (fresh.length > 0) {
    await db.run(
      `INSERT INTO persons (id, team_id, properties, is_identified, created_at, updated_at, version)
      SELECT r.id, $2, r.properties, r.is_identified, r.created_at::TIMESTAMPTZ, r.updated_at::TIMESTAMPTZ, r.version FROM ${unnestJson('$1', PERSON_SHAPE)}`,
      [rows(fresh), teamId],
    );
  }
  if (dirty.length > 0) {
    await db.run(
      `UPDATE persons SET properties = u.properties, is_identified = u.is_identified, created_at = u.created_at,
        updated_at = u.updated_at, version = u.version
      FROM (SELECT r.id, r.properties, r.is_identified, r.created_at::TIMESTAMPTZ AS created_at, r.updated_at::TIMESTAMPTZ AS updated_at, r.version
        FROM ${unnestJson('$1', PERSON_SHAPE)}) u
      WHERE persons.team_id = $2 AND persons.id = u.id`,
      [rows(dirty), teamId],
    );
  }
  if (changes.mergedInto.size > 0) {
    const pairs = JSON.stringify([...changes.mergedInto].map(([from, into]) => ({ from, into })));
    const merges = `(SELECT r."from", r."into" FROM ${unnestJson('$1', '[{"from":"UUID","into":"UUID"}]')})`;
    // A distinct id that moves to another person is a new version of its row (a persons export's person_distinct_id_version).
    await db.run(
      `UPDATE person_distinct_ids SET person_id = m.into, version = coalesce(version, 0) + 1 FROM ${merges} m
      WHERE person_distinct_ids.team_id = $2 AND person_distinct_ids.person_id = m."from"`,
      [pairs, teamId],
    );
    // Overrides stay one hop: those ending at a merged person now end where it went.
    // Both ends of a merge have integer keys (schema.ts), so the override carries them.
    const keys = await personKeys(db, teamId, [...new Set([...changes.mergedInto].flat())]);
    const keyed = JSON.stringify(
      [...changes.mergedInto].map(([from, into]) => ({ from, into, kf: keys.get(from), ki: keys.get(into) })),
    );
    const withKeys = `(SELECT r."from", r."into", r.kf, r.ki FROM ${unnestJson('$1', '[{"from":"UUID","into":"UUID","kf":"INTEGER","ki":"INTEGER"}]')})`;
    await db.run(
      `UPDATE person_overrides SET person_id = m.into, person_key = m.ki FROM ${withKeys} m
      WHERE person_overrides.team_id = $2 AND person_overrides.person_id = m."from"`,
      [keyed, teamId],
    );
    await db.run(
      `INSERT INTO person_overrides (team_id, old_person_id, person_id, old_person_key, person_key)
      SELECT $2, m."from", m.into, m.kf, m.ki FROM ${withKeys} m`,
      [keyed, teamId],
    );
    await db.run(`DELETE FROM persons WHERE team_id = $1 AND id IN ${UUIDS}`, [
      teamId,
      JSON.stringify([...changes.mergedInto.keys()]),
    ]);
  }
  if (changes.newIds.length > 0) {
    const links = JSON.stringify(changes.newIds.map((d) => ({ d, p: changes.map.get(d) })));
    await db.run(
      `INSERT INTO person_distinct_ids (team_id, distinct_id, person_id)
      SELECT $2, r.d, r.p FROM ${unnestJson('$1', '[{"d":"VARCHAR","p":"UUID"}]')}`,
      [links, teamId],
    );
  }
}

/** One page of persons (a funnel step's, a cohort's), and whether more follow. */
export interface FunnelPersonsPage {
  people: FunnelPerson[];
  more: boolean;
}

/**
 * A page of the persons (by id) that `select` lists (a query with one column, `person_id`),
 * ordered by id, as the API shows a person: name (the `email` property, else the first distinct
 * id), distinct ids, properties.
 */
export async function readPersonsPage(
  db: SqlRunner,
  team: string,
  select: string,
  params: SqlParams,
  page: { limit: number; offset: number },
): Promise<FunnelPersonsPage> {
  const rows = await db.all<{
    id: string;
    properties: string | null;
    created_at: number | null;
    is_identified: boolean | null;
    distinct_ids: string[] | null;
  }>(
    `WITH sel AS (${select} ORDER BY 1 LIMIT ${params.add(page.limit + 1)}::BIGINT OFFSET ${params.add(page.offset)}::BIGINT)
    SELECT sel.person_id::VARCHAR AS id, p.properties::VARCHAR AS properties, epoch_ms(p.created_at)::DOUBLE AS created_at, p.is_identified,
      (SELECT list(d.distinct_id ORDER BY d.distinct_id) FROM person_distinct_ids d WHERE d.team_id = ${team} AND d.person_id = sel.person_id) AS distinct_ids
    FROM sel LEFT JOIN persons p ON p.team_id = ${team} AND p.id = sel.person_id
    ORDER BY sel.person_id`,
    params.values,
  );
  const people = rows.slice(0, page.limit).map((r): FunnelPerson => {
    const properties = parseProps(r.properties);
    const distinctIds = r.distinct_ids ?? [];
    return {
      id: r.id,
      uuid: r.id,
      name:
        typeof properties.email === 'string' && properties.email !== '' ? properties.email : (distinctIds[0] ?? r.id),
      distinct_ids: distinctIds,
      properties,
      created_at: r.created_at === null ? null : new Date(r.created_at).toISOString(),
      is_identified: r.is_identified ?? false,
    };
  });
  return { people, more: rows.length > page.limit };
}
