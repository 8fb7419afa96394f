import { queryOptions } from '@tanstack/react-query';
import { organizationEndpoints } from '@/contract/organizations';
import { apiRequest } from './api-client';
import { organizationScope, organizationsRoot } from './query-keys';

/**
 * One organization's detail (name, membership_level, member_count), shared by the features that
 * read it (organizations, people): one key, one request, and a change in one refreshes the other.
 */
export const organizationDetailKey = (organizationId: string) =>
  [...organizationScope(organizationId), 'detail'] as const;

/**
 * Every list of organizations (the organizations page, the switcher): each shows member counts,
 * so a member removed or an organization left refreshes them too.
 */
export const organizationListsKey = () => [...organizationsRoot, 'list'] as const;

export const organizationDetailQuery = (organizationId: string) =>
  queryOptions({
    queryKey: organizationDetailKey(organizationId),
    queryFn: ({ signal }) => apiRequest(organizationEndpoints.retrieve, { params: { id: organizationId }, signal }),
  });
