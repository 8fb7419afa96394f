import { parentPort, workerData } from 'node:worker_threads';
import { createSandbox, type Sandbox, type SandboxLimits } from './sandbox-quickjs.ts';

/**
 * One plugin's QuickJS sandbox in a worker thread: the server's event loop never runs plugin
 * code, and a plugin stuck where QuickJS cannot interrupt it (an allocation storm near the
 * memory limit) is ended by terminating the worker. Messages: `call` → `result`; the plugin's
 * `console` → `log`; its `fetch` → `fetch`, answered by `fetched`.
 */
type In = { type: 'call'; id: number; name: string; args: unknown[] } | { type: 'fetched'; id: number; ok: boolean; value?: { status: number; body: string }; error?: string };

const port = parentPort!;
const { code, limits } = workerData as { code: string; limits: SandboxLimits };
const pendingFetches = new Map<number, { resolve: (v: { status: number; body: string }) => void; reject: (e: Error) => void }>();
let nextFetch = 0;

const loading: Promise<Sandbox> = createSandbox(code, {
  log: (level, message) => port.postMessage({ type: 'log', level, message }),
  fetch: (url, init) => new Promise((resolve, reject) => {
    const id = (nextFetch += 1);
    pendingFetches.set(id, { resolve, reject });
    port.postMessage({ type: 'fetch', id, url, init });
  }),
}, limits);
loading.then(() => port.postMessage({ type: 'ready' }), (error: Error) => port.postMessage({ type: 'failed', error: error.message }));

port.on('message', (msg: In) => {
  if (msg.type === 'fetched') {
    const pending = pendingFetches.get(msg.id);
    pendingFetches.delete(msg.id);
    if (msg.ok) pending?.resolve(msg.value!);
    else pending?.reject(new Error(msg.error));
    return;
  }
  void loading.then((sandbox) => sandbox.call(msg.name, msg.args)).then(
    (value) => port.postMessage({ type: 'result', id: msg.id, ok: true, value }),
    (error: Error) => port.postMessage({ type: 'result', id: msg.id, ok: false, error: error.message }),
  );
});
