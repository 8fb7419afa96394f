import type { BatchExportRunStatus, ConnectionTest, DestinationType } from '../../src/contract/index.ts';
import type { BatchExportBackfillViewRow } from '../store/batch-export-backfills.ts';
import type { BatchExportRow } from '../store/batch-exports.ts';
import type { Store } from '../store/store.ts';
import { describeFailure } from './destinations/check.ts';
import { destinationFor, type CheckStep, type DestinationOptions } from './destinations/index.ts';
import { iso, type DataInterval } from './intervals.ts';

/**
 * Backfills, retries and connection tests: what the backfill/, backfills/, retry/ and test/
 * endpoints share. A retry is a backfill of one run's interval, as in the production service.
 */

export interface StartedBackfill {
  backfillId: string;
  runIds: string[];
}

/** Stores a backfill of `range` with one waiting run per interval, linked to it (one transaction). */
export function startBackfill(
  store: Store,
  row: Pick<BatchExportRow, 'id' | 'team_id'>,
  range: { start_at: string; end_at: string },
  intervals: readonly DataInterval[],
  at: string,
): StartedBackfill {
  return store.transaction(() => {
    const backfillId = store.batchExportBackfills.create(
      { batch_export_id: row.id, team_id: row.team_id, ...range },
      at,
    );
    const runIds = intervals.map(({ start, end }) =>
      store.batchExportRuns.create(
        {
          batch_export_id: row.id,
          data_interval_start: iso(start),
          data_interval_end: iso(end),
          backfill_id: backfillId,
        },
        at,
      ),
    );
    return { backfillId, runIds };
  });
}

export interface BackfillState {
  status: Extract<BatchExportRunStatus, 'Running' | 'Completed' | 'Failed' | 'Cancelled'>;
  finished_at: string | null;
  last_updated_at: string;
}

/**
 * A backfill's status from its runs: Cancelled once cancelled (a run under way may still
 * finish), Running while a run waits or works, then Failed if any run failed, else Completed.
 */
export function backfillState(row: BatchExportBackfillViewRow): BackfillState {
  const updated =
    row.runs_updated_at !== null && row.runs_updated_at > row.last_updated_at
      ? row.runs_updated_at
      : row.last_updated_at;
  if (row.cancelled_at !== null)
    return { status: 'Cancelled', finished_at: row.cancelled_at, last_updated_at: updated };
  if (row.active_runs > 0) return { status: 'Running', finished_at: null, last_updated_at: updated };
  return {
    status: row.failed_runs > 0 ? 'Failed' : 'Completed',
    finished_at: row.runs_finished_at ?? row.created_at,
    last_updated_at: updated,
  };
}

/** A connection test's steps and whether all passed; a check that throws is a failed step, never a 500. */
export async function testConnection(
  type: DestinationType,
  config: Record<string, unknown>,
  options: DestinationOptions,
): Promise<ConnectionTest> {
  let steps: CheckStep[];
  try {
    steps = await destinationFor(type).check(config, options);
  } catch (error) {
    steps = [{ step: 'Connect', status: 'failed', detail: describeFailure(error) }];
  }
  return {
    steps: steps.map(({ step, status, detail }) => ({ step, status, detail })),
    ok: steps.length > 0 && steps.every((s) => s.status === 'passed'),
  };
}
