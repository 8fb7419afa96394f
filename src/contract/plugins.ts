import { z } from 'zod';
import { endpoint, listQuerySchema, pageSchema, type Endpoint } from './common';
import { blankableText, bool, choice, text } from './fields';

/**
 * Plugins, shared by the three pipeline groups `{ORG}/pipeline_destinations/`,
 * `{ORG}/pipeline_frontend_apps/` and `{ORG}/pipeline_import_apps/`. The id is an integer.
 */
export const PLUGIN_GROUPS = ['pipeline_destinations', 'pipeline_frontend_apps', 'pipeline_import_apps'] as const;
export type PluginGroup = (typeof PLUGIN_GROUPS)[number];
export const PLUGIN_GROUP_LABELS: { readonly [G in PluginGroup]: string } = {
  pipeline_destinations: 'Destinations',
  pipeline_frontend_apps: 'Frontend apps',
  pipeline_import_apps: 'Import apps',
};

/** The spec shows only `local`; the others are the production service's plugin types. */
export const PLUGIN_TYPES = ['local', 'custom', 'repository', 'source', 'inline'] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];

export const pluginSchema = z.looseObject({
  id: z.number().int(),
  plugin_type: z.string().nullable(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  url: z.string().nullable(),
  icon: z.string().nullable(),
  config_schema: z.unknown(),
  tag: z.string().nullable(),
  latest_tag: z.string().nullable(),
  is_global: z.boolean(),
  organization_id: z.string(),
  organization_name: z.string(),
  capabilities: z.unknown(),
  metrics: z.unknown(),
  public_jobs: z.unknown(),
});
export type Plugin = z.infer<typeof pluginSchema>;

export const PLUGIN_NAME_MAX = 200;

/** The writable fields (spec): plugin_type, name, description, icon, config_schema, tag, is_global, capabilities, metrics, public_jobs. */
const writableShape = {
  plugin_type: choice(PLUGIN_TYPES),
  name: text(PLUGIN_NAME_MAX),
  description: blankableText().nullable().optional(),
  icon: blankableText(800).nullable().optional(),
  config_schema: z.unknown().optional(),
  tag: blankableText(200).nullable().optional(),
  is_global: bool().optional(),
  capabilities: z.unknown().optional(),
  metrics: z.unknown().optional(),
  public_jobs: z.unknown().optional(),
};

/** POST `{ORG}/<group>/`: a name is required; plugin_type defaults to `local` (the spec's sample). */
export const pluginCreateSchema = z.object({ ...writableShape, plugin_type: writableShape.plugin_type.default('local') });
export type PluginCreate = z.infer<typeof pluginCreateSchema>;
export type PluginCreateInput = z.input<typeof pluginCreateSchema>;

/** PATCH `:id/`, PATCH `:id/update_source/`, POST `:id/upgrade/`: the same fields, all optional. */
export const pluginUpdateSchema = z.object({
  ...writableShape,
  plugin_type: writableShape.plugin_type.optional(),
  name: writableShape.name.optional(),
});
export type PluginUpdate = z.infer<typeof pluginUpdateSchema>;

export const pluginParams = z.object({
  organization_id: z.string(),
  id: z.coerce.number({ error: 'A valid integer is required.' }).int({ error: 'A valid integer is required.' }).positive(),
});
const orgParams = z.object({ organization_id: z.string() });

/**
 * The endpoints of one group. Static paths come before `:id/` so a router matching in order
 * does not take `activity/` for an id. Destinations and frontend apps have every operation;
 * import apps only list, create and retrieve (the spec shows no more).
 * The † endpoints (access null) reply "Plugin shape" per the spec; keys get 403 on them.
 */
function pluginGroupEndpoints<const G extends PluginGroup>(group: G) {
  const base = `/api/organizations/:organization_id/${group}/` as const;
  const label = PLUGIN_GROUP_LABELS[group].toLowerCase();
  const core = {
    list: endpoint({
      method: 'GET', path: base, access: 'plugin:read',
      summary: `List ${label}`, params: orgParams, query: listQuerySchema, status: 200, response: pageSchema(pluginSchema),
    }),
    create: endpoint({
      method: 'POST', path: base, access: 'plugin:write',
      summary: `Create a plugin in ${label}`, params: orgParams, body: pluginCreateSchema, status: 201, response: pluginSchema,
    }),
  };
  const retrieve = endpoint({
    method: 'GET', path: `${base}:id/`, access: 'plugin:read',
    summary: `Retrieve a plugin of ${label}`, params: pluginParams, status: 200, response: pluginSchema,
  });
  const extra = {
    activity: endpoint({ method: 'GET', path: `${base}activity/`, access: null, summary: `Activity of ${label}`, params: orgParams, status: 200, response: pluginSchema }),
    exportsUnsubscribeConfigs: endpoint({
      method: 'GET', path: `${base}exports_unsubscribe_configs/`, access: null,
      summary: 'Plugin configs to unsubscribe from exports', params: orgParams, status: 200, response: pluginSchema,
    }),
    repository: endpoint({ method: 'GET', path: `${base}repository/`, access: null, summary: 'Plugins available in the repository', params: orgParams, status: 200, response: pluginSchema }),
    unused: endpoint({ method: 'GET', path: `${base}unused/`, access: null, summary: 'Plugins with no config', params: orgParams, status: 200, response: pluginSchema }),
    retrieve,
    update: endpoint({
      method: 'PATCH', path: `${base}:id/`, access: 'plugin:write',
      summary: 'Update a plugin', params: pluginParams, body: pluginUpdateSchema, status: 200, response: pluginSchema,
    }),
    destroy: endpoint({ method: 'DELETE', path: `${base}:id/`, access: 'plugin:write', summary: 'Delete a plugin', params: pluginParams, status: 204 }),
    checkForUpdates: endpoint({
      method: 'GET', path: `${base}:id/check_for_updates/`, access: null,
      summary: 'Check a plugin for a newer version', params: pluginParams, status: 200, response: pluginSchema,
    }),
    source: endpoint({ method: 'GET', path: `${base}:id/source/`, access: null, summary: 'Source of a plugin', params: pluginParams, status: 200, response: pluginSchema }),
    updateSource: endpoint({
      method: 'PATCH', path: `${base}:id/update_source/`, access: null,
      summary: 'Replace the source of a plugin', params: pluginParams, body: pluginUpdateSchema, status: 200, response: pluginSchema,
    }),
    upgrade: endpoint({
      method: 'POST', path: `${base}:id/upgrade/`, access: null,
      summary: 'Upgrade a plugin to its latest version', params: pluginParams, body: pluginUpdateSchema, status: 200, response: pluginSchema,
    }),
  };
  return { core, retrieve, extra };
}

const destinations = pluginGroupEndpoints('pipeline_destinations');
const frontendApps = pluginGroupEndpoints('pipeline_frontend_apps');
const importApps = pluginGroupEndpoints('pipeline_import_apps');

export const pipelineDestinationEndpoints = { ...destinations.core, ...destinations.extra };
export const pipelineFrontendAppEndpoints = { ...frontendApps.core, ...frontendApps.extra };
export const pipelineImportAppEndpoints = { ...importApps.core, retrieve: importApps.retrieve };

/** The endpoints of a group by its path segment, for code that works on any group. */
export const pluginEndpointsByGroup: { readonly [G in PluginGroup]: Record<string, Endpoint> } = {
  pipeline_destinations: pipelineDestinationEndpoints,
  pipeline_frontend_apps: pipelineFrontendAppEndpoints,
  pipeline_import_apps: pipelineImportAppEndpoints,
};
