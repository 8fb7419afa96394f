import type { EventDb, ReadOptions } from './duckdb.ts';
import type { EventStore } from './event-store.ts';
import { AttemptCounter, deadlineMs, funnelCut, slicer, type CountedAttempts, type FunnelPassOptions, type FunnelRows } from './funnel-pass.ts';
import { PERSON_INT_KEY_SQL, PERSON_JOIN_SQL } from './schema.ts';

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
 * It is valid for one write version of its project (person-index.ts `createPersonIndexes`; any
 * write to it makes it stale: appends, merges, deletes) and built in the background; until then
 * funnels read with SQL as before.
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
      if (i >= a.length) {
        const b = new Make(a.length * 2);
        b.set(a);
        a = b;
      }
      a[i] = v;
    },
    done: (n: number) => a.slice(0, n) as A,
  };
}

/**
 * Reads the index of project `teamId` from the store; null when it has too many event names,
 * or an event before 1970 with microseconds (DuckDB's `epoch_ms` rounds those up, which the
 * range's ends would need another bit to tell).
 */
export async function buildPersonIndex(db: PersonIndexReader, teamId: number, options: ReadOptions = {}): Promise<PersonIndex | null> {
  const names = (await db.all<{ event: string }>('SELECT DISTINCT event FROM events WHERE team_id = $1 ORDER BY event', [teamId], options)).map((r) => r.event);
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
    `SELECT ${PERSON_INT_KEY_SQL} AS person_id, epoch_ms(e.timestamp)::DOUBLE AS ts,
      (coalesce(list_position(from_json($2::JSON, '["VARCHAR"]'), e.event), 0) | CASE WHEN epoch_us(e.timestamp) % 1000 <> 0 THEN $3 ELSE 0 END)::INTEGER AS name
    FROM events e
    ${PERSON_JOIN_SQL}
    WHERE e.team_id = $1
    ORDER BY 1, 2, e.uuid`,
    [teamId, JSON.stringify(names), sub], ['int32', 'double', 'int32'] as const,
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
    }, options);
  if (early) return null;
  if (runs > 0) runLast.set(runs - 1, lastTs);
  runStart.set(runs, rows);
  return {
    rows, names, runs, runStart: runStart.done(runs + 1), runKey: runKey.done(runs),
    runFirst: runFirst.done(runs), runLast: runLast.done(runs), gap, far, name, sub,
  };
}

/** A funnel the index answers: its steps and exclusions by event name (null: any event). */
export interface IndexedFunnel {
  steps: readonly (string | null)[];
  exclusions: readonly (string | null)[];
  /** Inclusive instants (ms). */
  range: { from: number; to: number };
  pass: FunnelPassOptions;
}

/** Per event-name id (1-based; 0 for none): bit k set when the name matches `names[k]` (null matches every name). */
function masksByName(index: PersonIndex, names: readonly (string | null)[]): Int32Array {
  const ids = new Map(index.names.map((n, i) => [n, i + 1]));
  const masks = new Int32Array(index.names.length + 1);
  names.forEach((n, k) => {
    if (n === null) {
      for (let id = 1; id < masks.length; id++) masks[id]! |= 1 << k;
    } else {
      const id = ids.get(n);
      if (id !== undefined) masks[id]! |= 1 << k;
    }
  });
  return masks;
}

const bits = (ks: readonly number[]) => ks.reduce((m, k) => m | (1 << k), 0);

/** Rows walked between two looks at the clock (countIndexedAttempts): about a millisecond's worth. */
const ROWS_PER_TURN = 4096;

/**
 * The counted attempts of `f` (funnel-pass.ts), person by person from the index. Each person's
 * rows are those the SQL cut would hand the pass (funnels-sql.ts, `movers`, which says why
 * each is kept; both follow funnelCut): one row at the first start for a person who cannot get
 * past step 1; else the events a counted attempt can use; with exclusions, every exclusion
 * event as role 1. They are written to a few rows of scratch, in time order, `rank` holding
 * each row's position in the index (which orders ties as their uuids do), and counted there:
 * nothing the size of the funnel's events is allocated.
 */
export async function countIndexedAttempts(index: PersonIndex, f: IndexedFunnel, checkpoint?: () => void): Promise<CountedAttempts> {
  const cut = funnelCut(f.pass);
  const hasExcl = f.exclusions.length > 0;
  const walk: Walk = {
    index,
    stepMask: masksByName(index, f.steps),
    exclMask: masksByName(index, f.exclusions),
    hasExcl,
    strict: f.pass.order === 'strict',
    ordered: f.pass.order === 'ordered',
    unordered: f.pass.order === 'unordered',
    from: f.range.from,
    to: f.range.to,
    window: f.pass.window,
    before: cut.reachBackMs,
    aggMask: bits(cut.aggregated),
    advMask: bits(cut.advancing),
    ts: new Float64Array(256),
    rows: scratchRows(256, hasExcl),
    counter: new AttemptCounter(f.pass, 256, Math.min(index.runs, 4096), { bucket: false, bd: false }),
  };
  // Millions of events take a while on the event loop: it lets other requests in every few ms.
  const turn = slicer(checkpoint);
  for (let g = 0; g < index.runs;) {
    g = walkRuns(walk, g);
    await turn();
  }
  return walk.counter.result();
}

