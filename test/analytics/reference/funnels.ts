import type { ReferenceEvent } from '../../../server/analytics/types.ts';
import { actorOf } from './groups.ts';
import { periodIndex, periodStart, type Period } from './retention.ts';
import { partsReader, type RefBreakdownPart } from './breakdown-parts.ts';

/**
 * Reference funnels (plain loops over arrays, clarity over speed). Rules (docs/api.md, with
 * the choices documented in server/analytics/engines/funnels.ts):
 * - Only events inside [start of the day (UTC) holding `from`, to] that pass the global filter
 *   take part (docs/api.md: a range starts at the start of date_from's bucket, day unless the
 *   funnel's interval says otherwise). A person's events are ordered by timestamp, then (at one
 *   instant) by the first step the event matches (-1 for none), then uuid: a later step at the
 *   same instant as an earlier one counts as converted (the production service's rule).
 * - An attempt starts at an event matching step 1; the window deadline is start + window
 *   (inclusive; months are calendar months in UTC, clamped to the month's last day).
 * - ordered: step k+1 is the first event after step k's event matching step k+1 (greedy);
 *   strict: it must be the very next event; unordered: for each step, the first matching event
 *   at or after the anchor (the anchor matches any step); the found times, sorted, are the steps.
 * - A person's attempt is the one reaching the furthest step; ties: the first start, in every
 *   order type (docs/api.md: conversion times come from it).
 * - Exclusions are checked on that attempt and drop the person entirely.
 */

export type WindowUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month';
export type OrderType = 'ordered' | 'strict' | 'unordered';
type Pred = (e: ReferenceEvent) => boolean;

export interface RefFunnelInput {
  events: readonly ReferenceEvent[];
  steps: Pred[];
  /** date_from's exact instant: the range starts at the start of its `interval` bucket (UTC). */
  from: number;
  to: number;
  /** The funnel's interval (day unless given). */
  interval?: Period;
  window: { interval: number; unit: WindowUnit };
  order: OrderType;
  exclusions?: { match: Pred; from: number; to: number }[];
  filter?: Pred;
  /** `read` (session and HogQL breakdowns): the text of an attempt's start event, else the property `key`. */
  breakdown?: {
    type: 'event' | 'person' | 'session' | 'hogql';
    key: string;
    limit: number;
    read?: (e: ReferenceEvent) => string | null;
    /**
     * Several breakdowns, or a binned one: each part's text of the attempt's start event, in
     * `bins` equal-width bins over the numbers of the events that may start an attempt (a first
     * step's; unordered: any step's) when given; several join their values, a missing one None.
     */
    parts?: RefBreakdownPart[];
    several?: boolean;
  };
}

export interface RefAttempt {
  person: string;
  /** Timestamps (ms) of the reached steps; length = steps reached. */
  times: number[];
  start: ReferenceEvent;
}

export interface RefStep {
  count: number;
  average: number | null;
  median: number | null;
}
export interface RefGroup {
  value: string | null;
  steps: RefStep[];
}

const UNIT_MS: Record<Exclude<WindowUnit, 'month'>, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

/**
 * The last instant (inclusive) at which an attempt started at `t` may still convert. Months:
 * step to the first of the month `interval` months on (time of day kept), then to the same
 * day, or the month's last day when it is shorter.
 */
export function deadline(t: number, window: RefFunnelInput['window']): number {
  if (window.unit !== 'month') return t + window.interval * UNIT_MS[window.unit];
  const d = new Date(t);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + window.interval);
  const daysInMonth = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, daysInMonth));
  return d.getTime();
}

/** Time order of one funnel's events: timestamp, then the first step matched (none: -1), then uuid. */
export const byTime = (steps: readonly Pred[]) => {
  const rank = (e: ReferenceEvent) => steps.findIndex((s) => s(e));
  return (a: ReferenceEvent, b: ReferenceEvent) =>
    a.timestamp - b.timestamp || rank(a) - rank(b) || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);
};

/** The first instant of the range: the start of the (UTC) bucket holding `from`. */
export const rangeStart = (input: Pick<RefFunnelInput, 'from' | 'interval'>): number =>
  periodStart(input.from, input.interval ?? 'Day');

/** Each person's kept events, in {@link byTime} order. */
export function eventsByPerson(
  input: Pick<RefFunnelInput, 'events' | 'from' | 'to' | 'filter' | 'interval' | 'steps'>,
): Map<string, ReferenceEvent[]> {
  const map = new Map<string, ReferenceEvent[]>();
  const start = rangeStart(input);
  for (const e of input.events) {
    if (e.timestamp < start || e.timestamp > input.to) continue;
    if (input.filter && !input.filter(e)) continue;
    const list = map.get(actorOf(e)) ?? [];
    list.push(e);
    map.set(actorOf(e), list);
  }
  const order = byTime(input.steps);
  for (const list of map.values()) list.sort(order);
  return map;
}

