// Small helpers shared by the project's scripts (start, dev, test, e2e, bench).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

// Node's libuv thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise) runs every DuckDB
// query (Node-API async work) and also the server's compression, file reads and DNS lookups. With
// four queries running (pooled readers, the writer) those wait for a query to end: a lookup of
// `localhost` waited 3.3 s behind four long queries. Every process the scripts start (the server,
// vitest and its workers, e2e) inherits a pool with room for both. Read at the pool's first use,
// so it is set here, before any child starts.
process.env.UV_THREADPOOL_SIZE ??= '16';
export const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs a command with inherited stdio; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: root, ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(1);
    });
  });
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The app needs a build when dist/ is missing or older than any of its inputs. */
export function buildIsStale() {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const inputs = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'].map((p) => join(root, p));
  const newestInput = Math.max(...inputs.map(newestMtime));
  return newestInput > statSync(built).mtimeMs;
}

export async function buildIfStale() {
  if (!buildIsStale()) return 0;
  console.log('Building the dashboard (dist/ is missing or older than its sources)…');
  return run(bin('vite'), ['build', '--logLevel', 'warn']);
}

const START_TIMEOUT_MS = 180_000;

/**
 * Starts the reference server as a child process and resolves once it prints its
 * `listening on` line, with the URL and the demo sign-in key it printed.
 */
export function startServer(args, { env = process.env, quiet = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.SERVER_EXEC_ARGV ?? '').split(' ').filter(Boolean),
        '--import',
        'tsx',
        'server/main.ts',
        'start',
        ...args,
      ],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let url = null;
    let key = null;
    let buffer = '';
    // A first start seeds the demo events (the e2e suite's 1,000,000 take 30 s on an idle machine,
    // up to 90 s beside other jobs on two cores).
    const timer = setTimeout(() => {
      child.kill('SIGTERM'); // not left seeding after the run has given up on it
      reject(new Error(`The server did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      buffer += chunk.toString();
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const listening = line.match(/^listening on (\S+)/);
        const signIn = line.match(/#key=(\S+)/);
        if (listening) url = listening[1];
        if (signIn) key = signIn[1];
        if (!quiet || (!url && !listening)) process.stdout.write(`${line}\n`);
        if (url && (key || args.includes('--upstream'))) {
          clearTimeout(timer);
          resolve({ child, url, key });
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with code ${code} before it was ready`));
    });
  });
}
