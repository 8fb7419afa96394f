import { isInviteExpired, type Invite } from '../../../../src/contract/index.ts';
import type { InviteRow } from '../../../store/invites.ts';
import type { Store } from '../../../store/store.ts';
import { userResponse } from '../users/serializers.ts';

export function inviteResponse(store: Store, row: InviteRow, now: Date): Invite {
  const creator = row.created_by === null ? undefined : store.users.get(row.created_by);
  return {
    id: row.id,
    target_email: row.target_email,
    first_name: row.first_name,
    emailing_attempt_made: row.emailing_attempt_made === 1,
    level: row.level,
    is_expired: isInviteExpired(row.created_at, now),
    created_by: creator ? userResponse(creator) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    message: row.message,
    private_project_access:
      row.private_project_access === null
        ? null
        : (JSON.parse(row.private_project_access) as { id: number; level: number }[]),
  };
}
