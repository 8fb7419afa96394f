import type {
  ActivityLogEntry,
  Insight,
  InsightBasic,
  InsightTimingReport,
  SharingConfiguration,
  User,
} from '../../../../src/contract/index.ts';
import type { InsightTimingRow } from '../../../store/insight-timings.ts';
import type { ActivityDetail, ActivityRow } from '../../../store/activity-log.ts';
import type { InsightSharingRow } from '../../../store/insight-sharing.ts';
import type { InsightViewedRow } from '../../../store/insight-views.ts';
import type { InsightViewRow } from '../../../store/insights.ts';

/** What a read computed for the insight (retrieve and the shared view); absent in lists. */
export interface InsightComputed {
  result: unknown;
  is_cached: boolean;
  last_refresh: string;
  next_allowed_client_refresh: string;
  cache_target_age: string;
  timezone: string;
}

// The store holds only validated input and users it rendered itself: parsing is the one trust point.
const parseUser = (json: string | null): User | null => (json === null ? null : (JSON.parse(json) as User));
const parseJson = (json: string): unknown => JSON.parse(json);

export function insightResponse(row: InsightViewRow, computed?: InsightComputed): Insight {
  return {
    id: row.id,
    short_id: row.short_id,
    name: row.name,
    derived_name: row.derived_name,
    filters: JSON.parse(row.filters) as Record<string, unknown>,
    query: row.query === null ? null : parseJson(row.query),
    order: row.order,
    deleted: row.deleted === 1,
    dashboards: JSON.parse(row.dashboards) as number[],
    dashboard_tiles: [],
    last_refresh: computed?.last_refresh ?? row.last_refresh,
    cache_target_age: computed?.cache_target_age ?? null,
    next_allowed_client_refresh: computed?.next_allowed_client_refresh ?? null,
    result: computed?.result ?? null,
    columns: null,
    created_at: row.created_at,
    created_by: parseUser(row.created_by_user),
    description: row.description,
    updated_at: row.updated_at,
    tags: JSON.parse(row.tags) as string[],
    favorited: row.favorited === 1,
    saved: row.saved === 1,
    last_modified_at: row.last_modified_at,
    last_modified_by: parseUser(row.last_modified_by_user),
    is_sample: false,
    effective_restriction_level: 21,
    effective_privilege_level: 37,
    timezone: computed?.timezone ?? null,
    is_cached: computed?.is_cached ?? false,
    query_status: null,
    hogql: null,
  };
}

export function sharingResponse(row: InsightSharingRow): SharingConfiguration {
  return { created_at: row.created_at, enabled: row.enabled === 1, access_token: row.access_token };
}

export function insightBasicResponse(row: InsightViewedRow): InsightBasic {
  return {
    id: row.id,
    short_id: row.short_id,
    name: row.name,
    derived_name: row.derived_name,
    favorited: row.favorited === 1,
    saved: row.saved === 1,
    last_viewed_at: row.last_viewed_at,
  };
}

/** One entry of the activity log (any resource's). */
export function activityLogEntryResponse(row: ActivityRow): ActivityLogEntry {
  const detail = JSON.parse(row.detail) as ActivityDetail;
  return {
    id: row.id,
    user: row.user_id === null ? null : { first_name: row.user_first_name, email: row.user_email },
    activity: row.activity,
    scope: row.scope,
    item_id: row.item_id,
    detail,
    created_at: row.created_at,
  };
}

export function insightTimingResponse(row: InsightTimingRow): InsightTimingReport {
  return {
    id: row.id,
    duration_ms: row.duration_ms,
    insight_id: row.insight_id,
    client_query_id: row.client_query_id,
    is_cached: row.is_cached === null ? null : row.is_cached === 1,
    created_at: row.created_at,
  };
}