/** Every attempt of one person (one per start event), in start order. */
export function attemptsOf(person: string, evs: ReferenceEvent[], input: RefFunnelInput): RefAttempt[] {
  const { steps } = input;
  const attempts: RefAttempt[] = [];
  for (let i = 0; i < evs.length; i++) {
    const start = evs[i]!;
    const limit = deadline(start.timestamp, input.window);
    if (input.order === 'unordered') {
      if (!steps.some((s) => s(start))) continue;
      const found: number[] = [];
      for (const step of steps) {
        const hit = evs.slice(i).find((e) => step(e) && e.timestamp <= limit);
        if (hit) found.push(hit.timestamp);
      }
      attempts.push({ person, times: found.sort((a, b) => a - b), start });
      continue;
    }
    if (!steps[0]!(start)) continue;
    const times = [start.timestamp];
    let at = i;
    for (let k = 1; k < steps.length; k++) {
      let next = -1;
      if (input.order === 'strict') {
        if (at + 1 < evs.length && steps[k]!(evs[at + 1]!)) next = at + 1;
      } else {
        for (let j = at + 1; j < evs.length; j++)
          if (steps[k]!(evs[j]!)) {
            next = j;
            break;
          }
      }
      if (next < 0 || evs[next]!.timestamp > limit) break;
      times.push(evs[next]!.timestamp);
      at = next;
    }
    attempts.push({ person, times, start });
  }
  return attempts;
}

/** The attempt reaching the furthest step; ties: the first (attempts come in start order). */
export function bestAttempt(attempts: RefAttempt[]): RefAttempt | undefined {
  let best: RefAttempt | undefined;
  for (const a of attempts) if (!best || a.times.length > best.times.length) best = a;
  return best;
}

/** True when one of the exclusions drops this attempt's person. */
export function isExcluded(a: RefAttempt, evs: ReferenceEvent[], input: RefFunnelInput): boolean {
  for (const x of input.exclusions ?? []) {
    const reached = a.times.length;
    if (reached <= x.from) continue;
    const lo = a.times[x.from]!;
    const hi = reached > x.to ? a.times[x.to]! : deadline(lo, input.window);
    const inside = (t: number) => (reached > x.to ? t > lo && t < hi : t > lo && t <= hi);
    if (evs.some((e) => x.match(e) && inside(e.timestamp))) return true;
  }
  return false;
}

const partsValues = new WeakMap<RefFunnelInput, (e: ReferenceEvent) => string | null>();

/** The value of an event under `breakdown.parts` (its bins' spans computed once per input). */
function partsValue(input: RefFunnelInput): (e: ReferenceEvent) => string | null {
  const known = partsValues.get(input);
  if (known) return known;
  const starts = input.order === 'unordered' ? input.steps : input.steps.slice(0, 1);
  const candidates = [...eventsByPerson(input).values()].flat().filter((e) => starts.some((s) => s(e)));
  const fn = partsReader(input.breakdown!.parts!, input.breakdown!.several ?? false, candidates);
  partsValues.set(input, fn);
  return fn;
}

