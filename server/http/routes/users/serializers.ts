import type { User } from '../../../../src/contract/index.ts';
import type { UserRow } from '../../../store/users.ts';

/** A stored user as the API shows it (the same fields insights embed as `created_by`). */
export function userResponse(row: UserRow): User {
  return {
    id: row.id,
    uuid: row.uuid,
    distinct_id: row.distinct_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    is_email_verified: row.is_email_verified === 1,
    hedgehog_config: null,
  };
}
