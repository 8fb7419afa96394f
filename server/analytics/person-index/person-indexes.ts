import type { EventStore } from '../store/event-store.ts';
import { groupKeyColumn } from '../query/groups.ts';
import { buildPersonIndex, PERSON_ACTOR, type IndexActorSql, type PersonIndex } from './person-index.ts';

/** What the indexes read from: the event store. */
export type PersonIndexSource = Pick<EventStore, 'all' | 'chunks' | 'teamWriteVersion'>;

export interface PersonIndexOptions {
  /** How long a project must go without a write before its index is built (ms). */
  quietMs?: number;
  /** Most events held in all indexes together; a project with more is not indexed. */
  maxRows?: number;
  /** How a build takes its turn among the analyses (admission.ts), with its budget. */
  admit?: <T>(work: () => Promise<T>, deadline: number) => Promise<T>;
  /** Time budget of one build (ms). */
  buildBudgetMs?: number;
}

export interface PersonIndexes {
  /**
   * The project's index when it is current (built at the project's write version); else null, and a build is asked for (call it on any analysis of the project to have it ready).
   * With `groupIndex`, the index of that group type's groups (person-index.ts) instead of its persons'.
   */
  current(teamId: number, groupIndex?: number | null): PersonIndex | null;
  /** Settles once the builds asked for so far are done (tests). */
  settled(): Promise<void>;
}

export const PERSON_INDEX_DEFAULTS = { quietMs: 250, maxRows: 12_000_000, buildBudgetMs: 60_000 };

/** The events a group type's index holds: those naming a group of the type, keyed by its integer key (groups.ts). */
export function groupActor(groupIndex: number): IndexActorSql {
  const column = groupKeyColumn(groupIndex);
  return { key: column, join: '', where: `${column} IS NOT NULL` };
}

/**
 * The indexes of one event store, one per project asked for (and per group type its group
 * funnels aggregate by), each valid for the project's write version it was built at
 * (`teamWriteVersion`: another project's appends leave it valid). A funnel that finds none (or a
 * stale one, whose memory goes at once) is read with SQL. Asking for a project's index asks for a
 * build when it has none: `quietMs` later, if the project has had no write meanwhile, one build at
 * a time, as an analysis (it sorts the project's events in DuckDB). A write during the build
 * interrupts it; a build that fails is not tried again until the next write. Person indexes past
 * `maxRows` together are dropped least recently used first. The group types' indexes have a
 * budget of their own, as large: one is built only where it fits beside the group indexes held,
 * and pushes none out (a person index could not go either: two indexes taking turns in one
 * budget would sort the events again at every switch, and persons' funnels are the common ones).
 */
export function createPersonIndexes(store: PersonIndexSource, options: PersonIndexOptions = {}): PersonIndexes {
  const { quietMs, maxRows, buildBudgetMs } = { ...PERSON_INDEX_DEFAULTS, ...options };
  const admit = options.admit ?? (<T>(work: () => Promise<T>) => work());
  /** Per project and actor (slotOf): the index of a version (null: none can be built at that version), and when it was last used. */
  const built = new Map<
    string,
    { team: number; group: number | null; version: string; index: PersonIndex | null; used: number }
  >();
  const wanted = new Set<string>();
  /** The builds asked for and not started yet (for `settled`). */
  const timers = new Set<Promise<void>>();
  let builds: Promise<unknown> = Promise.resolve();
  let uses = 0;
  const slotOf = (teamId: number, group: number | null) => `${teamId}/${group ?? 'persons'}`;
  /** The rows held by the person copies, or by the group types' copies, but `except`'s. */
  const heldRows = (groups: boolean, except: string) => {
    let total = 0;
    for (const [slot, e] of built) if (slot !== except && (e.group !== null) === groups) total += e.index?.rows ?? 0;
    return total;
  };

  const build = async (teamId: number, group: number | null, version: string) => {
    const slot = slotOf(teamId, group);
    // Written meanwhile (the next funnel asks again), or built already.
    if (store.teamWriteVersion(teamId) !== version || built.get(slot)?.version === version) return;
    const deadline = Date.now() + buildBudgetMs;
    // A write to the project while it builds makes the build worthless: it stops there.
    const abort = new AbortController();
    const watch = setInterval(() => {
      if (store.teamWriteVersion(teamId) !== version) abort.abort();
    }, 100);
    watch.unref?.();
    const by = group === null ? PERSON_ACTOR : groupActor(group);
    let index: PersonIndex | null = null;
    try {
      const [{ n }] = (await store.all<{ n: number | bigint }>(
        `SELECT count(*) AS n FROM events e WHERE e.team_id = $1 AND ${by.where}`,
        [teamId],
        { deadline },
      )) as [{ n: number | bigint }];
      const room = group === null ? maxRows : maxRows - heldRows(true, slot);
      if (Number(n) <= room)
        index = await admit(() => buildPersonIndex(store, teamId, { deadline, signal: abort.signal }, by), deadline);
    } catch {
      // A closed store, the budget spent, a write, a row without its person key: SQL answers
      // (and reports what is wrong) until the next write.
    } finally {
      clearInterval(watch);
    }
    if (store.teamWriteVersion(teamId) !== version) return;
    built.set(slot, { team: teamId, group, version, index, used: ++uses });
    if (group !== null) return;
    let total = heldRows(false, '');
    // The person copies, least recently used first, past the cap.
    for (const [other, e] of [...built].sort((a, b) => a[1].used - b[1].used)) {
      if (total <= maxRows) break;
      if (other !== slot && e.group === null && e.index) {
        total -= e.index.rows;
        built.delete(other);
      }
    }
  };

  return {
    current(teamId, groupIndex = null) {
      // Stale copies go at the first look after a write, whichever project they are of (a
      // deleted project's is never asked for again).
      for (const [slot, e] of built) if (e.version !== store.teamWriteVersion(e.team)) built.delete(slot);
      const version = store.teamWriteVersion(teamId);
      const slot = slotOf(teamId, groupIndex);
      const entry = built.get(slot);
      if (entry) {
        entry.used = ++uses;
        return entry.index;
      }
      if (!wanted.has(slot)) {
        wanted.add(slot);
        const timer = new Promise<void>((resolve) => {
          setTimeout(() => {
            wanted.delete(slot);
            builds = builds.then(() => build(teamId, groupIndex, version)).catch(() => undefined);
            timers.delete(timer);
            resolve();
          }, quietMs).unref?.();
        });
        timers.add(timer);
      }
      return null;
    },
    async settled() {
      while (timers.size > 0) await Promise.all([...timers]);
      await builds;
    },
  };
}
