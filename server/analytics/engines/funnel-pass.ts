import type { FunnelWindowUnit } from '../../../src/contract/analytics.ts';
import { compareUuidWords } from '../store/columnar-read.ts';
import { grown } from '../typed-arrays.ts';

/**
 * A funnel's per-person pass, in one walk over each person's events (the rules are in
 * funnels.ts). SQL hands over the rows an attempt can use (funnels-sql.ts: persons who cannot
 * get past step 1 as one row each, or with a breakdown their first start's events, the
 * others' events cut to what a counted attempt can reach)
 * and, with exclusions, every exclusion event; this groups them by person, orders each person's
 * events, runs every attempt and keeps the counted one per person (and bucket).
 *
 * Why here and not in SQL: a set-based funnel sorts every row per person and chains steps with
 * joins, several passes over the data; a walk over a person's ordered events does each attempt
 * in a few steps (the chains' positions only move forward from one start to the next).
 */

export interface FunnelRows {
  rows: number;
  /** The person's integer key (schema.ts). */
  person: Int32Array;
  /** Epoch milliseconds. */
  ts: Float64Array;
  /** Bit k: the event matches step k. */
  steps: Int32Array;
  /**
   * What orders a person's events at one instant: the event's uuid as words
   * (columnar-read.ts compareUuidWords), or where uuids are not at hand a rank in that same
   * order (the person index's row positions: person-index-walk.ts).
   */
  uuid: Uint32Array | null;
  rank?: Int32Array | undefined;
  /** Bit i: the event matches exclusion i (null: the funnel has none). */
  excl: Int32Array | null;
  /** 1: an exclusion event only, checked against the counted attempt and not part of any (null: none). */
  role: Int32Array | null;
  /** The breakdown value of a row where an attempt may start (null: no breakdown; other rows: null). */
  bd: (string | null)[] | null;
  /** The wall-time start of the event's bucket (trends viz; else null). */
  bucket: Float64Array | null;
}

export interface FunnelPassOptions {
  steps: number;
  order: 'ordered' | 'strict' | 'unordered';
  window: { interval: number; unit: FunnelWindowUnit };
  exclusions: readonly { from: number; to: number }[];
}

/**
 * The counted attempts, one per person (and bucket of its start in the trends viz), column by
 * column: attempt c < count is person[c], reached[c] steps at times[c * steps + k] (epoch ms,
 * step 1 first), its start's bucket and breakdown value (the arrays may run past `count`).
 */
export interface CountedAttempts {
  count: number;
  steps: number;
  person: Int32Array;
  reached: Int32Array;
  times: Float64Array;
  bucket: Float64Array | null;
  bd: (string | null)[] | null;
}

/** About the longest stretch (ms) the pass runs without yielding to the event loop. */
export const SLICE_MS = 2;

export const UNIT_MS: Record<Exclude<FunnelWindowUnit, 'month'>, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

/**
 * The last instant (ms, inclusive) an attempt started at `t` may convert at. Months are
 * calendar months in UTC, the day clamped to the month's last (Jan 31 + 1 month = Feb 28/29),
 * as the SQL's `timestamp + to_months(n)`.
 */
export function deadlineMs(t: number, window: FunnelPassOptions['window']): number {
  if (window.unit !== 'month') return t + window.interval * UNIT_MS[window.unit];
  const d = new Date(t);
  const months = d.getUTCMonth() + window.interval;
  const year = d.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const day = Math.min(d.getUTCDate(), new Date(Date.UTC(year, month + 1, 0)).getUTCDate());
  const sinceMidnight = t - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(year, month, day) + sinceMidnight;
}

/**
 * What the cut before the pass reads of a funnel (funnels-sql.ts `movers`, and the person
 * index's walk: person-index-walk.ts), the one rule both follow: the steps whose events the
 * per-person aggregate reads (steps 1 and 2; unordered: every step), those that advance an
 * attempt past step 1 (step 2; unordered: any later step; none in a one-step funnel), and how
 * far before a person's first advancing event a start may lie and still reach it (the window;
 * months as 31 days, never short of the calendar's).
 */
