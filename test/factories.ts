/**
 * Test data built from the contract: every factory parses its result with the resource's schema,
 * so a fixture that drifts from the API fails loudly.
 */
import {
  batchExportRunSchema,
  batchExportSchema,
  type BatchExport,
  type BatchExportRun,
} from '@/contract/batch-exports';
import { organizationSchema, type Organization } from '@/contract/organizations';
import { personalApiKeySchema, type PersonalApiKey } from '@/contract/personal-api-keys';
import { projectSchema, type Project } from '@/contract/projects';

let sequence = 0;
const next = () => ++sequence;

const FIXED_TIME = '2024-03-05T14:03:00Z';

function uuid(): string {
  return crypto.randomUUID();
}

export function buildOrganization(overrides: Partial<Organization> = {}): Organization {
  const n = next();
  return organizationSchema.parse({
    id: uuid(),
    name: `Organization ${n}`,
    slug: `organization-${n}`,
    created_at: FIXED_TIME,
    updated_at: FIXED_TIME,
    membership_level: 15,
    plugins_access_level: 9,
    teams: [],
    available_product_features: [],
    is_member_join_email_enabled: true,
    metadata: {},
    customer_id: null,
    enforce_2fa: false,
    member_count: 1,
    ...overrides,
  });
}

export function buildProject(overrides: Partial<Project> & { organization: string }): Project {
  const n = next();
  return projectSchema.parse({
    id: n,
    uuid: uuid(),
    name: `Project ${n}`,
    api_token: `phc_${'x'.repeat(20)}${n}`,
    timezone: 'UTC',
    week_start_day: 0,
    created_at: FIXED_TIME,
    updated_at: FIXED_TIME,
    ...overrides,
  });
}

export function buildPersonalApiKey(overrides: Partial<PersonalApiKey> = {}): PersonalApiKey {
  const n = next();
  return personalApiKeySchema.parse({
    id: uuid(),
    label: `Key ${n}`,
    mask_value: 'phx_...abcd',
    scopes: ['*'],
    scoped_organizations: null,
    scoped_teams: null,
    created_at: FIXED_TIME,
    last_used_at: null,
    ...overrides,
  });
}

/** A syntactically valid personal API key (`phx_` + base62). */
export function makeKeyValue(seed: string): string {
  return `phx_${seed.replace(/[^A-Za-z0-9]/g, '').padEnd(32, 'A')}`;
}

export function buildBatchExportRun(overrides: Partial<BatchExportRun> & { batch_export: string }): BatchExportRun {
  return batchExportRunSchema.parse({
    id: uuid(),
    status: 'Completed',
    records_completed: 120,
    latest_error: null,
    data_interval_start: '2024-03-05T13:00:00Z',
    data_interval_end: '2024-03-05T14:00:00Z',
    cursor: null,
    created_at: '2024-03-05T14:00:05Z',
    finished_at: '2024-03-05T14:00:09Z',
    last_updated_at: '2024-03-05T14:00:09Z',
    records_total_count: 120,
    ...overrides,
  });
}

/** A batch export as the API returns it; `destination.config` may carry secrets (the mock strips them on the way out). */
export function buildBatchExport(overrides: Partial<BatchExport> = {}): BatchExport {
  const n = next();
  return batchExportSchema.parse({
    id: uuid(),
    team_id: 1,
    name: `Export ${n}`,
    model: 'events',
    destination: { type: 'NoOp', config: {} },
    interval: 'hour',
    paused: false,
    created_at: FIXED_TIME,
    last_updated_at: FIXED_TIME,
    last_paused_at: null,
    start_at: null,
    end_at: null,
    latest_runs: [],
    hogql_query: null,
    schema: null,
    ...overrides,
  });
}