/** The state of one funnel's walk over an index (countIndexedAttempts). */
interface Walk {
  index: PersonIndex;
  stepMask: Int32Array;
  exclMask: Int32Array;
  hasExcl: boolean;
  strict: boolean;
  ordered: boolean;
  unordered: boolean;
  from: number;
  to: number;
  window: FunnelPassOptions['window'];
  before: number;
  aggMask: number;
  advMask: number;
  /** The instants of the run being walked, decoded: ts[i - a] is row i's (grows with the runs). */
  ts: Float64Array;
  /** The person's rows, `rows.rows` of them written (grows with the runs). */
  rows: FunnelRows;
  counter: AttemptCounter;
}

function scratchRows(room: number, hasExcl: boolean): FunnelRows {
  return {
    rows: 0, person: new Int32Array(room), ts: new Float64Array(room), steps: new Int32Array(room), uuid: null, rank: new Int32Array(room),
    excl: hasExcl ? new Int32Array(room) : null, role: hasExcl ? new Int32Array(room) : null, bd: null, bucket: null,
  };
}

function emit(w: Walk, person: number, row: number, t: number, steps: number, excl: number, role: number): void {
  const r = w.rows;
  const at = r.rows++;
  r.person[at] = person;
  r.ts[at] = t;
  r.steps[at] = steps;
  r.rank![at] = row;
  if (r.excl) {
    r.excl[at] = excl;
    r.role![at] = role;
  }
}

/**
 * Walks the index's runs from `g0`, counting each person's attempts, until about
 * ROWS_PER_TURN rows are behind it; returns the run to go on from (countIndexedAttempts).
 */
function walkRuns(w: Walk, g0: number): number {
  const { runs, runStart, runKey, runFirst, runLast, gap, far, name, sub } = w.index;
  const { stepMask, exclMask, hasExcl, from, to, aggMask, advMask, before } = w;
  const idOf = sub - 1;
  let walked = 0;
  let g = g0;
  for (; g < runs && walked < ROWS_PER_TURN; g++) {
    if (runLast[g]! < from || runFirst[g]! > to) continue;
    const a = runStart[g]!;
    const b = runStart[g + 1]!;
    walked += b - a;
    if (b - a > w.ts.length) w.ts = new Float64Array(2 * (b - a));
    const ts = w.ts;
    // The run's instants, and the rows inside the range (the run is in time order; at the
    // range's last millisecond, rows in uuid order, those past it by microseconds are skipped
    // one by one).
    let t = runFirst[g]!;
    ts[0] = t;
    for (let i = a + 1; i < b; i++) {
      const d = gap[i]!;
      t = d === FAR ? far.get(i)! : t + d;
      ts[i - a] = t;
    }
    let lo = a;
    while (lo < b && ts[lo - a]! < from) lo += 1;
    let hi = lo;
    while (hi < b && ts[hi - a]! <= to) hi += 1;
    let f0 = NaN;
    let fa = NaN;
    let f1 = NaN;
    let l1 = NaN;
    for (let i = lo; i < hi; i++) {
      const sm = stepMask[name[i]! & idOf]!;
      if (!(sm & aggMask)) continue;
      const ti = ts[i - a]!;
      if (ti === to && name[i]! & sub) continue;
      if (fa !== fa) fa = ti;
      if (sm & 1 && f0 !== f0) f0 = ti;
      if (sm & advMask) {
        if (f1 !== f1) f1 = ti;
        l1 = ti;
      }
    }
    if (f0 !== f0 && f1 !== f1) continue; // no step 1 and nothing that advances: no attempt
    // A person's rows: their events in the range, and their exclusion events again; or one.
    if (2 * (hi - lo) + 1 > w.rows.person.length) w.rows = scratchRows(2 * (2 * (hi - lo) + 1), hasExcl);
    const person = runKey[g]!;
    w.rows.rows = 0;
    if (f1 !== f1) {
      // Nobody's attempt gets past step 1: one row, the first start.
      emit(w, person, 0, f0, 1, 0, 0);
    } else {
      const cutLo = f1 - before;
      const cutHi = deadlineMs(l1, w.window);
      for (let i = lo; i < hi; i++) {
        const id = name[i]! & idOf;
        const sm = stepMask[id]!;
        // Strict funnels read every event (any of them breaks a chain); the others, step events.
        if (sm === 0 && !w.strict) continue;
        const ti = ts[i - a]!;
        if (ti === to && name[i]! & sub) continue;
        const first = w.unordered ? ti === fa : (sm & 1) !== 0 && ti === f0;
        if ((ti >= cutLo && ti <= cutHi && (!w.ordered || sm !== 1 || ti <= l1)) || first) emit(w, person, i, ti, sm, exclMask[id]!, 0);
      }
    }
    if (hasExcl) {
      for (let i = lo; i < hi; i++) {
        const x = exclMask[name[i]! & idOf]!;
        if (x && !(ts[i - a] === to && name[i]! & sub)) emit(w, person, i, ts[i - a]!, 0, x, 1);
      }
    }
    w.counter.person(w.rows, 0, w.rows.rows);
  }
  return g;
}

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
  /** The project's index when it is current (built at the project's write version); else null, and a build is asked for (call it on any analysis of the project to have it ready). */
  current(teamId: number): PersonIndex | null;
  /** Settles once the builds asked for so far are done (tests). */
  settled(): Promise<void>;
}

