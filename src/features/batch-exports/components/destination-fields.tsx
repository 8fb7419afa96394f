import { useWatch, type UseFormReturn } from 'react-hook-form';
import { destinationTypeInfo, type DestinationField } from '@/contract/batch-exports';
import { CheckboxField, SelectField, TextareaField, TextField } from '@/components/form-kit';
import type { BatchExportFormValues } from './form-values';

interface DestinationFieldsProps {
  form: UseFormReturn<BatchExportFormValues, unknown, unknown>;
  /** Editing: secrets are never prefilled and a blank one keeps the stored value. */
  editing: boolean;
}

function describe(field: DestinationField, editing: boolean): string | undefined {
  const parts: string[] = [];
  if (field.kind === 'secret' && editing) parts.push('Leave blank to keep the stored value.');
  else if (!field.required && field.kind !== 'boolean') parts.push('Optional.');
  if (field.help) parts.push(/[.!?]$/.test(field.help) ? field.help : `${field.help}.`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The selected destination type's config fields, rendered from the contract's field metadata. */
export function DestinationFields({ form, editing }: DestinationFieldsProps) {
  const type = useWatch({ control: form.control, name: 'destination.type' });
  const info = destinationTypeInfo(type);
  const { errors } = form.formState;
  const configErrors = (errors.destination?.config ?? {}) as Record<string, { message?: string } | undefined>;
  if (info.fields.length === 0) {
    return (
      <p className="text-sm text-gray-600 dark:text-gray-400">
        This destination has nothing to configure: its runs export nothing.
      </p>
    );
  }
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {info.fields.map((field) => {
        const name = `destination.config.${field.name}` as const;
        const error = configErrors[field.name]?.message;
        const description = describe(field, editing);
        // Keyed by type: switching the type mounts fresh inputs showing that type's values.
        const key = `${type}.${field.name}`;
        switch (field.kind) {
          case 'boolean':
            return (
              <CheckboxField
                key={key}
                className="sm:col-span-2"
                label={field.label}
                error={error}
                {...form.register(name)}
              />
            );
          case 'list':
            return (
              <TextareaField
                key={key}
                className="sm:col-span-2"
                label={field.label}
                rows={2}
                spellCheck={false}
                error={error}
                description={description}
                {...form.register(name)}
              />
            );
          case 'select':
            return (
              <SelectField
                key={key}
                label={field.label}
                error={error}
                description={description}
                {...form.register(name)}
              >
                {field.nullable ? <option value="">None</option> : null}
                {(field.options ?? []).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </SelectField>
            );
          default:
            return (
              <TextField
                key={key}
                label={field.label}
                type={field.kind === 'secret' ? 'password' : field.kind === 'number' ? 'number' : 'text'}
                inputMode={field.kind === 'number' ? 'numeric' : undefined}
                autoComplete={field.kind === 'secret' ? 'new-password' : 'off'}
                spellCheck={false}
                error={error}
                description={description}
                {...form.register(name)}
              />
            );
        }
      })}
    </div>
  );
}
