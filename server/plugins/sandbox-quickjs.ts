import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC, shouldInterruptAfterDeadline, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import { createBatcher } from './batcher.ts';

/**
 * A plugin's compiled code in its own QuickJS (WebAssembly) runtime: no file system, no
 * network, no Node. What the code can reach is what this file gives it: `console` (into the
 * plugin's log) and `fetch`, which goes through the host's `fetch` callback (limited to the
 * configured hosts and the outbound policy by the caller). Every call has a CPU budget (the
 * interrupt handler stops a loop) and the runtime a memory limit: its WebAssembly memory cannot
 * grow past it, so an allocation past it throws "out of memory". (QuickJS's own limit,
 * setMemoryLimit, is kept for one large allocation, but this build counts each allocation as a
 * few bytes: a plugin allocating 1 MB at a time passed 300 MB under a 16 MB limit.)
 */
export interface SandboxLimits {
  /** CPU time one call may run between waits (ms). */
  cpuMs: number;
  /** Memory of the runtime (bytes). */
  memoryBytes: number;
  /** Wall time of one call, waits included (ms). */
  wallMs: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { cpuMs: 250, memoryBytes: 32 * 1024 * 1024, wallMs: 15_000 };

export interface SandboxHost {
  log(level: 'LOG' | 'INFO' | 'WARN' | 'ERROR', message: string): void;
  fetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }>;
}

export interface Sandbox {
  /** Calls the export `name` with JSON arguments; resolves with its (awaited) result as JSON, or rejects with the plugin's error. */
  call(name: string, args: unknown[]): Promise<unknown>;
  dispose(): void;
}

/**
 * The VM and the host talk in JSON, not through a host function per step. A call, and a fetch's
 * answer, each run as one step with its own CPU budget; what the plugin's code then does (finish
 * the call, ask for a fetch) goes to an outbox the host reads once after the steps of a turn (the
 * calls made in one turn, the answers arrived in one). That saves, per event, the promise
 * hand-over and two host-function calls through quickjs-emscripten's wrapper.
 */
const PRELUDE = `
const __fmt = (a) => a.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(' ');
globalThis.console = {
  log: (...a) => __log('LOG', __fmt(a)), info: (...a) => __log('INFO', __fmt(a)),
  warn: (...a) => __log('WARN', __fmt(a)), error: (...a) => __log('ERROR', __fmt(a)), debug: (...a) => __log('LOG', __fmt(a)),
};
let __out = [];
const __fetches = new Map();
let __fetchId = 0;
globalThis.fetch = (url, init) => new Promise((resolve, reject) => {
  const id = (__fetchId += 1);
  __fetches.set(id, { resolve, reject });
  __out.push(['fetch', id, String(url), JSON.stringify(init || {})]);
}).then((r) => ({ status: r.status, ok: r.status >= 200 && r.status < 300, text: async () => r.body, json: async () => JSON.parse(r.body) }));
var module = { exports: {} }; var exports = module.exports;
`;
const RUNNER = `
const __error = (e) => e && typeof e === 'object' ? (e.name || 'Error') + ': ' + (e.message !== undefined ? e.message : JSON.stringify(e)) : String(e);
const __done = (id, ok, value) => {
  let text;
  try { text = ok ? JSON.stringify(value === undefined ? null : value) : __error(value); } catch (e) { ok = false; text = __error(e); }
  __out.push(['done', id, ok, text]);
};
globalThis.__run = (id, name, json) => {
  let result;
  try { result = Promise.resolve(module.exports[name](...JSON.parse(json))); } catch (e) { result = Promise.reject(e); }
  result.then((v) => __done(id, true, v), (e) => __done(id, false, e));
};
globalThis.__settle = (json) => {
  const [id, ok, value] = JSON.parse(json);
  const f = __fetches.get(id);
  __fetches.delete(id);
  if (ok) f.resolve(value); else f.reject(new Error(value));
};
globalThis.__take = () => {
  if (__out.length === 0) return '';
  const text = JSON.stringify(__out);
  __out = [];
  return text;
};
`;

export class SandboxError extends Error {}

const errorText = (vm: QuickJSContext, handle: QuickJSHandle): string => {
  const value: unknown = vm.dump(handle);
  handle.dispose();
  const text = value && typeof value === 'object'
    ? `${(value as { name?: string }).name ?? 'Error'}: ${(value as { message?: string }).message ?? JSON.stringify(value)}`
    : String(value);
  return stopped(text);
};
/** QuickJS ends a call past its CPU budget with an 'interrupted' error, in the host or in the plugin's own handlers. */
const stopped = (text: string) => (/interrupted/i.test(text) ? 'CPU time limit exceeded: the plugin was stopped.'
  : /out of memory/i.test(text) ? 'Memory limit exceeded (out of memory): the plugin was stopped.' : text);

type Outgoing = ['fetch', number, string, string] | ['done', number, boolean, string];

