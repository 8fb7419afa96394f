import { queryOptions } from '@tanstack/react-query';
import { batchExportEndpoints, type BatchExportRun } from '@/contract/batch-exports';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import { batchExportKeys } from './batch-exports.keys';

/**
 * Runs that are not finished yet: while one is shown, the detail page refreshes itself. A run
 * failed "will retry" is one of them: it becomes Running, then Completed or Failed, by itself.
 */
export const ACTIVE_RUN_STATUSES: readonly BatchExportRun['status'][] = ['Starting', 'Running', 'FailedRetryable'];
export const LIVE_REFRESH_MS = 1500;

/** Query options of `/api/organizations/:org/batch_exports/…`, keyed by batchExportKeys. */
export const batchExportQueries = {
  list: (organizationId: string, params: PageParams) =>
    queryOptions({
      queryKey: batchExportKeys.list(organizationId, params),
      queryFn: ({ signal }) =>
        apiRequest(batchExportEndpoints.list, {
          params: { organization_id: organizationId },
          query: { ...params },
          signal,
        }),
    }),
  detail: (organizationId: string, batchExportId: string) =>
    queryOptions({
      queryKey: batchExportKeys.detail(organizationId, batchExportId),
      queryFn: ({ signal }) =>
        apiRequest(batchExportEndpoints.retrieve, {
          params: { organization_id: organizationId, id: batchExportId },
          signal,
        }),
    }),
  runs: (organizationId: string, batchExportId: string, params: PageParams) =>
    queryOptions({
      queryKey: [...batchExportKeys.runs(organizationId, batchExportId), params] as const,
      queryFn: ({ signal }) =>
        apiRequest(batchExportEndpoints.runs, {
          params: { organization_id: organizationId, id: batchExportId },
          query: { ...params },
          signal,
        }),
    }),
  backfills: (organizationId: string, batchExportId: string, params: PageParams) =>
    queryOptions({
      queryKey: [...batchExportKeys.backfills(organizationId, batchExportId), params] as const,
      queryFn: ({ signal }) =>
        apiRequest(batchExportEndpoints.backfills, {
          params: { organization_id: organizationId, id: batchExportId },
          query: { ...params },
          signal,
        }),
    }),
  logs: (organizationId: string, batchExportId: string, params: PageParams) =>
    queryOptions({
      queryKey: [...batchExportKeys.logs(organizationId, batchExportId), params] as const,
      queryFn: ({ signal }) =>
        apiRequest(batchExportEndpoints.logs, {
          params: { organization_id: organizationId, id: batchExportId },
          query: { ...params },
          signal,
        }),
    }),
};

export const RUNS_PAGE_SIZE = 20;
export const BACKFILLS_PAGE_SIZE = 20;
export const LOGS_PAGE_SIZE = 50;

export function hasActiveRun(runs: readonly BatchExportRun[] | undefined): boolean {
  return (runs ?? []).some((run) => ACTIVE_RUN_STATUSES.includes(run.status));
}
