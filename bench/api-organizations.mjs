// GET /api/organizations/ at 50 connections on loopback, against a real reference server process
// on a free port with a fresh seeded data dir. Prints requests/s and latency percentiles.
// Target: p99 ≤ 20 ms. Usage: node bench/api-organizations.mjs [seconds]
import autocannon from 'autocannon';
import { report, withServer } from './api-lib.mjs';

const duration = Number(process.argv[2] ?? 10);
await withServer('orgs', async ({ url, key }) => {
  const target = `${url}/api/organizations/`;
  const headers = { authorization: `Bearer ${key}` };
  // Warm up: prepared statements, JIT.
  await autocannon({ url: target, headers, connections: 10, amount: 500 });
  report('GET /api/organizations/', await autocannon({ url: target, headers, connections: 50, duration }), duration);
});
