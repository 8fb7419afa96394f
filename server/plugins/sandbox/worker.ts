import { parentPort, workerData } from 'node:worker_threads';
import { createBatcher } from '../batcher.ts';
import { pluginFetch, type PluginFetchRules } from '../plugin-fetch.ts';
import { createSandbox, SandboxLimitError, type Sandbox, type SandboxLimits } from './quickjs.ts';
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

/**
 * Log lines a plugin may write per event, on average: each call adds this many to what it may
 * write (calls run concurrently, so a line cannot be told apart by call). The rest are counted
 * here, before they cost the server anything, and one line per call says how many went.
 */
const LOG_LINES_PER_CALL = 100;
const MAX_LOG_ALLOWANCE = LOG_LINES_PER_CALL * 64;
let allowance = 0;
let dropped = 0;
type Line = { level: 'LOG' | 'INFO' | 'WARN' | 'ERROR'; message: string };
const lines = createBatcher<Line>((list) => port.postMessage({ type: 'log', lines: list }), setImmediate);
const reportDropped = () => {
  if (dropped === 0) return;
  lines({
    level: 'WARN',
    message: `${dropped} log ${dropped === 1 ? 'line was' : 'lines were'} dropped: a plugin writes at most ${LOG_LINES_PER_CALL} lines per event to its log.`,
  });
  dropped = 0;
};

const loading: Promise<Sandbox> = createSandbox(
  code,
  {
    log: (level, message) => {
      if (allowance <= 0) dropped += 1;
      else {
        allowance -= 1;
        lines({ level, message });
      }
    },
    fetch: pluginFetch(fetch),
  },
  limits,
);
loading.then(
  () => port.postMessage({ type: 'ready' }),
  (error: Error) => port.postMessage({ type: 'failed', error: error.message }),
);

const done = createBatcher<Result>((results) => port.postMessage({ type: 'results', results }), setImmediate);

port.on('message', (calls: Call[]) => {
  for (const c of calls) {
    allowance = Math.min(allowance + LOG_LINES_PER_CALL, MAX_LOG_ALLOWANCE);
    void loading
      .then((sandbox) => sandbox.call(c.name, c.args))
      .then(
        (value) => {
          reportDropped();
          done({ id: c.id, ok: true, value });
        },
        (error: Error) => {
          reportDropped();
          done({ id: c.id, ok: false, error: error.message, fatal: error instanceof SandboxLimitError });
        },
      );
  }
});
