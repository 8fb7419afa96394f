import type { Member, User } from '../../../../src/contract/index.ts';
import type { MemberRow } from '../../../store/members.ts';

export function memberUser(row: MemberRow): User {
  return {
    id: row.user_id,
    uuid: row.user_uuid,
    distinct_id: row.distinct_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    is_email_verified: row.is_email_verified === 1,
    hedgehog_config: null,
  };
}

export function memberResponse(row: MemberRow): Member {
  return {
    id: row.id,
    user: memberUser(row),
    level: row.level,
    joined_at: row.joined_at,
    updated_at: row.updated_at,
    is_2fa_enabled: row.is_2fa_enabled === 1,
    has_social_auth: row.has_social_auth === 1,
  };
}
