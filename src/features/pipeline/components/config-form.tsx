import { useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import type { PluginConfig } from '@/contract/plugin-configs';
import type { PluginConfigField } from '@/contract/plugins';
import { pluginConfigEndpoints } from '@/contract/plugin-configs';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { CheckboxField, SelectField, TextareaField, TextField } from '@/components/form-kit/fields';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/error-messages';
import type { GroupSlug } from '../api/pipeline-groups';
import { useConfigMutations } from '../api/pipeline.mutations';

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

const initialValue = (field: PluginConfigField, existing: PluginConfig | null): unknown => {
  if (field.secret) return '';
  const stored = existing?.config[field.key ?? ''];
  if (stored !== undefined) return typeof stored === 'object' && stored !== null ? JSON.stringify(stored) : stored;
  if (field.type === 'boolean') return field.default === true || field.default === 'true';
  return field.default === undefined || field.default === null ? '' : typeof field.default === 'string' ? field.default : JSON.stringify(field.default);
};

/**
 * The plugin's config in one project, generated from its config_schema: text, secret (write-only:
 * left empty keeps the stored value), choice, boolean and JSON fields; enabled; server errors on
 * their field (`config__<key>`).
 */
export function ConfigForm({ group, projectId, projectName, pluginId, fields, existing, enabledHint }: ConfigFormProps) {
  const [values, setValues] = useState<Record<string, unknown>>(() => Object.fromEntries(fields.map((f) => [f.key, initialValue(f, existing)])));
  const [enabled, setEnabled] = useState(existing?.enabled ?? false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const { save } = useConfigMutations(projectId, group);
  const set = (key: string, value: unknown) => setValues((v) => ({ ...v, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFormError(null);
    const config: Record<string, unknown> = {};
    for (const f of fields) {
      const value = values[f.key ?? ''];
      if (f.secret && value === '') continue; // keeps the stored secret
      config[f.key!] = value === '' ? null : value;
    }
    save.mutate({ existing, pluginId, enabled, config }, {
      onSuccess: (saved) => toast.success(
        saved.enabled ? `Enabled in ${projectName}` : existing?.enabled ? `Disabled in ${projectName}` : `Saved for ${projectName}`,
      ),
      onError: (error) => {
        if (isApiError(error) && error.attr?.startsWith('config__')) setErrors({ [error.attr.slice(8)]: error.detail });
        else setFormError(describeError(error));
      },
    });
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={`Configuration in ${projectName}`}>
      {fields.length === 0 ? <p className="text-sm text-gray-700 dark:text-gray-300">This app has no settings.</p> : null}
      {fields.map((f) => {
        const key = f.key ?? '';
        const label = `${f.name ?? key}${f.required ? ' (required)' : ''}`;
        const common = { label, error: errors[key], description: f.secret ? secretHint(existing, key) : (f.hint ?? undefined) };
        if (f.type === 'boolean') {
          return <CheckboxField key={key} {...common} checked={values[key] === true} onChange={(e) => set(key, e.target.checked)} />;
        }
        if (f.type === 'choice') {
          return (
            <SelectField key={key} {...common} value={String(values[key] ?? '')} onChange={(e) => set(key, e.target.value)}>
              <option value="">—</option>
              {(f.choices ?? []).map((c) => <option key={c} value={c}>{c}</option>)}
            </SelectField>
          );
        }
        if (f.type === 'json' || f.type === 'attachment') {
          return <TextareaField key={key} {...common} rows={3} value={String(values[key] ?? '')} onChange={(e) => set(key, e.target.value)} />;
        }
        return (
          <TextField key={key} {...common} type={f.secret ? 'password' : 'text'} autoComplete="off" value={String(values[key] ?? '')} onChange={(e) => set(key, e.target.value)} />
        );
      })}
      <CheckboxField label={`Enabled in ${projectName}`} checked={enabled} onChange={(e) => setEnabled(e.target.checked)}
        description={enabledHint} />
      {formError ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{formError}</p> : null}
      <ScopedAction scope={pluginConfigEndpoints.update.access}>
        <Button type="submit" variant="primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save configuration'}</Button>
      </ScopedAction>
    </form>
  );
}

const secretHint = (existing: PluginConfig | null, key: string) =>
  existing?.secret_keys_set.includes(key) ? 'A value is stored (never shown). Leave empty to keep it.' : 'Secret: stored encrypted, never shown again.';
