import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = ['--import', 'tsx', 'server/main.ts'];
/** Spawned servers seed no demo events unless a test asks (SEED_EVENTS): a million take seconds. */
const childEnv = (env: NodeJS.ProcessEnv = {}) => ({
  ...process.env,
  SEED_EVENTS: process.env.SEED_EVENTS ?? '0',
  ...env,
});

export interface RunningServer {
  proc: ChildProcess;
  /** The origin the server printed (`http://localhost:PORT`). */
  origin: string;
  /**
   * Where the tests connect: the same port at 127.0.0.1, the address the server binds. Nothing
   * to resolve: a lookup of `localhost` runs on the test process's thread pool, which DuckDB
   * work can fill (see scripts/lib.mjs).
   */
  base: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
}

/**
 * Starts the real server (`start --port 0`) and resolves once it has printed `listening on` and
 * answered a request there. In two CI runs and one local full run, a test's first fetch to a
 * freshly started server timed out although it had printed that line; these tests now run in
 * processes of their own (vitest.config.ts), and a start counts only once the server answers.
 */
export function startServer(args: string[], timeoutMs = 20_000, env?: NodeJS.ProcessEnv): Promise<RunningServer> {
  const proc = spawn(process.execPath, [...CLI, 'start', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(env),
  });
  let out = '';
  let err = '';
  let probing = false;
  // Ends the probes once the start has failed (exit, time out) or succeeded.
  const settled = new AbortController();
  const deadline = Date.now() + timeoutMs;
  return new Promise<RunningServer>((resolve, reject) => {
    const fail = (why: string) => {
      settled.abort();
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${why}\nstdout: ${out}\nstderr: ${err}`));
    };
    const timer = setTimeout(() => fail('server did not start in time'), timeoutMs);
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (!m || !out.includes('sign in:') || probing) return;
      probing = true;
      const origin = m[1]!;
      const base = origin.replace(/^http:\/\/localhost:/, 'http://127.0.0.1:');
      void answers(base, deadline, settled.signal).then((ok) => {
        if (settled.signal.aborted) return;
        if (!ok) return fail(`server printed ${origin} but did not answer at ${base}`);
        settled.abort();
        clearTimeout(timer);
        resolve({ proc, origin, base, stdout: () => out });
      });
    });
    proc.on('exit', (code) => {
      if (!settled.signal.aborted) fail(`server exited with ${code}`);
    });
  });
}

/**
 * Whether `GET /api/schema/` at `base` answers before `deadline`. Each attempt gets at most
 * 2 s (a connection that hangs is dropped and tried again); `stop` ends the attempts.
 */
async function answers(base: string, deadline: number, stop: AbortSignal): Promise<boolean> {
  while (Date.now() < deadline && !stop.aborted) {
    try {
      const attempt = AbortSignal.any([stop, AbortSignal.timeout(Math.max(1, Math.min(2_000, deadline - Date.now())))]);
      const res = await fetch(`${base}/api/schema/`, { signal: attempt });
      await res.arrayBuffer();
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return false;
}

/** Resolves when the process has exited (after SIGKILL or a signal). */
export function exited(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
}

/** Runs a CLI command to completion. */
export function runCli(args: string[], env?: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: childEnv(env),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
