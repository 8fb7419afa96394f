import { skipToken, useQuery } from '@tanstack/react-query';
import type { Plugin } from '@/contract/plugins';
import type { GroupSlug } from '../api/pipeline-groups';
import { pipelineKeys } from '../api/pipeline.keys';

/**
 * The plugin's name (breadcrumbs), from the cache the route's loader fills; a placeholder until
 * then. It never fetches itself, so the route tree does not carry the contract.
 */
export function PluginName({ organizationId, slug, pluginId }: { organizationId: string; slug: GroupSlug; pluginId: number }) {
  const { data } = useQuery<Plugin>({ queryKey: pipelineKeys.detail(organizationId, slug, pluginId), queryFn: skipToken });
  return <>{data?.name ?? '…'}</>;
}
