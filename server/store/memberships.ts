import type { Db } from './db.ts';
import type { ReadCache } from './read-cache.ts';
import { newUuid } from './secrets.ts';

export type Level = 1 | 8 | 15;

export interface MembershipRow {
  id: string;
  organization_id: string;
  user_id: number;
  level: Level;
  joined_at: string;
  updated_at: string;
}

export function createMembershipsRepository(db: Db, cache: ReadCache) {
  const insert = db.prepare(`INSERT INTO memberships (id, organization_id, user_id, level, joined_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?)`);
  const level = db
    .prepare<unknown[], Level>('SELECT level FROM memberships WHERE organization_id = ? AND user_id = ?')
    .pluck();
  const count = db.prepare<unknown[], number>('SELECT COUNT(*) FROM memberships WHERE organization_id = ?').pluck();

  return {
    add(organizationId: string, userId: number, lvl: Level, at: string, id: string = newUuid()): MembershipRow {
      const row: MembershipRow = {
        id,
        organization_id: organizationId,
        user_id: userId,
        level: lvl,
        joined_at: at,
        updated_at: at,
      };
      insert.run(row.id, organizationId, userId, lvl, at, at);
      return row;
    },
    /** The user's level in the organization, or undefined when not a member. */
    level(organizationId: string, userId: number): Level | undefined {
      // Kept by the read cache: every API request under an organization or project asks.
      return cache.get(`memberships:level:${organizationId}:${userId}`, () => level.get(organizationId, userId));
    },
    count(organizationId: string): number {
      return count.get(organizationId)!;
    },
  };
}
export type MembershipsRepository = ReturnType<typeof createMembershipsRepository>;
