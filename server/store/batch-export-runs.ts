import type { BatchExportRunStatus } from '../../src/contract/index.ts';
import type { Db } from './db.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import { newUuid } from './secrets.ts';

export interface BatchExportRunRow {
  id: string;
  batch_export_id: string;
  status: BatchExportRunStatus;
  records_completed: number | null;
  records_total_count: number | null;
  latest_error: string | null;
  data_interval_start: string | null;
  data_interval_end: string;
  cursor: string | null;
  /** Delivery attempts made so far (retries of a FailedRetryable run). */
  attempts: number;
  /** The backfill (or retry) that made the run; null for a scheduled run. */
  backfill_id: string | null;
  created_at: string;
  finished_at: string | null;
  last_updated_at: string;
}

export interface NewRun {
  batch_export_id: string;
  data_interval_start: string;
  data_interval_end: string;
  status?: BatchExportRunStatus;
  records_completed?: number | null;
  records_total_count?: number | null;
  latest_error?: string | null;
  finished_at?: string | null;
  id?: string;
  backfill_id?: string | null;
}

export type RunProgress = Pick<
  BatchExportRunRow,
  'status' | 'records_completed' | 'records_total_count' | 'latest_error' | 'finished_at' | 'attempts'
>;

export interface BatchExportLogRow {
  timestamp: string;
  level: string;
  message: string;
  run_id: string | null;
}

export function createBatchExportRunsRepository(db: Db) {
  const insert =
    db.prepare(`INSERT INTO batch_export_runs (id, batch_export_id, status, records_completed, records_total_count,
      latest_error, data_interval_start, data_interval_end, created_at, finished_at, last_updated_at, backfill_id)
    VALUES (@id, @batch_export_id, @status, @records_completed, @records_total_count,
      @latest_error, @data_interval_start, @data_interval_end, @at, @finished_at, @at, @backfill_id)`);
  const list = db.prepare<
    Record<string, unknown>,
    BatchExportRunRow
  >(`SELECT * FROM batch_export_runs WHERE batch_export_id = @export
    ORDER BY created_at DESC, rowid DESC ${LIMIT_OFFSET}`);
  const count = db
    .prepare<unknown[], number>('SELECT COUNT(*) FROM batch_export_runs WHERE batch_export_id = ?')
    .pluck();
  const byId = db.prepare<unknown[], BatchExportRunRow>('SELECT * FROM batch_export_runs WHERE id = ?');
  const nextStarting = db.prepare<unknown[], BatchExportRunRow>(
    "SELECT * FROM batch_export_runs WHERE status = 'Starting' ORDER BY rowid LIMIT 1",
  );
  const progress = db.prepare(`UPDATE batch_export_runs SET status = @status, records_completed = @records_completed,
      records_total_count = @records_total_count, latest_error = @latest_error, finished_at = @finished_at,
      attempts = @attempts, last_updated_at = @at
    WHERE id = @id`);
  const requeue = db.prepare(`UPDATE batch_export_runs SET status = 'Starting', last_updated_at = ?
    WHERE status IN ('Running', 'FailedRetryable')`);

  return {
    create(run: NewRun, at: string): string {
      const id = run.id ?? newUuid();
      insert.run({
        id,
        batch_export_id: run.batch_export_id,
        status: run.status ?? 'Starting',
        records_completed: run.records_completed ?? null,
        records_total_count: run.records_total_count ?? null,
        latest_error: run.latest_error ?? null,
        data_interval_start: run.data_interval_start,
        data_interval_end: run.data_interval_end,
        finished_at: run.finished_at ?? null,
        at,
        backfill_id: run.backfill_id ?? null,
      });
      return id;
    },
    /** Newest first. */
    listForExport(exportId: string, limit: number, offset: number): BatchExportRunRow[] {
      return list.all({ export: exportId, limit, offset });
    },
    countForExport(exportId: string): number {
      return count.get(exportId)!;
    },
    get(id: string): BatchExportRunRow | undefined {
      return byId.get(id);
    },
    /** The oldest run waiting to execute, of any export. */
    nextStarting(): BatchExportRunRow | undefined {
      return nextStarting.get();
    },
    setProgress(id: string, p: RunProgress, at: string): void {
      progress.run({ id, at, ...p });
    },
    /** Runs interrupted by a stop (Running, or waiting for a retry) start again. */
    requeueInterrupted(at: string): number {
      return requeue.run(at).changes;
    },
  };
}

export function createBatchExportLogsRepository(db: Db) {
  // The EXISTS guard: a run finishing after its export was deleted writes nothing (no FK error).
  const insert = db.prepare(`INSERT INTO batch_export_logs (batch_export_id, run_id, timestamp, level, message)
    SELECT @export, @run, @at, @level, @message WHERE EXISTS (SELECT 1 FROM batch_exports WHERE id = @export)`);
  const FILTER = `batch_export_id = @export
    AND (@levels IS NULL OR level IN (SELECT value FROM json_each(@levels)))
    AND (@run IS NULL OR run_id = @run)`;
  const list = db.prepare<
    Record<string, unknown>,
    BatchExportLogRow
  >(`SELECT timestamp, level, message, run_id FROM batch_export_logs WHERE ${FILTER}
    ORDER BY id DESC ${LIMIT_OFFSET}`);
  const count = db
    .prepare<Record<string, unknown>, number>(`SELECT COUNT(*) FROM batch_export_logs WHERE ${FILTER}`)
    .pluck();
  const filter = (exportId: string, levels: readonly string[] | null, runId: string | null) => ({
    export: exportId,
    levels: levels === null ? null : JSON.stringify(levels),
    run: runId,
  });

  return {
    add(exportId: string, runId: string | null, level: string, message: string, at: string): void {
      insert.run({ export: exportId, run: runId, level, message, at });
    },
    /** Newest first; `levels` and `runId` filter when given. */
    list(
      exportId: string,
      levels: readonly string[] | null,
      runId: string | null,
      limit: number,
      offset: number,
    ): BatchExportLogRow[] {
      return list.all({ ...filter(exportId, levels, runId), limit, offset });
    },
    count(exportId: string, levels: readonly string[] | null, runId: string | null): number {
      return count.get(filter(exportId, levels, runId))!;
    },
  };
}
