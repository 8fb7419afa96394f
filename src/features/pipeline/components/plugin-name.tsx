import type { Plugin } from '@/contract/plugins';
import { CachedName } from '@/components/layout/cached-name';
import type { GroupSlug } from '../api/pipeline-groups';
import { pipelineKeys } from '../api/pipeline.keys';

/** The plugin's name (breadcrumbs); "…" for one without a name yet. */
export function PluginName({
  organizationId,
  slug,
  pluginId,
}: {
  organizationId: string;
  slug: GroupSlug;
  pluginId: number;
}) {
  return (
    <CachedName<Plugin> queryKey={pipelineKeys.detail(organizationId, slug, pluginId)} name={(p) => p.name ?? '…'} />
  );
}
