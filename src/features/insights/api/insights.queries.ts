import { queryOptions } from '@tanstack/react-query';
import { insightEndpoints, sharedInsightEndpoint } from '@/contract/insights';
import { ApiError, apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import { insightKeys, sharedInsightKey, type InsightListParams } from './insights.keys';

/** Query options of `/api/projects/:id/insights/…`, keyed by insightKeys. */
export const insightQueries = {
  /** Saved, not deleted insights; `search` and `favorited` filtered by the server. */
  list: (projectId: number, params: InsightListParams) =>
    queryOptions({
      queryKey: insightKeys.list(projectId, params),
      queryFn: async ({ signal, client }) => {
        const page = await apiRequest(insightEndpoints.list, {
          params: { project_id: projectId },
          query: { ...params, saved: true, order: '-last_modified_at' },
          signal,
        });
        // Opening one from the list needs no lookup of its short_id.
        for (const insight of page.results)
          client.setQueryData(insightKeys.ref(projectId, insight.short_id), insight.id);
        return page;
      },
    }),
  lastViewed: (projectId: number) =>
    queryOptions({
      queryKey: insightKeys.lastViewed(projectId),
      queryFn: ({ signal }) => apiRequest(insightEndpoints.myLastViewed, { params: { project_id: projectId }, signal }),
    }),
  /**
   * The insight an address names: `/insights/<short_id>` as the production service writes it, or
   * the numeric id of older links. A short_id is looked up once (it never changes).
   */
  resolve: (projectId: number, ref: string) =>
    queryOptions({
      queryKey: insightKeys.ref(projectId, ref),
      staleTime: Infinity,
      queryFn: async ({ signal }): Promise<number> => {
        if (/^[1-9]\d*$/.test(ref)) return Number(ref);
        const page = await apiRequest(insightEndpoints.list, {
          params: { project_id: projectId },
          query: { short_id: ref, limit: 1 },
          signal,
        });
        const found = page.results[0];
        if (!found)
          throw new ApiError({ status: 404, type: 'invalid_request', code: 'not_found', detail: 'Not found.' });
        return found.id;
      },
    }),
  detail: (projectId: number, insightId: number) =>
    queryOptions({
      queryKey: insightKeys.detail(projectId, insightId),
      queryFn: ({ signal }) =>
        apiRequest(insightEndpoints.retrieve, { params: { project_id: projectId, id: insightId }, signal }),
    }),
  sharing: (projectId: number, insightId: number) =>
    queryOptions({
      queryKey: insightKeys.sharing(projectId, insightId),
      queryFn: ({ signal }) =>
        apiRequest(insightEndpoints.sharing, { params: { project_id: projectId, insight_id: insightId }, signal }),
    }),
  activity: (projectId: number, insightId: number, params: PageParams) =>
    queryOptions({
      queryKey: [...insightKeys.activity(projectId, insightId), params] as const,
      queryFn: ({ signal }) =>
        apiRequest(insightEndpoints.itemActivity, {
          params: { project_id: projectId, id: insightId },
          query: { ...params },
          signal,
        }),
    }),
  /** The public data of a shared insight (no key needed); 404 once sharing is off or the token rotated. */
  shared: (accessToken: string) =>
    queryOptions({
      queryKey: sharedInsightKey(accessToken),
      queryFn: ({ signal }) => apiRequest(sharedInsightEndpoint, { params: { access_token: accessToken }, signal }),
      retry: false,
    }),
};

export const ACTIVITY_PAGE_SIZE = 20;
