import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { MEMBERSHIP_LEVELS, organizationEndpoints, type Organization } from '@/contract/organizations';
import { ConfirmDelete } from '@/components/feedback/confirm-delete';
import { forgetOrganization, useDeleteOrganization } from '../api/organizations.mutations';

interface DeleteOrganizationProps {
  organization: Organization;
  /** Leaves the organization's pages (called before the cache forgets it). */
  onDeleted: () => Promise<void>;
}

/** The danger zone: "Delete organization", confirmed by typing the organization's name. */
export function DeleteOrganization({ organization, onDeleted }: DeleteOrganizationProps) {
  const queryClient = useQueryClient();
  const { mutateAsync } = useDeleteOrganization(organization.id);
  return (
    <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-red-300 p-4 dark:border-red-900">
      <div className="text-sm">
        <p className="font-medium">Delete this organization</p>
        <p className="text-gray-600 dark:text-gray-400">
          Its projects, members, invites and exports are deleted with it. This cannot be undone.
        </p>
      </div>
      <ConfirmDelete
        triggerLabel="Delete organization"
        scope={organizationEndpoints.destroy.access}
        // The server deletes an organization for its owners only (an admin's try answered 403).
        refusal={
          organization.membership_level !== null && organization.membership_level < MEMBERSHIP_LEVELS.owner
            ? 'Only owners can delete an organization.'
            : null
        }
        title="Delete organization"
        description={
          <>
            This permanently deletes <strong>{organization.name}</strong> with its projects and all their data.
          </>
        }
        confirmLabel="Delete"
        typeToConfirm={organization.name}
        onConfirm={async () => {
          await mutateAsync();
          toast.success(`Organization “${organization.name}” deleted`);
          await onDeleted();
          forgetOrganization(queryClient, organization.id);
        }}
      />
    </div>
  );
}
