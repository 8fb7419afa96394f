import { endpoints } from '../../../../src/contract/index.ts';
import { mergeConfig, schemaFields } from '../../../plugins/config-values.ts';
import { runImportJob } from '../../../plugins/import-job.ts';
import { siteAppPath } from '../../../plugins/site-app.ts';
import type { PluginConfigRow } from '../../../store/plugin-configs.ts';
import type { PluginRow } from '../../../store/plugins.ts';
import type { AuthContext } from '../../auth.ts';
import { reachableProject } from '../../access.ts';
import { notFound, validationError } from '../../errors.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { PLUGIN_SCOPE } from './routes.ts';
import { pluginConfigResponse, pluginLogResponse } from './serializers.ts';

/**
 * `{PRJ}/plugin_configs/`: a plugin of the project's organization enabled per project, its
 * config validated against the plugin's config_schema (required fields once enabled), secrets
 * write-only; `logs/` and `job/` (an import app's import). Any change reaches the runtime.
 */
export function registerPluginConfigRoutes(router: Router, deps: Deps): void {
  const { store, now } = deps;
  const e = endpoints.pluginConfigs;
  const render = (row: PluginConfigRow) => {
    const plugin = store.plugins.get(row.plugin_id);
    const at = now();
    const project = store.projects.get(row.team_id);
    return pluginConfigResponse(row, {
      plugin,
      now: at,
      totals: store.pluginConfigs.totals(row.id),
      metricRows: store.pluginConfigs.metricsSince(row.id, new Date(at.getTime() - 24 * 3_600_000)),
      siteAppUrl:
        plugin?.grp === 'pipeline_frontend_apps' && project ? siteAppPath(row, plugin, project.api_token) : null,
    });
  };
  const configOf = (auth: AuthContext, projectId: number, id: number) => {
    reachableProject(store, auth, projectId);
    const row = store.pluginConfigs.get(id);
    if (!row || row.team_id !== projectId) throw notFound();
    return row;
  };
  const pluginFor = (organizationId: string, pluginId: number) => {
    const plugin = store.plugins.get(pluginId);
    if (!plugin || plugin.organization_id !== organizationId)
      throw validationError('does_not_exist', `Invalid pk "${pluginId}" - object does not exist.`, 'plugin');
    return plugin;
  };
  const activity = (auth: AuthContext, projectId: number, plugin: PluginRow, activity: string, at: string) =>
    store.activityLog.add(
      {
        organization_id: plugin.organization_id,
        project_id: projectId,
        scope: PLUGIN_SCOPE,
        item_id: String(plugin.id),
        activity,
        detail: { name: plugin.name, changes: null, type: plugin.grp },
        user_id: auth.userId,
      },
      at,
    );

  router.route(e.list, ({ auth, params, query, url }) => {
    reachableProject(store, auth, params.project_id);
    const plugin = query.plugin ?? null;
    return paginate(
      url,
      query,
      () => store.pluginConfigs.count(params.project_id, plugin),
      ({ limit, offset }) => store.pluginConfigs.list(params.project_id, plugin, limit, offset).map(render),
    );
  });

  router.route(e.create, ({ auth, params, body }) => {
    const project = reachableProject(store, auth, params.project_id);
    const plugin = pluginFor(project.organization_id, body.plugin);
    if (store.pluginConfigs.forTeamAndPlugin(project.id, plugin.id)) {
      throw validationError('unique', 'This plugin already has a config in this project: change that one.', 'plugin');
    }
    const enabled = body.enabled ?? false;
    const values = mergeConfig(schemaFields(plugin.config_schema), { config: {}, secrets: {} }, body.config, enabled);
    const at = now().toISOString();
    const id = store.transaction(() => {
      const newId = store.pluginConfigs.create(
        project.id,
        plugin.id,
        { enabled, order: body.order ?? 0, ...values },
        at,
      );
      activity(auth, project.id, plugin, enabled ? 'enabled' : 'config_created', at);
      return newId;
    });
    deps.pipeline?.invalidate();
    return render(store.pluginConfigs.get(id)!);
  });

  router.route(e.retrieve, ({ auth, params }) => render(configOf(auth, params.project_id, params.id)));

  router.route(e.update, ({ auth, params, body }) => {
    const row = configOf(auth, params.project_id, params.id);
    const plugin = store.plugins.get(row.plugin_id)!;
    const enabled = body.enabled ?? row.enabled === 1;
    const stored = {
      config: JSON.parse(row.config) as Record<string, unknown>,
      secrets: store.pluginConfigs.secretsOf(row.id),
    };
    const values = mergeConfig(schemaFields(plugin.config_schema), stored, body.config, enabled);
    const at = now().toISOString();
    store.transaction(() => {
      store.pluginConfigs.update(row.id, { enabled, order: body.order ?? row.order, ...values }, at);
      if (enabled !== (row.enabled === 1)) store.pluginConfigs.setError(row.id, null);
      const project = store.projects.get(row.team_id)!;
      const what = enabled !== (row.enabled === 1) ? (enabled ? 'enabled' : 'disabled') : 'config_updated';
      activity(auth, project.id, plugin, what, at);
    });
    deps.pipeline?.invalidate();
    return render(store.pluginConfigs.get(row.id)!);
  });

  router.route(e.destroy, ({ auth, params }) => {
    const row = configOf(auth, params.project_id, params.id);
    store.pluginConfigs.delete(row.id);
    deps.pipeline?.invalidate();
  });

  router.route(e.logs, ({ auth, params, query, url }) => {
    const row = configOf(auth, params.project_id, params.id);
    return paginate(
      url,
      query,
      () => store.pluginConfigs.logCount(row.id),
      ({ limit, offset }) => store.pluginConfigs.logs(row.id, limit, offset).map(pluginLogResponse),
    );
  });

  router.route(e.job, ({ auth, params, body }) => {
    const row = configOf(auth, params.project_id, params.id);
    const plugin = store.plugins.get(row.plugin_id)!;
    const jobs = JSON.parse(plugin.public_jobs) as unknown; // any JSON a custom plugin was given
    if (
      typeof jobs !== 'object' ||
      jobs === null ||
      Array.isArray(jobs) ||
      !Object.hasOwn(jobs, body.job) ||
      plugin.builtin !== 'url-import'
    ) {
      throw validationError('invalid_input', `This plugin has no job "${body.job}" that can run here.`, 'job');
    }
    if (row.last_job && (JSON.parse(row.last_job) as { status: string }).status === 'running') {
      throw validationError('invalid_input', 'A job of this config is already running.', 'job');
    }
    const fields = schemaFields(plugin.config_schema);
    const config = mergeConfig(
      fields,
      { config: JSON.parse(row.config) as Record<string, unknown>, secrets: store.pluginConfigs.secretsOf(row.id) },
      undefined,
      true,
    );
    const running = runImportJob(
      { store, events: deps.events, now, policy: { allowHosts: deps.allowDestinations ?? [] } },
      row.id,
      row.team_id,
      { ...config.config, ...config.secrets },
    );
    deps.jobs?.add(running);
    void running.finally(() => deps.jobs?.delete(running));
    return render(store.pluginConfigs.get(row.id)!);
  });
}
