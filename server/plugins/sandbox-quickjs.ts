import { getQuickJS, shouldInterruptAfterDeadline, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';

/**
 * A plugin's compiled code in its own QuickJS (WebAssembly) runtime: no file system, no
 * network, no Node. What the code can reach is what this file gives it: `console` (into the
 * plugin's log) and `fetch`, which goes through the host's `fetch` callback (limited to the
 * configured hosts and the outbound policy by the caller). Every call has a CPU budget (the
 * interrupt handler stops a loop) and the runtime a memory limit (an allocation past it throws).
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
  has(name: string): boolean;
  dispose(): void;
}

const PRELUDE = `
const __fmt = (a) => a.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(' ');
globalThis.console = {
  log: (...a) => __log('LOG', __fmt(a)), info: (...a) => __log('INFO', __fmt(a)),
  warn: (...a) => __log('WARN', __fmt(a)), error: (...a) => __log('ERROR', __fmt(a)), debug: (...a) => __log('LOG', __fmt(a)),
};
globalThis.fetch = async (url, init) => {
  const r = JSON.parse(await __fetch(String(url), JSON.stringify(init || {})));
  return { status: r.status, ok: r.status >= 200 && r.status < 300, text: async () => r.body, json: async () => JSON.parse(r.body) };
};
var module = { exports: {} }; var exports = module.exports;
`;
const RUNNER = `
globalThis.__call = (name, json) => Promise.resolve(module.exports[name](...JSON.parse(json))).then((v) => JSON.stringify(v === undefined ? null : v));
globalThis.__has = (name) => typeof module.exports[name] === 'function';
`;

export class SandboxError extends Error {}

const errorText = (vm: QuickJSContext, handle: QuickJSHandle): string => {
  const value: unknown = vm.dump(handle);
  handle.dispose();
  if (value && typeof value === 'object') {
    const e = value as { name?: string; message?: string };
    const text = `${e.name ?? 'Error'}: ${e.message ?? JSON.stringify(value)}`;
    return /interrupted/i.test(text) ? 'CPU time limit exceeded: the plugin was stopped.' : text;
  }
  return String(value);
};

export async function createSandbox(code: string, host: SandboxHost, limits: SandboxLimits = DEFAULT_LIMITS): Promise<Sandbox> {
  const QuickJS = await getQuickJS();
  const runtime: QuickJSRuntime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  const vm = runtime.newContext();
  let disposed = false;
  const arm = () => runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.cpuMs));
  const pump = () => {
    if (disposed) return;
    arm();
    const result = runtime.executePendingJobs();
    if (result.error) result.error.dispose();
  };

  const log = vm.newFunction('__log', (level, message) => {
    host.log(vm.getString(level) as 'LOG', vm.getString(message));
  });
  vm.setProp(vm.global, '__log', log);
  log.dispose();
  const fetchFn = vm.newFunction('__fetch', (url, init) => {
    const deferred = vm.newPromise();
    const target = vm.getString(url);
    const options = JSON.parse(vm.getString(init)) as Parameters<SandboxHost['fetch']>[1];
    host.fetch(target, options).then(
      (res) => {
        if (disposed) return;
        const text = vm.newString(JSON.stringify(res));
        deferred.resolve(text);
        text.dispose();
        pump();
      },
      (error: unknown) => {
        if (disposed) return;
        const err = vm.newError((error as Error).message ?? String(error));
        deferred.reject(err);
        err.dispose();
        pump();
      },
    );
    return deferred.handle;
  });
  vm.setProp(vm.global, '__fetch', fetchFn);
  fetchFn.dispose();

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

  const dispose = () => {
    if (disposed) return;
    disposed = true;
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // a runtime that ran out of memory may refuse a clean disposal: it is dropped anyway
    }
  };

  const has = (name: string): boolean => {
    arm();
    const fn = vm.getProp(vm.global, '__has');
    const arg = vm.newString(name);
    const result = vm.callFunction(fn, vm.undefined, arg);
    fn.dispose();
    arg.dispose();
    if (result.error) {
      result.error.dispose();
      return false;
    }
    const value = vm.dump(result.value) === true;
    result.value.dispose();
    return value;
  };

  const call = async (name: string, args: unknown[]): Promise<unknown> => {
    if (disposed) throw new SandboxError('The sandbox was stopped.');
    arm();
    const fn = vm.getProp(vm.global, '__call');
    const nameHandle = vm.newString(name);
    const argsHandle = vm.newString(JSON.stringify(args));
    const result = vm.callFunction(fn, vm.undefined, nameHandle, argsHandle);
    fn.dispose();
    nameHandle.dispose();
    argsHandle.dispose();
    if (result.error) throw new SandboxError(errorText(vm, result.error));
    const settled = vm.resolvePromise(result.value);
    result.value.dispose();
    pump();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SandboxError(`The plugin did not finish within ${limits.wallMs} ms.`)), limits.wallMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([settled, timeout]);
      if (outcome.error) throw new SandboxError(errorText(vm, outcome.error));
      const text = vm.getString(outcome.value);
      outcome.value.dispose();
      return JSON.parse(text) as unknown;
    } finally {
      clearTimeout(timer);
    }
  };

  return { call, has, dispose };
}
