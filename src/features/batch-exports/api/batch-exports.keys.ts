/**
 * The query keys alone (no fetchers, no contract): what the breadcrumb needs from the route
 * tree without pulling the batch export contract into the initial JavaScript.
 */
export const batchExportKeys = {
  all: (organizationId: string) => ['organizations', organizationId, 'batch-exports'] as const,
  lists: (organizationId: string) => ['organizations', organizationId, 'batch-exports', 'list'] as const,
  detail: (organizationId: string, batchExportId: string) => ['organizations', organizationId, 'batch-exports', batchExportId] as const,
};
