import { actorOf } from './groups.ts';
import { partsReader, type RefBreakdownPart } from './breakdown-parts.ts';
import type { ReferenceEvent } from '../../../server/analytics/types.ts';

/**
 * Reference retention (plain loops, clarity over speed). Times are UTC; buckets are UTC
 * calendar units (the property tests run with a UTC project).
 *
 * Rules (docs/api.md + server/analytics/engines/retention.ts):
 * - Cohorts are `total_intervals` periods; the last one is the period containing `dateTo`.
 * - first-time: a person's cohort is the period of their first-ever target event (all time);
 *   recurring: a person is in every cohort period in which they did the target event.
 * - values[0] = cohort size; values[j] = persons of the cohort who did the returning event in
 *   period cohort + j. Only periods up to the last cohort exist (a triangle).
 */

export type Period = 'Hour' | 'Day' | 'Week' | 'Month';

export interface RefRetentionInput {
  events: readonly ReferenceEvent[];
  target: (e: ReferenceEvent) => boolean;
  returning: (e: ReferenceEvent) => boolean;
  /** Global filters (properties, test accounts). */
  filter?: (e: ReferenceEvent) => boolean;
  firstTime: boolean;
  period: Period;
  totalIntervals: number;
  /** ms, UTC. */
  dateTo: number;
  weekStartDay?: 0 | 1;
  /**
   * The breakdown value of an event (null: none), and how many values keep their own group; or
   * several breakdowns, or a binned one, as `parts` (their bins span the numbers of the events
   * that put persons in cohorts).
   */
  breakdown?: {
    read?: (e: ReferenceEvent) => string | null;
    parts?: RefBreakdownPart[];
    several?: boolean;
    limit: number;
  };
}

/** One breakdown group's cohorts: `value` the value, or 'None' / 'Other' (null without a breakdown). */
export interface RefRetentionGroup {
  value: string | null;
  cohorts: RefRetentionCohort[];
}

export interface RefRetentionCohort {
  /** Cohort start, ms UTC. */
  start: number;
  values: number[];
}

const DAY = 86_400_000;

/** Start of the UTC period containing `t`. */
export function periodStart(t: number, period: Period, weekStartDay: 0 | 1 = 0): number {
  const d = new Date(t);
  switch (period) {
    case 'Hour':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
    case 'Day':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'Week': {
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      const back = (d.getUTCDay() - weekStartDay + 7) % 7;
      return day - back * DAY;
    }
    case 'Month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

/** `start` moved by `n` periods. */
export function addPeriods(start: number, period: Period, n: number): number {
  const d = new Date(start);
  switch (period) {
    case 'Hour':
      return start + n * 3_600_000;
    case 'Day':
      return start + n * DAY;
    case 'Week':
      return start + n * 7 * DAY;
    case 'Month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
  }
}

/** Index of the period containing `t`, counted from the period starting at `first` (may be < 0). */
export function periodIndex(t: number, first: number, period: Period, weekStartDay: 0 | 1 = 0): number {
  const s = periodStart(t, period, weekStartDay);
  if (period === 'Month') {
    const a = new Date(first);
    const b = new Date(s);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  }
  const size = period === 'Hour' ? 3_600_000 : period === 'Day' ? DAY : 7 * DAY;
  return Math.round((s - first) / size);
}

/** Events in time order, ties by uuid: which target event put a person in a cohort. */
const byTime = (a: ReferenceEvent, b: ReferenceEvent) =>
  a.timestamp - b.timestamp || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);

/**
 * Retention by breakdown value: a person's place in cohort i goes to the group of the value at
 * the target event that put them there (first-time: their first ever; recurring: their first in
 * period i). The `limit` values with the most places (then by text) keep their group, then
 * None, then Other.
 */
export function referenceRetentionGroups(input: RefRetentionInput): RefRetentionGroup[] {
  const bd = input.breakdown;
  if (!bd) return [{ value: null, cohorts: referenceRetention(input) }];
  const n = input.totalIntervals;
  const week = input.weekStartDay ?? 0;
  const last = periodStart(input.dateTo, input.period, week);
  const first = addPeriods(last, input.period, -(n - 1));
  const kept = input.events.filter((e) => input.filter?.(e) ?? true).sort(byTime);
  const index = (t: number) => periodIndex(t, first, input.period, week);
  // places: person → cohort index → the event that put them there
  const events = new Map<string, Map<number, ReferenceEvent>>();
  const seen = new Set<string>();
  for (const e of kept) {
    if (!input.target(e)) continue;
    const person = actorOf(e);
    if (input.firstTime) {
      if (seen.has(person)) continue;
      seen.add(person);
    }
    const i = index(e.timestamp);
    if (i < 0 || i >= n) continue;
    const mine = events.get(person) ?? new Map<number, ReferenceEvent>();
    if (!mine.has(i)) mine.set(i, e);
    events.set(person, mine);
  }
  const read = bd.parts
    ? partsReader(
        bd.parts,
        bd.several ?? false,
        [...events.values()].flatMap((m) => [...m.values()]),
      )
    : bd.read!;
  // places: person → cohort index → value
  const places = new Map(
    [...events].map(([person, mine]) => [person, new Map([...mine].map(([i, e]) => [i, read(e)]))] as const),
  );
  const counts = new Map<string, number>();
  for (const mine of places.values())
    for (const v of mine.values()) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([v]) => v);
  const top = new Set(ranked.slice(0, bd.limit));
  const groupOf = (v: string | null) => (v === null ? 'None' : top.has(v) ? v : 'Other');
  const groups = [...ranked.slice(0, bd.limit), 'None', 'Other'];
  const out: RefRetentionGroup[] = [];
  for (const g of groups) {
    const members = new Set<string>();
    const inGroup = (person: string, i: number) =>
      places.has(person) && places.get(person)!.has(i) && groupOf(places.get(person)!.get(i)!) === g;
    for (const [person, mine] of places)
      for (const [i, v] of mine) if (groupOf(v) === g) members.add(`${person}\u0000${i}`);
    if (members.size === 0) continue;
    const cohorts = referenceRetention({ ...input, breakdown: undefined, inCohort: (person, i) => inGroup(person, i) });
    out.push({ value: g, cohorts });
  }
  return out;
}

