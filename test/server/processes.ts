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

/** Starts the real server (`start --port 0`) and resolves once it prints `listening on`. */
export function startServer(args: string[], timeoutMs = 20_000, env?: NodeJS.ProcessEnv): Promise<RunningServer> {
  const proc = spawn(process.execPath, [...CLI, 'start', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(env) });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start in time\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m && out.includes('sign in:')) {
        clearTimeout(timer);
        resolve({ proc, origin: m[1]!, stdout: () => out });
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}\nstdout: ${out}\nstderr: ${err}`));
    });
  });
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