export function funnelCut(o: Pick<FunnelPassOptions, 'steps' | 'order' | 'window'>): {
  aggregated: number[];
  advancing: number[];
  reachBackMs: number;
} {
  const steps = Array.from({ length: o.steps }, (_, k) => k);
  return {
    aggregated: o.order === 'unordered' ? steps : steps.slice(0, 2),
    advancing: o.steps === 1 ? [] : o.order === 'unordered' ? steps.slice(1) : [1],
    reachBackMs:
      o.window.unit === 'month' ? o.window.interval * 31 * UNIT_MS.day : o.window.interval * UNIT_MS[o.window.unit],
  };
}

/**
 * For a walk over many rows on the event loop: the returned function, awaited often, lets
 * other requests in every {@link SLICE_MS} and then calls `checkpoint` (the request's budget,
 * QueryContext), which throws once it is spent.
 */
export function slicer(checkpoint?: () => void): () => Promise<void> | undefined {
  let slice = performance.now();
  return () => {
    if (performance.now() - slice <= SLICE_MS) return undefined;
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      checkpoint?.();
      slice = performance.now();
    });
  };
}

/** Index of the lowest set bit (the first step an event matches), -1 for none. */
const firstStep = (mask: number) => (mask === 0 ? -1 : 31 - Math.clz32(mask & -mask));

/**
 * The runs of each person's rows: group g is rows start[g] … start[g + 1], the longest run
 * `longest` rows. The rows come sorted by person (funnels-sql.ts), so each person's rows sit
 * side by side and are read in order.
 */
function personRuns(person: Int32Array, rows: number): { start: Int32Array; groups: number; longest: number } {
  // Counted first: an array of one slot per row would be 13 MB of fresh pages for a 10M-event
  // strict funnel's 3.2 million rows, where its 300,000 persons need 1.2 MB.
  let runs = 0;
  for (let i = 0; i < rows; i++) if (i === 0 || person[i] !== person[i - 1]) runs += 1;
  const start = new Int32Array(runs + 1);
  let groups = 0;
  let longest = 0;
  let last = -1;
  for (let i = 0; i < rows; i++) {
    const p = person[i]!;
    if (i === 0 || p !== last) {
      if (i > 0 && p < last) throw new Error('The funnel pass needs its rows sorted by person.');
      if (groups > 0) longest = Math.max(longest, i - start[groups - 1]!);
      start[groups++] = i;
      last = p;
    }
  }
  if (groups > 0) longest = Math.max(longest, rows - start[groups - 1]!);
  start[groups] = rows;
  return { start, groups, longest };
}

/** A person's event order: time, then the first step matched (none first), then uuid. */
function compareRows(r: FunnelRows, a: number, b: number): number {
  const dt = r.ts[a]! - r.ts[b]!;
  if (dt !== 0) return dt;
  const ds = firstStep(r.steps[a]!) - firstStep(r.steps[b]!);
  if (ds !== 0) return ds;
  if (r.rank) return r.rank[a]! - r.rank[b]!;
  return compareUuidWords(r.uuid!, a, r.uuid!, b);
}

/**
 * Sorts ev[0 … m) (row indices: a strict funnel's come sorted by time, ties at one instant in
 * any order; the others' a handful per person in any order, funnels-sql.ts) by compareRows. An
 * insertion sort, which costs next to nothing on such lists; past a few moves per element it
 * hands over to the library's sort (merging runs), so a list in the wrong order cannot cost m²
 * moves.
 */
function sortEvents(r: FunnelRows, ev: Int32Array, m: number): void {
  let moves = 0;
  const budget = 8 * m + 64;
  const ts = r.ts;
  for (let i = 1; i < m; i++) {
    const v = ev[i]!;
    const tv = ts[v]!;
    let j = i - 1;
    // The time decides almost every comparison: the whole order only at one instant.
    for (; j >= 0; j--) {
      const u = ev[j]!;
      const tu = ts[u]!;
      if (tu < tv || (tu === tv && compareRows(r, u, v) <= 0)) break;
      ev[j + 1] = u;
      moves += 1;
    }
    ev[j + 1] = v;
    if (moves > budget) {
      ev.set(Array.from(ev.subarray(0, m)).sort((a, b) => compareRows(r, a, b)));
      return;
    }
  }
}

