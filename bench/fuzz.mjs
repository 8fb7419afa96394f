// The hardening bench: (1) every route of a real server process fuzzed with requests generated
// from its OpenAPI document (test/fuzz/requests.ts: fitting and hostile values), counting 5xx
// and process deaths; (2) the worst requests the analytics limits still allow, timed one by one,
// and the server's peak memory. Targets: 0 5xx, 0 deaths, worst request ≤ 10 s, peak ≤ 1.5 GB at
// 10M events.
// Usage: node bench/fuzz.mjs [--runs 1000] [--events 100000] [--data-dir DIR] [--concurrency 4] [--worst-only]
//   --data-dir reuses a seeded directory (bench/analytics.mjs can make a 10M one).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { root, startServer } from '../scripts/lib.mjs';

register();
const fc = (await import('fast-check')).default;
const { operationsOf, captureOperations } = await import('../test/fuzz/requests.ts');

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    events: { type: 'string', default: '100000' },
    'data-dir': { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'worst-only': { type: 'boolean', default: false },
  },
});
const runs = args['worst-only'] ? 0 : Number(args.runs);
const dataDir = args['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-fuzz-'));
if (!existsSync(join(dataDir, 'events.duckdb'))) {
  console.log(`seeding ${Number(args.events).toLocaleString('en')} demo events into ${dataDir}…`);
  const seed = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', 'seed', '--data-dir', dataDir, '--demo-events', args.events],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (seed.status !== 0) process.exit(seed.status ?? 1);
}

const env = { ...process.env, LOG_REQUESTS: '0', ANALYTICS_CACHE_TTL_MS: '0' };
let server = await startServer(['--port', '0', '--data-dir', dataDir], { env, quiet: true });
let deaths = 0;
let peakKb = 0;
const watch = () => {
  const { child } = server;
  child.on('exit', (code, signal) => {
    if (!child.stopping) {
      deaths += 1;
      console.log(`!! server process died (code ${code}, signal ${signal})`);
    }
  });
};
watch();
const memoryKb = () => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};
const sampler = setInterval(() => (peakKb = Math.max(peakKb, memoryKb())), 250);
const headers = { Authorization: `Bearer ${server.key}` };
const api = async (path) => (await fetch(`${server.url}${path}`, { headers })).json();

const orgs = await api('/api/organizations/');
const org = orgs.results[0];
const projectId = org.teams[0].id;
const project = await api(`/api/projects/${projectId}/`);
const exports = await api(`/api/organizations/${org.id}/batch_exports/`);
const doc = await api('/api/schema/');
const insights = (await api(`/api/projects/${projectId}/insights/?limit=100`)).results ?? [];
const insightIds = insights.map((i) => String(i.id));
const ids = {
  id: [org.id, String(projectId), ...exports.results.map((e) => e.id), ...insightIds],
  organization_id: [org.id],
  project_id: [String(projectId)],
  insight_id: insightIds,
};

