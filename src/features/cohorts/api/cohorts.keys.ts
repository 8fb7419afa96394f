import { projectScope } from '@/lib/query-keys';

/** Keys spread from one root under the project (`['projects', id, 'cohorts']`): lists, details and persons apart. */
export const cohortKeys = {
  all: (projectId: number) => [...projectScope(projectId), 'cohorts'] as const,
  lists: (projectId: number) => [...cohortKeys.all(projectId), 'list'] as const,
  list: (projectId: number, params: { limit: number; offset: number }) =>
    [...cohortKeys.lists(projectId), params] as const,
  detail: (projectId: number, cohortId: number) => [...cohortKeys.all(projectId), 'detail', cohortId] as const,
  persons: (projectId: number, cohortId: number) => [...cohortKeys.all(projectId), 'persons', cohortId] as const,
};
