import { queryOptions } from '@tanstack/react-query';
import { projectEndpoints } from '@/contract/projects';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import { projectsRoot } from '@/lib/query-keys';

/** Keys spread from `['projects']`: lists and details each under their own branch. */
export const projectKeys = {
  list: (params: PageParams) => [...projectsRoot, 'list', params] as const,
  detail: (projectId: number) => [...projectsRoot, 'detail', projectId] as const,
};

export const projectQueries = {
  list: (params: PageParams) =>
    queryOptions({
      queryKey: projectKeys.list(params),
      queryFn: ({ signal }) => apiRequest(projectEndpoints.list, { query: { ...params }, signal }),
    }),
  detail: (projectId: number) =>
    queryOptions({
      queryKey: projectKeys.detail(projectId),
      queryFn: ({ signal }) => apiRequest(projectEndpoints.retrieve, { params: { id: projectId }, signal }),
    }),
};

/** The switcher reads every project the key can reach in one page and keeps the organization's. */
export const SWITCHER_PAGE = { limit: 1000, offset: 0 } as const;

/** `/projects/12` → 12; anything else is not a project id. */
export function parseProjectId(value: string): number | null {
  return /^[1-9]\d*$/.test(value) ? Number(value) : null;
}
