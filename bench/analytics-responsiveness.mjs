// Is the server responsive while analytics run? `GET /api/organizations/` at 20 connections
// (autocannon) while four funnels (ordered, 4 steps, 90 days) run at once, back to back, with the
// result cache off. Prints the latency percentiles beside the same load with no analytics.
// Target: p99 ≤ 50 ms with the funnels running (10M events).
// Usage: node bench/analytics-responsiveness.mjs [--events 1000000] [--seconds 15] [--data-dir DIR]
//   --data-dir reuses a directory seeded by an earlier run.
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startServer } from '../scripts/lib.mjs';
import { seededDataDir, waitForIdleMachine } from './api-lib.mjs';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '15' },
    'data-dir': { type: 'string' },
  },
});
const seconds = Number(args.seconds);
const keepDir = Boolean(args['data-dir']);
const dataDir = seededDataDir(args.events, args['data-dir'], 'bench-responsive-');

const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
  env: { ...process.env, LOG_REQUESTS: '0', ANALYTICS_CACHE_TTL_MS: '0' },
  quiet: true,
});
const headers = { authorization: `Bearer ${key}` };
const target = `${url}/api/organizations/`;
const line = (label, { latency, requests, non2xx, errors }) =>
  console.log(
    `${label.padEnd(24)} p50 ${latency.p50}  p90 ${latency.p90}  p99 ${latency.p99}  max ${latency.max} ms   ${requests.total} requests, non-2xx ${non2xx}, errors ${errors}`,
  );

let failed = false;
try {
  // Both loads start on a quiet machine: the server prepares its funnels' person index as it
  // starts (docs/limits.md).
  await waitForIdleMachine(60_000, 'the first load may read high', 1000);
  const projectId = (await (await fetch(`${url}/api/projects/`, { headers })).json()).results[0].id;
  const funnel = {
    events: ['$pageview', 'user signed up', 'created project', 'purchase'].map((id, order) => ({ id, order })),
    date_from: '-90d',
    funnel_order_type: 'ordered',
  };
  await autocannon({ url: target, headers, connections: 10, amount: 500 }); // warm-up
  line('no analytics', await autocannon({ url: target, headers, connections: 20, duration: seconds }));

  let running = true;
  let done = 0;
  let failures = 0;
  const worker = async () => {
    while (running) {
      const res = await fetch(`${url}/api/projects/${projectId}/insights/funnel/`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(funnel),
      });
      const text = await res.text();
      if (res.status === 200) done += 1;
      else if ((failures += 1) === 1) console.log(`a funnel failed: ${res.status} ${text.slice(0, 200)}`);
    }
  };
  const workers = Array.from({ length: 4 }, worker);
  await new Promise((r) => setTimeout(r, 500)); // the funnels are under way
  const busy = await autocannon({ url: target, headers, connections: 20, duration: seconds });
  running = false;
  await Promise.all(workers);
  line('4 funnels running', busy);
  console.log(`funnels answered meanwhile: ${done} (failed ${failures})`);
  failed = busy.latency.p99 > 50 || busy.non2xx > 0;
  console.log(`target p99 ≤ 50 ms while the funnels run: ${failed ? 'MISSED' : 'ok'}`);
} finally {
  child.kill('SIGTERM');
  if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
