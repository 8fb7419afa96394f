import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
} from 'quickjs-emscripten';

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
  fetch(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<{ status: number; body: string }>;
}

export interface Sandbox {
  /** Calls the export `name` with JSON arguments; resolves with its (awaited) result as JSON, or rejects with the plugin's error. */
  call(name: string, args: unknown[]): Promise<unknown>;
  dispose(): void;
}

/**
 * The VM and the host talk in JSON, not through a host function per step. A call, and a fetch's
 * answer, each run as one step with its own CPU budget; what the plugin's code then does (finish
 * the call, ask for a fetch) goes to an outbox the host reads after the steps of a turn. That
 * saves, per event, the promise hand-over and two host-function calls through
 * quickjs-emscripten's wrapper. The protocol's state lives in a closure evaluated before the
 * plugin's code, with its own copies of JSON's functions: the plugin reaches only `fetch`, and
 * the host checks every outbox entry anyway (a plugin can only harm its own calls).
 */
const PRELUDE = `
const __fmt = (a) => a.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(' ');
globalThis.console = {
  log: (...a) => __log('LOG', __fmt(a)), info: (...a) => __log('INFO', __fmt(a)),
  warn: (...a) => __log('WARN', __fmt(a)), error: (...a) => __log('ERROR', __fmt(a)), debug: (...a) => __log('LOG', __fmt(a)),
};
var module = { exports: {} }; var exports = module.exports;
(() => {
  const stringify = JSON.stringify, parse = JSON.parse, exportsOf = () => globalThis.module && globalThis.module.exports;
  let out = [];
  const fetches = new Map();
  let fetchId = 0;
  const error = (e) => e && typeof e === 'object' ? (e.name || 'Error') + ': ' + (e.message !== undefined ? e.message : stringify(e)) : String(e);
  const done = (id, ok, value) => {
    let text;
    try { text = ok ? stringify(value === undefined ? null : value) : error(value); } catch (e) { ok = false; text = error(e); }
    out.push(['done', id, ok, typeof text === 'string' ? text : 'null']);
  };
  globalThis.fetch = (url, init) => new Promise((resolve, reject) => {
    const id = (fetchId += 1);
    fetches.set(id, { resolve, reject });
    out.push(['fetch', id, String(url), stringify(init || {})]);
  }).then((r) => ({ status: r.status, ok: r.status >= 200 && r.status < 300, text: async () => r.body, json: async () => parse(r.body) }));
  const run = (id, name, json) => {
    let result;
    try { result = Promise.resolve(exportsOf()[name](...parse(json))); } catch (e) { result = Promise.reject(e); }
    result.then((v) => done(id, true, v), (e) => done(id, false, e));
  };
  const settle = (json) => {
    const [id, ok, value] = parse(json);
    const f = fetches.get(id);
    if (!f) return;
    fetches.delete(id);
    if (ok) f.resolve(value); else f.reject(new Error(value));
  };
  const take = () => {
    if (out.length === 0) return '';
    const text = stringify(out);
    out = [];
    return text;
  };
  return { run, settle, take };
})()
`;

export class SandboxError extends Error {}

const errorText = (vm: QuickJSContext, handle: QuickJSHandle): string => {
  const value: unknown = vm.dump(handle);
  handle.dispose();
  return value && typeof value === 'object'
    ? `${(value as { name?: string }).name ?? 'Error'}: ${(value as { message?: string }).message ?? JSON.stringify(value)}`
    : String(value);
};

/** The plugin was ended by a limit: its sandbox cannot be used again (`fatal`), and the message says which. */
export class SandboxLimitError extends SandboxError {
  readonly fatal = true;
}

/** The WebAssembly memory QuickJS starts with (its build's initial size), in 64 KiB pages. */
const BASE_PAGES = 256;

