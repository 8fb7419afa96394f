import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { organizationEndpoints, type OrganizationCreate, type OrganizationUpdate } from '@/contract/organizations';
import { apiRequest } from '@/lib/api-client';
import { organizationQueries } from './organizations.queries';

/** `/api/projects/`: a new or deleted organization changes the projects the key can reach. */
const PROJECTS_PREFIX = ['projects'] as const;

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationCreate) => apiRequest(organizationEndpoints.create, { body }),
    onSuccess: async (organization) => {
      queryClient.setQueryData(organizationQueries.detail(organization.id).queryKey, organization);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: organizationQueries.all() }),
        queryClient.invalidateQueries({ queryKey: PROJECTS_PREFIX }),
      ]);
    },
  });
}

export function useUpdateOrganization(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationUpdate) => apiRequest(organizationEndpoints.update, { params: { id: organizationId }, body }),
    onSuccess: async (organization) => {
      queryClient.setQueryData(organizationQueries.detail(organizationId).queryKey, organization);
      await queryClient.invalidateQueries({ queryKey: organizationQueries.lists() });
    },
  });
}

export function useDeleteOrganization(organizationId: string) {
  return useMutation({
    mutationFn: () => apiRequest(organizationEndpoints.destroy, { params: { id: organizationId } }),
  });
}

/**
 * After a delete, once the page has left the organization: drop it from the cache and refresh
 * the lists (done after leaving so the page does not refetch a 404 for itself).
 */
export async function forgetOrganization(queryClient: QueryClient, organizationId: string): Promise<void> {
  queryClient.removeQueries({ queryKey: organizationQueries.detail(organizationId).queryKey });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: organizationQueries.all() }),
    queryClient.invalidateQueries({ queryKey: PROJECTS_PREFIX }),
  ]);
}
