import type { Db } from './db.ts';
import type { Level } from './memberships.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';

/** A membership with its user, as the members endpoints show it. */
export interface MemberRow {
  id: string;
  organization_id: string;
  level: Level;
  joined_at: string;
  updated_at: string;
  user_id: number;
  user_uuid: string;
  distinct_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_email_verified: number;
  is_2fa_enabled: number;
  has_social_auth: number;
}

const SELECT = `SELECT m.id, m.organization_id, m.level, m.joined_at, m.updated_at, u.id AS user_id, u.uuid AS user_uuid,
    u.distinct_id, u.first_name, u.last_name, u.email, u.is_email_verified, u.is_2fa_enabled, u.has_social_auth
  FROM memberships m JOIN users u ON u.id = m.user_id`;

// `search` matches the name (first, last, or both) or the email, case-insensitively; LIKE's
// wildcards in it are escaped, so '%' or '_' match themselves.
const WHERE = `WHERE m.organization_id = @organization AND (@search IS NULL
  OR u.email LIKE @search ESCAPE '\\' OR (u.first_name || ' ' || u.last_name) LIKE @search ESCAPE '\\')`;

const likePattern = (search: string | null | undefined) =>
  search ? `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;

/** Members of organizations: list with search, one by user uuid, level changes, removal. */
export function createMembersRepository(db: Db) {
  const list = db.prepare<Record<string, unknown>, MemberRow>(
    `${SELECT} ${WHERE} ORDER BY m.joined_at, m.id ${LIMIT_OFFSET}`,
  );
  const count = db
    .prepare<Record<string, unknown>, number>(
      `SELECT COUNT(*) FROM memberships m JOIN users u ON u.id = m.user_id ${WHERE}`,
    )
    .pluck();
  const byUuid = db.prepare<unknown[], MemberRow>(`${SELECT} WHERE m.organization_id = ? AND u.uuid = ?`);
  const owners = db
    .prepare<unknown[], number>('SELECT COUNT(*) FROM memberships WHERE organization_id = ? AND level = 15')
    .pluck();
  const setLevel = db.prepare('UPDATE memberships SET level = ?, updated_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM memberships WHERE id = ?');

  return {
    list(organizationId: string, search: string | null | undefined, limit: number, offset: number): MemberRow[] {
      return list.all({ organization: organizationId, search: likePattern(search), limit, offset });
    },
    count(organizationId: string, search: string | null | undefined): number {
      return count.get({ organization: organizationId, search: likePattern(search) })!;
    },
    byUserUuid(organizationId: string, userUuid: string): MemberRow | undefined {
      return byUuid.get(organizationId, userUuid);
    },
    ownerCount(organizationId: string): number {
      return owners.get(organizationId)!;
    },
    setLevel(id: string, level: Level, at: string): void {
      setLevel.run(level, at, id);
    },
    remove(id: string): void {
      remove.run(id);
    },
  };
}
export type MembersRepository = ReturnType<typeof createMembersRepository>;
