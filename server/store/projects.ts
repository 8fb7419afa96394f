import type { Db } from './db.ts';
import type { ReadCache } from './read-cache.ts';
import type { OrganizationScope } from './organizations.ts';
import { LIMIT_OFFSET } from './paging-sql.ts';
import { generateProjectToken, newUuid } from './secrets.ts';

export interface ProjectRow {
  id: number;
  uuid: string;
  organization_id: string;
  name: string;
  api_token: string;
  timezone: string;
  week_start_day: number | null;
  /** JSON list of property filters defining internal and test accounts. */
  test_account_filters: string;
  created_at: string;
  updated_at: string;
}

export interface NewProject {
  organization_id: string;
  name: string;
  timezone?: string;
  week_start_day?: number | null;
  uuid?: string;
  api_token?: string;
  /** Property filters of internal and test accounts; default: the column's default (see migration 2). */
  test_account_filters?: readonly unknown[];
}

const REACHABLE = `
  FROM projects p
  JOIN memberships m ON m.organization_id = p.organization_id AND m.user_id = @user
  WHERE (@scope IS NULL OR p.organization_id IN (SELECT value FROM json_each(@scope)))`;

export function createProjectsRepository(db: Db, cache: ReadCache) {
  const insert = db.prepare(`INSERT INTO projects
    (uuid, organization_id, name, api_token, timezone, week_start_day, created_at, updated_at)
    VALUES (@uuid, @organization_id, @name, @api_token, @timezone, @week_start_day, @at, @at)`);
  const byId = db.prepare<unknown[], ProjectRow>('SELECT * FROM projects WHERE id = ?');
  const byToken = db.prepare<unknown[], ProjectRow>('SELECT * FROM projects WHERE api_token = ?');
  const idsOfOrganization = db
    .prepare<unknown[], number>('SELECT id FROM projects WHERE organization_id = ? ORDER BY id')
    .pluck();
  const setFilters = db.prepare('UPDATE projects SET test_account_filters = ? WHERE id = ?');
  const list = db.prepare<Record<string, unknown>, ProjectRow>(`SELECT p.* ${REACHABLE} ORDER BY p.id ${LIMIT_OFFSET}`);
  const count = db.prepare<Record<string, unknown>, number>(`SELECT COUNT(*) ${REACHABLE}`).pluck();
  const scopeParam = (scope: OrganizationScope) => (scope === null ? null : JSON.stringify(scope));

  return {
    create(project: NewProject, at: string): ProjectRow {
      const id = Number(
        insert.run({
          uuid: project.uuid ?? newUuid(),
          organization_id: project.organization_id,
          name: project.name,
          api_token: project.api_token ?? generateProjectToken(),
          timezone: project.timezone ?? 'UTC',
          week_start_day: project.week_start_day ?? null,
          at,
        }).lastInsertRowid,
      );
      if (project.test_account_filters) setFilters.run(JSON.stringify(project.test_account_filters), id);
      return byId.get(id)!;
    },
    /** The ids of an organization's projects. */
    idsOf(organizationId: string): number[] {
      return idsOfOrganization.all(organizationId);
    },
    /** The project `id` (kept by the read cache: every API request under a project reads it). */
    get(id: number): ProjectRow | undefined {
      return cache.get(`projects:get:${id}`, () => byId.get(id));
    },
    /** The project whose api_token (`phc_…`) ingestion requests carry. */
    getByApiToken(token: string): ProjectRow | undefined {
      return byToken.get(token);
    },
    /** Projects of the organizations the user belongs to and the key may reach. */
    listReachable(userId: number, scope: OrganizationScope, limit: number, offset: number): ProjectRow[] {
      const params = { user: userId, scope: scopeParam(scope), limit, offset };
      return cache.get(`projects:list:${JSON.stringify(params)}`, () => list.all(params));
    },
    countReachable(userId: number, scope: OrganizationScope): number {
      const params = { user: userId, scope: scopeParam(scope) };
      return cache.get(`projects:count:${JSON.stringify(params)}`, () => count.get(params)!);
    },
  };
}
export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