export async function createSandbox(
  code: string,
  host: SandboxHost,
  limits: SandboxLimits = DEFAULT_LIMITS,
): Promise<Sandbox> {
  // A module (and memory) of its own: the sandbox runs in a worker thread of its own anyway.
  const memory = new WebAssembly.Memory({
    initial: BASE_PAGES,
    maximum: BASE_PAGES + Math.ceil(limits.memoryBytes / 65536),
  });
  const QuickJS = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  const runtime: QuickJSRuntime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  const vm = runtime.newContext();
  let disposed = false;

  // Whether a limit stopped the plugin is the host's to say, never the error's text (a plugin can
  // throw any text): its own interrupt, or the WebAssembly memory grown to within an eighth of the
  // limit of its ceiling. Memory never shrinks, so that size is the plugin's high-water mark; a
  // single allocation too large to make, or a faked "out of memory", leaves it far below.
  let interrupted = false;
  const ceilingBytes = memory.buffer.byteLength + Math.ceil(limits.memoryBytes / 65536) * 65536;
  const memoryExhausted = () => memory.buffer.byteLength >= ceilingBytes - limits.memoryBytes / 8;
  const limitHit = (text: string): string | null => {
    if (interrupted) return 'CPU time limit exceeded: the plugin was stopped.';
    if (/^InternalError: out of memory$/.test(text) && memoryExhausted()) {
      return `Memory limit exceeded (out of memory, ${Math.round(limits.memoryBytes / 2 ** 20)} MB): the plugin was stopped.`;
    }
    return null;
  };
  const budget = (ms: number) => {
    const deadline = Date.now() + ms;
    runtime.setInterruptHandler(() => (Date.now() > deadline ? (interrupted = true) : false));
  };
  const arm = () => budget(limits.cpuMs);

  const log = vm.newFunction('__log', (level, message) => {
    host.log(vm.getString(level) as 'LOG', vm.getString(message));
  });
  vm.setProp(vm.global, '__log', log);
  log.dispose();

  // Loading gets a longer budget than a call: the first one on a busy machine is slow. The
  // protocol first (its functions kept here, out of the plugin's reach), then the plugin.
  budget(Math.max(1000, limits.cpuMs * 4));
  const protocol = vm.unwrapResult(vm.evalCode(PRELUDE, 'sandbox.js'));
  const loaded = vm.evalCode(code, 'plugin.js');
  if (loaded.error) {
    const text = errorText(vm, loaded.error);
    const message = limitHit(text) ?? text;
    protocol.dispose();
    vm.dispose();
    runtime.dispose();
    throw new SandboxError(message);
  }
  loaded.value.dispose();
  const run = vm.getProp(protocol, 'run');
  const settle = vm.getProp(protocol, 'settle');
  const take = vm.getProp(protocol, 'take');
  protocol.dispose();

  /** Calls not finished; `timer` (the wall time) starts when the call's first step runs. */
  const calls = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer?: NodeJS.Timeout }
  >();
  let nextId = 0;
  const settleCall = (id: number, outcome: { value: unknown } | { error: SandboxError }) => {
    const c = calls.get(id);
    if (!c) return;
    calls.delete(id);
    clearTimeout(c.timer);
    if ('value' in outcome) c.resolve(outcome.value);
    else c.reject(outcome.error);
  };
  /** A failure inside the plugin's own code (its error text), or the limit that ended it. */
  const fail = (id: number, text: string) => {
    const limit = limitHit(text);
    settleCall(id, { error: limit ? new SandboxLimitError(limit) : new SandboxError(text) });
  };
  /** The VM failed outside any one call's handlers (an interrupt, memory): every call still open fails with it. */
  const failAll = (text: string) => {
    for (const id of [...calls.keys()]) fail(id, text);
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

  const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
  /** Hands on what the plugin's code asked for in the steps just run: finished calls, fetches. Entries of any other shape are ignored. */
  const takeOutbox = () => {
    arm();
    const result = vm.callFunction(take, vm.undefined);
    if (result.error) return failAll(errorText(vm, result.error));
    const text = vm.getString(result.value);
    result.value.dispose();
    if (!text) return;
    let items: unknown;
    try {
      items = JSON.parse(text);
    } catch {
      return failAll('The sandbox answered something that is not JSON.');
    }
    if (!Array.isArray(items)) return;
    for (const item of items as unknown[]) {
      if (!Array.isArray(item) || !isId(item[1])) continue;
      const [kind, id, a, b] = item as [unknown, number, unknown, unknown];
      if (kind === 'done' && typeof a === 'boolean' && typeof b === 'string') {
        if (!a) fail(id, b);
        else {
          try {
            settleCall(id, { value: JSON.parse(b) as unknown });
          } catch {
            fail(id, 'The plugin returned something that is not JSON.');
          }
        }
      } else if (kind === 'fetch' && typeof a === 'string' && typeof b === 'string') {
        startFetch(id, a, b);
      }
    }
  };

  /**
   * Runs queued steps until one CPU budget of them is spent, then hands on their outcome and
   * goes on in the next turn: a call's result never waits for a whole batch of slow ones, and
   * the worker reports progress at least every `cpuMs`.
   */
  const chunked = <T>(runOne: (item: T) => boolean, first: (run: () => void) => void) => {
    let queue: T[] = [];
    const drain = () => {
      if (disposed) return;
      // an interrupt in this chunk marks its failures as the CPU limit's (the engine then finds the culprit alone)
      interrupted = false;
      const until = Date.now() + limits.cpuMs;
      while (queue.length > 0 && Date.now() < until) {
        if (!runOne(queue.shift()!)) {
          queue = [];
          break;
        }
      }
      takeOutbox();
      if (queue.length > 0) setImmediate(drain);
    };
    return (item: T) => {
      if (queue.push(item) === 1) first(drain);
    };
  };

  const answers = chunked<string>((answer) => step(settle, vm.newString(answer)), setImmediate);
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

  const calling = chunked<[number, string, unknown[]]>(([id, name, args]) => {
    const c = calls.get(id);
    if (!c) return true;
    // the wall time counts from here: waiting behind other calls in the queue does not count
    c.timer = setTimeout(() => fail(id, `The plugin did not finish within ${limits.wallMs} ms.`), limits.wallMs);
    c.timer.unref();
    return step(run, vm.newNumber(id), vm.newString(name), vm.newString(JSON.stringify(args)));
  }, queueMicrotask);

  const dispose = () => {
    if (disposed) return;
    disposed = true;
    for (const id of [...calls.keys()]) settleCall(id, { error: new SandboxError('The sandbox was stopped.') });
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
      calls.set(id, { resolve, reject });
      calling([id, name, args]);
    });
  };

  return { call, dispose };
}