export function referenceRetention(
  input: RefRetentionInput & { inCohort?: (person: string, i: number) => boolean },
): RefRetentionCohort[] {
  const n = input.totalIntervals;
  const week = input.weekStartDay ?? 0;
  const last = periodStart(input.dateTo, input.period, week);
  const first = addPeriods(last, input.period, -(n - 1));
  const kept = input.events.filter((e) => input.filter?.(e) ?? true);
  const index = (e: ReferenceEvent) => periodIndex(e.timestamp, first, input.period, week);
  const inRange = (i: number) => i >= 0 && i < n;

  // cohorts[i] = persons in cohort i
  const cohorts: Set<string>[] = Array.from({ length: n }, () => new Set<string>());
  if (input.firstTime) {
    const firstSeen = new Map<string, number>();
    for (const e of kept) {
      if (!input.target(e)) continue;
      const seen = firstSeen.get(actorOf(e));
      if (seen === undefined || e.timestamp < seen) firstSeen.set(actorOf(e), e.timestamp);
    }
    for (const [person, t] of firstSeen) {
      const i = periodIndex(t, first, input.period, week);
      if (inRange(i)) cohorts[i]!.add(person);
    }
  } else {
    for (const e of kept) {
      const i = index(e);
      if (input.target(e) && inRange(i)) cohorts[i]!.add(actorOf(e));
    }
  }

  // returned[p] = persons who did the returning event in period p
  const returned: Set<string>[] = Array.from({ length: n }, () => new Set<string>());
  for (const e of kept) {
    const i = index(e);
    if (input.returning(e) && inRange(i)) returned[i]!.add(actorOf(e));
  }

  // A breakdown group keeps only its own places.
  if (input.inCohort)
    cohorts.forEach((members, i) => {
      for (const person of members) if (!input.inCohort!(person, i)) members.delete(person);
    });
  const result: RefRetentionCohort[] = [];
  for (let i = 0; i < n; i++) {
    const values = [cohorts[i]!.size];
    for (let j = 1; i + j < n; j++) {
      let count = 0;
      for (const person of cohorts[i]!) if (returned[i + j]!.has(person)) count++;
      values.push(count);
    }
    result.push({ start: addPeriods(first, input.period, i), values });
  }
  return result;
}
