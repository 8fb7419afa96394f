import { organizationScope, projectScope } from '@/lib/query-keys';
import type { GroupSlug } from './pipeline-groups';

/**
 * One root per group under the organization, one per project for the plugin configs. Apart from
 * the query options so the breadcrumbs can read the cache without carrying the contract.
 */
export const pipelineKeys = {
  group: (organizationId: string, slug: GroupSlug) => [...organizationScope(organizationId), 'pipeline', slug] as const,
  detail: (organizationId: string, slug: GroupSlug, id: number) =>
    [...pipelineKeys.group(organizationId, slug), 'detail', id] as const,
  projects: (organizationId: string) => [...organizationScope(organizationId), 'pipeline-projects'] as const,
  configs: (projectId: number) => [...projectScope(projectId), 'plugin-configs'] as const,
};