async function send(req) {
  const started = performance.now();
  try {
    const res = await fetch(`${server.url}${req.url}`, {
      method: req.method,
      headers: { ...headers, ...(req.contentType ? { 'Content-Type': req.contentType } : {}) },
      ...(req.body === undefined ? {} : { body: req.body }),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, error: error.cause?.code ?? error.message };
  }
}

// The worst requests the limits allow: every series, step, filter, breakdown value and bucket at its cap.
const filters = (n) =>
  Array.from({ length: n }, (_, i) => ({
    key: `$browser`,
    value: `(a|b)*x${i}`,
    operator: i % 2 ? 'regex' : 'not_icontains',
  }));
const fifty = Array.from({ length: 50 }, (_, i) => ({
  id: ['$pageview', 'user signed up', 'created project', 'purchase'][i % 4],
  math: ['total', 'dau', 'weekly_active', 'monthly_active', 'p99'][i % 5],
  math_property: 'amount',
  properties: filters(3),
}));
const steps = Array.from({ length: 20 }, (_, i) => ({
  id: ['$pageview', 'user signed up', 'created project', 'purchase'][i % 4],
  order: i,
}));
const worstCases = [
  [
    'trend: 50 series (all maths), 50 filters, breakdown 10 × 999 days',
    'trend',
    {
      events: fifty,
      properties: filters(50),
      breakdown: '$browser',
      breakdown_limit: 8,
      date_from: '-999d',
      interval: 'day',
    },
  ],
  [
    'trend: 50 series, 1,000 hourly buckets, breakdown 8',
    'trend',
    {
      events: fifty.map((s) => ({ ...s, math: 'total' })),
      breakdown: '$current_url',
      breakdown_limit: 8,
      date_from: '-41d',
      interval: 'hour',
    },
  ],
  [
    'trend: breakdown limit 1,000 on $current_url, all time',
    'trend',
    {
      events: [{ id: '$pageview' }],
      breakdown: '$current_url',
      breakdown_limit: 1000,
      date_from: '-90d',
      interval: 'week',
    },
  ],
  [
    'funnel: 20 steps strict, breakdown 1,000, 366-day window',
    'funnel',
    {
      events: steps,
      funnel_order_type: 'strict',
      breakdown: '$browser',
      breakdown_limit: 1000,
      funnel_window_days: 366,
      date_from: '-90d',
    },
  ],
  [
    'funnel: 20 steps unordered, 20 exclusions',
    'funnel',
    {
      events: steps.slice(0, 3),
      funnel_order_type: 'unordered',
      exclusions: Array.from({ length: 20 }, (_, i) => ({ id: `x${i}`, funnel_from_step: 0, funnel_to_step: 2 })),
      date_from: '-90d',
    },
  ],
  [
    'funnel: trends viz, 20 steps, hourly 1,000 buckets',
    'funnel',
    { events: steps, funnel_viz_type: 'trends', interval: 'hour', date_from: '-41d' },
  ],
  [
    'retention: 100 daily periods, recurring',
    'retention',
    { period: 'Day', total_intervals: 100, retention_type: 'retention_recurring', date_from: '-100d' },
  ],
  [
    'paths: 20 steps, 50 cleaning rules, all time',
    'path',
    {
      step_limit: 20,
      local_path_cleaning_filters: Array.from({ length: 50 }, (_, i) => ({ alias: `a${i}`, regex: `/(\\d+)${i}?` })),
      date_from: '-90d',
    },
  ],
];
console.log('\nworst requests the limits allow (cache off), one at a time:');
let slowest = 0;
for (const [name, kind, body] of worstCases) {
  const r = await send({
    method: 'POST',
    url: `/api/projects/${projectId}/insights/${kind}/`,
    body: JSON.stringify(body),
    contentType: 'application/json',
  });
  slowest = Math.max(slowest, r.ms);
  console.log(`  ${name.padEnd(62)} ${String(r.status).padStart(3)} ${(r.ms / 1000).toFixed(2).padStart(6)} s`);
}
if (runs > 0) {
  const operations = [...operationsOf(doc, ids), ...captureOperations(project.api_token)].sort(
    (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
  );
  console.log(`\nfuzzing ${operations.length} routes × ${runs} requests (concurrency ${args.concurrency})`);
  console.log('route'.padEnd(72), 'reqs', ' 2xx', ' 4xx', ' 5xx', 'other', 'max ms');
  const totals = { requests: 0, s2: 0, s4: 0, s5: 0, other: 0 };
  let worst = { ms: 0 };
  const failures = [];
  for (const op of operations) {
    const requests = fc.sample(op.arbitrary, { numRuns: runs, seed: 42 });
    const row = { s2: 0, s4: 0, s5: 0, other: 0, max: 0 };
    let next = 0;
    await Promise.all(
      Array.from({ length: Number(args.concurrency) }, async () => {
        while (next < requests.length) {
          const req = requests[next++];
          const r = await send(req);
          row.max = Math.max(row.max, r.ms);
          if (r.ms > worst.ms) worst = { ms: r.ms, req };
          if (r.status >= 500) {
            row.s5 += 1;
            failures.push({ ...r, req });
          } else if (r.status >= 400) row.s4 += 1;
          else if (r.status >= 200 && r.status < 300) row.s2 += 1;
          else {
            row.other += 1;
            if (r.status === 0) failures.push({ ...r, req });
          }
        }
      }),
    );
    totals.requests += requests.length;
    totals.s2 += row.s2;
    totals.s4 += row.s4;
    totals.s5 += row.s5;
    totals.other += row.other;
    console.log(
      `${op.method} ${op.path}`.padEnd(72),
      String(requests.length).padStart(4),
      String(row.s2).padStart(4),
      String(row.s4).padStart(4),
      String(row.s5).padStart(4),
      String(row.other).padStart(5),
      row.max.toFixed(0).padStart(6),
    );
  }
  // "other": the connection closed by the HTTP layer before an answer could be read (a 413 while the
  // client was still sending a 1 MB body: EPIPE; a query string past Node's 16 KB header limit: 431 + reset).
  console.log(
    `\nrequests ${totals.requests}, 2xx ${totals.s2}, 4xx ${totals.s4}, 5xx ${totals.s5} (target 0), closed by the HTTP layer ${totals.other}, process deaths ${deaths} (target 0)`,
  );
  console.log(`slowest request ${worst.ms.toFixed(0)} ms: ${worst.req?.method} ${worst.req?.url.slice(0, 160)}`);
  for (const f of failures.slice(0, 10))
    console.log(
      `  ${f.status} ${f.error ?? ''} ${f.req.method} ${f.req.url.slice(0, 160)} ${(f.req.body ?? '').slice(0, 200)}`,
    );
}

const alive = await send({ method: 'GET', url: '/api/organizations/' });
clearInterval(sampler);
peakKb = Math.max(peakKb, memoryKb());
console.log(
  `worst request ${(slowest / 1000).toFixed(2)} s (target ≤ 10 s); server peak memory ${(peakKb / 1024).toFixed(0)} MB (target ≤ 1,536 MB); process deaths ${deaths}; server answers afterwards: ${alive.status === 200}`,
);
server.child.stopping = true;
server.child.kill('SIGTERM');
