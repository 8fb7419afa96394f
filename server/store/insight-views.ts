import type { Db } from './db.ts';

/** An insight a user viewed, with when: what `my_last_viewed/` lists. */
export interface InsightViewedRow {
  id: number;
  short_id: string;
  name: string | null;
  derived_name: string | null;
  favorited: number;
  saved: number;
  last_viewed_at: string;
}

export function createInsightViewsRepository(db: Db) {
  const record = db.prepare(`INSERT INTO insight_views (user_id, insight_id, last_viewed_at) VALUES (?, ?, ?)
    ON CONFLICT (user_id, insight_id) DO UPDATE SET last_viewed_at = excluded.last_viewed_at`);
  const recent = db.prepare<
    [number, number, number],
    InsightViewedRow
  >(`SELECT i.id, i.short_id, i.name, i.derived_name,
      i.favorited, i.saved, v.last_viewed_at
    FROM insight_views v JOIN insights i ON i.id = v.insight_id
    WHERE v.user_id = ? AND i.project_id = ? AND i.deleted = 0
    ORDER BY v.last_viewed_at DESC, v.rowid DESC LIMIT ?`);

  return {
    record(userId: number, insightId: number, at: string): void {
      record.run(userId, insightId, at);
    },
    /** The user's most recently viewed insights of the project (not deleted), newest first. */
    recent(userId: number, projectId: number, limit: number): InsightViewedRow[] {
      return recent.all(userId, projectId, limit);
    },
  };
}
export type InsightViewsRepository = ReturnType<typeof createInsightViewsRepository>;
