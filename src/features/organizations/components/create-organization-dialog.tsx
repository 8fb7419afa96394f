import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { organizationCreateSchema } from '@/contract/organizations';
import { applyServerError } from '@/lib/form-errors';
import { Button } from '@/components/ui/button';
import { DialogClose, Modal } from '@/components/ui/dialog';
import { FormError } from '@/components/ui/form-field';
import { useCreateOrganization } from '../api/organizations.mutations';
import {
  ORGANIZATION_FORM_FIELDS,
  OrganizationFields,
  type OrganizationFormInput,
  type OrganizationFormOutput,
} from './organization-fields';

function CreateOrganizationForm({ onCreated }: { onCreated: () => void }) {
  const form = useForm<OrganizationFormInput, unknown, OrganizationFormOutput>({
    resolver: zodResolver(organizationCreateSchema),
    defaultValues: { name: '', is_member_join_email_enabled: true, enforce_2fa: false },
  });
  const createOrganization = useCreateOrganization();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const organization = await createOrganization.mutateAsync(values);
      toast.success(`Organization “${organization.name}” created`);
      onCreated();
    } catch (error) {
      applyServerError(form, error, ORGANIZATION_FORM_FIELDS);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <OrganizationFields form={form} />
      <FormError message={form.formState.errors.root?.server?.message} />
      <div className="flex justify-end gap-2">
        <DialogClose asChild>
          <Button>Cancel</Button>
        </DialogClose>
        <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Creating…' : 'Create organization'}
        </Button>
      </div>
    </form>
  );
}

/** "New organization": its open state lives in the URL (`?create=true`). */
export function CreateOrganizationDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="New organization"
      description="An organization groups members, projects and their data. It starts with one project."
    >
      <CreateOrganizationForm onCreated={() => onOpenChange(false)} />
    </Modal>
  );
}
