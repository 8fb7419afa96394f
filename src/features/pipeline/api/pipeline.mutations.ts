import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pluginConfigEndpoints, type PluginConfig } from '@/contract/plugin-configs';
import type { PluginCreateInput, PluginSourceUpdate } from '@/contract/plugins';
import { apiRequest } from '@/lib/api-client';
import type { GroupSlug } from './pipeline-groups';
import { pipelineKeys } from './pipeline.keys';
import { groupEndpoints } from './pipeline.queries';

/** Writes of the pipeline screens; each invalidates its group (and the project's configs). */
export function usePipelineMutations(organizationId: string, slug: GroupSlug) {
  const e = groupEndpoints(slug);
  const group = [pipelineKeys.group(organizationId, slug)];
  const params = (id: number) => ({ organization_id: organizationId, id });
  return {
    create: useMutation({
      mutationFn: (body: PluginCreateInput) =>
        apiRequest(e.create, { params: { organization_id: organizationId }, body }),
      meta: { invalidates: group },
    }),
    destroy: useMutation({
      mutationFn: (id: number) => apiRequest(e.destroy, { params: params(id) }),
      meta: { invalidates: group },
    }),
    checkForUpdates: useMutation({
      mutationFn: (id: number) => apiRequest(e.checkForUpdates, { params: params(id) }),
      meta: { invalidates: group },
    }),
    upgrade: useMutation({
      mutationFn: (id: number) => apiRequest(e.upgrade, { params: params(id), body: {} }),
      meta: { invalidates: group },
    }),
    updateSource: useMutation({
      mutationFn: ({ id, files }: { id: number; files: PluginSourceUpdate }) =>
        apiRequest(e.updateSource, { params: params(id), body: files }),
      meta: { invalidates: group },
    }),
  };
}

export interface ConfigSave {
  existing: PluginConfig | null;
  pluginId: number;
  enabled: boolean;
  config: Record<string, unknown>;
}

/**
 * Creates the project's config of a plugin, or PATCHes it. Its group's data changes with it
 * (which apps are enabled in no project, the activity log), so that is refreshed too.
 */
export function useConfigMutations(projectId: number, group: { organizationId: string; slug: GroupSlug }) {
  const invalidates = [pipelineKeys.configs(projectId), pipelineKeys.group(group.organizationId, group.slug)];
  return {
    save: useMutation({
      mutationFn: ({ existing, pluginId, enabled, config }: ConfigSave) =>
        existing
          ? apiRequest(pluginConfigEndpoints.update, {
              params: { project_id: projectId, id: existing.id },
              body: { enabled, config },
            })
          : apiRequest(pluginConfigEndpoints.create, {
              params: { project_id: projectId },
              body: { plugin: pluginId, enabled, config },
            }),
      meta: { invalidates },
    }),
    startJob: useMutation({
      mutationFn: (configId: number) =>
        apiRequest(pluginConfigEndpoints.job, {
          params: { project_id: projectId, id: configId },
          body: { job: 'import' },
        }),
      meta: { invalidates },
    }),
  };
}

/**
 * Saves a processing order: each config whose `order` is not its position gets it (a PATCH of
 * `order` alone). Sent one after another so a failure stops there; what was saved is refetched.
 */
export function useOrderMutation(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (configs: readonly PluginConfig[]) => {
      for (const [position, config] of configs.entries()) {
        if (config.order === position) continue;
        await apiRequest(pluginConfigEndpoints.update, {
          params: { project_id: projectId, id: config.id },
          body: { order: position },
        });
      }
    },
    meta: { invalidates: [pipelineKeys.configs(projectId)] },
    // Some may have been saved before the failure: the list is read again (the screen keeps the order asked for).
    onError: () => queryClient.invalidateQueries({ queryKey: pipelineKeys.configs(projectId) }),
  });
}
