import type { PersonalApiKey } from '../../../../src/contract/index.ts';
import type { ApiKeyRow } from '../../../store/api-keys.ts';

/** A stored key → the API's PersonalApiKey (never the key itself: only its mask). */
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
