import { choiceMessage } from '@/contract/fields';
import type { PluginConfig } from '@/contract/plugin-configs';
import type { PluginConfigField } from '@/contract/plugins';
import { z } from '@/contract/z';

/**
 * The config form's schema, generated from a plugin's `config_schema`: one place for the checks
 * and their messages, the same rules (and words) as the server's (server/plugins/config-values.ts),
 * which has the last word.
 */

/** What the form holds: text for text, choice, JSON and attachment fields; a boolean for a boolean. */
export interface ConfigFormValues {
  enabled: boolean;
  config: Record<string, string | boolean>;
}
/** What is sent: an empty value clears its field (`null`); an empty secret is left out (keeps the stored one). */
export interface ConfigFormOutput {
  enabled: boolean;
  config: Record<string, unknown>;
}

export const MAX_CONFIG_VALUE = 10_000;

/** The fields the form can show: entries of the schema without a key name nothing to set. */
export const keyedFields = (fields: readonly PluginConfigField[]) =>
  fields.filter((f): f is PluginConfigField & { key: string } => Boolean(f.key));

function fieldSchema(field: PluginConfigField) {
  switch (field.type ?? 'string') {
    case 'boolean':
      return z.boolean();
    case 'choice':
      return z
        .string()
        .check(
          z.refine((v) => v === '' || (field.choices ?? []).includes(v), { error: (iss) => choiceMessage(iss.input) }),
        );
    case 'json':
      return z.string().check(z.refine((v) => v.trim() === '' || isJson(v), { error: 'Must be valid JSON.' }));
    default:
      return z.string().check(
        z.maxLength(MAX_CONFIG_VALUE, {
          error: `Ensure this field has no more than ${MAX_CONFIG_VALUE} characters.`,
        }),
      );
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The schema of one plugin's config form. Enabled, a required field without a default needs a
 * value ("Region is required."); a secret already stored counts as one (`secretsSet`).
 */
export function configFormSchema(
  fields: readonly PluginConfigField[],
  secretsSet: readonly string[] = [],
): z.ZodMiniType<ConfigFormOutput, ConfigFormValues> {
  const keyed = keyedFields(fields);
  const values = z
    .object({
      enabled: z.boolean(),
      config: z.object(Object.fromEntries(keyed.map((f) => [f.key, fieldSchema(f)]))),
    })
    .check(
      z.superRefine((value, ctx) => {
        if (!value.enabled) return;
        for (const f of keyed) {
          const given = value.config[f.key];
          const stored = f.secret && secretsSet.includes(f.key);
          const hasDefault = f.default !== undefined && f.default !== null && f.default !== '';
          if (f.required && !hasDefault && !stored && (given === undefined || given === '')) {
            ctx.addIssue({
              code: 'custom',
              path: ['config', f.key],
              message: `${f.name ?? f.key} is required.`,
              input: given,
            });
          }
        }
      }),
    );
  return z.pipe(
    values,
    z.transform(({ enabled, config }): ConfigFormOutput => {
      const sent: Record<string, unknown> = {};
      for (const f of keyed) {
        const value = config[f.key];
        if (f.secret && value === '') continue;
        sent[f.key] = value === '' ? null : value;
      }
      return { enabled, config: sent };
    }),
  ) as z.ZodMiniType<ConfigFormOutput, ConfigFormValues>;
}

/** The form's first values: what is stored (JSON objects as text), else the field's default; secrets empty. */
export function configFormDefaults(
  fields: readonly PluginConfigField[],
  existing: PluginConfig | null,
): ConfigFormValues {
  const initial = (field: PluginConfigField & { key: string }): string | boolean => {
    const stored = field.secret ? undefined : existing?.config[field.key];
    if (field.type === 'boolean')
      return stored === undefined
        ? field.default === true || field.default === 'true'
        : stored === true || stored === 'true';
    if (field.secret) return '';
    if (stored !== undefined && stored !== null)
      return typeof stored === 'object' ? JSON.stringify(stored) : String(stored);
    return field.default === undefined || field.default === null
      ? ''
      : typeof field.default === 'string'
        ? field.default
        : JSON.stringify(field.default);
  };
  return {
    enabled: existing?.enabled ?? false,
    config: Object.fromEntries(keyedFields(fields).map((f) => [f.key, initial(f)])),
  };
}
