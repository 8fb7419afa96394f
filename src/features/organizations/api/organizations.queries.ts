import { queryOptions } from '@tanstack/react-query';
import { organizationEndpoints } from '@/contract/organizations';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import { organizationDetailKey, organizationDetailQuery, organizationListsKey } from '@/lib/organization-detail';

/**
 * Keys spread from one root: lists under `['organizations', 'list']`, one organization's detail
 * under its own scope (`['organizations', id, 'detail']`), beside (not above) its batch exports.
 */
export const organizationKeys = {
  lists: organizationListsKey,
  list: (params: PageParams) => [...organizationKeys.lists(), params] as const,
  detail: organizationDetailKey,
};

export const organizationQueries = {
  list: (params: PageParams) =>
    queryOptions({
      queryKey: organizationKeys.list(params),
      queryFn: ({ signal }) => apiRequest(organizationEndpoints.list, { query: { ...params }, signal }),
    }),
  detail: organizationDetailQuery,
};

/** The switcher shows the key's organizations in one page. */
export const SWITCHER_PAGE = { limit: 100, offset: 0 } as const;
