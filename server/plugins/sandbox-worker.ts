import { parentPort, workerData } from 'node:worker_threads';
import { createBatcher } from './batcher.ts';
import { pluginFetch, type PluginFetchRules } from './plugin-fetch.ts';
import { createSandbox, SandboxLimitError, type Sandbox, type SandboxLimits } from './sandbox-quickjs.ts';
import type { Call, Result } from './sandbox.ts';

/**
 * One plugin's QuickJS sandbox in a worker thread: the server's event loop never runs plugin
 * code, and a plugin stuck where QuickJS cannot interrupt it (an allocation storm near the
 * memory limit) is ended by terminating the worker. The plugin's `fetch` runs here too
 * (plugin-fetch.ts). Messages: lists of calls → `results` (those of one turn together); the
 * plugin's `console` → `log`.
 */

const port = parentPort!;
const { code, limits, fetch } = workerData as { code: string; limits: SandboxLimits; fetch: PluginFetchRules };

const loading: Promise<Sandbox> = createSandbox(code, {
  log: (level, message) => port.postMessage({ type: 'log', level, message }),
  fetch: pluginFetch(fetch),
}, limits);
loading.then(() => port.postMessage({ type: 'ready' }), (error: Error) => port.postMessage({ type: 'failed', error: error.message }));

const done = createBatcher<Result>((results) => port.postMessage({ type: 'results', results }), setImmediate);

port.on('message', (calls: Call[]) => {
  for (const c of calls) {
    void loading.then((sandbox) => sandbox.call(c.name, c.args)).then(
      (value) => done({ id: c.id, ok: true, value }),
      (error: Error) => done({ id: c.id, ok: false, error: error.message, fatal: error instanceof SandboxLimitError }),
    );
  }
});
