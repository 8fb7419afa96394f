import { z } from 'zod';
import { endpoint, listQuerySchema, pageSchema, timestampSchema } from './common';
import { choiceMessage, MESSAGES } from './fields';
import { membershipLevelSchema } from './organizations';
import { userSchema } from './users';

/** A member of an organization (`{ORG}/members/`). Levels: 1 member, 8 admin, 15 owner. */
export const memberSchema = z.looseObject({
  id: z.string(),
  user: userSchema,
  level: membershipLevelSchema,
  joined_at: timestampSchema,
  updated_at: timestampSchema,
  is_2fa_enabled: z.boolean(),
  has_social_auth: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;

/** A membership level in a request body, with the production service's messages. */
export const levelInputSchema = z.union([z.literal(1), z.literal(8), z.literal(15)], {
  error: (iss) => (iss.input === undefined ? MESSAGES.required : iss.input === null ? MESSAGES.null : choiceMessage(iss.input)),
});

/** PATCH `{ORG}/members/:user__uuid/`: only the level is writable. */
export const memberUpdateSchema = z.object({ level: levelInputSchema });
export type MemberUpdate = z.infer<typeof memberUpdateSchema>;

export const memberParams = z.object({ organization_id: z.string(), user__uuid: z.string() });
const orgParams = z.object({ organization_id: z.string() });

const base = '/api/organizations/:organization_id/members/';

export const memberEndpoints = {
  list: endpoint({
    method: 'GET', path: base, access: 'organization_member:read',
    summary: 'List the members of an organization', params: orgParams, query: listQuerySchema, status: 200,
    response: pageSchema(memberSchema),
  }),
  update: endpoint({
    method: 'PATCH', path: `${base}:user__uuid/`, access: 'organization_member:write',
    summary: "Change a member's level", params: memberParams, body: memberUpdateSchema, status: 200,
    response: memberSchema,
  }),
  destroy: endpoint({
    method: 'DELETE', path: `${base}:user__uuid/`, access: 'organization_member:write',
    summary: 'Remove a member from the organization', params: memberParams, status: 204,
  }),
};
