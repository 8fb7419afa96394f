import type { ActivityChange, NewActivity } from '../store/activity-log.ts';
import type { InsightRow } from '../store/insights.ts';

/** The activity log's scope of insights. */
export const INSIGHT_SCOPE = 'Insight';

/** An activity log entry about `row`: its name (or derived name) and short id, with the changes if any. */
export function insightActivity(
  row: Pick<InsightRow, 'id' | 'project_id' | 'name' | 'derived_name' | 'short_id'>,
  organizationId: string,
  userId: number | null,
  activity: string,
  changes: ActivityChange[] | null = null,
): NewActivity {
  return {
    organization_id: organizationId,
    project_id: row.project_id,
    scope: INSIGHT_SCOPE,
    item_id: String(row.id),
    activity,
    detail: { name: row.name || row.derived_name, short_id: row.short_id, changes },
    user_id: userId,
  };
}
