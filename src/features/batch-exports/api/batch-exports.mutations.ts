import { mutationOptions, useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import {
  batchExportEndpoints,
  type BatchExport,
  type BatchExportBackfill,
  type BatchExportCreate,
  type BatchExportUpdate,
  type ConnectionTestBody,
  type ExportConnectionTestBody,
} from '@/contract/batch-exports';
import type { Page } from '@/contract/common';
import { apiRequest } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import { batchExportKeys } from './batch-exports.keys';

/** The mutations as options (what they send, what they invalidate); the hooks below use them. */
export const batchExportMutations = {
  create: (organizationId: string) =>
    mutationOptions({
      mutationFn: (body: BatchExportCreate) =>
        apiRequest(batchExportEndpoints.create, { params: { organization_id: organizationId }, body }),
      meta: { invalidates: [batchExportKeys.lists(organizationId)] },
    }),
  update: (organizationId: string, batchExportId: string) =>
    mutationOptions({
      mutationFn: (body: BatchExportUpdate) =>
        apiRequest(batchExportEndpoints.update, {
          params: { organization_id: organizationId, id: batchExportId },
          body,
        }),
      meta: {
        invalidates: [batchExportKeys.detail(organizationId, batchExportId), batchExportKeys.lists(organizationId)],
      },
    }),
  /** The export's own queries are forgotten once the page has left it (forgetBatchExport). */
  destroy: (organizationId: string, batchExportId: string) =>
    mutationOptions({
      mutationFn: () =>
        apiRequest(batchExportEndpoints.destroy, { params: { organization_id: organizationId, id: batchExportId } }),
      meta: { invalidates: [batchExportKeys.lists(organizationId)] },
    }),
  /** New runs (and a log entry): the export's latest runs, its runs and its logs change. */
  backfill: (organizationId: string, batchExportId: string) =>
    mutationOptions({
      mutationFn: (body: BatchExportBackfill) =>
        apiRequest(batchExportEndpoints.backfill, {
          params: { organization_id: organizationId, id: batchExportId },
          body,
        }),
      meta: {
        invalidates: [
          batchExportKeys.detail(organizationId, batchExportId),
          batchExportKeys.runs(organizationId, batchExportId),
          batchExportKeys.logs(organizationId, batchExportId),
          batchExportKeys.backfills(organizationId, batchExportId),
          batchExportKeys.lists(organizationId),
        ],
      },
    }),
  /** A new run (of a new backfill) for the failed run's interval. */
  retryRun: (organizationId: string, batchExportId: string) =>
    mutationOptions({
      mutationFn: (runId: string) =>
        apiRequest(batchExportEndpoints.retryRun, {
          params: { organization_id: organizationId, id: batchExportId, run_id: runId },
        }),
      meta: { invalidates: [...historyKeys(organizationId, batchExportId), batchExportKeys.lists(organizationId)] },
    }),
  /** Its waiting runs become Cancelled. */
  cancelBackfill: (organizationId: string, batchExportId: string) =>
    mutationOptions({
      mutationFn: (backfillId: string) =>
        apiRequest(batchExportEndpoints.cancelBackfill, {
          params: { organization_id: organizationId, id: batchExportId, backfill_id: backfillId },
        }),
      meta: { invalidates: [...historyKeys(organizationId, batchExportId), batchExportKeys.lists(organizationId)] },
    }),
  /** Tests a destination as typed in the new-export form; changes nothing. */
  testConnection: (organizationId: string) =>
    mutationOptions({
      mutationFn: (body: ConnectionTestBody) =>
        apiRequest(batchExportEndpoints.testConnection, { params: { organization_id: organizationId }, body }),
    }),
  /** Tests an export's destination: as stored, or with the fields being edited over it; changes nothing. */
  testExportConnection: (organizationId: string, batchExportId: string) =>
    mutationOptions({
      mutationFn: (body: ExportConnectionTestBody) =>
        apiRequest(batchExportEndpoints.testExportConnection, {
          params: { organization_id: organizationId, id: batchExportId },
          body,
        }),
    }),
};

/** What a new or cancelled run changes: the export's latest runs, its runs, logs and backfills. */
function historyKeys(organizationId: string, batchExportId: string) {
  return [
    batchExportKeys.detail(organizationId, batchExportId),
    batchExportKeys.runs(organizationId, batchExportId),
    batchExportKeys.logs(organizationId, batchExportId),
    batchExportKeys.backfills(organizationId, batchExportId),
  ];
}

export function useCreateBatchExport(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    ...batchExportMutations.create(organizationId),
    // Seeds the cache: the new export's page opens without waiting.
    onSuccess: (created) => queryClient.setQueryData(batchExportKeys.detail(organizationId, created.id), created),
  });
}