/**
 * The steps one attempt reaches from start (anchor) i of the person's sorted events ev[0 … m),
 * into `times`; returns how many. `next[k]` is where the search for step k's event resumes:
 * chains only move forward from one start to the next, so each advances over the events once.
 */
function attempt(
  r: FunnelRows,
  ev: Int32Array,
  m: number,
  i: number,
  o: FunnelPassOptions,
  next: Int32Array,
  times: Float64Array,
): number {
  const { ts, steps } = r;
  const S = o.steps;
  const dl = deadlineMs(ts[ev[i]!]!, o.window);
  if (o.order === 'unordered') {
    let n = 0;
    for (let k = 0; k < S; k++) {
      let p = next[k]! > i ? next[k]! : i;
      const bit = 1 << k;
      while (p < m && !(steps[ev[p]!]! & bit)) p += 1;
      next[k] = p;
      if (p < m && ts[ev[p]!]! <= dl) {
        // Insert in time order: the reached steps' times, sorted.
        const t = ts[ev[p]!]!;
        let j = n;
        while (j > 0 && times[j - 1]! > t) {
          times[j] = times[j - 1]!;
          j -= 1;
        }
        times[j] = t;
        n += 1;
      }
    }
    return n;
  }
  times[0] = ts[ev[i]!]!;
  let n = 1;
  let at = i;
  for (let k = 1; k < S; k++) {
    const bit = 1 << k;
    let p: number;
    if (o.order === 'strict') {
      p = i + k; // the very next event
      if (p >= m || !(steps[ev[p]!]! & bit)) break;
    } else {
      p = next[k]! > at + 1 ? next[k]! : at + 1;
      while (p < m && !(steps[ev[p]!]! & bit)) p += 1;
      next[k] = p;
      if (p >= m) break;
    }
    if (ts[ev[p]!]! > dl) break;
    times[n] = ts[ev[p]!]!;
    n += 1;
    at = p;
  }
  return n;
}

/**
 * Whether an exclusion event (xs[0 … nx)) falls inside the attempt reaching `n` steps at
 * times[at …] (funnels.ts).
 */
function excluded(
  r: FunnelRows,
  xs: Int32Array,
  nx: number,
  times: readonly number[],
  at: number,
  n: number,
  o: FunnelPassOptions,
): boolean {
  for (let i = 0; i < o.exclusions.length; i++) {
    const { from, to } = o.exclusions[i]!;
    if (n <= from) continue;
    const lo = times[at + from]!;
    const reached = n > to;
    const hi = reached ? times[at + to]! : deadlineMs(lo, o.window);
    for (let j = 0; j < nx; j++) {
      const x = xs[j]!;
      if (!(r.excl![x]! & (1 << i))) continue;
      const t = r.ts[x]!;
      if (t > lo && (reached ? t < hi : t <= hi)) return true;
    }
  }
  return false;
}

/** Room for `count` attempts of `steps` steps in `out`, doubling its arrays when full. */
function reserve(out: CountedAttempts, count: number): void {
  if (count <= out.person.length) return;
  const size = Math.max(count, out.person.length * 2);
  out.person = grown(out.person, size);
  out.reached = grown(out.reached, size);
  out.times = grown(out.times, size * out.steps);
  if (out.bucket) out.bucket = grown(out.bucket, size);
}

/**
 * The counted attempts: per person (and bucket of the start), the attempt reaching the
 * furthest step, ties to the first start, unless an exclusion drops it. `checkpoint` (the
 * request's budget, QueryContext) is called each time the walk yields.
 */
export async function countAttempts(
  r: FunnelRows,
  o: FunnelPassOptions,
  checkpoint?: () => void,
): Promise<CountedAttempts> {
  const { start, groups, longest } = personRuns(r.person, r.rows);
  const counter = new AttemptCounter(o, longest, groups, { bucket: !!r.bucket, bd: !!r.bd });
  // A large funnel walks for a while on the event loop: it lets other requests in every few ms.
  const turn = slicer(checkpoint);
  for (let g = 0; g < groups; g++) {
    if ((g & 63) === 0) await turn();
    counter.person(r, start[g]!, start[g + 1]!);
  }
  return counter.result();
}

