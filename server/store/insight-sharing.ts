import { randomBytes } from 'node:crypto';
import type { Db } from './db.ts';

/** The sharing configuration of one insight; an insight never shared has none (disabled). */
export interface InsightSharingRow {
  insight_id: number;
  enabled: number;
  access_token: string | null;
  created_at: string | null;
}

/** 32 URL-safe random characters (docs/api.md): 24 random bytes in base64url. */
export const generateAccessToken = (): string => randomBytes(24).toString('base64url');

export function createInsightSharingRepository(db: Db) {
  const byInsight = db.prepare<[number], InsightSharingRow>('SELECT * FROM insight_sharing WHERE insight_id = ?');
  const byToken = db.prepare<[string], InsightSharingRow>(
    'SELECT * FROM insight_sharing WHERE access_token = ? AND enabled = 1',
  );
  const upsert = db.prepare(`INSERT INTO insight_sharing (insight_id, enabled, access_token, created_at)
    VALUES (@insight_id, @enabled, @access_token, @created_at)
    ON CONFLICT (insight_id) DO UPDATE SET enabled = excluded.enabled, access_token = excluded.access_token,
      created_at = excluded.created_at`);

  const get = (insightId: number): InsightSharingRow =>
    byInsight.get(insightId) ?? { insight_id: insightId, enabled: 0, access_token: null, created_at: null };

  return {
    get,
    /** Turns sharing on or off. The first enabling creates the token; it is kept while off. */
    setEnabled(insightId: number, enabled: boolean, at: string): InsightSharingRow {
      const row = get(insightId);
      const next: InsightSharingRow =
        enabled && row.access_token === null
          ? { insight_id: insightId, enabled: 1, access_token: generateAccessToken(), created_at: at }
          : { ...row, enabled: Number(enabled) };
      upsert.run(next);
      return next;
    },
    /** Replaces the token: the old one stops working at once. */
    rotate(insightId: number, at: string): InsightSharingRow {
      const next: InsightSharingRow = { ...get(insightId), access_token: generateAccessToken(), created_at: at };
      upsert.run(next);
      return next;
    },
    /** The enabled configuration holding `token`, if any. */
    byToken(token: string): InsightSharingRow | undefined {
      return byToken.get(token);
    },
  };
}
export type InsightSharingRepository = ReturnType<typeof createInsightSharingRepository>;
