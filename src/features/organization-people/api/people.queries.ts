import { queryOptions } from '@tanstack/react-query';
import { domainEndpoints } from '@/contract/domains';
import { inviteEndpoints } from '@/contract/invites';
import { memberEndpoints } from '@/contract/members';
import { apiRequest } from '@/lib/api-client';
import { organizationDetailQuery } from '@/lib/organization-detail';
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
  /** The organization (the caller's membership_level, member_count): the shared detail query. */
  organization: organizationDetailQuery,
};
