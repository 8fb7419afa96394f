import { BATCH_EXPORT_INTERVAL_MS, endpoints } from '../../../../src/contract/index.ts';
import { alignDown, backfillIntervals, iso } from '../../../batch-exports/intervals.ts';
import { startBackfill } from '../../../batch-exports/backfills.ts';
import { pauseLogMessage, withPaused } from '../../../batch-exports/pause.ts';
import type { BatchExportRow, BatchExportViewRow } from '../../../store/batch-exports.ts';
import type { AuthContext } from '../../auth.ts';
import { reachableOrganization } from '../../access.ts';
import { notFound, validationError } from '../../errors.ts';
import { JsonText } from '../../json-text.ts';
import { pageHead, pageJson, pageWindow, paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { createFields, updatedRow } from './input.ts';
import { registerBatchExportOperationRoutes } from './operations.ts';
import { batchExportLogResponse, batchExportResponse, batchExportRunResponse } from './serializers.ts';

const renderList = (rows: BatchExportViewRow[]) => JsonText.of(rows.map(batchExportResponse));

/** A backfill creates at most this many runs (one per interval). */
export const MAX_BACKFILL_RUNS = 1000;

/**
 * `{ORG}/batch_exports/`: every member of a reachable organization may read and write its
 * exports (the key's scopes decide). Another organization's export is a 404.
 */
export function registerBatchExportRoutes(router: Router, deps: Deps): void {
  const { store, now } = deps;
  const e = endpoints.batchExports;
  const exportOf = (auth: AuthContext, organizationId: string, id: string): BatchExportRow => {
    reachableOrganization(store, auth, organizationId);
    const row = store.batchExports.get(id);
    if (!row || row.organization_id !== organizationId) throw notFound();
    return row;
  };
  const view = (organizationId: string, id: string) => {
    const row = store.batchExports.view(organizationId, id);
    if (!row) throw notFound();
    return batchExportResponse(row);
  };

  // The page's results come from the read cache as JSON text: only the envelope is rendered here.
  router.route(e.list, ({ auth, params, query, url }) => {
    reachableOrganization(store, auth, params.organization_id);
    const window = pageWindow(query);
    const head = pageHead(url, window, store.batchExports.countForOrganization(params.organization_id));
    return pageJson(
      head,
      store.batchExports.listForOrganization(params.organization_id, window.limit, window.offset, renderList),
    );
  });

  router.route(e.create, ({ auth, params, body }) => {
    reachableOrganization(store, auth, params.organization_id);
    const at = now();
    const id = store.batchExports.create(
      params.organization_id,
      createFields(store, params.organization_id, body, at),
      at.toISOString(),
    );
    return view(params.organization_id, id);
  });

  router.route(e.retrieve, ({ auth, params }) => {
    exportOf(auth, params.organization_id, params.id);
    return view(params.organization_id, params.id);
  });

  // A PATCH of `paused` pauses or unpauses like the dedicated endpoints, with the same log entry.
  router.route(e.update, ({ auth, params, body }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    const at = now();
    const next = updatedRow(store, row, body, at);
    store.transaction(() => {
      store.batchExports.update(next);
      if (next.paused !== row.paused)
        store.batchExportLogs.add(row.id, null, 'INFO', pauseLogMessage(next), at.toISOString());
    });
    return view(params.organization_id, params.id);
  });

  router.route(e.destroy, ({ auth, params }) => {
    exportOf(auth, params.organization_id, params.id);
    store.batchExports.delete(params.organization_id, params.id);
  });

  // Idempotent: pausing a paused export (or unpausing an unpaused one) writes nothing. Unpausing
  // resumes at the next interval boundary: the intervals missed while paused get no runs.
  const setPaused = (organizationId: string, id: string, auth: AuthContext, paused: boolean) => {
    const row = exportOf(auth, organizationId, id);
    const next = withPaused(row, paused, now());
    if (next !== row) {
      store.transaction(() => {
        if (store.batchExports.setPaused(next))
          store.batchExportLogs.add(row.id, null, 'INFO', pauseLogMessage(next), next.last_updated_at);
      });
    }
    return view(organizationId, id);
  };
  router.route(e.pause, ({ auth, params }) => setPaused(params.organization_id, params.id, auth, true));
  router.route(e.unpause, ({ auth, params }) => setPaused(params.organization_id, params.id, auth, false));

  router.route(e.backfill, ({ auth, params, body }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    const at = now();
    const interval = row.interval;
    const start = Date.parse(body.start_at);
    const end = Date.parse(body.end_at);
    if (end > at.getTime())
      throw validationError('invalid_input', 'The end of the backfill cannot be in the future.', 'end_at');
    const size = BATCH_EXPORT_INTERVAL_MS[interval];
    if ((end - alignDown(interval, start)) / size > MAX_BACKFILL_RUNS) {
      throw validationError(
        'invalid_input',
        `A backfill may cover at most ${MAX_BACKFILL_RUNS} intervals of this export (${interval}).`,
        'start_at',
      );
    }
    const intervals = backfillIntervals(interval, start, end, at.getTime());
    if (intervals.length === 0) {
      throw validationError('invalid_input', `The range holds no ${interval} interval that has ended yet.`, 'end_at');
    }
    const stamp = at.toISOString();
    store.transaction(() => {
      startBackfill(store, row, { start_at: iso(start), end_at: iso(end) }, intervals, stamp);
      store.batchExportLogs.add(
        row.id,
        null,
        'INFO',
        `Backfill requested from ${body.start_at} to ${body.end_at}: ${intervals.length} runs, from ${iso(intervals[0]!.start)} to ${iso(intervals.at(-1)!.end)}.`,
        stamp,
      );
    });
    return view(params.organization_id, params.id);
  });

  registerBatchExportOperationRoutes(router, deps, exportOf);

  router.route(e.runs, ({ auth, params, query, url }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    return paginate(
      url,
      query,
      () => store.batchExportRuns.countForExport(row.id),
      ({ limit, offset }) => store.batchExportRuns.listForExport(row.id, limit, offset).map(batchExportRunResponse),
    );
  });

  router.route(e.logs, ({ auth, params, query, url }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    const levels = query.level === undefined ? null : query.level.split(',').map((l) => l.trim().toUpperCase());
    const runId = query.run_id ?? null;
    return paginate(
      url,
      query,
      () => store.batchExportLogs.count(row.id, levels, runId),
      ({ limit, offset }) =>
        store.batchExportLogs.list(row.id, levels, runId, limit, offset).map(batchExportLogResponse),
    );
  });
}
