import { queryOptions } from '@tanstack/react-query';
import { insightEndpoints, sharedInsightEndpoint } from '@/contract/insights';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import { insightKeys, sharedInsightKey, type InsightListParams } from './insights.keys';

/** Query options of `/api/projects/:id/insights/…`, keyed by insightKeys. */
export const insightQueries = {
  /** Saved, not deleted insights; `search` and `favorited` filtered by the server. */
  list: (projectId: number, params: InsightListParams) =>
    queryOptions({
      queryKey: insightKeys.list(projectId, params),
      queryFn: ({ signal }) =>
        apiRequest(insightEndpoints.list, {
          params: { project_id: projectId },
          query: { ...params, saved: true, order: '-last_modified_at' },
          signal,
        }),
    }),
  lastViewed: (projectId: number) =>
    queryOptions({
      queryKey: insightKeys.lastViewed(projectId),
      queryFn: ({ signal }) => apiRequest(insightEndpoints.myLastViewed, { params: { project_id: projectId }, signal }),
    }),
  detail: (projectId: number, insightId: number) =>
    queryOptions({
      queryKey: insightKeys.detail(projectId, insightId),
      queryFn: ({ signal }) => apiRequest(insightEndpoints.retrieve, { params: { project_id: projectId, id: insightId }, signal }),
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
        apiRequest(insightEndpoints.itemActivity, { params: { project_id: projectId, id: insightId }, query: { ...params }, signal }),
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
