import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from '@/lib/toast';
import type { Plugin, PluginCreateInput } from '@/contract/plugins';
import type { z } from '@/contract/z';
import { FormFooter, submitHandler, TextField } from '@/components/form-kit';
import type { GroupSlug } from '../api/pipeline-groups';
import { usePipelineMutations } from '../api/pipeline.mutations';
import { groupEndpoints } from '../api/pipeline.queries';

type Values = Record<string, string>;

interface PluginCreateFormProps {
  organizationId: string;
  slug: GroupSlug;
  /** The one field, named as the API's `attr` names it, so a 400 lands on it. */
  field: 'url' | 'name';
  /** Checks the field (`{ [field]: … }`): the contract's rules, the value trimmed. */
  schema: z.ZodMiniType<Values, Values>;
  toBody: (value: string) => PluginCreateInput;
  created: (plugin: Plugin) => string;
  heading: string;
  headingId: string;
  label: string;
  description?: string;
  type?: 'url' | 'text';
  className: string;
  submitLabel: string;
  pendingLabel: string;
}

/** A section whose one-field form creates a plugin in the group (install by URL, a new source plugin). */
export function PluginCreateForm({
  organizationId,
  slug,
  field,
  schema,
  toBody,
  created,
  heading,
  headingId,
  label,
  description,
  type = 'text',
  className,
  submitLabel,
  pendingLabel,
}: PluginCreateFormProps) {
  const { create } = usePipelineMutations(organizationId, slug);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { [field]: '' } });
  // Nothing to send until something is typed (as before the kit: the button waits for a value).
  const value = useWatch({ control: form.control, name: field }) ?? '';
  const onSubmit = submitHandler(form, [field], async (values) => {
    const plugin = await create.mutateAsync(toBody(values[field] ?? ''));
    toast.success(created(plugin));
    form.reset();
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="text-lg font-semibold">
        {heading}
      </h2>
      <form noValidate onSubmit={onSubmit} className="flex flex-wrap items-start gap-3">
        <TextField
          label={label}
          type={type}
          autoComplete="off"
          spellCheck={false}
          className={className}
          description={description}
          error={errors[field]?.message}
          {...register(field)}
        />
        <div className="mt-6 space-y-2">
          <FormFooter
            error={errors.root?.server?.message}
            submitLabel={submitLabel}
            pendingLabel={pendingLabel}
            isSubmitting={isSubmitting}
            disabled={value.trim() === ''}
            scope={groupEndpoints(slug).create.access}
          />
        </div>
      </form>
    </section>
  );
}
