import { createHash } from 'node:crypto';
import type { PluginConfigRow } from '../store/plugin-configs.ts';
import type { PluginRow } from '../store/plugins.ts';
import type { Store } from '../store/store.ts';
import { compiledCode } from './compile/compiled-code.ts';
import { effectiveConfig, schemaFields } from './config-values.ts';

/**
 * Frontend apps served to web sites as posthog-js loads them: the SDK sets
 * `window['__$$ph_site_app_<id>'] = posthog` and adds a script from
 * `/site_app/<config id>/<project token>/<hash>/`; the script runs the compiled `site.ts` and
 * calls its `inject({config, posthog})` with the config's public values (never the secrets).
 * The hash changes with the code and the config, so the script may be cached for long.
 */
function publicConfig(row: PluginConfigRow, plugin: PluginRow): Record<string, unknown> {
  const fields = schemaFields(plugin.config_schema).filter((f) => !f.secret);
  return effectiveConfig(fields, JSON.parse(row.config) as Record<string, unknown>, {});
}

/** Changes with the plugin's files and the config's public values. */
export function siteAppHash(row: PluginConfigRow, plugin: PluginRow): string {
  return createHash('sha256')
    .update(`${plugin.source}\n${JSON.stringify(publicConfig(row, plugin))}`)
    .digest('hex')
    .slice(0, 16);
}

export const siteAppPath = (row: PluginConfigRow, plugin: PluginRow, token: string) =>
  `/site_app/${row.id}/${encodeURIComponent(token)}/${siteAppHash(row, plugin)}/`;

/** The script for config `row`: the module's exports, then `inject` with the config. */
export async function siteAppScript(store: Store, row: PluginConfigRow, plugin: PluginRow): Promise<string | null> {
  const code = await compiledCode(store, plugin, 'site');
  if (code === null) return null;
  const config = JSON.stringify(publicConfig(row, plugin)).replace(/</g, '\\u003c');
  return `"use strict";\n(function () {\nvar module = { exports: {} }; var exports = module.exports;\n${code}\nreturn module.exports;\n})().inject({ config: ${config}, posthog: window['__$$ph_site_app_${row.id}'] });\n`;
}
