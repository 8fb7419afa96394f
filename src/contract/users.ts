import { z } from './z';
import { endpoint } from './common';

/**
 * The User object embedded in members, invites (`created_by`) and insights (`created_by`,
 * `last_modified_by`). Read-only everywhere: it is never part of a request body.
 * Fields a real instance may send as null are nullable.
 */
export const userSchema = z.looseObject({
  id: z.int(),
  uuid: z.string(),
  distinct_id: z.nullable(z.string()),
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  email: z.string(),
  is_email_verified: z.nullable(z.boolean()),
  hedgehog_config: z.nullable(z.record(z.string(), z.unknown())),
});
export type User = z.infer<typeof userSchema>;

/** `created_by` and friends are null when the user was deleted or the object was seeded. */
export const nullableUserSchema = z.nullable(userSchema);

/** The name to show for a user: first and last name, else the email. */
export function userDisplayName(user: Pick<User, 'first_name' | 'last_name' | 'email'> | null | undefined): string {
  if (!user) return 'Unknown user';
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ').trim();
  return name || user.email;
}

export const userEndpoints = {
  /** The user the calling key belongs to (the production service's `users/@me/`), e.g. for "created by me". */
  me: endpoint({
    method: 'GET',
    path: '/api/users/@me/',
    access: 'authenticated',
    summary: 'The user the calling key belongs to',
    status: 200,
    response: userSchema,
  }),
};
