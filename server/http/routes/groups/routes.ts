import { endpoints, type Group, type GroupType } from '../../../../src/contract/index.ts';
import { groupTypesOf } from '../../../analytics/query/groups.ts';
import { reachableProject } from '../../access.ts';
import type { AuthContext } from '../../auth.ts';
import { notFound } from '../../errors.ts';
import { pageHead, pageWindow } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';

/**
 * `{PRJ}/groups_types/` and `{PRJ}/groups/` (docs/api.md, "Groups"): what the event store
 * keeps of the project's groups (server/analytics/query/groups.ts), as the production service lists them.
 */
export function registerGroupRoutes(router: Router, deps: Deps): void {
  const e = endpoints.groups;
  const projectOf = (auth: AuthContext, raw: string) => {
    if (!/^\d{1,15}$/.test(raw)) throw notFound();
    return reachableProject(deps.store, auth, Number(raw));
  };

  router.route(e.types, async ({ auth, params }) => {
    const project = projectOf(auth, params.project_id);
    const types = await groupTypesOf(deps.events, project.id);
    return types.map((group_type, group_type_index): GroupType => ({
      group_type,
      group_type_index,
      name_singular: null,
      name_plural: null,
    }));
  });

  router.route(e.list, async ({ auth, params, query, url }) => {
    const project = projectOf(auth, params.project_id);
    const window = pageWindow(query);
    // Search is a case-insensitive substring of the key or of the `name` property, bound as a value.
    const search = query.search?.trim() ? query.search.trim() : null;
    const where = `team_id = $1 AND group_type_index = $2
      AND ($3::VARCHAR IS NULL OR contains(lower(group_key), lower($3)) OR contains(lower(coalesce(json_extract_string(properties, '/name'), '')), lower($3)))`;
    const args = [project.id, query.group_type_index, search];
    const [{ n }] = (await deps.events.all<{ n: unknown }>(
      `SELECT count(*) AS n FROM groups WHERE ${where}`,
      args,
    )) as [{ n: unknown }];
    const rows = await deps.events.all<{ k: string; p: string; c: unknown }>(
      `SELECT group_key AS k, properties::VARCHAR AS p, epoch_ms(created_at) AS c
       FROM groups WHERE ${where} ORDER BY group_key LIMIT $4 OFFSET $5`,
      [...args, window.limit, window.offset],
    );
    return {
      ...pageHead(url, window, Number(n)),
      results: rows.map((r): Group => ({
        group_type_index: query.group_type_index,
        group_key: r.k,
        group_properties: JSON.parse(r.p) as Record<string, unknown>,
        created_at: new Date(Number(r.c)).toISOString(),
      })),
    };
  });
}
