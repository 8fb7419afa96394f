import { endpoints, MY_LAST_VIEWED_MAX, sharedInsightEndpoint } from '../../../../src/contract/index.ts';
import type { AnalyticsProject } from '../../../analytics/types.ts';
import { INSIGHT_SCOPE, insightActivity } from '../../../insights/activity.ts';
import { csvText, resultRows } from '../../../insights/csv.ts';
import { createFields, storedAnalysis, updatedFields } from '../../../insights/fields.ts';
import { createRunningQueries } from '../../../insights/running-queries.ts';
import type { ActivityChange } from '../../../store/activity-log.ts';
import type { InsightViewRow } from '../../../store/insights.ts';
import type { AuthContext } from '../../auth.ts';
import { notFound, validationError } from '../../errors.ts';
import { JsonText } from '../../json-text.ts';
import { pageHead, pageJson, pageWindow, paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { analyticsViewOf, projectFor } from '../analytics/endpoint.ts';
import { computeInsight } from './result.ts';
import {
  activityLogEntryResponse,
  insightBasicResponse,
  insightResponse,
  insightTimingResponse,
  sharingResponse,
} from './serializers.ts';

/** A page of insights as JSON text: what the read cache keeps. */
const renderList = (rows: InsightViewRow[]) => JsonText.of(rows.map((row) => insightResponse(row)));

const csvResponse = (text: string, fileName: string) =>
  new Response(text, {
    status: 200,
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${fileName}"` },
  });

const LIST_CSV_HEADER = [
  'id',
  'short_id',
  'name',
  'derived_name',
  'description',
  'tags',
  'favorited',
  'saved',
  'created_at',
  'created_by',
  'last_modified_at',
];

/**
 * `{PRJ}/insights/`: saved insights of a project the key can reach (404 for an unknown insight
 * or one of another project, and for a soft-deleted one except to restore it), their sharing,
 * views and activity; and the public shared view `/shared/<access_token>/insight/`.
 */
export function registerInsightRoutes(router: Router, deps: Deps): void {
  const { store, now } = deps;
  const e = endpoints.insights;
  const running = createRunningQueries(now);

  /** The insight `id` of the project: 404 when missing, deleted (unless `withDeleted`) or elsewhere. */
  const insightOf = (auth: AuthContext, projectId: string, id: number, withDeleted = false) => {
    const project = projectFor(deps, auth, projectId);
    const row = store.insights.get(project.id, id);
    if (!row || (row.deleted === 1 && !withDeleted)) throw notFound();
    return { project, row };
  };
  const reload = (project: AnalyticsProject, id: number): InsightViewRow => store.insights.get(project.id, id)!;

  const log = (
    project: AnalyticsProject,
    row: InsightViewRow,
    auth: AuthContext,
    activity: string,
    changes: ActivityChange[] | null,
    at: string,
  ) => {
    store.activityLog.add(
      insightActivity(row, store.projects.get(project.id)!.organization_id, auth.userId, activity, changes),
      at,
    );
  };

  /** The insight with its result (computed through the analysis cache), or without when it has no analysis. */
  const withResult = async (project: AnalyticsProject, row: InsightViewRow, refresh: boolean, signal?: AbortSignal) => {
    const analysis = storedAnalysis(row);
    if (!analysis) return { body: insightResponse(row), rows: null };
    const { computed, result } = await computeInsight(deps, project, analysis, refresh, signal);
    if (!computed.is_cached && computed.last_refresh !== row.last_refresh)
      store.insights.setLastRefresh(row.id, computed.last_refresh);
    return { body: insightResponse(row, computed), rows: resultRows(result) };
  };

  router.route(e.list, ({ auth, params, query, url }) => {
    const project = projectFor(deps, auth, params.project_id);
    if (query.format !== 'csv') {
      // The whole answer is kept, as bytes and compressed variants (JsonText), until the store changes.
      return store.insights.renderedPage(url, () => {
        const window = pageWindow(query);
        const head = pageHead(url, window, store.insights.count(project.id, query));
        return pageJson(head, renderList(store.insights.list(project.id, query, window.limit, window.offset)));
      });
    }
    const page = paginate(
      url,
      query,
      () => store.insights.count(project.id, query),
      ({ limit, offset }) => store.insights.list(project.id, query, limit, offset).map((row) => insightResponse(row)),
    );
    return csvResponse(
      csvText([
        LIST_CSV_HEADER,
        ...page.results.map((i) => [
          i.id,
          i.short_id,
          i.name,
          i.derived_name,
          i.description,
          i.tags.join(' '),
          i.favorited,
          i.saved,
          i.created_at,
          i.created_by?.email ?? null,
          i.last_modified_at,
        ]),
      ]),
      'insights.csv',
    );
  });

  router.route(e.create, ({ auth, params, body }) => {
    const project = projectFor(deps, auth, params.project_id);
    const at = now().toISOString();
    const row = store.transaction(() => {
      const id = store.insights.create(project.id, auth.userId, createFields(body, at, auth.userId), at);
      const created = reload(project, id);
      log(project, created, auth, 'created', null, at);
      return created;
    });
    return insightResponse(row);
  });

  // Static paths before `:id/`: the router tries handlers in registration order.
  router.route(e.timing, ({ auth, params, body }) => {
    const project = projectFor(deps, auth, params.project_id);
    const insightId = body.insight_id ?? null;
    if (insightId !== null && !store.insights.get(project.id, insightId)) {
      throw validationError('does_not_exist', `Invalid pk "${insightId}" - object does not exist.`, 'insight_id');
    }
    const is = body.is_cached;
    return insightTimingResponse(
      store.insightTimings.add({
        project_id: project.id,
        user_id: auth.userId,
        insight_id: insightId,
        client_query_id: body.client_query_id ?? null,
        duration_ms: body.duration_ms,
        is_cached: is === undefined || is === null ? null : Number(is),
        created_at: now().toISOString(),
      }),
    );
  });

  router.route(e.cancel, ({ auth, params, body }) => {
    const project = projectFor(deps, auth, params.project_id);
    const cancelled = running.cancel({
      projectId: project.id,
      userId: auth.userId,
      clientQueryId: body.client_query_id,
    });
    return { client_query_id: body.client_query_id, cancelled };
  });

  router.route(e.activity, ({ auth, params, query, url }) => {
    const project = projectFor(deps, auth, params.project_id);
    const filter = { scope: INSIGHT_SCOPE, project_id: project.id };
    return paginate(
      url,
      query,
      () => store.activityLog.count(filter),
      ({ limit, offset }) => store.activityLog.list(filter, limit, offset).map(activityLogEntryResponse),
    );
  });

  router.route(e.myLastViewed, ({ auth, params }) => {
    const project = projectFor(deps, auth, params.project_id);
    return store.insightViews.recent(auth.userId, project.id, MY_LAST_VIEWED_MAX).map(insightBasicResponse);
  });

  router.route(e.retrieve, async ({ auth, params, query }) => {
    const { project, row } = insightOf(auth, params.project_id, params.id);
    const refresh = query.refresh ?? false;
    const clientQueryId = query.client_query_id;
    const { body, rows } =
      clientQueryId === undefined
        ? await withResult(project, row, refresh)
        : await running.run({ projectId: project.id, userId: auth.userId, clientQueryId }, (signal) =>
            withResult(project, row, refresh, signal),
          );
    if (query.format !== 'csv') return body;
    return csvResponse(rows ? csvText(rows) : '', `insight-${row.short_id}.csv`);
  });

  // `{deleted: true}` soft-deletes; a deleted insight answers 404 except to `{deleted: false}`, which restores it.
  router.route(e.update, ({ auth, params, body }) => {
    const { project, row } = insightOf(auth, params.project_id, params.id, body.deleted === false);
    const at = now().toISOString();
    const { fields, changes, deletedChanged } = updatedFields(row, body, at, auth.userId);
    const updated = store.transaction(() => {
      store.insights.update(row.id, fields);
      const next = reload(project, row.id);
      if (changes.length > 0) log(project, next, auth, 'updated', changes, at);
      if (deletedChanged) log(project, next, auth, next.deleted === 1 ? 'deleted' : 'restored', null, at);
      return next;
    });
    return insightResponse(updated);
  });

  // Hard delete is not allowed (the API's rule): 405 with an empty body, once the insight is known to exist.
  router.route(e.destroy, ({ auth, params, c }) => {
    insightOf(auth, params.project_id, params.id, true);
    return c.body(null, 405, { Allow: 'GET, PATCH' });
  });

  router.route(e.sharing, ({ auth, params }) => {
    const { row } = insightOf(auth, params.project_id, params.insight_id);
    return sharingResponse(store.insightSharing.get(row.id));
  });

  router.route(e.sharingUpdate, ({ auth, params, body }) => {
    const { project, row } = insightOf(auth, params.project_id, params.insight_id);
    if (body.enabled === undefined) return sharingResponse(store.insightSharing.get(row.id));
    const enabled = body.enabled;
    const at = now().toISOString();
    return store.transaction(() => {
      const before = store.insightSharing.get(row.id);
      const after = store.insightSharing.setEnabled(row.id, enabled, at);
      if (before.enabled !== after.enabled) log(project, row, auth, enabled ? 'shared' : 'unshared', null, at);
      return sharingResponse(after);
    });
  });

  router.route(e.sharingRefresh, ({ auth, params }) => {
    const { project, row } = insightOf(auth, params.project_id, params.insight_id);
    const at = now().toISOString();
    return store.transaction(() => {
      const after = store.insightSharing.rotate(row.id, at);
      log(project, row, auth, 'sharing_token_rotated', null, at);
      return sharingResponse(after);
    });
  });

  router.route(e.itemActivity, ({ auth, params, query, url }) => {
    const { project, row } = insightOf(auth, params.project_id, params.id, true);
    const filter = { scope: INSIGHT_SCOPE, project_id: project.id, item_id: String(row.id) };
    return paginate(
      url,
      query,
      () => store.activityLog.count(filter),
      ({ limit, offset }) => store.activityLog.list(filter, limit, offset).map(activityLogEntryResponse),
    );
  });

  router.route(e.viewed, ({ auth, params }) => {
    const { row } = insightOf(auth, params.project_id, params.id);
    store.insightViews.record(auth.userId, row.id, now().toISOString());
    return insightResponse(row);
  });

  // Public: no key. Who made the insight is not part of what is shared.
  router.publicRoute(sharedInsightEndpoint, async ({ params }) => {
    const sharing = store.insightSharing.byToken(params.access_token);
    const row = sharing && store.insights.find(sharing.insight_id);
    const projectRow = row && row.deleted === 0 ? store.projects.get(row.project_id) : undefined;
    if (!row || !projectRow) throw notFound();
    const { body } = await withResult(analyticsViewOf(projectRow), row, false);
    return { ...body, created_by: null, last_modified_by: null };
  });
}
