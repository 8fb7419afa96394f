import type { Plugin } from '@/contract/plugins';
import { Badge } from '@/components/ui/badge';

export const updateAvailable = (plugin: Plugin) => plugin.latest_tag !== null && plugin.tag !== null && plugin.latest_tag !== plugin.tag;

const TYPE_LABELS: Record<string, string> = { local: 'Local', custom: 'Uploaded', repository: 'Repository', source: 'Source', inline: 'Built in' };
export const pluginTypeLabel = (type: string | null) => (type ? (TYPE_LABELS[type] ?? type) : '—');

/** The plugin's icon: its first letter in a tile (catalogue icons are names, not images). */
export function PluginIcon({ plugin }: { plugin: Pick<Plugin, 'name'> }) {
  return (
    <span aria-hidden="true" className="inline-flex size-8 shrink-0 items-center justify-center rounded-md bg-indigo-100 text-sm font-semibold text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100">
      {(plugin.name ?? '?').slice(0, 1).toUpperCase()}
    </span>
  );
}

export function TagBadge({ plugin }: { plugin: Plugin }) {
  if (!plugin.tag) return <span className="text-gray-600 dark:text-gray-400">—</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <code className="text-xs">{plugin.tag}</code>
      {updateAvailable(plugin) ? <Badge tone="info">Update available: {plugin.latest_tag}</Badge> : null}
    </span>
  );
}

/** Why a source plugin cannot run in its group, when it cannot. */
export function notRunnable(plugin: Plugin): string | null {
  const caps = plugin.capabilities as { not_runnable?: unknown } | null;
  return caps && typeof caps.not_runnable === 'string' ? caps.not_runnable : null;
}
