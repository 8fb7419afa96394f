// What the API benches share: a real reference server on a free port with a fresh seeded data
// dir, and one way of printing an autocannon run against the p99 ≤ 20 ms target.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { root, startServer } from '../scripts/lib.mjs';

/** Starts the server, runs `fn({url, key})`, then stops it and removes its data dir. */
export async function withServer(name, fn) {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, LOG_REQUESTS: '0', SEED_EVENTS: process.env.SEED_EVENTS ?? '0' },
    quiet: true,
  });
  try {
    await fn({ url, key });
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Prints requests/s and latency percentiles of an autocannon result. */
export function report(label, { latency, requests, non2xx, errors }, duration) {
  console.log(`${label}  50 connections  ${duration} s`);
  console.log(
    `  requests/s  avg ${requests.average.toFixed(0)}  total ${requests.total}  non-2xx ${non2xx}  errors ${errors}`,
  );
  console.log(`  latency ms  p50 ${latency.p50}  p90 ${latency.p90}  p99 ${latency.p99}  max ${latency.max}`);
  console.log(`  target p99 ≤ 20 ms: ${latency.p99 <= 20 && non2xx === 0 ? 'ok' : 'MISSED'}`);
}

/** The answer to a GET as it crossed the wire: status, headers and body bytes (still compressed). */
function rawGet(url, headers) {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * The floor for `url` asked with `headers`: its answer, recorded once, served by a bare node:http
 * server in its own process (bench/floor-server.mjs) while `fn(floorUrl)` runs. The same load
 * against it says what this machine and the load generator allow any server, beside ours.
 */
export async function withFloor(url, headers, fn) {
  const { status, headers: got, body } = await rawGet(url, headers);
  const kept = Object.fromEntries(
    Object.entries(got).filter(([name]) => !['content-length', 'connection', 'keep-alive', 'date'].includes(name)),
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  const file = join(dir, 'answer.json');
  writeFileSync(file, JSON.stringify({ status, headers: kept, body: body.toString('base64') }));
  const child = spawn(process.execPath, [fileURLToPath(new URL('./floor-server.mjs', import.meta.url)), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        const match = /listening (\d+)/.exec(chunk.toString());
        if (match) resolve(Number(match[1]));
      });
      child.on('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
    });
    return await fn(`http://127.0.0.1:${port}${new URL(url).pathname}${new URL(url).search}`);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line comparing our p99 with the floor's, measured in the same run. */
export function reportFloor(ours, floor) {
  console.log(
    `  floor (bare node:http, same answer)  requests/s ${floor.requests.average.toFixed(0)}  p50 ${floor.latency.p50}  p99 ${floor.latency.p99} ms  ->  ours ÷ floor: p99 ${(ours.latency.p99 / floor.latency.p99).toFixed(2)}, requests/s ${(ours.requests.average / floor.requests.average).toFixed(2)}`,
  );
}

/**
 * Waits until the CPUs are at least 85 % idle over `windowMs` (at most `maxMs`, then says so
 * with `why`); where /proc/stat is missing, a fixed second. Over all CPUs: on a machine with
 * many, one busy core passes, as it hardly slows a run there. A server just started may begin
 * its own work a moment later: those benches wait a window first and use a long one.
 */
export async function waitForIdleMachine(maxMs, why, windowMs = 300) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  if (!existsSync('/proc/stat')) return sleep(1000);
  // user nice system idle iowait irq softirq steal (guest time is inside user and nice already).
  const cpuTimes = () => {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
  };
  const deadline = Date.now() + maxMs;
  if (windowMs > 300) await sleep(windowMs);
  while (Date.now() < deadline) {
    const a = cpuTimes();
    await sleep(windowMs);
    const b = cpuTimes();
    if ((b.idle - a.idle) / Math.max(1, b.total - a.total) >= 0.85) return;
  }
  console.log(`  (the machine stayed busy for ${maxMs / 1000} s: ${why})`);
}

/**
 * A data directory with `events` demo events: `dataDir` when given (seeded there unless it
 * already holds events), else a new temp one. Exits when seeding fails.
 */
export function seededDataDir(events, dataDir, prefix) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), prefix));
  if (!existsSync(join(dir, 'events.duckdb'))) {
    console.log(`seeding ${Number(events).toLocaleString('en')} demo events into ${dir}…`);
    const seed = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'server/main.ts', 'seed', '--data-dir', dir, '--demo-events', String(events)],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    if (seed.status !== 0) process.exit(seed.status ?? 1);
  }
  return dir;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * An analytics bench on seeded demo events (the cohorts and groups benches): reads --events,
 * --runs and --data-dir, starts a server on the seeded directory with the result cache off,
 * waits for a quiet machine, and runs `fn` with the first project's API; then stops the server
 * and removes the directory unless --data-dir named it. Exits 1 when `fn` returns true (a missed target).
 */
export async function withSeededAnalytics(prefix, fn) {
  const { values: args } = parseArgs({
    options: {
      events: { type: 'string', default: process.env.SEED_EVENTS ?? '1000000' },
      runs: { type: 'string', default: '10' },
      'data-dir': { type: 'string' },
    },
  });
  const runs = Number(args.runs);
  const dataDir = seededDataDir(args.events, args['data-dir'], prefix);
  const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, LOG_REQUESTS: '0', ANALYTICS_CACHE_TTL_MS: '0' },
    quiet: true,
  });
  let failed = false;
  try {
    await waitForIdleMachine(60_000, 'the first queries may read high', 1000);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const call = async (method, path, body) => {
      const res = await fetch(`${url}${path}`, { method, headers, body: body && JSON.stringify(body) });
      const json = await res.json();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    const prj = `/api/projects/${(await call('GET', '/api/projects/')).results[0].id}`;
    /** One analysis, uncached: its time in ms. */
    const once = async (path, body) => {
      const start = performance.now();
      const json = await call('POST', `${prj}/insights/${path}/`, body);
      if (json.is_cached) throw new Error('cached');
      return performance.now() - start;
    };
    failed = await fn({ call, prj, once, runs });
  } finally {
    child.kill('SIGTERM');
    if (!args['data-dir']) rmSync(dataDir, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

/**
 * Each pair `[name, path, body, variant]` run as it is and with `variant` merged in, the two
 * alternating run by run (a busy machine slows both alike); prints the medians and their ratio
 * against `target`. Returns whether a ratio missed it.
 */
export async function comparePairs({ once, runs, pairs, headings: [plain, varied], target = 1.5 }) {
  console.log(
    `\nmedian of ${runs} runs each, cache off, the two queries alternating (a busy machine slows both alike)`,
  );
  console.log(`query                 ${plain.padStart(14)}${varied.padStart(17)}   ratio   target`);
  let missed = false;
  for (const [name, path, body, variant] of pairs) {
    const changed = { ...body, ...variant };
    await once(path, body);
    await once(path, changed);
    const a = [];
    const b = [];
    for (let i = 0; i < runs; i++) {
      a.push(await once(path, body));
      b.push(await once(path, changed));
    }
    const ratio = median(b) / median(a);
    if (ratio > target) missed = true;
    console.log(
      `${name.padEnd(22)}${median(a).toFixed(0).padStart(14)}${median(b).toFixed(0).padStart(17)}${ratio.toFixed(2).padStart(8)}   ≤ ${target} ${ratio <= target ? 'ok' : 'MISSED'}`,
    );
  }
  return missed;
}

/** The median time of `runs` uncached runs of one analysis (after one to warm up). */
export async function medianTime(once, runs, path, body) {
  await once(path, body);
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await once(path, body));
  return median(times);
}
