import type { Organization, PersonalApiKey, Project } from '../../../../src/contract/index.ts';
import type { ApiKeyRow } from '../../../store/api-keys.ts';
import type { OrganizationViewRow } from '../../../store/organizations.ts';
import type { ProjectRow } from '../../../store/projects.ts';

/** Store rows → the API's shapes. The only place that decides what a response holds. */
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

export function projectResponse(row: ProjectRow): Project {
  return {
    id: row.id,
    uuid: row.uuid,
    organization: row.organization_id,
    name: row.name,
    api_token: row.api_token,
    timezone: row.timezone,
    week_start_day: row.week_start_day,
    test_account_filters: JSON.parse(row.test_account_filters) as unknown,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function personalApiKeyResponse(row: ApiKeyRow): PersonalApiKey {
  return {
    id: row.id,
    label: row.label,
    mask_value: row.mask_value,
    scopes: row.scopes,
    scoped_organizations: row.scoped_organizations,
    scoped_teams: null,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}
