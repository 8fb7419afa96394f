import { queryOptions } from '@tanstack/react-query';
import { organizationEndpoints } from '@/contract/organizations';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';


/** Query keys mirror the API's paths: `/api/organizations/` → `['organizations', …]`. */
export const organizationQueries = {
  /** Prefix of everything about organizations (invalidate after a change). */
  all: () => ['organizations'] as const,
  lists: () => ['organizations', 'list'] as const,
  list: (params: PageParams) =>
    queryOptions({
      queryKey: ['organizations', 'list', params] as const,
      queryFn: ({ signal }) => apiRequest(organizationEndpoints.list, { query: { ...params }, signal }),
    }),
  detail: (organizationId: string) =>
    queryOptions({
      queryKey: ['organizations', organizationId] as const,
      queryFn: ({ signal }) => apiRequest(organizationEndpoints.retrieve, { params: { id: organizationId }, signal }),
    }),
};


/** The switcher shows the key's organizations in one page. */
export const SWITCHER_PAGE = { limit: 100, offset: 0 } as const;
