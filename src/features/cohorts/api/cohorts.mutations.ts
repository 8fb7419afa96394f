import { mutationOptions } from '@tanstack/react-query';
import { cohortEndpoints, type CohortCreateInput, type CohortUpdateInput } from '@/contract/cohorts';
import { apiRequest } from '@/lib/api-client';
import { cohortKeys } from './cohorts.keys';

/** The mutations as options: what they send, what they invalidate (query-client.ts reads meta.invalidates). */
export const cohortMutations = {
  create: (projectId: number) =>
    mutationOptions({
      mutationFn: (body: CohortCreateInput) =>
        apiRequest(cohortEndpoints.create, { params: { project_id: String(projectId) }, body }),
      meta: { invalidates: [cohortKeys.lists(projectId)] },
    }),
  /**
   * Any other change computes the members again: `{}` recalculates a dynamic cohort with today's
   * events, `{csv}` adds a static cohort's persons.
   */
  update: (projectId: number, cohortId: number) =>
    mutationOptions({
      mutationFn: (body: CohortUpdateInput) =>
        apiRequest(cohortEndpoints.update, { params: { project_id: String(projectId), id: cohortId }, body }),
      meta: {
        invalidates: [
          cohortKeys.lists(projectId),
          cohortKeys.detail(projectId, cohortId),
          cohortKeys.persons(projectId, cohortId),
        ],
      },
    }),
  /** Soft delete, as the API has it: `deleted: true`. */
  remove: (projectId: number) =>
    mutationOptions({
      mutationFn: (cohortId: number) =>
        apiRequest(cohortEndpoints.update, {
          params: { project_id: String(projectId), id: cohortId },
          body: { deleted: true },
        }),
      meta: { invalidates: [cohortKeys.lists(projectId)] },
    }),
};
