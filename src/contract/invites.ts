import { z } from './z';
import { endpoint, listQuerySchema, pageSchema, timestampSchema } from './common';
import { blankableText, email, integer, list, MESSAGES, text } from './fields';
import { levelInputSchema } from './members';
import { membershipLevelSchema } from './organizations';
import { nullableUserSchema } from './users';

/** Invites expire this many days after `created_at` (docs/api.md). */
export const INVITE_EXPIRY_DAYS = 3;
/** `bulk/` takes at most this many invites (docs/api.md). */
export const INVITE_BULK_MAX = 20;
export const INVITE_FIRST_NAME_MAX = 30;

/**
 * Access to one private project given with an invite: the project (team) id and the level
 * on it, 1 member or 8 admin (the production service's explicit team membership levels).
 */
export const privateProjectAccessSchema = z.object({
  id: integer({ min: 1 }),
  level: z.union([z.literal(1), z.literal(8)], {
    error: (iss) => (iss.input === undefined ? MESSAGES.required : `"${String(iss.input)}" is not a valid choice.`),
  }),
});
export type PrivateProjectAccess = z.infer<typeof privateProjectAccessSchema>;

export const inviteSchema = z.looseObject({
  id: z.string(),
  target_email: z.string(),
  first_name: z.nullable(z.string()),
  emailing_attempt_made: z.boolean(),
  level: membershipLevelSchema,
  is_expired: z.boolean(),
  created_by: nullableUserSchema,
  created_at: timestampSchema,
  updated_at: timestampSchema,
  message: z.nullable(z.string()),
  private_project_access: z.nullable(z.array(z.looseObject({ id: z.int(), level: z.int() }))),
  /**
   * The link that accepts the invite, secret included: only in the answer that creates it, and only
   * to an admin or owner (to pass on by hand when email does not arrive). Lists never carry it.
   */
  accept_url: z.optional(z.nullable(z.string())),
});
export type Invite = z.infer<typeof inviteSchema>;

/** POST `{ORG}/invites/`. `level` defaults to 1 (member) when omitted. */
export const inviteCreateSchema = z.object({
  target_email: email(),
  first_name: z.optional(blankableText(INVITE_FIRST_NAME_MAX)),
  level: z._default(levelInputSchema, 1),
  message: z.optional(z.nullable(blankableText(1000))),
  private_project_access: z.optional(z.nullable(list(privateProjectAccessSchema))),
});
export type InviteCreate = z.infer<typeof inviteCreateSchema>;
/** What a form holds before defaults are applied. */
export type InviteCreateInput = z.input<typeof inviteCreateSchema>;

/** POST `{ORG}/invites/bulk/`: a JSON array of 1 to 20 invite create bodies. */
export const inviteBulkCreateSchema = list(inviteCreateSchema).check(
  z.minLength(1, { error: 'This list may not be empty.' }),
  z.maxLength(INVITE_BULK_MAX, { error: `Ensure this field has no more than ${INVITE_BULK_MAX} elements.` }),
);
export type InviteBulkCreate = z.infer<typeof inviteBulkCreateSchema>;

/**
 * Response of `bulk/`. The API's table shows "200 Invite"; a bulk request creates several, so
 * (as the production service does) the response is the list of created invites, status 200.
 */
export const inviteBulkResponseSchema = z.array(inviteSchema);

export const inviteParams = z.object({ organization_id: z.string(), id: z.string() });
const orgParams = z.object({ organization_id: z.string() });

const base = '/api/organizations/:organization_id/invites/';

/** Static paths (bulk/) come before `:id/` so a router matching in order finds them first. */
export const inviteEndpoints = {
  bulk: endpoint({
    method: 'POST',
    path: `${base}bulk/`,
    access: 'organization_member:write',
    summary: 'Invite up to 20 people at once',
    params: orgParams,
    body: inviteBulkCreateSchema,
    status: 200,
    response: inviteBulkResponseSchema,
  }),
  list: endpoint({
    method: 'GET',
    path: base,
    access: 'organization_member:read',
    summary: 'List pending invites',
    params: orgParams,
    query: listQuerySchema,
    status: 200,
    response: pageSchema(inviteSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: base,
    access: 'organization_member:write',
    summary: 'Invite someone to the organization',
    params: orgParams,
    body: inviteCreateSchema,
    status: 201,
    response: inviteSchema,
  }),
  destroy: endpoint({
    method: 'DELETE',
    path: `${base}:id/`,
    access: 'organization_member:write',
    summary: 'Cancel an invite',
    params: inviteParams,
    status: 204,
  }),
};

/** Whether an invite created at `createdAt` has expired at `now` (3 days). */
export function isInviteExpired(createdAt: string, now: Date = new Date()): boolean {
  const created = Date.parse(createdAt);
  return Number.isFinite(created) && now.getTime() - created > INVITE_EXPIRY_DAYS * 24 * 3600 * 1000;
}

/** The accept link's secret travels in its fragment, `#token=…`, which browsers never send to a server. */
export const INVITE_TOKEN_PARAM = 'token';

/**
 * POST `/api/organizations/invites/:id/accept/`: public, but `token` (the secret of the emailed
 * link) proves the caller received the invite; an existing user must also send their own key.
 */
export const inviteAcceptSchema = z.object({
  first_name: text(150),
  last_name: z.optional(blankableText(150)),
  email: email(),
  token: text(200),
});
export type InviteAccept = z.infer<typeof inviteAcceptSchema>;

/**
 * The new membership. `personal_api_key` (shown once, limited to this organization) is given
 * only when accepting created the user; an existing user signs in with their own key.
 */
export const inviteAcceptResponseSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string() }),
  level: membershipLevelSchema,
  personal_api_key: z.nullable(z.string()),
});
export type InviteAcceptResponse = z.infer<typeof inviteAcceptResponseSchema>;

/** Public, without a key: the accept link of an invite email leads here. Not in the key-authenticated registry. */
export const inviteAcceptEndpoint = endpoint({
  method: 'POST',
  path: '/api/organizations/invites/:id/accept/',
  access: 'authenticated',
  summary: 'Accept an invite: become a member of its organization',
  params: z.object({ id: z.string() }),
  body: inviteAcceptSchema,
  status: 200,
  response: inviteAcceptResponseSchema,
});
