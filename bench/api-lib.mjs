// What the API benches share: a real reference server on a free port with a fresh seeded data
// dir, and one way of printing an autocannon run against the p99 ≤ 20 ms target.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../scripts/lib.mjs';

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
  console.log(`  requests/s  avg ${requests.average.toFixed(0)}  total ${requests.total}  non-2xx ${non2xx}  errors ${errors}`);
  console.log(`  latency ms  p50 ${latency.p50}  p90 ${latency.p90}  p99 ${latency.p99}  max ${latency.max}`);
  console.log(`  target p99 ≤ 20 ms: ${latency.p99 <= 20 && non2xx === 0 ? 'ok' : 'MISSED'}`);
}
