import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { personEndpoints } from '@/contract/persons';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import { personKeys } from './persons.keys';

/** Query options of a person page's data (`{PRJ}/persons/:id/`, `{PRJ}/events/?person_id=`), keyed by personKeys. */
export const personQueries = {
  detail: (projectId: number, personId: string) =>
    queryOptions({
      queryKey: personKeys.detail(projectId, personId),
      queryFn: ({ signal }) =>
        apiRequest(personEndpoints.retrieve, { params: { project_id: String(projectId), id: personId }, signal }),
    }),
  events: (projectId: number, personId: string, params: PageParams) =>
    queryOptions({
      queryKey: personKeys.events(projectId, personId, params),
      queryFn: ({ signal }) =>
        apiRequest(personEndpoints.events, {
          params: { project_id: String(projectId) },
          query: { person_id: personId, ...params },
          signal,
        }),
      // The page shown stays (dimmed) while the next one loads.
      placeholderData: keepPreviousData,
    }),
};