export const PERSON_INDEX_DEFAULTS = { quietMs: 250, maxRows: 12_000_000, buildBudgetMs: 60_000 };

/**
 * The indexes of one event store, one per project asked for, each valid for the
 * project's write version it was built at (`teamWriteVersion`: another project's appends leave
 * it valid). A funnel that finds none (or a stale one, whose memory goes at once) is read with
 * SQL. Asking for a project's index asks for a build when it has none: `quietMs` later, if the project has had no write meanwhile, one
 * build at a time, as an analysis (it sorts the project's events in DuckDB). A write during the
 * build interrupts it; a build that fails is not tried again until the next write. Projects
 * past `maxRows` together are dropped least recently used first.
 */
export function createPersonIndexes(store: PersonIndexSource, options: PersonIndexOptions = {}): PersonIndexes {
  const { quietMs, maxRows, buildBudgetMs } = { ...PERSON_INDEX_DEFAULTS, ...options };
  const admit = options.admit ?? (<T>(work: () => Promise<T>) => work());
  /** Per project: the index of a version (null: none can be built at that version), and when it was last used. */
  const built = new Map<number, { version: string; index: PersonIndex | null; used: number }>();
  const wanted = new Set<number>();
  /** The builds asked for and not started yet (for `settled`). */
  const timers = new Set<Promise<void>>();
  let builds: Promise<unknown> = Promise.resolve();
  let uses = 0;

  const build = async (teamId: number, version: string) => {
    // Written meanwhile (the next funnel asks again), or built already.
    if (store.teamWriteVersion(teamId) !== version || built.get(teamId)?.version === version) return;
    const deadline = Date.now() + buildBudgetMs;
    // A write to the project while it builds makes the build worthless: it stops there.
    const abort = new AbortController();
    const watch = setInterval(() => {
      if (store.teamWriteVersion(teamId) !== version) abort.abort();
    }, 100);
    watch.unref?.();
    let index: PersonIndex | null = null;
    try {
      const [{ n }] = await store.all<{ n: number | bigint }>('SELECT count(*) AS n FROM events WHERE team_id = $1', [teamId], { deadline }) as [{ n: number | bigint }];
      if (Number(n) <= maxRows) index = await admit(() => buildPersonIndex(store, teamId, { deadline, signal: abort.signal }), deadline);
    } catch {
      // A closed store, the budget spent, a write, a row without its person key: SQL answers
      // (and reports what is wrong) until the next write.
    } finally {
      clearInterval(watch);
    }
    if (store.teamWriteVersion(teamId) !== version) return;
    built.set(teamId, { version, index, used: ++uses });
    let total = 0;
    for (const e of built.values()) total += e.index?.rows ?? 0;
    // Least recently used first, past the cap.
    for (const [team, e] of [...built].sort((a, b) => a[1].used - b[1].used)) {
      if (total <= maxRows) break;
      if (team !== teamId && e.index) {
        total -= e.index.rows;
        built.delete(team);
      }
    }
  };

  return {
    current(teamId) {
      // Stale copies go at the first look after a write, whichever project they are of (a
      // deleted project's is never asked for again).
      for (const [team, e] of built) if (e.version !== store.teamWriteVersion(team)) built.delete(team);
      const version = store.teamWriteVersion(teamId);
      const entry = built.get(teamId);
      if (entry) {
        entry.used = ++uses;
        return entry.index;
      }
      if (!wanted.has(teamId)) {
        wanted.add(teamId);
        const timer = new Promise<void>((resolve) => {
          setTimeout(() => {
            wanted.delete(teamId);
            builds = builds.then(() => build(teamId, version)).catch(() => undefined);
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
