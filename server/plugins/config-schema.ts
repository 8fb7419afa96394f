import { PLUGIN_CONFIG_FIELD_TYPES, type PluginConfigField } from '../../src/contract/index.ts';
import { CompileError } from './compile/error.ts';

/**
 * `plugin.json`: `{name, description, config: [{key, name, type, default, required, secret,
 * choices}]}`. A file that is not JSON, or a config entry without a key or with an unknown
 * type, is a CompileError naming plugin.json (and the line, for JSON syntax errors).
 */
export function readConfigSchema(text: string | undefined): {
  name: string | null;
  description: string | null;
  config: PluginConfigField[];
} {
  if (text === undefined) return { name: null, description: null, config: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const line = position ? text.slice(0, Number(position[1])).split('\n').length : null;
    throw new CompileError('plugin.json', line, message.replace(/^JSON\.parse: /, ''));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CompileError('plugin.json', null, 'Expected a JSON object.');
  const meta = parsed as { name?: unknown; description?: unknown; config?: unknown };
  const config = meta.config ?? [];
  if (!Array.isArray(config)) throw new CompileError('plugin.json', null, '"config" must be a list of fields.');
  const fields: PluginConfigField[] = config.map((raw: unknown, i) => {
    const f = raw as PluginConfigField;
    if (typeof f !== 'object' || f === null || typeof f.key !== 'string' || f.key === '') {
      throw new CompileError('plugin.json', null, `config[${i}] needs a "key".`);
    }
    const type = f.type ?? 'string';
    if (!(PLUGIN_CONFIG_FIELD_TYPES as readonly string[]).includes(type)) {
      throw new CompileError('plugin.json', null, `config[${i}] ("${f.key}") has an unknown type "${type}".`);
    }
    if (type === 'choice' && (!Array.isArray(f.choices) || f.choices.length === 0)) {
      throw new CompileError('plugin.json', null, `config[${i}] ("${f.key}") is a choice without choices.`);
    }
    return { ...f, type };
  });
  return {
    name: typeof meta.name === 'string' ? meta.name : null,
    description: typeof meta.description === 'string' ? meta.description : null,
    config: fields,
  };
}
