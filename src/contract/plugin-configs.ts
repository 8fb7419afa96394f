import { z } from './z';
import { endpoint, listQuerySchema, nullableTimestampSchema, pageSchema, timestampSchema } from './common';
import { bool, dict, int32, integer, text } from './fields';
import { PLUGIN_GROUPS } from './plugins';

/**
 * `{PRJ}/plugin_configs/`: a plugin enabled (or not) in one project with its config values, as
 * the production service has it (the API does not list it; its writes take plugin:write,
 * docs/api.md). `config` is validated against the plugin's `config_schema`; secret fields are
 * write-only: a response lists their keys in `secret_keys_set`, never their values.
 */

/** Delivery counters of a config, the last 24 hours by hour (oldest first) and the totals. */
export const pluginMetricsSchema = z.looseObject({
  delivered: z.int(),
  failed: z.int(),
  retried: z.int(),
  hours: z.array(z.looseObject({ hour: timestampSchema, delivered: z.int(), failed: z.int() })),
});
export type PluginMetrics = z.infer<typeof pluginMetricsSchema>;

export const PLUGIN_JOB_STATUSES = ['running', 'completed', 'failed'] as const;
/** The last job run of an import app's config. */
export const pluginJobRunSchema = z.looseObject({
  name: z.string(),
  status: z.enum(PLUGIN_JOB_STATUSES),
  rows_imported: z.int(),
  rows_failed: z.int(),
  started_at: timestampSchema,
  finished_at: nullableTimestampSchema,
  error: z.nullable(z.string()),
});
export type PluginJobRun = z.infer<typeof pluginJobRunSchema>;

export const pluginConfigSchema = z.looseObject({
  id: z.int(),
  plugin: z.int(),
  plugin_info: z.nullable(
    z.looseObject({
      id: z.int(),
      name: z.nullable(z.string()),
      icon: z.nullable(z.string()),
      plugin_type: z.nullable(z.string()),
      group: z.enum(PLUGIN_GROUPS),
    }),
  ),
  team_id: z.int(),
  enabled: z.boolean(),
  order: z.int(),
  /** The config values, without the secret ones. */
  config: z.record(z.string(), z.unknown()),
  /** Secret fields that hold a value (write-only: the value is never sent). */
  secret_keys_set: z._default(z.array(z.string()), []),
  error: z.nullable(z.looseObject({ message: z.string(), time: timestampSchema })),
  metrics: z.optional(z.nullable(pluginMetricsSchema)),
  last_job: z.optional(z.nullable(pluginJobRunSchema)),
  /** Frontend apps: where web sites load the app (`/site_app/<id>/<token>/<hash>/`). */
  site_app_url: z.optional(z.nullable(z.string())),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type PluginConfig = z.infer<typeof pluginConfigSchema>;

export const pluginConfigCreateSchema = z.object({
  plugin: integer({ min: 1 }),
  enabled: z.optional(bool()),
  order: z.optional(int32()),
  config: z.optional(dict()),
});
export type PluginConfigCreate = z.infer<typeof pluginConfigCreateSchema>;
export type PluginConfigCreateInput = z.input<typeof pluginConfigCreateSchema>;

/** PATCH: `config` is merged key by key (a `null` value clears one; a secret left out keeps its value). */
export const pluginConfigUpdateSchema = z.object({
  enabled: z.optional(bool()),
  order: z.optional(int32()),
  config: z.optional(dict()),
});
export type PluginConfigUpdate = z.infer<typeof pluginConfigUpdateSchema>;

export const pluginConfigListQuerySchema = z.extend(listQuerySchema, {
  plugin: z.optional(z.coerce.number({ error: 'A valid integer is required.' }).check(z.int(), z.positive())),
});

export const PLUGIN_LOG_LEVELS = ['DEBUG', 'LOG', 'INFO', 'WARN', 'ERROR'] as const;
export const pluginLogEntrySchema = z.looseObject({
  id: z.int(),
  timestamp: timestampSchema,
  level: z.enum(PLUGIN_LOG_LEVELS),
  message: z.string(),
  source: z.string(),
});
export type PluginLogEntry = z.infer<typeof pluginLogEntrySchema>;

/** POST `:id/job/`: start one of the plugin's `public_jobs` (import apps: `import`). */
export const pluginJobStartSchema = z.object({
  job: text(100),
  payload: z.optional(dict()),
});
export type PluginJobStart = z.infer<typeof pluginJobStartSchema>;

const prjParams = z.object({ project_id: z.coerce.number({ error: 'A valid integer is required.' }).check(z.int()) });
const configParams = z.extend(prjParams, {
  id: z.coerce
    .number({ error: 'A valid integer is required.' })
    .check(z.int({ error: 'A valid integer is required.' }), z.positive()),
});
const base = '/api/projects/:project_id/plugin_configs/' as const;

export const pluginConfigEndpoints = {
  list: endpoint({
    method: 'GET',
    path: base,
    access: 'plugin:read',
    summary: 'List the plugin configs of a project',
    params: prjParams,
    query: pluginConfigListQuerySchema,
    status: 200,
    response: pageSchema(pluginConfigSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: base,
    access: 'plugin:write',
    summary: 'Enable a plugin in a project',
    params: prjParams,
    body: pluginConfigCreateSchema,
    status: 201,
    response: pluginConfigSchema,
  }),
  retrieve: endpoint({
    method: 'GET',
    path: `${base}:id/`,
    access: 'plugin:read',
    summary: 'Retrieve a plugin config',
    params: configParams,
    status: 200,
    response: pluginConfigSchema,
  }),
  update: endpoint({
    method: 'PATCH',
    path: `${base}:id/`,
    access: 'plugin:write',
    summary: 'Update a plugin config',
    params: configParams,
    body: pluginConfigUpdateSchema,
    status: 200,
    response: pluginConfigSchema,
  }),
  destroy: endpoint({
    method: 'DELETE',
    path: `${base}:id/`,
    access: 'plugin:write',
    summary: 'Delete a plugin config',
    params: configParams,
    status: 204,
  }),
  logs: endpoint({
    method: 'GET',
    path: `${base}:id/logs/`,
    access: 'plugin:read',
    summary: 'Log entries of a plugin config, newest first',
    params: configParams,
    query: listQuerySchema,
    status: 200,
    response: pageSchema(pluginLogEntrySchema),
  }),
  job: endpoint({
    method: 'POST',
    path: `${base}:id/job/`,
    access: 'plugin:write',
    summary: 'Start a job of a plugin config',
    params: configParams,
    body: pluginJobStartSchema,
    status: 200,
    response: pluginConfigSchema,
  }),
};