export function useUpdateBatchExport(organizationId: string, batchExportId: string) {
  return useMutation(batchExportMutations.update(organizationId, batchExportId));
}

export function useDeleteBatchExport(organizationId: string, batchExportId: string) {
  return useMutation(batchExportMutations.destroy(organizationId, batchExportId));
}

/** After a delete, once the page has left the export: forget its detail, runs and logs. */
export function forgetBatchExport(queryClient: QueryClient, organizationId: string, batchExportId: string): void {
  for (const queryKey of [
    batchExportKeys.detail(organizationId, batchExportId),
    batchExportKeys.runs(organizationId, batchExportId),
    batchExportKeys.logs(organizationId, batchExportId),
    batchExportKeys.backfills(organizationId, batchExportId),
  ]) {
    queryClient.removeQueries({ queryKey });
  }
}

export function useBackfillBatchExport(organizationId: string, batchExportId: string) {
  return useMutation(batchExportMutations.backfill(organizationId, batchExportId));
}

export interface PauseVariables {
  batchExport: Pick<BatchExport, 'id' | 'name'>;
  paused: boolean;
}

const PAUSE_MUTATION_KEY = ['batch-exports', 'set-paused'] as const;

type Snapshot = Array<[QueryKey, unknown]>;

/**
 * Pause or unpause, optimistically: every cached copy of the export (lists and detail) changes
 * at once; if the server refuses, they go back and a toast says why.
 */
export function useSetPaused(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: PAUSE_MUTATION_KEY,
    mutationFn: ({ batchExport, paused }: PauseVariables) =>
      apiRequest(paused ? batchExportEndpoints.pause : batchExportEndpoints.unpause, {
        params: { organization_id: organizationId, id: batchExport.id },
      }),
    onMutate: async ({ batchExport, paused }): Promise<{ snapshot: Snapshot }> => {
      const detailKey = batchExportKeys.detail(organizationId, batchExport.id);
      const listsKey = batchExportKeys.lists(organizationId);
      // A refetch landing later would overwrite the optimistic value: stop those first.
      await Promise.all([
        queryClient.cancelQueries({ queryKey: listsKey }),
        queryClient.cancelQueries({ queryKey: detailKey, exact: true }),
      ]);
      const snapshot: Snapshot = [
        ...queryClient.getQueriesData({ queryKey: listsKey }),
        [detailKey, queryClient.getQueryData(detailKey)],
      ];
      const flip = (item: BatchExport): BatchExport => (item.id === batchExport.id ? { ...item, paused } : item);
      queryClient.setQueriesData<Page<BatchExport>>({ queryKey: listsKey }, (page) =>
        page ? { ...page, results: page.results.map(flip) } : page,
      );
      queryClient.setQueryData<BatchExport>(detailKey, (item) => (item ? flip(item) : item));
      return { snapshot };
    },
    onError: (error, { batchExport, paused }, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
      toast.error(`Couldn't ${paused ? 'pause' : 'unpause'} “${batchExport.name}”: ${describeError(error)}`);
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(batchExportKeys.detail(organizationId, updated.id), updated);
    },
    // Refetch once the last of several toggles (bulk pause) is done, so none is overwritten midway.
    onSettled: () =>
      queryClient.isMutating({ mutationKey: PAUSE_MUTATION_KEY }) <= 1
        ? queryClient.invalidateQueries({ queryKey: batchExportKeys.lists(organizationId) })
        : undefined,
  });
}
