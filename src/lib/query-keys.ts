/**
 * The roots every query key is spread from. Each resource has its own root, and the resources of
 * one organization each have their own root under `organizationScope(id)`, so no resource's key
 * is the prefix of another's: invalidating an organization's detail never touches its batch
 * exports. Features build their keys from these (`[...root, 'detail', id]`); mutations name the
 * keys they invalidate in `meta.invalidates` (see query-client.ts).
 */

/** `/api/organizations/` (lists and details of organizations). */
export const organizationsRoot = ['organizations'] as const;

/**
 * Everything cached about one organization: its detail and each of its resources, each under
 * its own root (`[...organizationScope(id), 'detail']`, `[...organizationScope(id), 'batch-exports']`, …).
 * Removing this scope forgets the whole organization (after it is deleted).
 */
export const organizationScope = (organizationId: string) => [...organizationsRoot, organizationId] as const;

/** `/api/projects/`. */
export const projectsRoot = ['projects'] as const;

/**
 * Everything cached about one project's resources (`[...projectScope(id), 'insights']`), beside
 * `['projects', 'detail', id]`: renaming a project never refetches its insights.
 */
export const projectScope = (projectId: number) => [...projectsRoot, projectId] as const;

/**
 * The command palette's own cache: small pages of every organization, project, export and
 * insight name, kept apart from the features' queries. Any successful change may rename, add or
 * remove one of them, so every mutation marks it stale (query-client.ts) and the palette's next
 * opening fetches it again.
 */
export const paletteRoot = ['command-palette'] as const;
