import { queryOptions } from '@tanstack/react-query';
import { cohortEndpoints } from '@/contract/cohorts';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import { cohortKeys } from './cohorts.keys';

/** Query options of `/api/projects/:id/cohorts/…`, keyed by cohortKeys. */
export const cohortQueries = {
  list: (projectId: number, params: PageParams) =>
    queryOptions({
      queryKey: cohortKeys.list(projectId, params),
      queryFn: ({ signal }) =>
        apiRequest(cohortEndpoints.list, { params: { project_id: String(projectId) }, query: { ...params }, signal }),
    }),
  detail: (projectId: number, cohortId: number) =>
    queryOptions({
      queryKey: cohortKeys.detail(projectId, cohortId),
      queryFn: ({ signal }) =>
        apiRequest(cohortEndpoints.retrieve, { params: { project_id: String(projectId), id: cohortId }, signal }),
    }),
  persons: (projectId: number, cohortId: number, params: PageParams) =>
    queryOptions({
      queryKey: [...cohortKeys.persons(projectId, cohortId), params] as const,
      queryFn: ({ signal }) =>
        apiRequest(cohortEndpoints.persons, {
          params: { project_id: String(projectId), id: cohortId },
          query: { ...params },
          signal,
        }),
    }),
};
