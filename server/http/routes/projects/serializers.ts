import type { Project } from '../../../../src/contract/index.ts';
import type { ProjectRow } from '../../../store/projects.ts';

/** A stored project → the API's Project. */
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
