import type { UseFormReturn } from 'react-hook-form';
import type { z } from '@/contract/z';
import { ORGANIZATION_NAME_MAX, type organizationCreateSchema } from '@/contract/organizations';
import { CheckboxField, TextField } from '@/components/form-kit';

export type OrganizationFormInput = z.input<typeof organizationCreateSchema>;
export type OrganizationFormOutput = z.output<typeof organizationCreateSchema>;
export type OrganizationForm = UseFormReturn<OrganizationFormInput, unknown, OrganizationFormOutput>;

/** The form fields the API's `attr` can point at. */
export const ORGANIZATION_FORM_FIELDS = ['name', 'is_member_join_email_enabled', 'enforce_2fa'] as const;

/** Name and the two switches, shared by the create dialog and the settings page. */
export function OrganizationFields({ form }: { form: OrganizationForm }) {
  const { register, formState } = form;
  return (
    <div className="space-y-4">
      <TextField
        label="Name"
        autoComplete="organization"
        maxLength={ORGANIZATION_NAME_MAX}
        error={formState.errors.name?.message}
        {...register('name')}
      />
      <CheckboxField
        label="Email members when someone joins"
        description="Members get an email each time a new member joins the organization."
        {...register('is_member_join_email_enabled')}
      />
      <CheckboxField
        label="Enforce two-factor authentication"
        description="Members must set up two-factor authentication to use the organization."
        {...register('enforce_2fa')}
      />
    </div>
  );
}
