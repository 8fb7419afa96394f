import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { domainEndpoints, type Domain, type DomainCreate, type DomainUpdate } from '@/contract/domains';
import { inviteAcceptEndpoint, inviteEndpoints, type InviteAccept, type InviteCreateInput } from '@/contract/invites';
import { memberEndpoints } from '@/contract/members';
import { apiRequest } from '@/lib/api-client';
import { peopleKeys } from './people.keys';

/** The mutations as options: what they send, what they invalidate (query-client.ts reads meta.invalidates). */
export const peopleMutations = {
  setLevel: (organizationId: string) =>
    mutationOptions({
      mutationFn: ({ userUuid, level }: { userUuid: string; level: 1 | 8 | 15 }) =>
        apiRequest(memberEndpoints.update, {
          params: { organization_id: organizationId, user__uuid: userUuid },
          body: { level },
        }),
      meta: { invalidates: [peopleKeys.members(organizationId)] },
    }),
  removeMember: (organizationId: string) =>
    mutationOptions({
      mutationFn: (userUuid: string) =>
        apiRequest(memberEndpoints.destroy, { params: { organization_id: organizationId, user__uuid: userUuid } }),
      meta: {
        invalidates: [
          peopleKeys.members(organizationId),
          peopleKeys.organizationDetail(organizationId),
          peopleKeys.organizationLists(),
        ],
      },
    }),
  inviteMany: (organizationId: string) =>
    mutationOptions({
      mutationFn: (body: InviteCreateInput[]) =>
        apiRequest(inviteEndpoints.bulk, { params: { organization_id: organizationId }, body }),
      meta: { invalidates: [peopleKeys.invites(organizationId)] },
    }),
  /** Resend = a new invite to the same email (it replaces the pending one). */
  invite: (organizationId: string) =>
    mutationOptions({
      mutationFn: (body: InviteCreateInput) =>
        apiRequest(inviteEndpoints.create, { params: { organization_id: organizationId }, body }),
      meta: { invalidates: [peopleKeys.invites(organizationId)] },
    }),
  revokeInvite: (organizationId: string) =>
    mutationOptions({
      mutationFn: (inviteId: string) =>
        apiRequest(inviteEndpoints.destroy, { params: { organization_id: organizationId, id: inviteId } }),
      meta: { invalidates: [peopleKeys.invites(organizationId)] },
    }),
  addDomain: (organizationId: string) =>
    mutationOptions({
      mutationFn: (body: DomainCreate) =>
        apiRequest(domainEndpoints.create, { params: { organization_id: organizationId }, body }),
      meta: { invalidates: [peopleKeys.domains(organizationId)] },
    }),
  deleteDomain: (organizationId: string) =>
    mutationOptions({
      mutationFn: (domainId: string) =>
        apiRequest(domainEndpoints.destroy, { params: { organization_id: organizationId, id: domainId } }),
      meta: { invalidates: [peopleKeys.domains(organizationId)] },
    }),
  acceptInvite: (inviteId: string) =>
    mutationOptions({
      // An existing account accepts with its own key: given in the form, or the one signed in here.
      mutationFn: ({ body, key }: { body: InviteAccept; key?: string | undefined }) =>
        apiRequest(inviteAcceptEndpoint, {
          params: { id: inviteId },
          body,
          ...(key ? { credentials: { baseUrl: window.location.origin, key } } : {}),
        }),
    }),
};

/** PATCH or verify/ of one domain: the answer replaces the cached detail, the lists refetch. */
export function useDomainChange(organizationId: string, domainId: string) {
  const queryClient = useQueryClient();
  const onSuccess = (domain: Domain) =>
    queryClient.setQueryData(peopleKeys.domainDetail(organizationId, domainId), domain);
  const params = { organization_id: organizationId, id: domainId };
  const meta = { invalidates: [[...peopleKeys.domains(organizationId), 'list']] };
  return {
    update: useMutation({
      mutationFn: (body: DomainUpdate) => apiRequest(domainEndpoints.update, { params, body }),
      onSuccess,
      meta,
    }),
    verify: useMutation({ mutationFn: () => apiRequest(domainEndpoints.verify, { params }), onSuccess, meta }),
  };
}
