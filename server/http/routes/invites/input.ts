import { z } from '../../../../src/contract/z';
import {
  INVITE_BULK_MAX,
  inviteCreateSchema,
  type ApiErrorBody,
  type InviteCreate,
} from '../../../../src/contract/index.ts';
import type { Level } from '../../../store/memberships.ts';
import type { Store } from '../../../store/store.ts';
import { ApiError, permissionDenied, validationError } from '../../errors.ts';
import { zodToApiError } from '../../validation.ts';

/** One field error of a bulk item: `attr` inside the item, `index` its place in the list. */
export interface BulkItemError {
  index: number;
  attr: string | null;
  code: string;
  detail: string;
}

/** The bulk body before its items are checked one by one (so every item's error can be reported). */
export const bulkEnvelopeSchema = z
  .array(z.unknown(), {
    error: (iss) => (iss.input === undefined ? 'This field is required.' : 'Expected a list of items.'),
  })
  .check(
    z.minLength(1, { error: 'This list may not be empty.' }),
    z.maxLength(INVITE_BULK_MAX, { error: `Ensure this field has no more than ${INVITE_BULK_MAX} elements.` }),
  );

/**
 * What the server checks beyond the contract's shape: nobody invites above their own level
 * (403), an existing member cannot be invited, and project access names projects of the
 * organization. Returns the 400's fields, or null.
 */
export function inviteProblem(
  store: Store,
  organizationId: string,
  callerLevel: Level,
  invite: InviteCreate,
): Omit<BulkItemError, 'index'> | null {
  if (invite.level > callerLevel) throw permissionDenied('You cannot invite someone at a level above your own.');
  const user = store.users.getByEmail(invite.target_email);
  if (user && store.memberships.level(organizationId, user.id) !== undefined) {
    return {
      attr: 'target_email',
      code: 'invalid_input',
      detail: 'A user with this email address already belongs to the organization.',
    };
  }
  const projects = new Set(store.projects.idsOf(organizationId));
  const missing = (invite.private_project_access ?? []).find((p) => !projects.has(p.id));
  if (missing) {
    return {
      attr: 'private_project_access',
      code: 'invalid_input',
      detail: `Project ${missing.id} does not belong to this organization.`,
    };
  }
  return null;
}

/** Every item of a bulk request checked; all valid → the parsed invites, else a 400 listing each item's error. */
export function parseBulk(store: Store, organizationId: string, callerLevel: Level, items: unknown[]): InviteCreate[] {
  const errors: BulkItemError[] = [];
  const parsed: InviteCreate[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const result = inviteCreateSchema.safeParse(item, { reportInput: true });
    if (!result.success) {
      const { attr, code, detail } = zodToApiError(result.error).body;
      errors.push({ index, attr, code, detail });
      return;
    }
    const email = result.data.target_email.toLowerCase();
    const problem = seen.has(email)
      ? { attr: 'target_email', code: 'unique', detail: 'This email address is already in the list.' }
      : inviteProblem(store, organizationId, callerLevel, result.data);
    seen.add(email);
    if (problem) errors.push({ index, ...problem });
    else parsed.push(result.data);
  });
  if (errors.length > 0) {
    const first = errors[0]!;
    const body: ApiErrorBody = {
      type: 'validation_error',
      code: first.code,
      detail: first.detail,
      attr: first.attr === null ? String(first.index) : `${first.index}__${first.attr}`,
      errors,
    };
    throw new ApiError(400, body);
  }
  return parsed;
}

export const firstError = (problem: Omit<BulkItemError, 'index'>) =>
  validationError(problem.code, problem.detail, problem.attr);
