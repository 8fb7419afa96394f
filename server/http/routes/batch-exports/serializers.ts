import {
  redactDestination,
  type Backfill,
  type BatchExport,
  type BatchExportLogEntry,
  type BatchExportRun,
} from '../../../../src/contract/index.ts';
import { backfillState } from '../../../batch-exports/backfills.ts';
import type { BatchExportBackfillViewRow } from '../../../store/batch-export-backfills.ts';
import type { BatchExportLogRow, BatchExportRunRow } from '../../../store/batch-export-runs.ts';
import type { BatchExportViewRow } from '../../../store/batch-exports.ts';

/** A stored export → the API's BatchExport: the destination's secrets are left out, always. */
export function batchExportResponse(row: BatchExportViewRow): BatchExport {
  const config = JSON.parse(row.destination_config) as Record<string, unknown>;
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    model: row.model,
    destination: redactDestination({ type: row.destination_type, config }),
    interval: row.interval,
    paused: row.paused === 1,
    created_at: row.created_at,
    last_updated_at: row.last_updated_at,
    last_paused_at: row.last_paused_at,
    start_at: row.start_at,
    end_at: row.end_at,
    latest_runs: JSON.parse(row.latest_runs) as BatchExportRun[],
    hogql_query: row.hogql_query,
    schema: null,
  };
}

/** Same fields, same order as the `latest_runs` JSON built in SQL (RUN_JSON). */
export function batchExportRunResponse(row: BatchExportRunRow): BatchExportRun {
  return {
    id: row.id,
    status: row.status,
    records_completed: row.records_completed,
    latest_error: row.latest_error,
    data_interval_start: row.data_interval_start,
    data_interval_end: row.data_interval_end,
    cursor: row.cursor,
    created_at: row.created_at,
    finished_at: row.finished_at,
    last_updated_at: row.last_updated_at,
    records_total_count: row.records_total_count,
    batch_export: row.batch_export_id,
    backfill: row.backfill_id,
  };
}

export const batchExportLogResponse = (row: BatchExportLogRow): BatchExportLogEntry => ({
  timestamp: row.timestamp,
  level: row.level,
  message: row.message,
  run_id: row.run_id,
});

/** A stored backfill with its runs' counts → the API's backfill (status and progress from its runs). */
export function backfillResponse(row: BatchExportBackfillViewRow): Backfill {
  const { status, finished_at, last_updated_at } = backfillState(row);
  return {
    id: row.id,
    progress: {
      total_runs: row.total_runs,
      finished_runs: row.finished_runs,
      progress: row.total_runs === 0 ? 1 : row.finished_runs / row.total_runs,
      records_completed: row.records_completed,
    },
    start_at: row.start_at,
    end_at: row.end_at,
    status,
    created_at: row.created_at,
    finished_at,
    last_updated_at,
    total_records_count: row.records_total_count,
    team: row.team_id,
    batch_export: row.batch_export_id,
  };
}
