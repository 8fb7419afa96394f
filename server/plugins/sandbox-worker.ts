import { parentPort, workerData } from 'node:worker_threads';
import { pluginFetch, type PluginFetchRules } from './plugin-fetch.ts';
import { createSandbox, type Sandbox, type SandboxLimits } from './sandbox-quickjs.ts';

/**
 * One plugin's QuickJS sandbox in a worker thread: the server's event loop never runs plugin
 * code, and a plugin stuck where QuickJS cannot interrupt it (an allocation storm near the
 * memory limit) is ended by terminating the worker. The plugin's `fetch` runs here too
 * (plugin-fetch.ts). Messages: `call` → `result`; the plugin's `console` → `log`.
 */
type In = { type: 'call'; id: number; name: string; args: unknown[] };

const port = parentPort!;
const { code, limits, fetch } = workerData as { code: string; limits: SandboxLimits; fetch: PluginFetchRules };

const loading: Promise<Sandbox> = createSandbox(code, {
  log: (level, message) => port.postMessage({ type: 'log', level, message }),
  fetch: pluginFetch(fetch),
}, limits);
loading.then(() => port.postMessage({ type: 'ready' }), (error: Error) => port.postMessage({ type: 'failed', error: error.message }));

port.on('message', (msg: In) => {
  void loading.then((sandbox) => sandbox.call(msg.name, msg.args)).then(
    (value) => port.postMessage({ type: 'result', id: msg.id, ok: true, value }),
    (error: Error) => port.postMessage({ type: 'result', id: msg.id, ok: false, error: error.message }),
  );
});
