import {
  AttemptCounter,
  deadlineMs,
  funnelCut,
  slicer,
  type CountedAttempts,
  type FunnelPassOptions,
  type FunnelRows,
} from '../engines/funnel-pass.ts';
import { FAR, type PersonIndex } from './person-index.ts';

/** A funnel the index answers: its steps and exclusions by event name (null: any event). */
export interface IndexedFunnel {
  steps: readonly (string | null)[];
  exclusions: readonly (string | null)[];
  /** Inclusive instants (ms). */
  range: { from: number; to: number };
  pass: FunnelPassOptions;
  /** Only the persons (integer keys) that pass: a funnel filtered by cohorts (their members, or not). */
  persons?: ((key: number) => boolean) | undefined;
  /** The group type the funnel aggregates by, whose index it walks (its runs are groups); null: persons. */
  groupIndex: number | null;
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
export async function countIndexedAttempts(
  index: PersonIndex,
  f: IndexedFunnel,
  checkpoint?: () => void,
): Promise<CountedAttempts> {
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
    persons: f.persons,
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
  persons: IndexedFunnel['persons'];
}

function scratchRows(room: number, hasExcl: boolean): FunnelRows {
  return {
    rows: 0,
    person: new Int32Array(room),
    ts: new Float64Array(room),
    steps: new Int32Array(room),
    uuid: null,
    rank: new Int32Array(room),
    excl: hasExcl ? new Int32Array(room) : null,
    role: hasExcl ? new Int32Array(room) : null,
    bd: null,
    bucket: null,
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
    if (w.persons && !w.persons(runKey[g]!)) continue;
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
        if ((ti >= cutLo && ti <= cutHi && (!w.ordered || sm !== 1 || ti <= l1)) || first)
          emit(w, person, i, ti, sm, exclMask[id]!, 0);
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
