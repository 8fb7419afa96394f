import type { Organization } from '../../../../src/contract/index.ts';
import type { OrganizationViewRow } from '../../../store/organizations.ts';

/** A stored organization, seen by one user → the API's Organization. */
export function organizationResponse(row: OrganizationViewRow): Organization {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    created_at: row.created_at,
    updated_at: row.updated_at,
    membership_level: row.membership_level,
    plugins_access_level: row.plugins_access_level,
    teams: JSON.parse(row.teams) as Record<string, unknown>[],
    available_product_features: [],
    is_member_join_email_enabled: row.is_member_join_email_enabled === 1,
    metadata: {},
    customer_id: row.customer_id,
    enforce_2fa: row.enforce_2fa === null ? null : row.enforce_2fa === 1,
    member_count: row.member_count,
  };
}
