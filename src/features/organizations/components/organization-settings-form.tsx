import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '@/lib/toast';
import {
  organizationCreateSchema,
  organizationEndpoints,
  type Organization,
  type OrganizationUpdate,
} from '@/contract/organizations';
import { useCan } from '@/lib/auth';
import { Fieldset, FormFooter, submitHandler } from '@/components/form-kit';
import { LeaveGuard } from '@/components/feedback/leave-guard';
import { Button } from '@/components/ui/button';
import { useUpdateOrganization } from '../api/organizations.mutations';
import {
  ORGANIZATION_FORM_FIELDS,
  OrganizationFields,
  type OrganizationFormInput,
  type OrganizationFormOutput,
} from './organization-fields';

function formValues(organization: Organization): OrganizationFormInput {
  return {
    name: organization.name,
    is_member_join_email_enabled: organization.is_member_join_email_enabled,
    enforce_2fa: organization.enforce_2fa ?? false,
  };
}

/** Rename, member-join emails and 2FA enforcement; sends only what changed (PATCH). */
export function OrganizationSettingsForm({ organization }: { organization: Organization }) {
  const scope = organizationEndpoints.update.access;
  const { allowed } = useCan(scope);
  const form = useForm<OrganizationFormInput, unknown, OrganizationFormOutput>({
    resolver: zodResolver(organizationCreateSchema),
    defaultValues: formValues(organization),
  });
  const { isDirty, isSubmitting, dirtyFields, errors } = form.formState;
  const updateOrganization = useUpdateOrganization(organization.id);

  // Follow changes made elsewhere while nothing is being edited here.
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(formValues(organization));
  }, [organization, form]);

  const onSubmit = submitHandler(form, ORGANIZATION_FORM_FIELDS, async (values) => {
    const body: OrganizationUpdate = {};
    if (dirtyFields.name) body.name = values.name;
    if (dirtyFields.is_member_join_email_enabled)
      body.is_member_join_email_enabled = values.is_member_join_email_enabled;
    if (dirtyFields.enforce_2fa) body.enforce_2fa = values.enforce_2fa;
    const updated = await updateOrganization.mutateAsync(body);
    form.reset(formValues(updated));
    toast.success('Changes saved');
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <LeaveGuard dirty={isDirty} what="the organization's settings" />
      <Fieldset legend="General settings" framed={false} disabled={!allowed}>
        <OrganizationFields form={form} />
      </Fieldset>
      <FormFooter
        error={errors.root?.server?.message}
        submitLabel="Save changes"
        pendingLabel="Saving…"
        isSubmitting={isSubmitting}
        disabled={!isDirty}
        scope={scope}
      >
        {isDirty ? (
          <Button onClick={() => form.reset(formValues(organization))} disabled={isSubmitting}>
            Discard changes
          </Button>
        ) : null}
      </FormFooter>
    </form>
  );
}
