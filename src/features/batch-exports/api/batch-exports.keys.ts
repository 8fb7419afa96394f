import type { PageParams } from '@/lib/page-search';
import { organizationScope } from '@/lib/query-keys';

/**
 * The query keys alone (no fetchers, no contract): what the breadcrumb needs from the route
 * tree without pulling the batch export contract into the initial JavaScript.
 *
 * Spread from one root under the organization (`['organizations', org, 'batch-exports']`),
 * beside the organization's own detail: renaming the organization leaves these alone. Runs,
 * logs and backfills have their own roots, so changing an export's settings does not refetch its history.
 */
export const batchExportKeys = {
  all: (organizationId: string) => [...organizationScope(organizationId), 'batch-exports'] as const,
  lists: (organizationId: string) => [...batchExportKeys.all(organizationId), 'list'] as const,
  list: (organizationId: string, params: PageParams) => [...batchExportKeys.lists(organizationId), params] as const,
  detail: (organizationId: string, batchExportId: string) =>
    [...batchExportKeys.all(organizationId), 'detail', batchExportId] as const,
  runs: (organizationId: string, batchExportId: string) =>
    [...batchExportKeys.all(organizationId), 'runs', batchExportId] as const,
  logs: (organizationId: string, batchExportId: string) =>
    [...batchExportKeys.all(organizationId), 'logs', batchExportId] as const,
  backfills: (organizationId: string, batchExportId: string) =>
    [...batchExportKeys.all(organizationId), 'backfills', batchExportId] as const,
};
