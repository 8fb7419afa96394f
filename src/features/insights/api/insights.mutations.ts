import { mutationOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import { toast } from '@/lib/toast';
import type { Page } from '@/contract/common';
import { insightEndpoints, type Insight, type InsightCreateInput, type InsightUpdate } from '@/contract/insights';
import { apiRequest } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import { insightKeys } from './insights.keys';
import { insightTitle } from './insight-title';

const params = (projectId: number, insightId: number) => ({ project_id: projectId, id: insightId });

/** The mutations as options (what they send, what they invalidate); the hooks below use them. */
export const insightMutations = {
  update: (projectId: number, insightId: number) =>
    mutationOptions({
      mutationFn: (body: InsightUpdate) =>
        apiRequest(insightEndpoints.update, { params: params(projectId, insightId), body }),
      meta: {
        invalidates: [
          insightKeys.detail(projectId, insightId),
          insightKeys.lists(projectId),
          insightKeys.lastViewed(projectId),
          insightKeys.activity(projectId, insightId),
        ],
      },
    }),
  /** Soft delete (`{deleted: true}`) or restore (`{deleted: false}`): the lists change, and the insight's page. */
  setDeleted: (projectId: number) =>
    mutationOptions({
      mutationFn: ({ insight, deleted }: { insight: Pick<Insight, 'id'>; deleted: boolean }) =>
        apiRequest(insightEndpoints.update, { params: params(projectId, insight.id), body: { deleted } }),
      meta: { invalidates: [insightKeys.lists(projectId), insightKeys.lastViewed(projectId)] },
    }),
  create: (projectId: number) =>
    mutationOptions({
      mutationFn: (body: InsightCreateInput) =>
        apiRequest(insightEndpoints.create, { params: { project_id: projectId }, body }),
      meta: { invalidates: [insightKeys.lists(projectId)] },
    }),
  viewed: (projectId: number, insightId: number) =>
    mutationOptions({
      mutationFn: () => apiRequest(insightEndpoints.viewed, { params: params(projectId, insightId), body: {} }),
      meta: { invalidates: [insightKeys.lastViewed(projectId)] },
    }),
  setSharing: (projectId: number, insightId: number) =>
    mutationOptions({
      mutationFn: (enabled: boolean) =>
        apiRequest(insightEndpoints.sharingUpdate, {
          params: { project_id: projectId, insight_id: insightId },
          body: { enabled },
        }),
      meta: { invalidates: [insightKeys.sharing(projectId, insightId), insightKeys.activity(projectId, insightId)] },
    }),
  rotateSharing: (projectId: number, insightId: number) =>
    mutationOptions({
      mutationFn: () =>
        apiRequest(insightEndpoints.sharingRefresh, { params: { project_id: projectId, insight_id: insightId } }),
      meta: { invalidates: [insightKeys.sharing(projectId, insightId)] },
    }),
};

export function useUpdateInsight(projectId: number, insightId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    ...insightMutations.update(projectId, insightId),
    // The answer carries the result too: the page shows it at once, before the refetch.
    onSuccess: (updated) => queryClient.setQueryData(insightKeys.detail(projectId, insightId), updated),
  });
}

export function useCreateInsight(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    ...insightMutations.create(projectId),
    onSuccess: (created) => queryClient.setQueryData(insightKeys.detail(projectId, created.id), created),
  });
}

export function useInsightViewed(projectId: number, insightId: number) {
  return useMutation(insightMutations.viewed(projectId, insightId));
}

export function useSetSharing(projectId: number, insightId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    ...insightMutations.setSharing(projectId, insightId),
    onSuccess: (sharing) => queryClient.setQueryData(insightKeys.sharing(projectId, insightId), sharing),
  });
}

export function useRotateSharing(projectId: number, insightId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    ...insightMutations.rotateSharing(projectId, insightId),
    onSuccess: (sharing) => queryClient.setQueryData(insightKeys.sharing(projectId, insightId), sharing),
  });
}

