import { Worker } from 'node:worker_threads';
import { createBatcher } from './batcher.ts';
import type { PluginFetchRules } from './plugin-fetch.ts';
import { DEFAULT_LIMITS, SandboxError, type SandboxHost, type SandboxLimits } from './sandbox-quickjs.ts';

export { DEFAULT_LIMITS, SandboxError, type SandboxLimits };

/** What the sandbox reports to the server (the plugin's console) and what its `fetch` may reach (run in the worker). */
export interface SandboxOptions {
  log: SandboxHost['log'];
  fetch: PluginFetchRules;
}

/**
 * A plugin sandbox as the runtime uses it: the QuickJS sandbox (sandbox-quickjs.ts) in its own
 * worker thread (sandbox-worker.ts). A call that outlives `wallMs` ends the worker: the error
 * says the plugin was stopped, and the next call needs a new sandbox.
 */
export interface Sandbox {
  call(name: string, args: unknown[]): Promise<unknown>;
  dispose(): void;
}

/** The plugin was ended (CPU, memory or wall time): its sandbox cannot be used again. */
export class SandboxStopped extends SandboxError {}

type Out =
  | { type: 'ready' } | { type: 'failed'; error: string }
  | { type: 'log'; level: 'LOG' | 'INFO' | 'WARN' | 'ERROR'; message: string }
  | { type: 'results'; results: Result[] };

/** A call's outcome; the worker sends those of one turn of its event loop together. */
export type Result = { id: number; ok: boolean; value?: unknown; error?: string };
/** Calls go to the worker together too: those made before the next microtask (a destination's pump). */
export type Call = { id: number; name: string; args: unknown[] };

const ENTRY = new URL('./sandbox-worker-entry.mjs', import.meta.url);
const FATAL = /CPU time limit|out of memory|stack overflow/i;

export function createSandbox(code: string, host: SandboxOptions, limits: SandboxLimits = DEFAULT_LIMITS): Promise<Sandbox> {
  const worker = new Worker(ENTRY, { workerData: { code, limits, fetch: host.fetch }, resourceLimits: { maxOldGenerationSizeMb: 64 }, stdout: true, stderr: true });
  worker.unref();
  const calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  let nextId = 0;
  let dead: string | null = null;
  const send = createBatcher<Call>((list) => {
    if (!dead) worker.postMessage(list);
  }, queueMicrotask);
  const stop = (reason: string) => {
    if (dead) return;
    dead = reason;
    void worker.terminate();
    for (const c of calls.values()) {
      clearTimeout(c.timer);
      c.reject(new SandboxStopped(reason));
    }
    calls.clear();
  };
  const settle = (r: Result) => {
    const pending = calls.get(r.id);
    if (!pending) return;
    calls.delete(r.id);
    clearTimeout(pending.timer);
    if (r.ok) pending.resolve(r.value);
    else if (FATAL.test(r.error ?? '')) {
      pending.reject(new SandboxStopped(r.error ?? 'stopped'));
      stop(r.error ?? 'stopped');
    } else pending.reject(new SandboxError(r.error ?? 'failed'));
  };
  return new Promise((resolveReady, rejectReady) => {
    worker.on('error', (error) => {
      stop(`The plugin was stopped: ${error.message}`);
      rejectReady(new SandboxStopped(dead!));
    });
    worker.on('exit', () => {
      stop('The plugin was stopped.');
      rejectReady(new SandboxStopped(dead!));
    });
    worker.on('message', (msg: Out) => {
      if (msg.type === 'ready') {
        resolveReady({
          call(name, args) {
            if (dead) return Promise.reject(new SandboxStopped(dead));
            const id = (nextId += 1);
            return new Promise((resolve, reject) => {
              const timer = setTimeout(() => stop(`The plugin was stopped: it ran longer than ${limits.wallMs} ms (endless work or memory exhausted).`), limits.wallMs);
              timer.unref();
              calls.set(id, { resolve, reject, timer });
              send({ id, name, args });
            });
          },
          dispose: () => stop('The sandbox was closed.'),
        });
      } else if (msg.type === 'failed') {
        stop(msg.error);
        rejectReady(new SandboxError(msg.error));
      } else if (msg.type === 'log') {
        host.log(msg.level, msg.message);
      } else {
        for (const r of msg.results) settle(r);
      }
    });
  });
}
