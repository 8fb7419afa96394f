import { endpoints, type PluginGroup } from '../../../../src/contract/index.ts';
import { CATALOGUE, catalogueEntry, repositoryEntry } from '../../../plugins/catalogue.ts';
import { exportsEvents } from '../../../plugins/compile/compiled-code.ts';
import { newPluginRow, patchedRow, upgradedRow, withSource } from '../../../plugins/plugin-write.ts';
import type { PluginRow } from '../../../store/plugins.ts';
import type { ActivityChange } from '../../../store/activity-log.ts';
import type { AuthContext } from '../../auth.ts';
import { reachableOrganization } from '../../access.ts';
import { notFound } from '../../errors.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { activityLogEntryResponse } from '../insights/serializers.ts';
import { pluginResponse } from './serializers.ts';

/**
 * The three pipeline groups, one implementation: `{ORG}/pipeline_destinations/`,
 * `{ORG}/pipeline_frontend_apps/`, `{ORG}/pipeline_import_apps/`. A plugin of another group
 * (or organization) is a 404 here. Import apps have list, create, retrieve, delete, check for
 * updates and upgrade (docs/api.md): no edit, source or group-wide endpoints.
 */
type Full = typeof endpoints.pipelineDestinations;
type GroupEndpoints = { [K in keyof Full]: Omit<Full[K], 'path' | 'summary'> & { path: string; summary: string } };
type ImportEndpoints = Pick<GroupEndpoints, 'list' | 'create' | 'retrieve' | 'destroy' | 'checkForUpdates' | 'upgrade'>;

export const PLUGIN_SCOPE = 'Plugin';

export function registerPipelineRoutes(router: Router, deps: Deps): void {
  registerGroup(router, deps, 'pipeline_destinations', endpoints.pipelineDestinations);
  registerGroup(router, deps, 'pipeline_frontend_apps', endpoints.pipelineFrontendApps);
  registerGroup(router, deps, 'pipeline_import_apps', endpoints.pipelineImportApps);
}

function registerGroup(router: Router, deps: Deps, group: PluginGroup, e: ImportEndpoints | GroupEndpoints): void {
  const { store, now } = deps;
  const pluginOf = (auth: AuthContext, organizationId: string, id: number): PluginRow => {
    reachableOrganization(store, auth, organizationId);
    const row = store.plugins.get(id);
    if (!row || row.organization_id !== organizationId || row.grp !== group) throw notFound();
    return row;
  };
  const view = (id: number) => pluginResponse(store.plugins.view(id)!);
  const log = (row: PluginRow, auth: AuthContext, activity: string, changes: ActivityChange[] | null, at: string) =>
    store.activityLog.add(
      {
        organization_id: row.organization_id,
        project_id: null,
        scope: PLUGIN_SCOPE,
        item_id: String(row.id),
        activity,
        detail: { name: row.name, changes, type: row.grp },
        user_id: auth.userId,
      },
      at,
    );
  const save = (before: PluginRow, after: PluginRow, auth: AuthContext, fields: (keyof PluginRow)[]) => {
    const changes: ActivityChange[] = fields
      .filter((f) => before[f] !== after[f])
      .map((f) => ({
        type: PLUGIN_SCOPE,
        action: 'changed',
        field: f,
        before: f === 'source' ? null : before[f],
        after: f === 'source' ? null : after[f],
      }));
    store.transaction(() => {
      store.plugins.update(after);
      if (changes.length > 0) log(after, auth, 'updated', changes, after.updated_at);
    });
    deps.pipeline?.invalidate();
  };

  router.route(e.list, ({ auth, params, query, url }) => {
    reachableOrganization(store, auth, params.organization_id);
    return paginate(
      url,
      query,
      () => store.plugins.count(params.organization_id, group),
      ({ limit, offset }) => store.plugins.list(params.organization_id, group, limit, offset).map(pluginResponse),
    );
  });

  router.route(e.create, async ({ auth, params, body }) => {
    reachableOrganization(store, auth, params.organization_id);
    const fields = await newPluginRow(params.organization_id, group, body);
    const at = now().toISOString();
    const id = store.transaction(() => {
      const newId = store.plugins.create(fields, at);
      log(store.plugins.get(newId)!, auth, 'installed', null, at);
      return newId;
    });
    return view(id);
  });

  const registerPluginRoutes = () => {
    router.route(e.retrieve, ({ auth, params }) => view(pluginOf(auth, params.organization_id, params.id).id));

    router.route(e.destroy, ({ auth, params }) => {
      const row = pluginOf(auth, params.organization_id, params.id);
      store.transaction(() => {
        store.plugins.delete(row.id);
        log(row, auth, 'uninstalled', null, now().toISOString());
      });
      deps.pipeline?.invalidate();
    });

    router.route(e.checkForUpdates, ({ auth, params }) => {
      const row = pluginOf(auth, params.organization_id, params.id);
      const entry = catalogueEntry(row.url);
      if (entry && entry.latest_tag !== row.latest_tag) store.plugins.update({ ...row, latest_tag: entry.latest_tag });
      return view(row.id);
    });

    router.route(e.upgrade, async ({ auth, params }) => {
      const row = pluginOf(auth, params.organization_id, params.id);
      const next = await upgradedRow(row, now().toISOString());
      save(row, next, auth, ['tag']);
      return view(row.id);
    });
  };

  // Static paths before `:id/`: the router matches in registration order.
  if (!('update' in e)) {
    registerPluginRoutes();
    return;
  }

  router.route(e.activity, ({ auth, params, query, url }) => {
    reachableOrganization(store, auth, params.organization_id);
    const filter = { scope: PLUGIN_SCOPE, organization_id: params.organization_id, detail_type: group };
    return paginate(
      url,
      query,
      () => store.activityLog.count(filter),
      ({ limit, offset }) => store.activityLog.list(filter, limit, offset).map(activityLogEntryResponse),
    );
  });

  router.route(e.exportsUnsubscribeConfigs, ({ auth, params }) => {
    reachableOrganization(store, auth, params.organization_id);
    // what would stop if the organization's exports were turned off: destinations that export events
    return store.plugins
      .list(params.organization_id, group, 10_000, 0)
      .filter(exportsEvents)
      .flatMap((p) =>
        store.pluginConfigs
          .forPlugin(p.id)
          .filter((c) => c.enabled === 1)
          .map((c) => ({ id: c.id, plugin: p.id, team_id: c.team_id, enabled: true })),
      );
  });

  router.route(e.repository, ({ auth, params }) => {
    reachableOrganization(store, auth, params.organization_id);
    return CATALOGUE.filter((c) => c.group === group).map(repositoryEntry);
  });

  router.route(e.unused, ({ auth, params }) => {
    reachableOrganization(store, auth, params.organization_id);
    return store.plugins.unused(params.organization_id, group);
  });

  registerPluginRoutes();

  router.route(e.update, ({ auth, params, body }) => {
    const row = pluginOf(auth, params.organization_id, params.id);
    const next = patchedRow(row, body, now().toISOString());
    save(row, next, auth, ['name', 'description', 'icon', 'tag', 'is_global', 'config_schema']);
    return view(row.id);
  });

  router.route(
    e.source,
    ({ auth, params }) =>
      JSON.parse(pluginOf(auth, params.organization_id, params.id).source) as Record<string, string>,
  );

  router.route(e.updateSource, async ({ auth, params, body }) => {
    const row = pluginOf(auth, params.organization_id, params.id);
    const next = await withSource(row, body, now().toISOString());
    save(row, next, auth, ['source', 'name', 'description']);
    return JSON.parse(next.source) as Record<string, string>;
  });
}
