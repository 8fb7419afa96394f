import type { PluginCreate, PluginGroup, PluginUpdate } from '../../src/contract/index.ts';
import { PLUGIN_GROUP_LABELS } from '../../src/contract/index.ts';
import { InputError } from '../domain-errors.ts';
import type { NewPlugin, PluginRow } from '../store/plugins.ts';
import { catalogueEntry, type CatalogueEntry } from './catalogue.ts';
import { CompileError, compileSource, type Compiled } from './compile/compile.ts';
import { sourceTemplate } from './templates.ts';

/**
 * Plugin writes shared by create, PATCH, update_source/ and upgrade/: files compiled into the
 * stored row (capabilities, config_schema, compiled code), catalogue installs, and the 400s.
 */
const compileError = (error: CompileError) => new InputError(error.file, error.message);

export async function compiledOrThrow(files: Record<string, string>, group: PluginGroup): Promise<Compiled> {
  try {
    return await compileSource(files, group);
  } catch (error) {
    if (error instanceof CompileError) throw compileError(error);
    throw error;
  }
}

const builtinCapabilities = (builtin: CatalogueEntry['builtin']) =>
  builtin === 'url-import'
    ? { methods: [], jobs: ['import'], scheduled_tasks: [] }
    : { methods: ['onEvent'], jobs: [], scheduled_tasks: [] };

/** The row fields that come from files: compiled code, schema, capabilities, jobs. */
export function filesFields(
  files: Record<string, string>,
  compiled: Compiled,
  builtin: CatalogueEntry['builtin'] | null,
) {
  const capabilities = builtin
    ? builtinCapabilities(builtin)
    : { ...compiled.capabilities, ...(compiled.not_runnable ? { not_runnable: compiled.not_runnable } : {}) };
  return {
    source: JSON.stringify(files),
    compiled: JSON.stringify(compiled.code),
    config_schema: JSON.stringify(compiled.config_schema),
    capabilities: JSON.stringify(capabilities),
    public_jobs: JSON.stringify(Object.fromEntries(capabilities.jobs.map((j) => [j, { payload: {} }]))),
  };
}

const json = (value: unknown, fallback: unknown) => JSON.stringify(value === undefined ? fallback : value);

/** A new row from a create body in `group`. */
export async function newPluginRow(organizationId: string, group: PluginGroup, body: PluginCreate): Promise<NewPlugin> {
  const common = {
    organization_id: organizationId,
    grp: group,
    plugin_type: body.plugin_type,
    is_global: body.is_global ? 1 : 0,
    metrics: json(body.metrics, {}),
    description: body.description ?? null,
    icon: body.icon ?? null,
  };
  if (body.plugin_type === 'repository') {
    const entry = catalogueEntry(body.url ?? null);
    if (!entry) throw new InputError('url', 'No plugin with this URL is in the repository.');
    if (entry.group !== group) {
      throw new InputError(
        'url',
        `${entry.name} belongs to ${PLUGIN_GROUP_LABELS[entry.group].toLowerCase()}: install it there.`,
      );
    }
    const compiled = await compiledOrThrow(entry.files, group);
    return {
      ...common,
      name: body.name ?? entry.name,
      description: body.description ?? entry.description,
      icon: body.icon ?? entry.icon,
      url: entry.url,
      tag: entry.latest_tag,
      latest_tag: entry.latest_tag,
      builtin: entry.builtin,
      ...filesFields(entry.files, compiled, entry.builtin),
    };
  }
  if (body.plugin_type === 'source') {
    const files = sourceTemplate(group, body.name!);
    const compiled = await compiledOrThrow(files, group);
    return {
      ...common,
      name: body.name!,
      url: null,
      tag: body.tag ?? null,
      latest_tag: null,
      builtin: null,
      ...filesFields(files, compiled, null),
    };
  }
  return {
    ...common,
    name: body.name!,
    url: null,
    tag: body.tag ?? null,
    latest_tag: null,
    builtin: null,
    config_schema: json(body.config_schema, []),
    capabilities: json(body.capabilities, {}),
    public_jobs: json(body.public_jobs, {}),
    source: '{}',
    compiled: '{}',
  };
}

/**
 * A PATCH body applied to a row. plugin_type and url do not change after create; for source and
 * catalogue plugins config_schema and capabilities come from their files, so those are ignored.
 */
export function patchedRow(row: PluginRow, body: PluginUpdate, at: string): PluginRow {
  const fromFiles = row.plugin_type === 'source' || row.plugin_type === 'repository';
  return {
    ...row,
    name: body.name ?? row.name,
    description: body.description !== undefined ? body.description : row.description,
    icon: body.icon !== undefined ? body.icon : row.icon,
    tag: body.tag !== undefined && !fromFiles ? body.tag : row.tag,
    is_global: body.is_global !== undefined ? (body.is_global ? 1 : 0) : row.is_global,
    metrics: body.metrics !== undefined ? JSON.stringify(body.metrics) : row.metrics,
    config_schema:
      body.config_schema !== undefined && !fromFiles ? JSON.stringify(body.config_schema) : row.config_schema,
    capabilities: body.capabilities !== undefined && !fromFiles ? JSON.stringify(body.capabilities) : row.capabilities,
    public_jobs: body.public_jobs !== undefined && !fromFiles ? JSON.stringify(body.public_jobs) : row.public_jobs,
    updated_at: at,
  };
}

/** update_source/: files merged (null deletes), compiled, stored; 400 naming the file and line. */
export async function withSource(
  row: PluginRow,
  changes: Record<string, string | null>,
  at: string,
): Promise<PluginRow> {
  if (row.plugin_type !== 'source') {
    throw new InputError('plugin_type', 'Only source plugins can be edited; this one comes from elsewhere.');
  }
  const files = { ...(JSON.parse(row.source) as Record<string, string>) };
  for (const [name, text] of Object.entries(changes)) {
    if (text === null) delete files[name];
    else files[name] = text;
  }
  const compiled = await compiledOrThrow(files, row.grp);
  return {
    ...row,
    ...filesFields(files, compiled, null),
    name: compiled.name ?? row.name,
    description: compiled.description ?? row.description,
    updated_at: at,
  };
}

/** upgrade/: the catalogue's latest files and tag; 400 when already up to date. */
export async function upgradedRow(row: PluginRow, at: string): Promise<PluginRow> {
  const entry = catalogueEntry(row.url);
  if (!entry || row.latest_tag === null || row.tag === row.latest_tag) {
    throw new InputError('tag', 'This plugin is already up to date.');
  }
  const compiled = await compiledOrThrow(entry.files, row.grp);
  return {
    ...row,
    ...filesFields(entry.files, compiled, entry.builtin),
    tag: entry.latest_tag,
    latest_tag: entry.latest_tag,
    builtin: entry.builtin,
    updated_at: at,
  };
}
