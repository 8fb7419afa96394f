import type { PageParams } from '@/lib/page-search';
import { organizationScope } from '@/lib/query-keys';
import { organizationDetailKey, organizationListsKey } from '@/lib/organization-detail';

export interface MemberListParams extends PageParams {
  search?: string | undefined;
}

/**
 * Members, invites and domains each under their own root in the organization's scope
 * (`['organizations', org, 'members']`, …). `organizationDetail` is the shared key of the
 * organization's detail (src/lib/organization-detail.ts) and `organizationLists` every list of
 * organizations: member changes refresh their member_count, and one who leaves no longer sees it.
 */
export const peopleKeys = {
  members: (organizationId: string) => [...organizationScope(organizationId), 'members'] as const,
  memberList: (organizationId: string, params: MemberListParams) =>
    [...peopleKeys.members(organizationId), 'list', params] as const,
  invites: (organizationId: string) => [...organizationScope(organizationId), 'invites'] as const,
  inviteList: (organizationId: string, params: PageParams) =>
    [...peopleKeys.invites(organizationId), 'list', params] as const,
  domains: (organizationId: string) => [...organizationScope(organizationId), 'domains'] as const,
  domainList: (organizationId: string, params: PageParams) =>
    [...peopleKeys.domains(organizationId), 'list', params] as const,
  domainDetail: (organizationId: string, domainId: string) =>
    [...peopleKeys.domains(organizationId), 'detail', domainId] as const,
  organizationDetail: organizationDetailKey,
  organizationLists: organizationListsKey,
};
