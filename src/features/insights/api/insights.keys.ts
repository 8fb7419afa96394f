import type { InsightKind } from '@/contract/insights';
import { projectScope } from '@/lib/query-keys';

/** What a saved-insights list asks the API for (its page, search and filters). */
export interface InsightListParams {
  limit: number;
  offset: number;
  search?: string | undefined;
  favorited?: boolean | undefined;
  insight?: InsightKind | undefined;
  /** Only the insights this user created ("Created by me"). */
  created_by?: number | undefined;
}

/**
 * Keys spread from one root under the project (`['projects', id, 'insights']`). The lists, each
 * insight's detail, its sharing and its activity sit on their own branches: favoriting one
 * insight refetches the lists and that insight, never its activity's pages until asked.
 */
export const insightKeys = {
  all: (projectId: number) => [...projectScope(projectId), 'insights'] as const,
  lists: (projectId: number) => [...insightKeys.all(projectId), 'list'] as const,
  list: (projectId: number, params: InsightListParams) => [...insightKeys.lists(projectId), params] as const,
  lastViewed: (projectId: number) => [...insightKeys.all(projectId), 'my-last-viewed'] as const,
  detail: (projectId: number, insightId: number) => [...insightKeys.all(projectId), 'detail', insightId] as const,
  /** The numeric id an insight's address names (its short_id, or the id itself): see insightQueries.resolve. */
  ref: (projectId: number, ref: string) => [...insightKeys.all(projectId), 'ref', ref] as const,
  sharing: (projectId: number, insightId: number) => [...insightKeys.all(projectId), 'sharing', insightId] as const,
  activity: (projectId: number, insightId: number) => [...insightKeys.all(projectId), 'activity', insightId] as const,
};

/** The public view of a shared insight: no project, no key. */
export const sharedInsightKey = (accessToken: string) => ['shared', accessToken, 'insight'] as const;
