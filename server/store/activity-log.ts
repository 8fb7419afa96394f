import type { Db } from './db.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import { newUuid } from './secrets.ts';

/**
 * The one activity log of the server (docs/api.md, "Activity log"): every resource writes its
 * changes here (`scope` = Insight, Plugin, OrganizationMembership, ...) and the activity
 * endpoints read pages of it, newest first.
 */

/** One changed field: `action` changed / created / deleted, with the values before and after. */
// Type aliases (not interfaces): they fit the contract's loose entry shape as they are.
export type ActivityChange = {
  type: string;
  action: 'changed' | 'created' | 'deleted';
  field: string | null;
  before: unknown;
  after: unknown;
};

export type ActivityDetail = {
  name: string | null;
  short_id?: string | null;
  /** What kind of the scope's items this is, where one scope has several (a plugin's group). */
  type?: string;
  changes: ActivityChange[] | null;
};

export interface NewActivity {
  organization_id: string;
  project_id: number | null;
  scope: string;
  item_id: string | null;
  activity: string;
  detail: ActivityDetail;
  user_id: number | null;
}

/** A stored entry with its user's name and email (null when the user is gone or none acted). */
export interface ActivityRow {
  id: string;
  organization_id: string;
  project_id: number | null;
  scope: string;
  item_id: string | null;
  activity: string;
  /** JSON of an ActivityDetail: written only by `add`. */
  detail: string;
  user_id: number | null;
  user_first_name: string | null;
  user_email: string | null;
  created_at: string;
}

/** Which entries a page shows: always one scope; a project and/or one item of it. */
export interface ActivityFilter {
  scope: string;
  project_id?: number | null;
  organization_id?: string | null;
  item_id?: string | null;
  /** Only entries whose `detail.type` is this (a plugin group's activity). */
  detail_type?: string | null;
}

const WHERE = `WHERE a.scope = @scope
  AND (@project IS NULL OR a.project_id = @project)
  AND (@organization IS NULL OR a.organization_id = @organization)
  AND (@item IS NULL OR a.item_id = @item)
  AND (@type IS NULL OR json_extract(a.detail, '$.type') = @type)`;

export function createActivityLogRepository(db: Db) {
  const insert = db.prepare(`INSERT INTO activity_log
    (id, organization_id, project_id, scope, item_id, activity, detail, user_id, created_at)
    VALUES (@id, @organization_id, @project_id, @scope, @item_id, @activity, @detail, @user_id, @created_at)`);
  const list = db.prepare<
    Record<string, unknown>,
    ActivityRow
  >(`SELECT a.id, a.organization_id, a.project_id, a.scope, a.item_id,
      a.activity, a.detail, a.user_id, u.first_name AS user_first_name, u.email AS user_email, a.created_at
    FROM activity_log a LEFT JOIN users u ON u.id = a.user_id
    ${WHERE} ORDER BY a.seq DESC ${LIMIT_OFFSET}`);
  const count = db.prepare<Record<string, unknown>, number>(`SELECT COUNT(*) FROM activity_log a ${WHERE}`).pluck();
  const bind = (f: ActivityFilter) => ({
    scope: f.scope,
    project: f.project_id ?? null,
    organization: f.organization_id ?? null,
    item: f.item_id ?? null,
    type: f.detail_type ?? null,
  });

  return {
    /** Records one entry at `at` (ISO). Returns its id. */
    add(entry: NewActivity, at: string): string {
      const id = newUuid();
      insert.run({ ...entry, id, detail: JSON.stringify(entry.detail), created_at: at });
      return id;
    },
    /** A page of the entries matching `filter`, newest first (insertion order breaks time ties). */
    list(filter: ActivityFilter, limit: number, offset: number): ActivityRow[] {
      return list.all({ ...bind(filter), limit, offset });
    },
    count(filter: ActivityFilter): number {
      return count.get(bind(filter)) ?? 0;
    },
  };
}
export type ActivityLogRepository = ReturnType<typeof createActivityLogRepository>;
