import { alignDown, BATCH_EXPORT_INTERVAL_MS, type BatchExportInterval } from '../../src/contract/index.ts';

/**
 * Interval arithmetic of batch exports, in UTC milliseconds. The alignment and a backfill's
 * intervals are the contract's (src/contract/batch-exports.ts), shared with the dashboard.
 */
export { alignDown, backfillIntervals, type DataInterval } from '../../src/contract/index.ts';

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

export const iso = (ms: number) => new Date(ms).toISOString();
