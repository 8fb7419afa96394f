// GET /api/organizations/ at 50 connections on loopback, against a real reference server process
// on a free port with a fresh seeded data dir. Prints requests/s and latency percentiles.
// Target: p99 ≤ 20 ms. Usage: node bench/api-organizations.mjs [seconds]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startServer } from '../scripts/lib.mjs';

const duration = Number(process.argv[2] ?? 10);
const dataDir = mkdtempSync(join(tmpdir(), 'bench-orgs-'));
const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
  env: { ...process.env, LOG_REQUESTS: '0', SEED_EVENTS: process.env.SEED_EVENTS ?? '0' },
  quiet: true,
});

try {
  const target = `${url}/api/organizations/`;
  const headers = { authorization: `Bearer ${key}` };
  // Warm up: prepared statements, JIT.
  await autocannon({ url: target, headers, connections: 10, amount: 500 });
  const result = await autocannon({ url: target, headers, connections: 50, duration });
  const { latency, requests, non2xx, errors } = result;
  console.log(`GET /api/organizations/  50 connections  ${duration} s`);
  console.log(`  requests/s  avg ${requests.average.toFixed(0)}  total ${requests.total}  non-2xx ${non2xx}  errors ${errors}`);
  console.log(`  latency ms  p50 ${latency.p50}  p90 ${latency.p90}  p99 ${latency.p99}  max ${latency.max}`);
  console.log(`  target p99 ≤ 20 ms: ${latency.p99 <= 20 && non2xx === 0 ? 'ok' : 'MISSED'}`);
} finally {
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
