import type { Message } from 'esbuild';
import type { PluginConfigField, PluginGroup } from '../../../src/contract/index.ts';
import { CompileError } from './error.ts';
import { readConfigSchema } from '../config-schema.ts';

export { CompileError };

/**
 * A plugin's files compiled on save: `index.ts` (destinations, import apps: `onEvent`,
 * `composeWebhook`, jobs) and `site.ts` (frontend apps: `inject`) through esbuild to CommonJS,
 * their exports read from esbuild's metafile (capabilities), `plugin.json` read for the name,
 * description and config_schema. A syntax error is a CompileError naming the file and line.
 */
export interface Compiled {
  /** CommonJS text of index.ts / site.ts when present. */
  code: { index?: string; site?: string };
  capabilities: { methods: string[]; jobs: string[]; scheduled_tasks: string[] };
  config_schema: PluginConfigField[];
  name: string | null;
  description: string | null;
  /** Why the plugin cannot run in its group (null = runnable). */
  not_runnable: string | null;
}

const ENTRY_FILES = { index: ['index.ts', 'index.js'], site: ['site.ts', 'site.js'] } as const;
const EVENT_METHODS = ['onEvent', 'composeWebhook'];

/** esbuild's loader for a plugin file: `frontend.tsx` holds JSX, which the `ts` loader reads as a regular expression. */
const loaderOf = (file: string) => (file.endsWith('.js') ? 'js' : file.endsWith('.tsx') ? 'tsx' : 'ts');

async function compileFile(file: string, text: string): Promise<{ code: string; exports: string[] }> {
  // Loaded on first use: esbuild refuses to load in jsdom (the component tests run this server there).
  const { build } = await import('esbuild');
  const loader = loaderOf(file);
  try {
    const result = await build({
      stdin: { contents: text, sourcefile: file, loader },
      bundle: false,
      write: false,
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
      target: 'es2020',
    });
    const exports = Object.values(result.metafile.outputs).flatMap((o) => o.exports);
    const cjs = await build({
      stdin: { contents: text, sourcefile: file, loader },
      bundle: false,
      write: false,
      format: 'cjs',
      logLevel: 'silent',
      target: 'es2020',
    });
    return { code: cjs.outputFiles[0]!.text, exports };
  } catch (error) {
    const first = (error as { errors?: Message[] }).errors?.[0];
    if (!first) throw error;
    throw new CompileError(file, first.location?.line ?? null, first.text);
  }
}

/** Compiles the files of a plugin of `group`. Rejects with a CompileError. */
export async function compileSource(files: Record<string, string>, group: PluginGroup): Promise<Compiled> {
  const meta = readConfigSchema(files['plugin.json']);
  const code: Compiled['code'] = {};
  const methods: string[] = [];
  let jobs: string[] = [];
  let scheduled: string[] = [];
  for (const kind of ['index', 'site'] as const) {
    const file = ENTRY_FILES[kind].find((f) => files[f] !== undefined);
    if (!file) continue;
    const out = await compileFile(file, files[file]!);
    code[kind] = out.code;
    methods.push(...out.exports.filter((e) => e !== 'jobs' && !/^run(Every|Hour|Day)/.test(e)));
    if (out.exports.includes('jobs')) jobs = ['import'];
    scheduled = out.exports.filter((e) => /^run(EveryMinute|EveryHour|EveryDay)$/.test(e));
  }
  for (const [file, text] of Object.entries(files)) {
    if (file.endsWith('.tsx') && file !== 'site.ts') await compileFile(file, text); // frontend.tsx: checked, not run
  }
  let notRunnable: string | null = null;
  if (group === 'pipeline_destinations' && !methods.some((m) => EVENT_METHODS.includes(m)))
    notRunnable = 'A destination exports onEvent or composeWebhook from index.ts.';
  if (group === 'pipeline_frontend_apps' && !code.site)
    notRunnable = 'A frontend app needs a site.ts that exports inject.';
  return {
    code,
    capabilities: { methods: [...new Set(methods)], jobs, scheduled_tasks: scheduled },
    config_schema: meta.config,
    name: meta.name,
    description: meta.description,
    not_runnable: notRunnable,
  };
}
