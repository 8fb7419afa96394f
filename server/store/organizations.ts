import type { Db } from './db.ts';
import type { ReadCache } from './read-cache.ts';
import type { Level } from './memberships.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import { newUuid } from './secrets.ts';
import { slugify, uniqueSlug } from './slug.ts';

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  plugins_access_level: number;
  is_member_join_email_enabled: number;
  enforce_2fa: number | null;
  customer_id: string | null;
  created_at: string;
  updated_at: string;
}

/** An organization as one member sees it: with their level, the member count and the projects. */
export interface OrganizationViewRow extends OrganizationRow {
  membership_level: Level;
  member_count: number;
  /** JSON array of project summaries, ordered by id. */
  teams: string;
}

export interface OrganizationFields {
  name: string;
  is_member_join_email_enabled?: boolean | undefined;
  enforce_2fa?: boolean | null | undefined;
}

/** Which organizations a key may reach: null = all of its user's. */
export type OrganizationScope = readonly string[] | null;

const VIEW = `
  SELECT o.*, m.level AS membership_level,
    (SELECT COUNT(*) FROM memberships mc WHERE mc.organization_id = o.id) AS member_count,
    (SELECT json_group_array(json_object('id', p.id, 'uuid', p.uuid, 'organization', p.organization_id,
        'name', p.name, 'timezone', p.timezone) ORDER BY p.id)
       FROM projects p WHERE p.organization_id = o.id) AS teams
  FROM organizations o
  JOIN memberships m ON m.organization_id = o.id AND m.user_id = @user`;
const IN_SCOPE = '(@scope IS NULL OR o.id IN (SELECT value FROM json_each(@scope)))';

const bool = (v: boolean | null | undefined) => (v === undefined || v === null ? v : v ? 1 : 0);

export function createOrganizationsRepository(db: Db, cache: ReadCache) {
  const list = db.prepare<Record<string, unknown>, OrganizationViewRow>(
    `${VIEW} WHERE ${IN_SCOPE} ORDER BY o.created_at, o.id ${LIMIT_OFFSET}`,
  );
  const count = db
    .prepare<Record<string, unknown>, number>(
      `SELECT COUNT(*) FROM organizations o
    JOIN memberships m ON m.organization_id = o.id AND m.user_id = @user WHERE ${IN_SCOPE}`,
    )
    .pluck();
  const view = db.prepare<Record<string, unknown>, OrganizationViewRow>(`${VIEW} WHERE o.id = @id`);
  const byId = db.prepare<unknown[], OrganizationRow>('SELECT * FROM organizations WHERE id = ?');
  const slugTaken = db.prepare('SELECT 1 FROM organizations WHERE slug = ?').pluck();
  const insert = db.prepare(`INSERT INTO organizations
    (id, name, slug, is_member_join_email_enabled, enforce_2fa, created_at, updated_at)
    VALUES (@id, @name, @slug, @is_member_join_email_enabled, @enforce_2fa, @created_at, @updated_at)`);
  const update = db.prepare(`UPDATE organizations SET
      name = COALESCE(@name, name),
      is_member_join_email_enabled = COALESCE(@is_member_join_email_enabled, is_member_join_email_enabled),
      enforce_2fa = CASE WHEN @set_enforce_2fa THEN @enforce_2fa ELSE enforce_2fa END,
      updated_at = @updated_at
    WHERE id = @id`);
  const remove = db.prepare('DELETE FROM organizations WHERE id = ?');
  const scopeParam = (scope: OrganizationScope) => (scope === null ? null : JSON.stringify(scope));

  return {
    listForUser(userId: number, scope: OrganizationScope, limit: number, offset: number): OrganizationViewRow[] {
      const params = { user: userId, scope: scopeParam(scope), limit, offset };
      return cache.get(`organizations:list:${JSON.stringify(params)}`, () => list.all(params));
    },
    countForUser(userId: number, scope: OrganizationScope): number {
      const params = { user: userId, scope: scopeParam(scope) };
      return cache.get(`organizations:count:${JSON.stringify(params)}`, () => count.get(params)!);
    },
    /** The organization as `userId` sees it; undefined when missing or not a member. */
    viewForUser(id: string, userId: number): OrganizationViewRow | undefined {
      return view.get({ id, user: userId });
    },
    get(id: string): OrganizationRow | undefined {
      return byId.get(id);
    },
    create(fields: OrganizationFields, at: string, id: string = newUuid()): OrganizationRow {
      const slug = uniqueSlug(slugify(fields.name), (s) => slugTaken.get(s) !== undefined);
      insert.run({
        id,
        name: fields.name,
        slug,
        created_at: at,
        updated_at: at,
        is_member_join_email_enabled: bool(fields.is_member_join_email_enabled) ?? 1,
        enforce_2fa: bool(fields.enforce_2fa) ?? null,
      });
      return byId.get(id)!;
    },
    /** Partial update: absent fields keep their value. The slug never changes. */
    update(id: string, fields: Partial<OrganizationFields>, at: string): void {
      update.run({
        id,
        updated_at: at,
        name: fields.name ?? null,
        is_member_join_email_enabled: bool(fields.is_member_join_email_enabled) ?? null,
        set_enforce_2fa: 'enforce_2fa' in fields && fields.enforce_2fa !== undefined ? 1 : 0,
        enforce_2fa: bool(fields.enforce_2fa) ?? null,
      });
    },
    /** Deletes the organization with its memberships and projects (foreign-key cascade). */
    delete(id: string): boolean {
      return remove.run(id).changes > 0;
    },
  };
}
export type OrganizationsRepository = ReturnType<typeof createOrganizationsRepository>;
