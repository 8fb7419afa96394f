import { BATCH_EXPORT_INTERVAL_MS, type BatchExportInterval } from '../../src/contract/index.ts';

/**
 * Interval arithmetic of batch exports, in UTC milliseconds. Intervals are aligned: hours on
 * the hour, days at midnight UTC, weeks on Monday midnight UTC, five minutes on :00, :05, …
 */
const WEEK_ORIGIN = Date.UTC(1970, 0, 5); // a Monday

const origin = (interval: BatchExportInterval) => (interval === 'week' ? WEEK_ORIGIN : 0);

/** The start of the interval holding `ms`. */
export function alignDown(interval: BatchExportInterval, ms: number): number {
  const size = BATCH_EXPORT_INTERVAL_MS[interval];
  const o = origin(interval);
  return Math.floor((ms - o) / size) * size + o;
}

/** The first boundary at or after `ms`. */
export function alignUp(interval: BatchExportInterval, ms: number): number {
  const down = alignDown(interval, ms);
  return down === ms ? ms : down + BATCH_EXPORT_INTERVAL_MS[interval];
}

/**
 * The end of the first interval the scheduler creates a run for, from `now` on: the next
 * boundary after now (no catch-up of the past), and not before `start_at`.
 */
export function firstRunEnd(interval: BatchExportInterval, now: number, startAt: string | null): number {
  const next = alignDown(interval, now) + BATCH_EXPORT_INTERVAL_MS[interval];
  return startAt === null ? next : Math.max(next, alignUp(interval, Date.parse(startAt)));
}

export interface DataInterval {
  start: number;
  end: number;
}

/**
 * The aligned intervals of a backfill: every interval overlapping [start, end), oldest first,
 * leaving out any interval that has not ended by `now` (the scheduler covers those).
 */
export function backfillIntervals(interval: BatchExportInterval, start: number, end: number, now: number): DataInterval[] {
  const size = BATCH_EXPORT_INTERVAL_MS[interval];
  const out: DataInterval[] = [];
  for (let s = alignDown(interval, start); s < end && s + size <= now; s += size) out.push({ start: s, end: s + size });
  return out;
}

export const iso = (ms: number) => new Date(ms).toISOString();
