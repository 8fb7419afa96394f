/**
 * Query options of the pipeline groups (`{ORG}/pipeline_<group>/…`) and of the project plugin
 * configs (`{PRJ}/plugin_configs/`); keys in pipeline.keys.ts.
 */
import { queryOptions } from '@tanstack/react-query';
import { pluginConfigEndpoints } from '@/contract/plugin-configs';
import {
  pipelineDestinationEndpoints,
  pipelineFrontendAppEndpoints,
  pipelineImportAppEndpoints,
} from '@/contract/plugins';
import { projectEndpoints } from '@/contract/projects';
import { apiRequest } from '@/lib/api-client';
import type { PageParams } from '@/lib/page-search';
import type { GroupSlug } from './pipeline-groups';
import { pipelineKeys } from './pipeline.keys';

type Full = typeof pipelineDestinationEndpoints;
/** A group's endpoints with their paths widened: the three groups share every shape but the path. */
export type GroupEndpoints = {
  [K in keyof Full]: Omit<Full[K], 'path' | 'summary'> & { path: string; summary: string };
};

/** The endpoints of a group. Import apps have no edit, source or group-wide ones: those are never called for them. */
export function groupEndpoints(slug: GroupSlug): GroupEndpoints {
  if (slug === 'frontend-apps') return pipelineFrontendAppEndpoints;
  if (slug === 'import-apps') return { ...pipelineDestinationEndpoints, ...pipelineImportAppEndpoints };
  return pipelineDestinationEndpoints;
}

const org = (organizationId: string) => ({ organization_id: organizationId });
/** The most configs of one project the processing order shows. */
export const ORDER_LIMIT = 200;

export const pipelineQueries = {
  /** A page of the group's apps (the page in the URL). */
  list: (organizationId: string, slug: GroupSlug, page: PageParams) =>
    queryOptions({
      queryKey: [...pipelineKeys.group(organizationId, slug), 'list', page] as const,
      queryFn: ({ signal }) =>
        apiRequest(groupEndpoints(slug).list, { params: org(organizationId), query: page, signal }),
    }),
  unused: (organizationId: string, slug: GroupSlug) =>
    queryOptions({
      queryKey: [...pipelineKeys.group(organizationId, slug), 'unused'] as const,
      queryFn: ({ signal }) => apiRequest(groupEndpoints(slug).unused, { params: org(organizationId), signal }),
      enabled: slug !== 'import-apps',
    }),
  repository: (organizationId: string, slug: GroupSlug) =>
    queryOptions({
      queryKey: [...pipelineKeys.group(organizationId, slug), 'repository'] as const,
      queryFn: ({ signal }) => apiRequest(groupEndpoints(slug).repository, { params: org(organizationId), signal }),
      staleTime: 5 * 60_000,
    }),
  detail: (organizationId: string, slug: GroupSlug, id: number) =>
    queryOptions({
      queryKey: pipelineKeys.detail(organizationId, slug, id),
      queryFn: ({ signal }) =>
        apiRequest(groupEndpoints(slug).retrieve, { params: { ...org(organizationId), id }, signal }),
    }),
  source: (organizationId: string, slug: GroupSlug, id: number) =>
    queryOptions({
      queryKey: [...pipelineKeys.group(organizationId, slug), 'source', id] as const,
      queryFn: ({ signal }) =>
        apiRequest(groupEndpoints(slug).source, { params: { ...org(organizationId), id }, signal }),
    }),
  activity: (organizationId: string, slug: GroupSlug) =>
    queryOptions({
      queryKey: [...pipelineKeys.group(organizationId, slug), 'activity'] as const,
      queryFn: ({ signal }) =>
        apiRequest(groupEndpoints(slug).activity, { params: org(organizationId), query: { limit: 200 }, signal }),
      enabled: slug !== 'import-apps',
    }),
  /** The organization's projects (a plugin is enabled per project). */
  projects: (organizationId: string) =>
    queryOptions({
      queryKey: pipelineKeys.projects(organizationId),
      queryFn: async ({ signal }) => {
        const page = await apiRequest(projectEndpoints.list, { query: { limit: 1000 }, signal });
        return page.results.filter((p) => p.organization === organizationId);
      },
    }),
  /**
   * The project's configs in their processing order (the server sorts by `order`). One request
   * of the most a project is expected to have: the order is edited as one list.
   */
  order: (projectId: number) =>
    queryOptions({
      queryKey: [...pipelineKeys.configs(projectId), 'order'] as const,
      queryFn: ({ signal }) =>
        apiRequest(pluginConfigEndpoints.list, {
          params: { project_id: projectId },
          query: { limit: ORDER_LIMIT },
          signal,
        }),
    }),
  config: (projectId: number, pluginId: number) =>
    queryOptions({
      queryKey: [...pipelineKeys.configs(projectId), 'for-plugin', pluginId] as const,
      queryFn: async ({ signal }) => {
        const page = await apiRequest(pluginConfigEndpoints.list, {
          params: { project_id: projectId },
          query: { plugin: pluginId },
          signal,
        });
        return page.results[0] ?? null;
      },
      // Every second while an import job runs (its progress), else every five.
      refetchInterval: (query) => (query.state.data?.last_job?.status === 'running' ? 1000 : 5000),
    }),
  logs: (projectId: number, configId: number) =>
    queryOptions({
      queryKey: [...pipelineKeys.configs(projectId), 'logs', configId] as const,
      queryFn: ({ signal }) =>
        apiRequest(pluginConfigEndpoints.logs, {
          params: { project_id: projectId, id: configId },
          query: { limit: 100 },
          signal,
        }),
      refetchInterval: 5000,
    }),
};
