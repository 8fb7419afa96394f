import { queryOptions } from '@tanstack/react-query';
import { domainEndpoints } from '@/contract/domains';
import { inviteEndpoints } from '@/contract/invites';
import { memberEndpoints } from '@/contract/members';
import { organizationEndpoints } from '@/contract/organizations';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import { peopleKeys, type MemberListParams } from './people.keys';

export const peopleQueries = {
  members: (organizationId: string, params: MemberListParams) =>
    queryOptions({
      queryKey: peopleKeys.memberList(organizationId, params),
      queryFn: ({ signal }) =>
        apiRequest(memberEndpoints.list, { params: { organization_id: organizationId }, query: { ...params }, signal }),
    }),
  invites: (organizationId: string, params: PageParams) =>
    queryOptions({
      queryKey: peopleKeys.inviteList(organizationId, params),
      queryFn: ({ signal }) =>
        apiRequest(inviteEndpoints.list, { params: { organization_id: organizationId }, query: { ...params }, signal }),
    }),
  domains: (organizationId: string, params: PageParams) =>
    queryOptions({
      queryKey: peopleKeys.domainList(organizationId, params),
      queryFn: ({ signal }) =>
        apiRequest(domainEndpoints.list, { params: { organization_id: organizationId }, query: { ...params }, signal }),
    }),
  domain: (organizationId: string, domainId: string) =>
    queryOptions({
      queryKey: peopleKeys.domainDetail(organizationId, domainId),
      queryFn: ({ signal }) =>
        apiRequest(domainEndpoints.retrieve, { params: { organization_id: organizationId, id: domainId }, signal }),
    }),
  /** The organization (the caller's membership_level), under the organization feature's key. */
  organization: (organizationId: string) =>
    queryOptions({
      queryKey: peopleKeys.organizationDetail(organizationId),
      queryFn: ({ signal }) => apiRequest(organizationEndpoints.retrieve, { params: { id: organizationId }, signal }),
    }),
};
