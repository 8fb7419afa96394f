import { mutationOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { organizationEndpoints, type OrganizationCreate, type OrganizationUpdate } from '@/contract/organizations';
import { apiRequest } from '@/lib/api-client';
import { organizationScope, projectsRoot } from '@/lib/query-keys';
import { organizationKeys, organizationQueries } from './organizations.queries';

/** The mutations as options (what they send, what they invalidate); the hooks below use them. */
export const organizationMutations = {
  /** A new organization comes with a project: the projects the key reaches change too. */
  create: () =>
    mutationOptions({
      mutationFn: (body: OrganizationCreate) => apiRequest(organizationEndpoints.create, { body }),
      meta: { invalidates: [organizationKeys.lists(), projectsRoot] },
    }),
  update: (organizationId: string) =>
    mutationOptions({
      mutationFn: (body: OrganizationUpdate) =>
        apiRequest(organizationEndpoints.update, { params: { id: organizationId }, body }),
      meta: { invalidates: [organizationKeys.detail(organizationId), organizationKeys.lists()] },
    }),
  /** The organization's own queries are forgotten once the page has left it (forgetOrganization). */
  destroy: (organizationId: string) =>
    mutationOptions({
      mutationFn: () => apiRequest(organizationEndpoints.destroy, { params: { id: organizationId } }),
      meta: { invalidates: [organizationKeys.lists(), projectsRoot] },
    }),
};

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    ...organizationMutations.create(),
    // Seeds the cache: opening the new organization shows it at once.
    onSuccess: (organization) =>
      queryClient.setQueryData(organizationQueries.detail(organization.id).queryKey, organization),
  });
}

export function useUpdateOrganization(organizationId: string) {
  return useMutation(organizationMutations.update(organizationId));
}

export function useDeleteOrganization(organizationId: string) {
  return useMutation(organizationMutations.destroy(organizationId));
}

/**
 * After a delete, once the page has left the organization: forget everything cached about it
 * (done after leaving so the page does not refetch a 404 for itself).
 */
export function forgetOrganization(queryClient: QueryClient, organizationId: string): void {
  queryClient.removeQueries({ queryKey: organizationScope(organizationId) });
}
