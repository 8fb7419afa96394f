import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from '@/lib/toast';
import { organizationCreateSchema } from '@/contract/organizations';
import { FormFooter, submitHandler } from '@/components/form-kit';
import { Button } from '@/components/ui/button';
import { DialogClose, Modal } from '@/components/ui/dialog';
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

  const onSubmit = submitHandler(form, ORGANIZATION_FORM_FIELDS, async (values) => {
    const organization = await createOrganization.mutateAsync(values);
    toast.success(`Organization “${organization.name}” created`);
    onCreated();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <OrganizationFields form={form} />
      <FormFooter
        align="end"
        error={form.formState.errors.root?.server?.message}
        submitLabel="Create organization"
        pendingLabel="Creating…"
        isSubmitting={form.formState.isSubmitting}
      >
        <DialogClose asChild>
          <Button>Cancel</Button>
        </DialogClose>
      </FormFooter>
    </form>
  );
}

/** "New organization": its open state lives in the URL (`?create=true`). */
export function CreateOrganizationDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
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
