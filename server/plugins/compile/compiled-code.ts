import type { PluginRow } from '../../store/plugins.ts';
import type { Store } from '../../store/store.ts';
import { compileSource } from './compile.ts';

/**
 * The compiled `index` or `site` code of a plugin. Plugins written without compiling (the seed
 * runs synchronously, before esbuild is loaded) are compiled on first use and stored.
 */
export async function compiledCode(store: Store, plugin: PluginRow, kind: 'index' | 'site'): Promise<string | null> {
  const compiled = JSON.parse(plugin.compiled) as { index?: string; site?: string };
  if (compiled[kind] !== undefined) return compiled[kind];
  const files = JSON.parse(plugin.source) as Record<string, string>;
  const names = kind === 'index' ? ['index.ts', 'index.js'] : ['site.ts', 'site.js'];
  if (!names.some((n) => files[n] !== undefined)) return null;
  const fresh = await compileSource(files, plugin.grp);
  const current = store.plugins.get(plugin.id);
  if (current && current.updated_at === plugin.updated_at)
    store.plugins.update({ ...current, compiled: JSON.stringify(fresh.code) });
  return fresh.code[kind] ?? null;
}

/** Whether the plugin has code of this kind (compiled or still to compile). */
export function hasCode(plugin: PluginRow, kind: 'index' | 'site'): boolean {
  const compiled = JSON.parse(plugin.compiled) as { index?: string; site?: string };
  if (compiled[kind] !== undefined) return true;
  const files = JSON.parse(plugin.source) as Record<string, string>;
  return (kind === 'index' ? ['index.ts', 'index.js'] : ['site.ts', 'site.js']).some((n) => files[n] !== undefined);
}

/** A destination that exports events: a built-in deliverer, or a source plugin with code to run on them. */
export const exportsEvents = (p: PluginRow): boolean =>
  p.grp === 'pipeline_destinations' && (p.builtin !== null || hasCode(p, 'index'));
