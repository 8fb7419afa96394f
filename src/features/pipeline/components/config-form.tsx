import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from '@/lib/toast';
import type { PluginConfig } from '@/contract/plugin-configs';
import type { PluginConfigField } from '@/contract/plugins';
import { pluginConfigEndpoints } from '@/contract/plugin-configs';
import { CheckboxField, FormFooter, SelectField, submitHandler, TextareaField, TextField } from '@/components/form-kit';
import type { GroupSlug } from '../api/pipeline-groups';
import { useConfigMutations } from '../api/pipeline.mutations';
import {
  configFormDefaults,
  configFormSchema,
  keyedFields,
  type ConfigFormOutput,
  type ConfigFormValues,
} from '../lib/config-schema';

interface ConfigFormProps {
  /** The plugin's group, whose lists change with its configs. */
  group: { organizationId: string; slug: GroupSlug };
  projectId: number;
  projectName: string;
  pluginId: number;
  fields: PluginConfigField[];
  existing: PluginConfig | null;
  /** What enabling does (groupEnabledHint). */
  enabledHint: string;
}

/**
 * The plugin's config in one project, generated from its config_schema (configFormSchema): text,
 * secret (write-only: left empty keeps the stored value), choice, boolean and JSON fields;
 * enabled; a refusal on its field (`config__<key>`).
 */
export function ConfigForm({
  group,
  projectId,
  projectName,
  pluginId,
  fields,
  existing,
  enabledHint,
}: ConfigFormProps) {
  const { save } = useConfigMutations(projectId, group);
  const keyed = keyedFields(fields);
  const form = useForm<ConfigFormValues, unknown, ConfigFormOutput>({
    resolver: zodResolver(configFormSchema(fields, existing?.secret_keys_set)),
    defaultValues: configFormDefaults(fields, existing),
  });
  const onSubmit = submitHandler(
    form,
    () => ['enabled', ...keyed.map((f) => `config.${f.key}` as const)],
    async ({ enabled, config }) => {
      const saved = await save.mutateAsync({ existing, pluginId, enabled, config });
      toast.success(
        saved.enabled
          ? `Enabled in ${projectName}`
          : existing?.enabled
            ? `Disabled in ${projectName}`
            : `Saved for ${projectName}`,
      );
    },
  );
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label={`Configuration in ${projectName}`}>
      {keyed.length === 0 ? (
        <p className="text-sm text-gray-700 dark:text-gray-300">This app has no settings.</p>
      ) : null}
      {keyed.map((f) => {
        const name = `config.${f.key}` as const;
        const label = `${f.name ?? f.key}${f.required ? ' (required)' : ''}`;
        const common = {
          label,
          error: errors.config?.[f.key]?.message,
          description: f.secret ? secretHint(existing, f.key) : (f.hint ?? undefined),
        };
        if (f.type === 'boolean') return <CheckboxField key={f.key} {...common} {...register(name)} />;
        if (f.type === 'choice') {
          return (
            <SelectField key={f.key} {...common} {...register(name)}>
              <option value="">—</option>
              {(f.choices ?? []).map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </SelectField>
          );
        }
        if (f.type === 'json' || f.type === 'attachment')
          return <TextareaField key={f.key} {...common} rows={3} {...register(name)} />;
        return (
          <TextField
            key={f.key}
            {...common}
            type={f.secret ? 'password' : 'text'}
            autoComplete="off"
            {...register(name)}
          />
        );
      })}
      <CheckboxField
        label={`Enabled in ${projectName}`}
        description={enabledHint}
        error={errors.enabled?.message}
        {...register('enabled')}
      />
      <FormFooter
        error={errors.root?.server?.message}
        submitLabel="Save configuration"
        pendingLabel="Saving…"
        isSubmitting={isSubmitting}
        scope={pluginConfigEndpoints.update.access}
      />
    </form>
  );
}

const secretHint = (existing: PluginConfig | null, key: string) =>
  existing?.secret_keys_set.includes(key)
    ? 'A value is stored (never shown). Leave empty to keep it.'
    : 'Secret: stored encrypted, never shown again.';
