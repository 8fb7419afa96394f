// GET {ORG}/batch_exports/ and POST {ORG}/batch_exports/:id/pause/ at 50 connections on loopback,
// against a real reference server process (its scheduler running) on a free port with a fresh
// seeded data dir. Prints requests/s and latency percentiles. Target: p99 ≤ 20 ms.
// A third run alternates pause/unpause so that every request writes (the pause/ run is mostly
// idempotent repeats after the first request). Usage: node bench/api-batch-exports.mjs [seconds]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startServer } from '../scripts/lib.mjs';

const duration = Number(process.argv[2] ?? 10);
const dataDir = mkdtempSync(join(tmpdir(), 'bench-batch-exports-'));
const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
  env: { ...process.env, LOG_REQUESTS: '0', SEED_EVENTS: process.env.SEED_EVENTS ?? '0' },
  quiet: true,
});

function report(label, result) {
  const { latency, requests, non2xx, errors } = result;
  console.log(`${label}  50 connections  ${duration} s`);
  console.log(`  requests/s  avg ${requests.average.toFixed(0)}  total ${requests.total}  non-2xx ${non2xx}  errors ${errors}`);
  console.log(`  latency ms  p50 ${latency.p50}  p90 ${latency.p90}  p99 ${latency.p99}  max ${latency.max}`);
  console.log(`  target p99 ≤ 20 ms: ${latency.p99 <= 20 && non2xx === 0 ? 'ok' : 'MISSED'}`);
}

try {
  const headers = { authorization: `Bearer ${key}` };
  const orgs = await (await fetch(`${url}/api/organizations/`, { headers })).json();
  const base = `${url}/api/organizations/${orgs.results[0].id}/batch_exports/`;
  const exports = (await (await fetch(base, { headers })).json()).results;
  const target = exports.find((e) => !e.paused);
  const run = (options) => autocannon({ headers, connections: 50, duration, ...options });

  await autocannon({ url: base, headers, connections: 10, amount: 500 }); // warm up: prepared statements, JIT
  report('GET  {ORG}/batch_exports/', await run({ url: base }));
  report('POST {ORG}/batch_exports/:id/pause/', await run({ url: `${base}${target.id}/pause/`, method: 'POST' }));
  report('POST pause/ + unpause/ alternating (every request writes)', await run({
    url: base,
    requests: exports.flatMap((e) => [
      { method: 'POST', path: new URL(`${base}${e.id}/pause/`).pathname },
      { method: 'POST', path: new URL(`${base}${e.id}/unpause/`).pathname },
    ]),
  }));
} finally {
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
