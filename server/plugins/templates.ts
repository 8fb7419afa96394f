import type { PluginGroup } from '../../src/contract/index.ts';

/** The files a new source plugin starts with, by group. */
export function sourceTemplate(group: PluginGroup, name: string): Record<string, string> {
  const meta = (config: unknown[]) => `${JSON.stringify({ name, description: '', config }, null, 2)}\n`;
  if (group === 'pipeline_frontend_apps') {
    return {
      'plugin.json': meta([{ key: 'greeting', name: 'Greeting', type: 'string', default: 'Hello', required: true }]),
      'site.ts': `export function inject({ config, posthog }) {\n  console.log(config.greeting, posthog?.get_distinct_id?.())\n}\n`,
    };
  }
  if (group === 'pipeline_import_apps') {
    return {
      'plugin.json': meta([{ key: 'url', name: 'Source URL', type: 'string', required: true }]),
      'index.ts': `export const jobs = {\n  import: async (_payload, { config }) => {\n    console.log('import from', config.url)\n  },\n}\n`,
    };
  }
  return {
    'plugin.json': meta([{ key: 'url', name: 'Endpoint URL', type: 'string', required: true }]),
    'index.ts': `export async function onEvent(event, { config }) {\n  await fetch(config.url, { method: 'POST', body: JSON.stringify(event) })\n}\n`,
  };
}
