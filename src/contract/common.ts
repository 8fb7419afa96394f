import { z } from './z';

/**
 * Shapes shared by every resource: ids, timestamps, the Page envelope, list queries,
 * the error body, scopes and the endpoint registry type.
 *
 * Response schemas are `z.looseObject` so that a real instance sending more fields than the
 * API lists still parses. Request schemas are `z.object`, which strips unknown and read-only
 * fields: what is not writable is never stored.
 */

export const uuidSchema = z.uuid();
/** ISO 8601 timestamp as sent by the API. */
export const timestampSchema = z.string();
export const nullableTimestampSchema = z.nullable(z.string());

/** Non-negative integer query parameter given as text (`?limit=20`). */
const nonNegativeIntParam = z.coerce
  .number({ error: 'A valid integer is required.' })
  .check(
    z.int({ error: 'A valid integer is required.' }),
    z.gte(0, { error: 'Ensure this value is greater than or equal to 0.' }),
  );

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export const listQuerySchema = z.object({
  limit: z.optional(nonNegativeIntParam),
  offset: z.optional(nonNegativeIntParam),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export function pageSchema<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    count: z.int(),
    next: z.nullable(z.string()),
    previous: z.nullable(z.string()),
    results: z.array(item),
  });
}
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

export const apiErrorBodySchema = z.looseObject({
  type: z.string(),
  code: z.string(),
  detail: z.string(),
  attr: z.nullable(z.string()),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/** Every scope a personal API key can carry: the API's, and this server's project scopes (docs/scopes.md). */
export const SCOPES = [
  'organization:read',
  'organization:write',
  'organization_member:read',
  'organization_member:write',
  'batch_export:read',
  'batch_export:write',
  'plugin:read',
  'plugin:write',
  'insight:read',
  'insight:write',
  'sharing_configuration:read',
  'sharing_configuration:write',
  'activity_log:read',
  /** Projects (`GET /api/projects/`, their `api_token`): not among the API's scopes; added here. */
  'project:read',
  'project:write',
  /** Cohorts (`{PRJ}/cohorts/`): the production service's scopes, beside the API's. */
  'cohort:read',
  'cohort:write',
  /** Groups (`{PRJ}/groups_types/`, `{PRJ}/groups/`): the production service's scope. */
  'group:read',
] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;
/** A scope as a key carries it: one of SCOPES or `*`. */
export const keyScopeSchema = z.union([scopeSchema, z.literal('*')]);
export type KeyScope = z.infer<typeof keyScopeSchema>;

/**
 * Writes of a project's own resources imply reading the project they live in: such a key
 * works inside a project it must be able to open (docs/scopes.md).
 */
export const PROJECT_READ_GRANTED_BY: readonly Scope[] = [
  'project:write',
  'insight:write',
  'sharing_configuration:write',
  'cohort:write',
];

/**
 * Whether a key's scopes grant `needed`: `*` grants all, `X:write` grants `X:read`,
 * `project:read` is also granted by PROJECT_READ_GRANTED_BY, and both sharing_configuration scopes
 * by `insight:write` (docs/scopes.md).
 */
export function scopesAllow(keyScopes: readonly string[], needed: Scope): boolean {
  if (keyScopes.includes('*') || keyScopes.includes(needed)) return true;
  if (needed === 'project:read') return PROJECT_READ_GRANTED_BY.some((s) => keyScopes.includes(s));
  // insight:write turns sharing on and rotates its token, so it also reads the sharing settings.
  if (
    (needed === 'sharing_configuration:write' || needed === 'sharing_configuration:read') &&
    keyScopes.includes('insight:write')
  )
    return true;
  const [object, action] = needed.split(':');
  return action === 'read' && keyScopes.includes(`${object}:write`);
}

/**
 * What an endpoint requires of a key:
 * - a Scope;
 * - `'authenticated'`: any valid key (e.g. `personal_api_keys/@current/`);
 * - `null`: an endpoint that does not support personal API key access (403); none is, here (docs/api.md).
 */
export type EndpointAccess = Scope | 'authenticated' | null;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * One API endpoint, declared once: the server validates with it and registers the route,
 * the OpenAPI document is generated from it, and the dashboard reads the scope an action needs.
 */
export interface Endpoint {
  method: HttpMethod;
  /** Path with `:param` segments and the trailing slash, e.g. `/api/organizations/:id/`. */
  path: string;
  access: EndpointAccess;
  summary: string;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  /** Success status and body (undefined body = empty). */
  status: 200 | 201 | 204 | 405;
  response?: z.ZodMiniType;
  /** Served by this server beside the production service's API (a client of a real instance finds no such path). */
  extension?: true;
  /** The body may also come as `multipart/form-data` (a file upload): its fields are read as text, its files as their text. */
  multipart?: true;
}

export function endpoint<const E extends Endpoint>(e: E): E {
  return e;
}
