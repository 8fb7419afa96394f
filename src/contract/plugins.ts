import { z } from './z';
import { endpoint, listQuerySchema, pageSchema, type Endpoint } from './common';
import { activityLogPageSchema } from './insights';
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

/** The API shows only `local`; the others are the production service's plugin types (docs/api.md). */
export const PLUGIN_TYPES = ['local', 'custom', 'repository', 'source', 'inline'] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];

export const pluginSchema = z.looseObject({
  id: z.int(),
  plugin_type: z.nullable(z.string()),
  name: z.nullable(z.string()),
  description: z.nullable(z.string()),
  url: z.nullable(z.string()),
  icon: z.nullable(z.string()),
  config_schema: z.unknown(),
  tag: z.nullable(z.string()),
  latest_tag: z.nullable(z.string()),
  is_global: z.boolean(),
  organization_id: z.string(),
  organization_name: z.string(),
  capabilities: z.unknown(),
  metrics: z.unknown(),
  public_jobs: z.unknown(),
});
export type Plugin = z.infer<typeof pluginSchema>;

export const PLUGIN_NAME_MAX = 200;

/** One field of a plugin's `config_schema` (read from its `plugin.json`). */
export const PLUGIN_CONFIG_FIELD_TYPES = ['string', 'choice', 'attachment', 'json', 'boolean'] as const;
export const pluginConfigFieldSchema = z.looseObject({
  key: z.optional(z.string()),
  name: z.optional(z.nullable(z.string())),
  type: z.optional(z.string()),
  default: z.optional(z.unknown()),
  required: z.optional(z.boolean()),
  secret: z.optional(z.boolean()),
  choices: z.optional(z.nullable(z.array(z.string()))),
  hint: z.optional(z.nullable(z.string())),
  markdown: z.optional(z.nullable(z.string())),
});
export type PluginConfigField = z.infer<typeof pluginConfigFieldSchema>;

/** The writable fields (the API's): plugin_type, name, description, icon, config_schema, tag, is_global, capabilities, metrics, public_jobs. */
const writableShape = {
  plugin_type: choice(PLUGIN_TYPES),
  name: text(PLUGIN_NAME_MAX),
  description: z.optional(z.nullable(blankableText())),
  icon: z.optional(z.nullable(blankableText(800))),
  config_schema: z.optional(z.unknown()),
  tag: z.optional(z.nullable(blankableText(200))),
  is_global: z.optional(bool()),
  capabilities: z.optional(z.unknown()),
  metrics: z.optional(z.unknown()),
  public_jobs: z.optional(z.unknown()),
};

/**
 * POST `{ORG}/<group>/`: plugin_type defaults to `local` (the API's sample). A `repository`
 * plugin is installed from the catalogue by `url` and takes its name from it;
 * every other type needs a name.
 */
export const pluginCreateSchema = z
  .object({
    ...writableShape,
    plugin_type: z._default(writableShape.plugin_type, 'local'),
    name: z.optional(writableShape.name),
    url: z.optional(blankableText(800)),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.plugin_type === 'repository' && !value.url)
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'This field is required.' });
      if (value.plugin_type !== 'repository' && value.name === undefined)
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'This field is required.' });
    }),
  );
export type PluginCreate = z.infer<typeof pluginCreateSchema>;
export type PluginCreateInput = z.input<typeof pluginCreateSchema>;

/** PATCH `:id/`, POST `:id/upgrade/`: the same fields, all optional. */
export const pluginUpdateSchema = z.object({
  ...writableShape,
  plugin_type: z.optional(writableShape.plugin_type),
  name: z.optional(writableShape.name),
});
export type PluginUpdate = z.infer<typeof pluginUpdateSchema>;

/** A source file name: `plugin.json`, `index.ts`, `frontend.tsx`, `site.ts` or another plain name. */
export const PLUGIN_FILE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
export const PLUGIN_SOURCE_MAX = 200_000;
/** One file's text, as `update_source/` takes it. */
export const pluginSourceTextSchema = z
  .string()
  .check(
    z.maxLength(PLUGIN_SOURCE_MAX, { error: `Ensure this file has no more than ${PLUGIN_SOURCE_MAX} characters.` }),
  );
/** `source/`: file name → text. `update_source/` takes the same map; a `null` value deletes the file. */
export const pluginSourceSchema = z.record(z.string(), z.string());
export type PluginSource = z.infer<typeof pluginSourceSchema>;
export const pluginSourceUpdateSchema = z.record(
  z.string().check(z.regex(PLUGIN_FILE_NAME, { error: 'Not a valid file name.' })),
  z.nullable(pluginSourceTextSchema),
  { error: 'Expected a dictionary of file names to text.' },
);
export type PluginSourceUpdate = z.infer<typeof pluginSourceUpdateSchema>;

/** `repository/`: the catalogue the server ships. */
export const pluginRepositoryEntrySchema = z.looseObject({
  name: z.string(),
  url: z.string(),
  description: z.nullable(z.string()),
  icon: z.nullable(z.string()),
  latest_tag: z.string(),
  group: z.enum(PLUGIN_GROUPS),
});
export type PluginRepositoryEntry = z.infer<typeof pluginRepositoryEntrySchema>;

/** `exports_unsubscribe_configs/`: enabled configs of destinations that export events. */
export const pluginUnsubscribeConfigSchema = z.looseObject({
  id: z.int(),
  plugin: z.int(),
  team_id: z.int(),
  enabled: z.boolean(),
});

