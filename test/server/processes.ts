import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = ['--import', 'tsx', 'server/main.ts'];
/** Spawned servers seed no demo events unless a test asks (SEED_EVENTS): a million take seconds. */
const childEnv = (env: NodeJS.ProcessEnv = {}) => ({ ...process.env, SEED_EVENTS: process.env.SEED_EVENTS ?? '0', ...env });

export interface RunningServer {
  proc: ChildProcess;
  origin: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
}

/**
 * Starts the real server (`start --port 0`) and resolves once it has printed `listening on` and
 * answered a request there. On a loaded CI machine the test process's first connection (its
 * lookup of `localhost` runs on the thread pool) once timed out although the server was up; a
 * test about what the server keeps across restarts should not fail on that.
 */
export function startServer(args: string[], timeoutMs = 20_000, env?: NodeJS.ProcessEnv): Promise<RunningServer> {
  const proc = spawn(process.execPath, [...CLI, 'start', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(env) });
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
      void answers(origin, deadline, settled.signal).then((ok) => {
        if (settled.signal.aborted) return;
        if (!ok) return fail(`server printed ${origin} but did not answer there`);
        settled.abort();
        clearTimeout(timer);
        resolve({ proc, origin, stdout: () => out });
      });
    });
    proc.on('exit', (code) => {
      if (!settled.signal.aborted) fail(`server exited with ${code}`);
    });
  });
}

/**
 * Whether `GET /api/schema/` at `origin` answers before `deadline`. Each attempt gets at most
 * 2 s (a connection that hangs is dropped and tried again); `stop` ends the attempts.
 */
async function answers(origin: string, deadline: number, stop: AbortSignal): Promise<boolean> {
  while (Date.now() < deadline && !stop.aborted) {
    try {
      const attempt = AbortSignal.any([stop, AbortSignal.timeout(Math.max(1, Math.min(2_000, deadline - Date.now())))]);
      const res = await fetch(`${origin}/api/schema/`, { signal: attempt });
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
  const r = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, env: childEnv(env) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