/** The breakdown value of an attempt, as text; null when the property is missing. */
export function breakdownValue(a: RefAttempt, input: RefFunnelInput): string | null {
  const b = input.breakdown;
  if (!b) return null;
  if (b.parts) return partsValue(input)(a.start);
  if (b.read) return b.read(a.start);
  const v = (b.type === 'event' ? a.start.properties : a.start.person_properties)[b.key];
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export function stepStats(attempts: RefAttempt[], stepCount: number): RefStep[] {
  const out: RefStep[] = [];
  for (let k = 0; k < stepCount; k++) {
    const reached = attempts.filter((a) => a.times.length > k);
    const gaps = k === 0 ? [] : reached.map((a) => (a.times[k]! - a.times[k - 1]!) / 1000);
    out.push({
      count: reached.length,
      average: gaps.length ? gaps.reduce((s, x) => s + x, 0) / gaps.length : null,
      median: gaps.length ? median(gaps) : null,
    });
  }
  return out;
}

/** Values ranked by count desc (then text); the top `limit` kept, the rest "Other", missing "None". */
export function rankGroups(counts: Map<string | null, number>, limit: number): (value: string | null) => string {
  const ranked = [...counts.entries()]
    .filter(([v]) => v !== null)
    .sort((a, b) => b[1] - a[1] || (a[0]! < b[0]! ? -1 : 1))
    .slice(0, limit)
    .map(([v]) => v as string);
  const kept = new Set(ranked);
  return (value) => (value === null ? 'None' : kept.has(value) ? value : 'Other');
}

/** Result order of groups: ranked values, then "Other", then "None". */
export function orderGroups(sizes: Map<string, number>, counts: Map<string | null, number>): string[] {
  const rank = (v: string) => (v === 'None' && !counts.has('None') ? 2 : v === 'Other' && !counts.has('Other') ? 1 : 0);
  return [...sizes.keys()].sort((a, b) => rank(a) - rank(b) || sizes.get(b)! - sizes.get(a)! || (a < b ? -1 : 1));
}

/** The persons' counted attempts (after exclusions). */
export function countedAttempts(input: RefFunnelInput): RefAttempt[] {
  const out: RefAttempt[] = [];
  for (const [person, evs] of eventsByPerson(input)) {
    const best = bestAttempt(attemptsOf(person, evs, input));
    if (best && !isExcluded(best, evs, input)) out.push(best);
  }
  return out;
}

/** Steps viz: one group (value null) without a breakdown, else one per breakdown value. */
export function referenceFunnel(input: RefFunnelInput): RefGroup[] {
  const counted = countedAttempts(input);
  if (!input.breakdown) return [{ value: null, steps: stepStats(counted, input.steps.length) }];
  const counts = new Map<string | null, number>();
  for (const a of counted) counts.set(breakdownValue(a, input), (counts.get(breakdownValue(a, input)) ?? 0) + 1);
  const label = rankGroups(counts, input.breakdown.limit);
  const groups = new Map<string, RefAttempt[]>();
  for (const a of counted) {
    const g = label(breakdownValue(a, input));
    groups.set(g, [...(groups.get(g) ?? []), a]);
  }
  const sizes = new Map([...groups].map(([g, list]) => [g, list.length]));
  return orderGroups(sizes, counts).map((g) => ({ value: g, steps: stepStats(groups.get(g)!, input.steps.length) }));
}

/**
 * The persons behind a step (1-based `step`; `-k`: reached step k − 1 but not step k), in the
 * breakdown group labelled `group` when the funnel has a breakdown.
 */
export function referenceFunnelPersons(input: RefFunnelInput, step: number, group?: string): string[] {
  let counted = countedAttempts(input);
  if (input.breakdown && group !== undefined) {
    const counts = new Map<string | null, number>();
    for (const a of counted) counts.set(breakdownValue(a, input), (counts.get(breakdownValue(a, input)) ?? 0) + 1);
    const label = rankGroups(counts, input.breakdown.limit);
    counted = counted.filter((a) => label(breakdownValue(a, input)) === group);
  }
  const k = Math.abs(step);
  return counted
    .filter((a) => (step > 0 ? a.times.length >= k : a.times.length === k - 1))
    .map((a) => a.person)
    .sort();
}

/** time_to_convert: times (s) from step `from` to step `to` (0-based) of the persons who reached `to`. */
export function referenceTimesToConvert(input: RefFunnelInput, from = 0, to = input.steps.length - 1): number[] {
  return countedAttempts(input)
    .filter((a) => a.times.length > to)
    .map((a) => (a.times[to]! - a.times[from]!) / 1000);
}

/** One series of the trends viz: a breakdown group (null without a breakdown) and its counts per period. */
export interface RefFunnelTrendSeries {
  value: string | null;
  entered: number[];
  converted: number[];
}

/**
 * trends viz: per period (UTC) of the start, persons entering (an attempt starting in it) and
 * converting (that period's best attempt reaches the last step); excluded attempts drop out.
 * With a breakdown, the value of each period's best attempt puts it in a group: the top
 * `limit` values by (person, period) entries, the rest "Other", missing "None"; series ordered
 * as the steps viz orders groups (by entries, then text; Other, then None last).
 */
export function referenceFunnelTrendSeries(
  input: RefFunnelInput,
  period: Period,
  weekStartDay: 0 | 1 = 0,
): RefFunnelTrendSeries[] {
  const first = periodStart(rangeStart(input), period, weekStartDay);
  const buckets = periodIndex(input.to, first, period, weekStartDay) + 1;
  const entries: { bucket: number; value: string | null; converted: boolean }[] = [];
  for (const [person, evs] of eventsByPerson(input)) {
    const attempts = attemptsOf(person, evs, input);
    for (let b = 0; b < buckets; b++) {
      const inBucket = attempts.filter((a) => periodIndex(a.start.timestamp, first, period, weekStartDay) === b);
      const best = bestAttempt(inBucket);
      if (!best || isExcluded(best, evs, input)) continue;
      entries.push({
        bucket: b,
        value: breakdownValue(best, input),
        converted: best.times.length === input.steps.length,
      });
    }
  }
  const counts = new Map<string | null, number>();
  for (const e of entries) counts.set(e.value, (counts.get(e.value) ?? 0) + 1);
  const label = input.breakdown ? rankGroups(counts, input.breakdown.limit) : () => 'None';
  const empty = (value: string | null): RefFunnelTrendSeries => ({
    value,
    entered: new Array<number>(buckets).fill(0),
    converted: new Array<number>(buckets).fill(0),
  });
  const series = new Map<string, RefFunnelTrendSeries>();
  for (const e of entries) {
    const g = label(e.value);
    const s = series.get(g) ?? empty(input.breakdown ? g : null);
    s.entered[e.bucket]! += 1;
    if (e.converted) s.converted[e.bucket]! += 1;
    series.set(g, s);
  }
  if (!input.breakdown) return [series.get('None') ?? empty(null)];
  const sizes = new Map([...series].map(([g, s]) => [g, s.entered.reduce((a, b) => a + b, 0)]));
  return orderGroups(sizes, counts).map((g) => series.get(g)!);
}
