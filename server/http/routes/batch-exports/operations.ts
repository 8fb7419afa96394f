import { endpoints, RETRYABLE_RUN_STATUSES } from '../../../../src/contract/index.ts';
import { startBackfill, testConnection } from '../../../batch-exports/backfills.ts';
import type { BatchExportRow } from '../../../store/batch-exports.ts';
import type { AuthContext } from '../../auth.ts';
import { reachableOrganization } from '../../access.ts';
import { notFound, validationError } from '../../errors.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { mergedDestination } from './input.ts';
import { backfillResponse } from './serializers.ts';

type ExportOf = (auth: AuthContext, organizationId: string, id: string) => BatchExportRow;

/**
 * What is done with an export besides editing it: retry a run, follow and cancel backfills, and
 * test its destination (before saving it, or as stored).
 */
export function registerBatchExportOperationRoutes(
  router: Router,
  { store, now, allowDestinations }: Deps,
  exportOf: ExportOf,
): void {
  const e = endpoints.batchExports;
  const checkOptions = { allowHosts: allowDestinations ?? [] };

  router.route(e.retryRun, ({ auth, params }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    const run = store.batchExportRuns.get(params.run_id);
    if (!run || run.batch_export_id !== row.id) throw notFound();
    if (!RETRYABLE_RUN_STATUSES.includes(run.status)) {
      throw validationError(
        'invalid_input',
        `Only a failed, cancelled or timed-out run can be retried; this one is ${run.status}.`,
        null,
      );
    }
    const at = now().toISOString();
    const start = run.data_interval_start ?? new Date(0).toISOString();
    const interval = { start: Date.parse(start), end: Date.parse(run.data_interval_end) };
    const started = store.transaction(() => {
      const made = startBackfill(store, row, { start_at: start, end_at: run.data_interval_end }, [interval], at);
      store.batchExportLogs.add(
        row.id,
        run.id,
        'INFO',
        `Run of ${start} – ${run.data_interval_end} retried: a new run will export it again.`,
        at,
      );
      return made;
    });
    return { backfill_id: started.backfillId, run_id: started.runIds[0]! };
  });

  router.route(e.backfills, ({ auth, params, query, url }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    return paginate(
      url,
      query,
      () => store.batchExportBackfills.countForExport(row.id),
      ({ limit, offset }) => store.batchExportBackfills.listForExport(row.id, limit, offset).map(backfillResponse),
    );
  });

  const backfillOf = (exportId: string, id: string) => {
    const backfill = store.batchExportBackfills.view(exportId, id);
    if (!backfill) throw notFound();
    return backfill;
  };

  router.route(e.retrieveBackfill, ({ auth, params }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    return backfillResponse(backfillOf(row.id, params.backfill_id));
  });

  // Cancelling a cancelled or finished backfill changes nothing and answers it as it is.
  router.route(e.cancelBackfill, ({ auth, params }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    const before = backfillResponse(backfillOf(row.id, params.backfill_id));
    if (before.status === 'Running') {
      const at = now().toISOString();
      store.transaction(() => {
        const cancelled = store.batchExportBackfills.cancel(params.backfill_id, at);
        store.batchExportLogs.add(
          row.id,
          null,
          'INFO',
          `Backfill from ${before.start_at} to ${before.end_at} cancelled: ${cancelled} waiting runs cancelled.`,
          at,
        );
      });
    }
    return backfillResponse(backfillOf(row.id, params.backfill_id));
  });

  router.route(e.testConnection, ({ auth, params, body }) => {
    reachableOrganization(store, auth, params.organization_id);
    return testConnection(body.destination.type, body.destination.config, checkOptions);
  });

  // The stored config (secrets included) under any fields given: an admin tests what they are
  // about to save without typing the secrets again.
  router.route(e.testExportConnection, ({ auth, params, body }) => {
    const row = exportOf(auth, params.organization_id, params.id);
    const destination =
      body.destination === undefined
        ? { type: row.destination_type, config: JSON.parse(row.destination_config) as Record<string, unknown> }
        : mergedDestination(row, body.destination);
    return testConnection(destination.type, destination.config, checkOptions);
  });
}
