import { z } from './z';
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
  error: (iss) =>
    iss.input === undefined ? MESSAGES.required : iss.input === null ? MESSAGES.null : choiceMessage(iss.input),
});

/** PATCH `{ORG}/members/:user__uuid/`: only the level is writable. */
export const memberUpdateSchema = z.object({ level: levelInputSchema });
export type MemberUpdate = z.infer<typeof memberUpdateSchema>;

/** GET `{ORG}/members/`: `search` (name or email, case-insensitive) is this project's addition. */
export const memberListQuerySchema = z.extend(listQuerySchema, {
  search: z.optional(z.string().check(z.maxLength(200))),
});
export type MemberListQuery = z.infer<typeof memberListQuerySchema>;

/** Why a level change or removal is refused, or null when it is allowed (the level rules of docs/api.md). */
export interface MemberRuleRefusal {
  status: 400 | 403;
  detail: string;
}

export interface MemberRuleInput {
  /** The calling key's user's level in the organization. */
  callerLevel: number;
  /** Whether the target member is the caller. */
  isSelf: boolean;
  targetLevel: number;
  /** How many owners the organization has now. */
  ownerCount: number;
}

export const LAST_OWNER_DETAIL = 'An organization must keep at least one owner: make another member owner first.';

/**
 * The level rules for PATCH: nobody changes their own level; only admins and owners change
 * others, and not members above their own level; only an owner makes an owner; the last owner
 * cannot be demoted (400 on `level`). Shared by the server and the app (the disabled select's reason).
 */
export function levelChangeRefusal(input: MemberRuleInput, newLevel: number): MemberRuleRefusal | null {
  if (input.isSelf) return { status: 403, detail: "You can't change your own access level." };
  if (input.callerLevel < 8) return { status: 403, detail: 'Only admins and owners can change the level of others.' };
  if (input.targetLevel > input.callerLevel)
    return { status: 403, detail: 'Only owners can change the level of an owner.' };
  if (newLevel === 15 && input.callerLevel < 15) return { status: 403, detail: 'Only owners can make others owners.' };
  if (input.targetLevel === 15 && newLevel < 15 && input.ownerCount <= 1)
    return { status: 400, detail: LAST_OWNER_DETAIL };
  return null;
}

/** The rules for DELETE: anyone may leave (unless the last owner); admins remove others at or below their level. */
export function removalRefusal(input: MemberRuleInput): MemberRuleRefusal | null {
  if (!input.isSelf && input.callerLevel < 8)
    return { status: 403, detail: 'Only admins and owners can remove others.' };
  if (!input.isSelf && input.targetLevel > input.callerLevel)
    return { status: 403, detail: 'Only owners can remove an owner.' };
  if (input.targetLevel === 15 && input.ownerCount <= 1) return { status: 400, detail: LAST_OWNER_DETAIL };
  return null;
}

export const memberParams = z.object({ organization_id: z.string(), user__uuid: z.string() });
const orgParams = z.object({ organization_id: z.string() });

const base = '/api/organizations/:organization_id/members/';

export const memberEndpoints = {
  list: endpoint({
    method: 'GET',
    path: base,
    access: 'organization_member:read',
    summary: 'List the members of an organization',
    params: orgParams,
    query: memberListQuerySchema,
    status: 200,
    response: pageSchema(memberSchema),
  }),
  update: endpoint({
    method: 'PATCH',
    path: `${base}:user__uuid/`,
    access: 'organization_member:write',
    summary: "Change a member's level",
    params: memberParams,
    body: memberUpdateSchema,
    status: 200,
    response: memberSchema,
  }),
  destroy: endpoint({
    method: 'DELETE',
    path: `${base}:user__uuid/`,
    access: 'organization_member:write',
    summary: 'Remove a member from the organization',
    params: memberParams,
    status: 204,
  }),
};
