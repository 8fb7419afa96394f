import type { Db } from './db.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import { newUuid } from './secrets.ts';

export interface BatchExportBackfillRow {
  id: string;
  batch_export_id: string;
  team_id: number;
  start_at: string;
  end_at: string;
  created_at: string;
  last_updated_at: string;
  /** Set by cancel/: its waiting runs were cancelled then. */
  cancelled_at: string | null;
}

/** A backfill with what its runs say: how many, how many done, how many failed, records. */
export interface BatchExportBackfillViewRow extends BatchExportBackfillRow {
  total_runs: number;
  finished_runs: number;
  active_runs: number;
  failed_runs: number;
  records_completed: number;
  records_total_count: number | null;
  runs_finished_at: string | null;
  runs_updated_at: string | null;
}

export type NewBackfill = Pick<BatchExportBackfillRow, 'batch_export_id' | 'team_id' | 'start_at' | 'end_at'>;

// One pass over the backfill's runs through (backfill_id, status): no query per backfill.
const VIEW = `SELECT b.*,
    COUNT(r.id) AS total_runs,
    COALESCE(SUM(r.status IN ('Completed', 'Failed', 'Cancelled', 'Terminated', 'TimedOut')), 0) AS finished_runs,
    COALESCE(SUM(r.status IN ('Starting', 'Running', 'FailedRetryable', 'ContinuedAsNew')), 0) AS active_runs,
    COALESCE(SUM(r.status IN ('Failed', 'Terminated', 'TimedOut')), 0) AS failed_runs,
    COALESCE(SUM(r.records_completed), 0) AS records_completed,
    SUM(r.records_total_count) AS records_total_count,
    MAX(r.finished_at) AS runs_finished_at,
    MAX(r.last_updated_at) AS runs_updated_at
  FROM batch_export_backfills b LEFT JOIN batch_export_runs r ON r.backfill_id = b.id`;

export function createBatchExportBackfillsRepository(db: Db) {
  const insert =
    db.prepare(`INSERT INTO batch_export_backfills (id, batch_export_id, team_id, start_at, end_at, created_at, last_updated_at)
    VALUES (@id, @batch_export_id, @team_id, @start_at, @end_at, @at, @at)`);
  const list = db.prepare<
    Record<string, unknown>,
    BatchExportBackfillViewRow
  >(`${VIEW} WHERE b.batch_export_id = @export
    GROUP BY b.id ORDER BY b.created_at DESC, b.rowid DESC ${LIMIT_OFFSET}`);
  const count = db
    .prepare<unknown[], number>('SELECT COUNT(*) FROM batch_export_backfills WHERE batch_export_id = ?')
    .pluck();
  const view = db.prepare<Record<string, unknown>, BatchExportBackfillViewRow>(
    `${VIEW} WHERE b.id = @id AND b.batch_export_id = @export GROUP BY b.id`,
  );
  const cancelRuns =
    db.prepare(`UPDATE batch_export_runs SET status = 'Cancelled', finished_at = @at, last_updated_at = @at
    WHERE backfill_id = @id AND status = 'Starting'`);
  const markCancelled = db.prepare(`UPDATE batch_export_backfills SET cancelled_at = @at, last_updated_at = @at
    WHERE id = @id AND cancelled_at IS NULL`);

  return {
    create(backfill: NewBackfill, at: string): string {
      const id = newUuid();
      insert.run({ ...backfill, id, at });
      return id;
    },
    /** Newest first. */
    listForExport(exportId: string, limit: number, offset: number): BatchExportBackfillViewRow[] {
      return list.all({ export: exportId, limit, offset });
    },
    countForExport(exportId: string): number {
      return count.get(exportId)!;
    },
    view(exportId: string, id: string): BatchExportBackfillViewRow | undefined {
      return view.get({ id, export: exportId });
    },
    /**
     * Cancels the backfill's runs that have not started (a run under way finishes) and marks it
     * cancelled; returns how many runs were cancelled. Cancelling twice changes nothing.
     */
    cancel(id: string, at: string): number {
      return db.transaction(() => {
        if (markCancelled.run({ id, at }).changes === 0) return 0;
        return cancelRuns.run({ id, at }).changes;
      })();
    },
  };
}
