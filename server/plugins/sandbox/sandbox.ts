import { Worker } from 'node:worker_threads';
import { createBatcher } from '../batcher.ts';
import type { PluginFetchRules } from '../plugin-fetch.ts';
import { DEFAULT_LIMITS, SandboxError, type SandboxHost, type SandboxLimits } from './quickjs.ts';

export { DEFAULT_LIMITS, SandboxError, type SandboxLimits };

/** What the sandbox reports to the server (the plugin's console) and what its `fetch` may reach (run in the worker). */
export interface SandboxOptions {
  log: SandboxHost['log'];
  fetch: PluginFetchRules;
}

/**
 * A plugin sandbox as the runtime uses it: the QuickJS sandbox (quickjs.ts) in its own
 * worker thread (worker.ts). The worker gives each call its wall time and reports at
 * least every `cpuMs` while it has work; a worker that reports nothing for `wallMs` while calls
 * are open is stuck (code QuickJS cannot interrupt) and is ended: the error says the plugin was
 * stopped, and the next call needs a new sandbox. So is one whose call hit a limit (`fatal`).
 */
export interface Sandbox {
  call(name: string, args: unknown[]): Promise<unknown>;
  dispose(): void;
}

/** The plugin was ended (CPU, memory or wall time): its sandbox cannot be used again. */
export class SandboxStopped extends SandboxError {}

type Out =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { type: 'log'; lines: { level: 'LOG' | 'INFO' | 'WARN' | 'ERROR'; message: string }[] }
  | { type: 'results'; results: Result[] };

/** A call's outcome; the worker sends those of one turn of its event loop together. `fatal`: a limit ended the plugin. */
export type Result = { id: number; ok: boolean; value?: unknown; error?: string; fatal?: boolean };
/** Calls go to the worker together too: those made before the next microtask (a destination's pump). */
export type Call = { id: number; name: string; args: unknown[] };

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);

export function createSandbox(
  code: string,
  host: SandboxOptions,
  limits: SandboxLimits = DEFAULT_LIMITS,
): Promise<Sandbox> {
  const worker = new Worker(ENTRY, {
    workerData: { code, limits, fetch: host.fetch },
    resourceLimits: { maxOldGenerationSizeMb: 64 },
    stdout: true,
    stderr: true,
  });
  worker.unref();
  const calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let dead: string | null = null;
  let lastProgress = Date.now();
  const watchdog = setInterval(
    () => {
      if (calls.size > 0 && Date.now() - lastProgress > limits.wallMs) {
        stop(
          `The plugin was stopped: its sandbox did nothing else for ${limits.wallMs} ms (endless work or memory exhausted).`,
        );
      }
    },
    Math.min(1000, limits.wallMs / 4),
  );
  watchdog.unref();
  const send = createBatcher<Call>((list) => {
    if (!dead) worker.postMessage(list);
  }, queueMicrotask);
  const stop = (reason: string) => {
    if (dead) return;
    dead = reason;
    clearInterval(watchdog);
    void worker.terminate();
    for (const c of calls.values()) c.reject(new SandboxStopped(reason));
    calls.clear();
  };
  const settle = (r: Result) => {
    const pending = calls.get(r.id);
    if (!pending) return;
    calls.delete(r.id);
    if (r.ok) pending.resolve(r.value);
    else if (r.fatal) {
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
            if (calls.size === 0) lastProgress = Date.now(); // idle time is no lack of progress
            return new Promise((resolve, reject) => {
              calls.set(id, { resolve, reject });
              send({ id, name, args });
            });
          },
          dispose: () => stop('The sandbox was closed.'),
        });
      } else if (msg.type === 'failed') {
        stop(msg.error);
        rejectReady(new SandboxError(msg.error));
      } else if (msg.type === 'log') {
        lastProgress = Date.now();
        for (const line of msg.lines) host.log(line.level, line.message);
      } else {
        lastProgress = Date.now();
        // the calls that finished first: a limit among them ends the worker and fails those still open
        for (const r of msg.results) if (!r.fatal) settle(r);
        for (const r of msg.results) if (r.fatal) settle(r);
      }
    });
  });
}
