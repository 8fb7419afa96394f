import { pluginConfigFieldSchema, type PluginConfigField } from '../../src/contract/index.ts';
import { InputError } from '../domain-errors.ts';

/**
 * A config's values checked against the plugin's `config_schema`: each value has its field's
 * type (string, choice among `choices`, boolean, json: an object or JSON text, attachment:
 * text), required fields hold a value, keys the schema does not know are dropped. Secret values
 * come back apart (stored sealed, never answered). 400 attr `config__<key>`.
 */
export const MAX_CONFIG_VALUE = 10_000;

/** The usable fields of a stored `config_schema`: entries that are not a field with a key are skipped. */
export function schemaFields(configSchema: string): PluginConfigField[] {
  const parsed = JSON.parse(configSchema) as unknown;
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry) => {
    const field = pluginConfigFieldSchema.safeParse(entry);
    return field.success && field.data.key ? [field.data] : [];
  });
}

function checkValue(field: PluginConfigField, value: unknown): unknown {
  const attr = `config__${field.key}`;
  const bad = (detail: string) => new InputError(attr, detail);
  switch (field.type ?? 'string') {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw bad('Must be a boolean.');
    case 'choice':
      if (typeof value !== 'string' || !(field.choices ?? []).includes(value))
        throw bad(`"${String(value)}" is not a valid choice.`);
      return value;
    case 'json':
      if (typeof value === 'object' && value !== null) return value;
      if (typeof value !== 'string') throw bad('Must be JSON.');
      try {
        JSON.parse(value);
      } catch {
        throw bad('Must be valid JSON.');
      }
      return value;
    default:
      if (typeof value !== 'string') throw bad('Must be text.');
      if (value.length > MAX_CONFIG_VALUE)
        throw bad(`Ensure this field has no more than ${MAX_CONFIG_VALUE} characters.`);
      return value;
  }
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Merges `input` into the stored values (a key given replaces, `null` clears, a key left out
 * keeps its value) and validates the result. With `enabled`, required fields must be set.
 */
export function mergeConfig(
  fields: PluginConfigField[],
  stored: { config: Record<string, unknown>; secrets: Record<string, unknown> },
  input: Record<string, unknown> | undefined,
  enabled: boolean,
): { config: Record<string, unknown>; secrets: Record<string, unknown> } {
  const config: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const field of fields) {
    const key = field.key!;
    const previous = field.secret ? stored.secrets[key] : stored.config[key];
    const given = input && Object.hasOwn(input, key) ? input[key] : undefined;
    const value = input && Object.hasOwn(input, key) ? given : previous;
    if (isEmpty(value)) {
      if (enabled && field.required && isEmpty(field.default)) {
        throw new InputError(`config__${key}`, `${field.name ?? key} is required.`, 'required');
      }
      continue;
    }
    (field.secret ? secrets : config)[key] = checkValue(field, value);
  }
  return { config, secrets };
}

/** The values a running plugin sees: defaults, then the stored values and secrets. */
export function effectiveConfig(
  fields: PluginConfigField[],
  config: Record<string, unknown>,
  secrets: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f.key && f.default !== undefined) out[f.key] = f.default;
  return { ...out, ...config, ...secrets };
}