/** Recomputes the result (`refresh=true`: the server decides from its staleness) into the detail. */
export function useRefreshInsight(projectId: number, insightId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(insightEndpoints.retrieve, { params: params(projectId, insightId), query: { refresh: true } }),
    onSuccess: (insight) => queryClient.setQueryData(insightKeys.detail(projectId, insightId), insight),
    onError: (error) => toast.error(`Couldn't refresh: ${describeError(error)}`),
  });
}

type Snapshot = Array<[QueryKey, unknown]>;

export interface FavoriteVariables {
  insight: Pick<Insight, 'id' | 'name' | 'derived_name'>;
  favorited: boolean;
}

/**
 * Star or unstar, optimistically: every cached copy (lists and detail) changes at once; if the
 * server refuses, they go back and a toast says why.
 */
export function useSetFavorited(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ insight, favorited }: FavoriteVariables) =>
      apiRequest(insightEndpoints.update, { params: params(projectId, insight.id), body: { favorited } }),
    onMutate: async ({ insight, favorited }): Promise<{ snapshot: Snapshot }> => {
      const detailKey = insightKeys.detail(projectId, insight.id);
      const listsKey = insightKeys.lists(projectId);
      await Promise.all([
        queryClient.cancelQueries({ queryKey: listsKey }),
        queryClient.cancelQueries({ queryKey: detailKey, exact: true }),
      ]);
      const snapshot: Snapshot = [
        ...queryClient.getQueriesData({ queryKey: listsKey }),
        [detailKey, queryClient.getQueryData(detailKey)],
      ];
      const flip = (item: Insight): Insight => (item.id === insight.id ? { ...item, favorited } : item);
      queryClient.setQueriesData<Page<Insight>>({ queryKey: listsKey }, (page) =>
        page ? { ...page, results: page.results.map(flip) } : page,
      );
      queryClient.setQueryData<Insight>(detailKey, (item) => (item ? flip(item) : item));
      return { snapshot };
    },
    onError: (error, { insight, favorited }, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
      toast.error(
        `Couldn't ${favorited ? 'favorite' : 'unfavorite'} “${insightTitle(insight)}”: ${describeError(error)}`,
      );
    },
    onSettled: (_data, _error, { insight }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: insightKeys.lists(projectId) }),
        queryClient.invalidateQueries({ queryKey: insightKeys.detail(projectId, insight.id), exact: true }),
      ]),
  });
}

/**
 * Delete (`PATCH {deleted: true}`) with a toast whose "Undo" restores it (`{deleted: false}`).
 * `onDeleted` runs once the server has deleted it (the page navigates away).
 */
export function useDeleteWithUndo(projectId: number) {
  const queryClient = useQueryClient();
  const { mutateAsync } = useMutation(insightMutations.setDeleted(projectId));
  return useCallback(
    async (insight: Pick<Insight, 'id' | 'name' | 'derived_name'>, onDeleted?: () => void) => {
      const title = insightTitle(insight);
      // The insight's page keeps the server's answer: going back to it shows it deleted (with
      // Restore), not as a live insight whose every change would fail.
      const keep = (answer: Insight) => queryClient.setQueryData(insightKeys.detail(projectId, insight.id), answer);
      try {
        keep(await mutateAsync({ insight, deleted: true }));
      } catch (error) {
        toast.error(`Couldn't delete “${title}”: ${describeError(error)}`);
        return;
      }
      onDeleted?.();
      toast.success(`Deleted “${title}”`, {
        // Long enough to read, and to reach Undo from the keyboard.
        duration: UNDO_MS,
        action: {
          label: 'Undo',
          onClick: () => {
            mutateAsync({ insight, deleted: false }).then(
              (answer) => {
                keep(answer);
                toast.success(`Restored “${title}”`);
              },
              (error: unknown) => toast.error(`Couldn't restore “${title}”: ${describeError(error)}`),
            );
          },
        },
      });
    },
    [mutateAsync, queryClient, projectId],
  );
}

/** How long a deletion's toast offers Undo (ms). */
const UNDO_MS = 10_000;
