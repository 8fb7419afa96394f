import type { BatchExportInterval } from '../../src/contract/index.ts';
import type { BatchExportRow } from '../store/batch-exports.ts';
import { firstRunEnd, iso } from './intervals.ts';

/**
 * The pause rules of a batch export, in one place for every path that changes `paused`
 * (create, PATCH, pause/, unpause/) and for the scheduler's cursor:
 * - pausing stamps `last_paused_at`; pausing a paused export changes nothing;
 * - unpausing resumes at the next interval boundary: the intervals missed while paused get no
 *   runs (`next_run_at` moves to the end of the first interval from now on, not before start_at);
 * - each change writes one log entry ({@link pauseLogMessage}).
 */

/** The end of the first interval the scheduler runs from `nowMs` on (no catch-up, not before start_at). */
export const nextRunAt = (interval: BatchExportInterval, startAt: string | null, nowMs: number): string =>
  iso(firstRunEnd(interval, nowMs, startAt));

type PauseFields = Pick<
  BatchExportRow,
  'interval' | 'start_at' | 'paused' | 'last_paused_at' | 'next_run_at' | 'last_updated_at'
>;

/** `row` paused or unpaused at `now`; `row` itself when it already is. */
export function withPaused<R extends PauseFields>(row: R, paused: boolean, now: Date): R {
  if ((row.paused === 1) === paused) return row;
  const at = now.toISOString();
  return paused
    ? { ...row, paused: 1, last_paused_at: at, last_updated_at: at }
    : { ...row, paused: 0, next_run_at: nextRunAt(row.interval, row.start_at, now.getTime()), last_updated_at: at };
}

/** The log entry of a pause or unpause, written by whichever endpoint did it (`row`: after the change). */
export function pauseLogMessage(row: Pick<BatchExportRow, 'paused' | 'next_run_at'>): string {
  if (row.paused === 1) return 'Export paused.';
  return row.next_run_at
    ? `Export unpaused: the next run covers the interval ending ${row.next_run_at}.`
    : 'Export unpaused.';
}