/** The WebAssembly memory QuickJS starts with (its build's initial size), in 64 KiB pages. */
const BASE_PAGES = 256;

export async function createSandbox(code: string, host: SandboxHost, limits: SandboxLimits = DEFAULT_LIMITS): Promise<Sandbox> {
  // A module (and memory) of its own: the sandbox runs in a worker thread of its own anyway.
  const memory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum: BASE_PAGES + Math.ceil(limits.memoryBytes / 65536) });
  const QuickJS = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  const runtime: QuickJSRuntime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  const vm = runtime.newContext();
  let disposed = false;
  const arm = () => runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.cpuMs));

  const log = vm.newFunction('__log', (level, message) => {
    host.log(vm.getString(level) as 'LOG', vm.getString(message));
  });
  vm.setProp(vm.global, '__log', log);
  log.dispose();

  // Loading gets a longer budget than a call: the first one on a busy machine is slow.
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + Math.max(1000, limits.cpuMs * 4)));
  const loaded = vm.evalCode(`${PRELUDE}\n${code}\n${RUNNER}`, 'plugin.js');
  if (loaded.error) {
    const message = errorText(vm, loaded.error);
    vm.dispose();
    runtime.dispose();
    throw new SandboxError(message);
  }
  loaded.value.dispose();
  const run = vm.getProp(vm.global, '__run');
  const settle = vm.getProp(vm.global, '__settle');
  const take = vm.getProp(vm.global, '__take');

  const calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  let nextId = 0;
  const finish = (id: number, ok: boolean, text: string) => {
    const c = calls.get(id);
    if (!c) return;
    calls.delete(id);
    clearTimeout(c.timer);
    if (ok) c.resolve(JSON.parse(text) as unknown);
    else c.reject(new SandboxError(stopped(text)));
  };
  /** The VM failed outside any one call's handlers (an interrupt, memory): every call still open fails with it. */
  const failAll = (text: string) => {
    for (const id of [...calls.keys()]) finish(id, false, text);
  };

  /**
   * One step in the VM with its own CPU budget: a call, or a fetch answer, and the jobs it makes
   * ready (the plugin's code up to its next wait). False when the VM failed outside the plugin's
   * handlers (an interrupt, memory), which fails every open call.
   */
  const step = (fn: QuickJSHandle, ...args: QuickJSHandle[]): boolean => {
    arm();
    const result = vm.callFunction(fn, vm.undefined, ...args);
    for (const a of args) a.dispose();
    if (result.error) {
      failAll(errorText(vm, result.error));
      return false;
    }
    result.value.dispose();
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      failAll(errorText(vm, jobs.error));
      return false;
    }
    return true;
  };
  /** Hands on what the plugin's code asked for in the steps just run: finished calls, fetches. */
  const takeOutbox = () => {
    const result = vm.callFunction(take, vm.undefined);
    if (result.error) return failAll(errorText(vm, result.error));
    const text = vm.getString(result.value);
    result.value.dispose();
    if (!text) return;
    for (const item of JSON.parse(text) as Outgoing[]) {
      if (item[0] === 'done') finish(item[1], item[2], item[3]);
      else startFetch(item[1], item[2], item[3]);
    }
  };

  const answers = createBatcher<string>((list) => {
    if (disposed) return;
    for (const answer of list) if (!step(settle, vm.newString(answer))) return;
    takeOutbox();
  }, setImmediate);
  const startFetch = (id: number, url: string, init: string) => {
    let request: ReturnType<SandboxHost['fetch']>;
    try {
      request = host.fetch(url, JSON.parse(init) as Parameters<SandboxHost['fetch']>[1]);
    } catch (error) {
      request = Promise.reject(error as Error);
    }
    request.then(
      (res) => answers(JSON.stringify([id, true, res])),
      (error: unknown) => answers(JSON.stringify([id, false, (error as Error).message ?? String(error)])),
    );
  };

  const calling = createBatcher<[number, string, unknown[]]>((list) => {
    if (disposed) return;
    for (const [id, name, args] of list) {
      if (!step(run, vm.newNumber(id), vm.newString(name), vm.newString(JSON.stringify(args)))) return;
    }
    takeOutbox();
  }, queueMicrotask);

  const dispose = () => {
    if (disposed) return;
    disposed = true;
    failAll('The sandbox was stopped.');
    try {
      for (const h of [run, settle, take]) h.dispose();
      vm.dispose();
      runtime.dispose();
    } catch {
      // a runtime that ran out of memory may refuse a clean disposal: it is dropped anyway
    }
  };

  const call = (name: string, args: unknown[]): Promise<unknown> => {
    if (disposed) return Promise.reject(new SandboxError('The sandbox was stopped.'));
    const id = (nextId += 1);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(id, false, `The plugin did not finish within ${limits.wallMs} ms.`), limits.wallMs);
      timer.unref();
      calls.set(id, { resolve, reject, timer });
      calling([id, name, args]);
    });
  };

  return { call, dispose };
}