/**
 * The counted attempts person by person: {@link person} takes one person's rows (any of a
 * FunnelRows, rows of other persons never in between), {@link result} the attempts so far.
 */
export class AttemptCounter {
  private readonly out: CountedAttempts;
  private ev: Int32Array;
  private xs: Int32Array;
  private readonly next: Int32Array;
  private readonly cur: Float64Array;
  // The person's best attempt so far per bucket of its start (one slot without buckets): the
  // buckets of a person's starts, in time order, mostly repeat the last one.
  private readonly slotBucket: number[] = [];
  private readonly slotN: number[] = [];
  private readonly slotRow: number[] = [];
  private readonly slotTimes: number[] = [];
  /** The events an attempt starts at: any step's, or step 1's. */
  private readonly opens: number;

  /** `longest`: room for this many rows of one person at first; `persons`: for this many attempts (both grow). */
  constructor(
    private readonly o: FunnelPassOptions,
    longest: number,
    persons: number,
    withs: { bucket: boolean; bd: boolean },
  ) {
    const S = o.steps;
    this.out = {
      count: 0,
      steps: S,
      person: new Int32Array(persons),
      reached: new Int32Array(persons),
      times: new Float64Array(persons * S),
      bucket: withs.bucket ? new Float64Array(persons) : null,
      bd: withs.bd ? [] : null,
    };
    this.ev = new Int32Array(longest);
    this.xs = new Int32Array(longest);
    this.next = new Int32Array(S);
    this.cur = new Float64Array(S);
    this.opens = o.order === 'unordered' ? -1 : 1;
  }

  /** Counts the attempts of the person whose rows are `from` … `to` of `r`. */
  person(r: FunnelRows, from: number, to: number): void {
    if (to - from > this.ev.length) {
      this.ev = new Int32Array(to - from);
      this.xs = new Int32Array(to - from);
    }
    const { o, ev, xs, next, cur, slotBucket, slotN, slotRow, slotTimes, opens, out } = this;
    const S = o.steps;
    let m = 0;
    let nx = 0;
    for (let i = from; i < to; i++) {
      if (r.role && r.role[i] === 1) xs[nx++] = i;
      else ev[m++] = i;
    }
    sortEvents(r, ev, m);
    for (let k = 0; k < S; k++) next[k] = 0;
    let slots = 0;
    let slot = -1;
    for (let i = 0; i < m; i++) {
      if (!(r.steps[ev[i]!]! & opens)) continue;
      const bucket = r.bucket ? r.bucket[ev[i]!]! : 0;
      if (slot < 0 || slotBucket[slot] !== bucket) {
        slot = slotBucket.indexOf(bucket);
        if (slot < 0 || slot >= slots) {
          slot = slots++;
          slotBucket[slot] = bucket;
          slotN[slot] = 0;
        }
      }
      const n = attempt(r, ev, m, i, o, next, cur);
      if (n > slotN[slot]!) {
        slotN[slot] = n;
        slotRow[slot] = ev[i]!;
        for (let k = 0; k < n; k++) slotTimes[slot * S + k] = cur[k]!;
        if (n === S && !r.bucket) break; // the first start reaching every step
      }
    }
    for (let b = 0; b < slots; b++) {
      const n = slotN[b]!;
      if (nx > 0 && excluded(r, xs, nx, slotTimes, b * S, n, o)) continue;
      reserve(out, out.count + 1);
      const c = out.count++;
      const row = slotRow[b]!;
      out.person[c] = r.person[row]!;
      out.reached[c] = n;
      for (let k = 0; k < n; k++) out.times[c * S + k] = slotTimes[b * S + k]!;
      if (out.bucket) out.bucket[c] = r.bucket![row]!;
      out.bd?.push(r.bd![row]!);
    }
  }

  result(): CountedAttempts {
    return this.out;
  }
}
