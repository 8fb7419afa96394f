import type { Db } from './db.ts';

/** A client's report of how long it waited for an insight's result (`timing/`). */
export interface InsightTimingRow {
  id: number;
  project_id: number;
  user_id: number | null;
  insight_id: number | null;
  client_query_id: string | null;
  duration_ms: number;
  is_cached: number | null;
  created_at: string;
}

export type NewInsightTiming = Omit<InsightTimingRow, 'id'>;

export function createInsightTimingsRepository(db: Db) {
  const insert =
    db.prepare(`INSERT INTO insight_timings (project_id, user_id, insight_id, client_query_id, duration_ms, is_cached, created_at)
    VALUES (@project_id, @user_id, @insight_id, @client_query_id, @duration_ms, @is_cached, @created_at)`);
  const recent = db.prepare<[number, number], InsightTimingRow>(
    'SELECT * FROM insight_timings WHERE project_id = ? ORDER BY id DESC LIMIT ?',
  );

  return {
    add(timing: NewInsightTiming): InsightTimingRow {
      return { id: Number(insert.run(timing).lastInsertRowid), ...timing };
    },
    /** The project's latest reports, newest first. */
    recent(projectId: number, limit: number): InsightTimingRow[] {
      return recent.all(projectId, limit);
    },
  };
}
