import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { organizationEndpoints, type Organization } from '@/contract/organizations';
import { describeError } from '@/lib/error-messages';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, ConfirmDialogCancel } from '@/components/ui/dialog';
import { FormError, TextField } from '@/components/ui/form-field';
import { forgetOrganization, useDeleteOrganization } from '../api/organizations.mutations';

interface DeleteOrganizationProps {
  organization: Organization;
  /** Leaves the organization's pages (called before the cache forgets it). */
  onDeleted: () => Promise<void>;
}

/** "Delete organization", confirmed by typing the organization's name. */
export function DeleteOrganization({ organization, onDeleted }: DeleteOrganizationProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const queryClient = useQueryClient();
  const deleteOrganization = useDeleteOrganization(organization.id);
  const confirmed = typed.trim() === organization.name.trim();

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setTyped('');
      deleteOrganization.reset();
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    deleteOrganization.mutate(undefined, {
      onSuccess: async () => {
        toast.success(`Organization “${organization.name}” deleted`);
        await onDeleted();
        await forgetOrganization(queryClient, organization.id);
      },
    });
  };

  return (
    <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-red-300 p-4 dark:border-red-900">
      <div className="text-sm">
        <p className="font-medium">Delete this organization</p>
        <p className="text-gray-600 dark:text-gray-400">
          Its projects, members, invites and exports are deleted with it. This cannot be undone.
        </p>
      </div>
      <ScopedAction scope={organizationEndpoints.destroy.access}>
        <Button variant="danger" onClick={() => onOpenChange(true)}>
          <Trash2 aria-hidden="true" className="size-4" />
          Delete organization
        </Button>
      </ScopedAction>
      <ConfirmDialog
        open={open}
        onOpenChange={onOpenChange}
        title="Delete organization"
        description={
          <>
            This permanently deletes <strong>{organization.name}</strong> with its projects and all their data.
          </>
        }
      >
        <form onSubmit={onSubmit} className="space-y-4">
          <TextField
            label={`Type ${organization.name} to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          <FormError message={deleteOrganization.isError ? describeError(deleteOrganization.error) : undefined} />
          <div className="flex justify-end gap-2">
            <ConfirmDialogCancel asChild>
              <Button>Cancel</Button>
            </ConfirmDialogCancel>
            <Button type="submit" variant="danger" disabled={!confirmed || deleteOrganization.isPending}>
              {deleteOrganization.isPending ? 'Deleting…' : 'Delete'}
            </Button>
          </div>
        </form>
      </ConfirmDialog>
    </div>
  );
}
