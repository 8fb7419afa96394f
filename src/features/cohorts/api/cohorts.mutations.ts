import { mutationOptions } from '@tanstack/react-query';
import { cohortEndpoints, type CohortCreateInput } from '@/contract/cohorts';
import { apiRequest } from '@/lib/api-client';
import { cohortKeys } from './cohorts.keys';

/** The mutations as options: what they send, what they invalidate (query-client.ts reads meta.invalidates). */
export const cohortMutations = {
  create: (projectId: number) =>
    mutationOptions({
      mutationFn: (body: CohortCreateInput) => apiRequest(cohortEndpoints.create, { params: { project_id: projectId }, body }),
      meta: { invalidates: [cohortKeys.lists(projectId)] },
    }),
  /** Soft delete, as the API has it: `deleted: true`. */
  remove: (projectId: number) =>
    mutationOptions({
      mutationFn: (cohortId: number) => apiRequest(cohortEndpoints.update, { params: { project_id: projectId, id: cohortId }, body: { deleted: true } }),
      meta: { invalidates: [cohortKeys.lists(projectId)] },
    }),
};
