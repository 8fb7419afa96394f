// GET {ORG}/batch_exports/ and POST {ORG}/batch_exports/:id/pause/ at 50 connections on loopback,
// against a real reference server process (its scheduler running) on a free port with a fresh
// seeded data dir. Prints requests/s and latency percentiles. Target: p99 ≤ 20 ms.
// A third run alternates pause/unpause so that every request writes (the pause/ run is mostly
// idempotent repeats after the first request). Usage: node bench/api-batch-exports.mjs [seconds]
import autocannon from 'autocannon';
import { report as print, withServer } from './api-lib.mjs';

const duration = Number(process.argv[2] ?? 10);
const report = (label, result) => print(label, result, duration);

await withServer('batch-exports', async ({ url, key }) => {
  const headers = { authorization: `Bearer ${key}` };
  const orgs = await (await fetch(`${url}/api/organizations/`, { headers })).json();
  const base = `${url}/api/organizations/${orgs.results[0].id}/batch_exports/`;
  const exports = (await (await fetch(base, { headers })).json()).results;
  const target = exports.find((e) => !e.paused);
  const run = (options) => autocannon({ headers, connections: 50, duration, ...options });

  await autocannon({ url: base, headers, connections: 10, amount: 500 }); // warm up: prepared statements, JIT
  report('GET  {ORG}/batch_exports/', await run({ url: base }));
  report('POST {ORG}/batch_exports/:id/pause/', await run({ url: `${base}${target.id}/pause/`, method: 'POST' }));
  report(
    'POST pause/ + unpause/ alternating (every request writes)',
    await run({
      url: base,
      requests: exports.flatMap((e) => [
        { method: 'POST', path: new URL(`${base}${e.id}/pause/`).pathname },
        { method: 'POST', path: new URL(`${base}${e.id}/unpause/`).pathname },
      ]),
    }),
  );
});
