import type { Level } from '../store/memberships.ts';
import type { OrganizationRow } from '../store/organizations.ts';
import type { ProjectRow } from '../store/projects.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './auth.ts';
import { notFound, permissionDenied } from './errors.ts';

export const LEVEL = { member: 1, admin: 8, owner: 15 } as const;

/**
 * The organization `id` with the caller's level in it. 404 when it does not exist; 403 when it
 * exists but the key cannot reach it (its user is no member, or the key is scoped elsewhere).
 */
export function reachableOrganization(
  store: Store,
  auth: AuthContext,
  id: string,
): { organization: OrganizationRow; level: Level } {
  const organization = store.organizations.get(id);
  if (!organization) throw notFound();
  const level = store.memberships.level(id, auth.userId);
  if (level === undefined || !auth.keyReaches(id)) throw permissionDenied();
  return { organization, level };
}

/** The project `id` if the key can reach its organization: else 404 (missing) or 403. */
export function reachableProject(store: Store, auth: AuthContext, id: number): ProjectRow {
  const project = store.projects.get(id);
  if (!project) throw notFound();
  const level = store.memberships.level(project.organization_id, auth.userId);
  if (level === undefined || !auth.keyReaches(project.organization_id)) throw permissionDenied();
  return project;
}

/** 403 unless the caller's level is at least `minimum`. */
export function requireLevel(level: Level, minimum: Level): void {
  if (level < minimum) throw permissionDenied();
}