export const pluginParams = z.object({
  organization_id: z.string(),
  id: z.coerce
    .number({ error: 'A valid integer is required.' })
    .check(z.int({ error: 'A valid integer is required.' }), z.positive()),
});
const orgParams = z.object({ organization_id: z.string() });

/**
 * The endpoints of one group. Static paths come before `:id/` so a router matching in order
 * does not take `activity/` for an id. Destinations and frontend apps have every operation;
 * import apps list, create, retrieve, delete, check for updates and upgrade. The † endpoints take the
 * scopes docs/api.md gives them (plugin:read, or plugin:write for update_source/ and upgrade/).
 */
function pluginGroupEndpoints<const G extends PluginGroup>(group: G) {
  const base = `/api/organizations/:organization_id/${group}/` as const;
  const label = PLUGIN_GROUP_LABELS[group].toLowerCase();
  const core = {
    list: endpoint({
      method: 'GET',
      path: base,
      access: 'plugin:read',
      summary: `List ${label}`,
      params: orgParams,
      query: listQuerySchema,
      status: 200,
      response: pageSchema(pluginSchema),
    }),
    create: endpoint({
      method: 'POST',
      path: base,
      access: 'plugin:write',
      summary: `Create a plugin in ${label}`,
      params: orgParams,
      body: pluginCreateSchema,
      status: 201,
      response: pluginSchema,
    }),
  };
  const retrieve = endpoint({
    method: 'GET',
    path: `${base}:id/`,
    access: 'plugin:read',
    summary: `Retrieve a plugin of ${label}`,
    params: pluginParams,
    status: 200,
    response: pluginSchema,
  });
  const extra = {
    activity: endpoint({
      method: 'GET',
      path: `${base}activity/`,
      access: 'plugin:read',
      summary: `Activity of ${label}`,
      params: orgParams,
      query: listQuerySchema,
      status: 200,
      response: activityLogPageSchema,
    }),
    exportsUnsubscribeConfigs: endpoint({
      method: 'GET',
      path: `${base}exports_unsubscribe_configs/`,
      access: 'plugin:read',
      summary: 'Plugin configs to unsubscribe from exports',
      params: orgParams,
      status: 200,
      response: z.array(pluginUnsubscribeConfigSchema),
    }),
    repository: endpoint({
      method: 'GET',
      path: `${base}repository/`,
      access: 'plugin:read',
      summary: 'Plugins available in the repository',
      params: orgParams,
      status: 200,
      response: z.array(pluginRepositoryEntrySchema),
    }),
    unused: endpoint({
      method: 'GET',
      path: `${base}unused/`,
      access: 'plugin:read',
      summary: 'Plugins enabled in no project',
      params: orgParams,
      status: 200,
      response: z.array(z.int()),
    }),
    retrieve,
    update: endpoint({
      method: 'PATCH',
      path: `${base}:id/`,
      access: 'plugin:write',
      summary: 'Update a plugin',
      params: pluginParams,
      body: pluginUpdateSchema,
      status: 200,
      response: pluginSchema,
    }),
    destroy: endpoint({
      method: 'DELETE',
      path: `${base}:id/`,
      access: 'plugin:write',
      summary: 'Delete a plugin',
      params: pluginParams,
      status: 204,
    }),
    checkForUpdates: endpoint({
      method: 'GET',
      path: `${base}:id/check_for_updates/`,
      access: 'plugin:read',
      summary: 'Check a plugin for a newer version',
      params: pluginParams,
      status: 200,
      response: pluginSchema,
    }),
    source: endpoint({
      method: 'GET',
      path: `${base}:id/source/`,
      access: 'plugin:read',
      summary: 'Source of a plugin',
      params: pluginParams,
      status: 200,
      response: pluginSourceSchema,
    }),
    updateSource: endpoint({
      method: 'PATCH',
      path: `${base}:id/update_source/`,
      access: 'plugin:write',
      summary: 'Replace the source of a plugin',
      params: pluginParams,
      body: pluginSourceUpdateSchema,
      status: 200,
      response: pluginSourceSchema,
    }),
    upgrade: endpoint({
      method: 'POST',
      path: `${base}:id/upgrade/`,
      access: 'plugin:write',
      summary: 'Upgrade a plugin to its latest version',
      params: pluginParams,
      body: pluginUpdateSchema,
      status: 200,
      response: pluginSchema,
    }),
  };
  return { core, retrieve, extra };
}

const destinations = pluginGroupEndpoints('pipeline_destinations');
const frontendApps = pluginGroupEndpoints('pipeline_frontend_apps');
const importApps = pluginGroupEndpoints('pipeline_import_apps');

export const pipelineDestinationEndpoints = { ...destinations.core, ...destinations.extra };
export const pipelineFrontendAppEndpoints = { ...frontendApps.core, ...frontendApps.extra };
/** Import apps: list, create and retrieve as the API gives them, and removing and upgrading as the other groups (docs/api.md). */
export const pipelineImportAppEndpoints = {
  ...importApps.core,
  retrieve: importApps.retrieve,
  destroy: importApps.extra.destroy,
  checkForUpdates: importApps.extra.checkForUpdates,
  upgrade: importApps.extra.upgrade,
};

/** The endpoints of a group by its path segment, for code that works on any group. */
export const pluginEndpointsByGroup: { readonly [G in PluginGroup]: Record<string, Endpoint> } = {
  pipeline_destinations: pipelineDestinationEndpoints,
  pipeline_frontend_apps: pipelineFrontendAppEndpoints,
  pipeline_import_apps: pipelineImportAppEndpoints,
};
