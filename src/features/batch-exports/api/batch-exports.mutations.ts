import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from 'sonner';
import {
  batchExportEndpoints,
  type BatchExport,
  type BatchExportBackfill,
  type BatchExportCreate,
  type BatchExportUpdate,
} from '@/contract/batch-exports';
import type { Page } from '@/contract/common';
import { apiRequest } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import { batchExportQueries } from './batch-exports.queries';

export function useCreateBatchExport(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchExportCreate) =>
      apiRequest(batchExportEndpoints.create, { params: { organization_id: organizationId }, body }),
    onSuccess: async (created) => {
      queryClient.setQueryData(batchExportQueries.detail(organizationId, created.id).queryKey, created);
      await queryClient.invalidateQueries({ queryKey: batchExportQueries.lists(organizationId) });
    },
  });
}

export function useUpdateBatchExport(organizationId: string, batchExportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchExportUpdate) =>
      apiRequest(batchExportEndpoints.update, { params: { organization_id: organizationId, id: batchExportId }, body }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(batchExportQueries.detail(organizationId, batchExportId).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: batchExportQueries.lists(organizationId) });
    },
  });
}

export function useDeleteBatchExport(organizationId: string, batchExportId: string) {
  return useMutation({
    mutationFn: () => apiRequest(batchExportEndpoints.destroy, { params: { organization_id: organizationId, id: batchExportId } }),
  });
}

/** After a delete, once the page has left the export: forget it and refresh the lists. */
export async function forgetBatchExport(queryClient: QueryClient, organizationId: string, batchExportId: string): Promise<void> {
  queryClient.removeQueries({ queryKey: batchExportQueries.detail(organizationId, batchExportId).queryKey });
  await queryClient.invalidateQueries({ queryKey: batchExportQueries.lists(organizationId) });
}

export function useBackfillBatchExport(organizationId: string, batchExportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchExportBackfill) =>
      apiRequest(batchExportEndpoints.backfill, { params: { organization_id: organizationId, id: batchExportId }, body }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(batchExportQueries.detail(organizationId, batchExportId).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: batchExportQueries.all(organizationId) });
    },
  });
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
      const detailKey = batchExportQueries.detail(organizationId, batchExport.id).queryKey;
      const listsKey = batchExportQueries.lists(organizationId);
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
      queryClient.setQueryData(batchExportQueries.detail(organizationId, updated.id).queryKey, updated);
    },
    // Refetch once the last of several toggles (bulk pause) is done, so none is overwritten midway.
    onSettled: () =>
      queryClient.isMutating({ mutationKey: PAUSE_MUTATION_KEY }) <= 1
        ? queryClient.invalidateQueries({ queryKey: batchExportQueries.lists(organizationId) })
        : undefined,
  });
}
