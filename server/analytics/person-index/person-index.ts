import type { EventDb, ReadOptions } from '../store/db-types.ts';
import { grown } from '../typed-arrays.ts';
import { PERSON_INT_KEY_SQL, PERSON_JOIN_SQL } from '../store/schema.ts';

/**
 * A project's events in person order, in memory: the input of the funnels whose steps are told
 * apart by event names alone (pageview → sign up → purchase, the funnel most people build).
 *
 * Why: such a funnel reads millions of step events to follow a few hundred thousand persons.
 * In SQL that is a scan, a per-person aggregate, a join back and a sort by person (10M events:
 * 0.6–0.8 s of DuckDB, then the rows cross into JavaScript a chunk at a time); ClickHouse does
 * it in one pass over its sorted parts. Here each person's events already sit side by side in
 * time order, so a funnel is one walk over two typed arrays.
 *
 * The copy holds what the funnel SQL reads for such a funnel and nothing more: the person after
 * merges (schema.ts), the instant (DuckDB's `epoch_ms`, with a bit saying whether microseconds
 * follow, for the range's inclusive end) and the name. Events of one person are ordered by
 * instant, then uuid, which is the order funnels break ties in (funnels.ts), so a row's
 * position stands in for its uuid. It takes 5 bytes an event (6 past 127 event names) and 20 a
 * person: 56 MB for 10M events of 300,000 persons, which the server's memory budget has room
 * for (docs/limits.md).
 *
 * The same copy keyed by a group type's keys instead (events without such a group left out)
 * answers the funnels aggregated by that type (docs/api.md, "Groups"): a group's events in time
 * order, whoever did them, are what such a funnel walks, so the walk is the same; `runKey` then
 * holds group keys (groups.ts).
 *
 * It is valid for one write version of its project (any write to it makes it stale: appends,
 * merges, deletes) and built in the background (person-indexes.ts); funnels read it through
 * person-index-walk.ts, and with SQL until it is there.
 */
export interface PersonIndex {
  rows: number;
  /** Event names: id i + 1 is names[i]. */
  names: readonly string[];
  /** Persons (runs of rows): run g is rows runStart[g] … runStart[g + 1], of person runKey[g], in key order. */
  runs: number;
  runStart: Int32Array;
  runKey: Int32Array;
  /**
   * Instants (epoch ms), ascending within a run (ties in uuid order): a run's first at
   * runFirst[g] and its last at runLast[g]; each later one `gap[i]` ms after the row before
   * it, or, where the gap is {@link FAR} or more, at far.get(i).
   */
  runFirst: Float64Array;
  runLast: Float64Array;
  gap: Uint32Array;
  far: ReadonlyMap<number, number>;
  /** The name's id, with `sub` set when the instant has microseconds past its millisecond. */
  name: Uint8Array | Uint16Array;
  sub: number;
}

/** A gap too long for {@link PersonIndex.gap} (about 50 days): the row's instant is in `far`. */
export const FAR = 0xffffffff;
/** Most distinct event names an index holds (the 16th bit says "microseconds follow"). */
export const MAX_NAMES = 0x7fff;

/** What an index is read from: the event store (or, in tests, its database). */
export type PersonIndexReader = Pick<EventDb, 'all' | 'chunks'>;

/** A growing column of numbers (the runs, whose count the read does not say up front). */
function growing<A extends Int32Array | Float64Array>(Make: new (n: number) => A) {
  let a = new Make(1024);
  return {
    set(i: number, v: number) {
      if (i >= a.length) a = grown(a, a.length * 2);
      a[i] = v;
    },
    done: (n: number) => a.slice(0, n) as A,
  };
}

/**
 * Whose events an index holds side by side, as SQL over event `e`: the actor's integer key, the
 * join it reads, and which events have one (as funnels-events.ts keys a funnel's rows).
 */
export interface IndexActorSql {
  key: string;
  join: string;
  where: string;
}

/** Persons, after merges (schema.ts); person-indexes.ts has the groups'. */
export const PERSON_ACTOR: IndexActorSql = { key: PERSON_INT_KEY_SQL, join: PERSON_JOIN_SQL, where: 'true' };

/**
 * Reads the index of project `teamId` (its persons', or with `by` a group type's) from the
 * store; null when it has too many event names, or an event before 1970 with microseconds
 * (DuckDB's `epoch_ms` rounds those up, which the range's ends would need another bit to tell).
 */
export async function buildPersonIndex(
  db: PersonIndexReader,
  teamId: number,
  options: ReadOptions = {},
  by: IndexActorSql = PERSON_ACTOR,
): Promise<PersonIndex | null> {
  const names = (
    await db.all<{ event: string }>(
      'SELECT DISTINCT event FROM events WHERE team_id = $1 ORDER BY event',
      [teamId],
      options,
    )
  ).map((r) => r.event);
  if (names.length > MAX_NAMES) return null;
  // One byte a name while the ids and the bit fit in it.
  const sub = names.length < 0x80 ? 0x80 : 0x8000;
  let gap = new Uint32Array(0);
  let name: Uint8Array | Uint16Array = new Uint8Array(0);
  const far = new Map<number, number>();
  const runStart = growing(Int32Array);
  const runKey = growing(Int32Array);
  const runFirst = growing(Float64Array);
  const runLast = growing(Float64Array);
  let runs = 0;
  let lastPerson = 0;
  let lastTs = 0;
  let early = false;
  // DuckDB sorts the events into one result (about 16 bytes a row); it is folded into the index
  // chunk by chunk, never copied whole into JavaScript.
  const rows = await db.chunks(
    `SELECT ${by.key} AS person_id, epoch_ms(e.timestamp)::DOUBLE AS ts,
      (coalesce(list_position(from_json($2::JSON, '["VARCHAR"]'), e.event), 0) | CASE WHEN epoch_us(e.timestamp) % 1000 <> 0 THEN $3 ELSE 0 END)::INTEGER AS name
    FROM events e
    ${by.join}
    WHERE e.team_id = $1 AND ${by.where}
    ORDER BY 1, 2, e.uuid`,
    [teamId, JSON.stringify(names), sub],
    ['int32', 'double', 'int32'] as const,
    ([person, ts, id], size, at, total) => {
      if (at === 0) {
        gap = new Uint32Array(total);
        name = sub === 0x80 ? new Uint8Array(total) : new Uint16Array(total);
      }
      for (let k = 0; k < size; k++) {
        const i = at + k;
        const p = person[k]!;
        const t = ts[k]!;
        name[i] = id[k]!;
        if (t <= 0 && id[k]! & sub) early = true;
        if (i === 0 || p !== lastPerson) {
          if (runs > 0) runLast.set(runs - 1, lastTs);
          runStart.set(runs, i);
          runKey.set(runs, p);
          runFirst.set(runs++, t);
        } else {
          const d = t - lastTs;
          if (d < FAR) gap[i] = d;
          else {
            gap[i] = FAR;
            far.set(i, t);
          }
        }
        lastPerson = p;
        lastTs = t;
      }
    },
    options,
  );
  if (early) return null;
  if (runs > 0) runLast.set(runs - 1, lastTs);
  runStart.set(runs, rows);
  return {
    rows,
    names,
    runs,
    runStart: runStart.done(runs + 1),
    runKey: runKey.done(runs),
    runFirst: runFirst.done(runs),
    runLast: runLast.done(runs),
    gap,
    far,
    name,
    sub,
  };
}
