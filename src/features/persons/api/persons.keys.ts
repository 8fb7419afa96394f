import { projectScope } from '@/lib/query-keys';

/** Keys spread from one root under the project (`['projects', id, 'persons']`): a person, its events. */
export const personKeys = {
  all: (projectId: number) => [...projectScope(projectId), 'persons'] as const,
  detail: (projectId: number, personId: string) => [...personKeys.all(projectId), 'detail', personId] as const,
  events: (projectId: number, personId: string, params: { limit: number; offset: number }) =>
    [...personKeys.all(projectId), 'events', personId, params] as const,
};
