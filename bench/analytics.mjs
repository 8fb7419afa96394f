// Analytics through the HTTP endpoints on seeded demo events, each beside the bare DuckDB floor
// (a plain GROUP BY count over the same rows). Median of N runs with the result cache off.
// Targets at 1M events: trend ≤ 50 ms, funnel ≤ 250 ms, retention ≤ 150 ms, paths ≤ 500 ms;
// at 10M within 10× of those; server memory ≤ 1.5 GB.
// Usage: node bench/analytics.mjs [--events 1000000] [--runs 10] [--data-dir DIR]
//   --data-dir reuses a directory seeded by an earlier run (seeding 10M takes minutes).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { root, startServer } from '../scripts/lib.mjs';
import { waitForIdleMachine } from './api-lib.mjs';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '10' },
    'data-dir': { type: 'string' },
  },
});
const requested = Number(args.events);
const runs = Number(args.runs);

const keepDir = Boolean(args['data-dir']);
const dataDir = args['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-analytics-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const DAY = 86_400_000;

if (!existsSync(join(dataDir, 'events.duckdb'))) {
  console.log(`seeding ${requested.toLocaleString('en')} demo events into ${dataDir}…`);
  const started = performance.now();
  const seed = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', 'seed', '--data-dir', dataDir, '--demo-events', String(requested)],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (seed.status !== 0) process.exit(seed.status ?? 1);
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const FUNNEL_STEPS = ['$pageview', 'user signed up', 'created project', 'purchase'];
const now = Date.now();
const since = (days) => new Date(now - days * DAY).toISOString();

// The floor: what DuckDB itself takes for a plain GROUP BY count over the rows each query reads.
const floors = {};
// The size comes from the data (a reused --data-dir may hold another count than --events).
let eventCount;
{
  const instance = await DuckDBInstance.create(join(dataDir, 'events.duckdb'));
  const db = await instance.connect();
  eventCount = Number((await db.runAndReadAll('SELECT count(*) FROM events WHERE team_id = 1')).getRows()[0][0]);
  const time = async (sql, params) => {
    const times = [];
    for (let i = 0; i <= runs; i++) {
      const t = performance.now();
      await db.runAndReadAll(sql, params);
      if (i > 0) times.push(performance.now() - t);
    }
    return median(times);
  };
  const countByBucket = (unit, days, events) => {
    const names = events.map((_, i) => `$e${i}`).join(', ');
    const sql = `SELECT date_trunc('${unit}', timestamp) AS d, event, count(*) FROM events
      WHERE team_id = 1 AND timestamp >= $since::TIMESTAMPTZ AND event IN (${names}) GROUP BY ALL`;
    return time(sql, { since: since(days), ...Object.fromEntries(events.map((e, i) => [`e${i}`, e])) });
  };
  floors.trend = await countByBucket('day', 30, ['$pageview', 'user signed up', 'purchase']);
  floors.funnel = await countByBucket('day', 90, FUNNEL_STEPS);
  floors.retention = await countByBucket('week', 63, ['$pageview']);
  floors.paths = await countByBucket('day', 30, ['$pageview', '$screen']);
  db.closeSync();
  instance.closeSync();
}
// Targets are set at 1M events; at 10M (anything over 1.5M here) they are 10× those.
const scale = eventCount / 1_000_000 > 1.5 ? 10 : 1;

const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
  env: { ...process.env, LOG_REQUESTS: '0', ANALYTICS_CACHE_TTL_MS: '0' },
  quiet: true,
});

const QUERIES = [
  [
    'trend',
    'trend',
    50,
    {
      events: ['$pageview', 'user signed up', 'purchase'].map((id) => ({ id })),
      date_from: '-30d',
      interval: 'day',
      breakdown: '$browser',
    },
  ],
  ...['ordered', 'strict', 'unordered'].map((order) => [
    `funnel ${order}`,
    'funnel',
    250,
    { events: FUNNEL_STEPS.map((id, i) => ({ id, order: i })), date_from: '-90d', funnel_order_type: order },
  ]),
  [
    'retention',
    'retention',
    150,
    {
      target_entity: { id: '$pageview', type: 'events' },
      returning_entity: { id: '$pageview', type: 'events' },
      period: 'Week',
      total_intervals: 8,
    },
  ],
  ['paths', 'path', 500, { include_event_types: ['$pageview', '$screen'], date_from: '-30d' }],
];

function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(status.match(new RegExp(`${name}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

let failed = false;
try {
  // The timed runs start on a quiet machine: the server prepares its funnels' person index as
  // it starts (docs/limits.md), which would slow the first queries.
  await waitForIdleMachine(60_000, 'the first queries may read high', 1000);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const projects = await (await fetch(`${url}/api/projects/`, { headers })).json();
  const projectId = projects.results[0].id;
  console.log(`\n${eventCount.toLocaleString('en')} events, project ${projectId}, median of ${runs} runs, cache off`);
  console.log('query               endpoint ms   DuckDB floor ms   × floor   target ms        server peak MB so far');
  for (const [name, path, target, body] of QUERIES) {
    const times = [];
    for (let i = 0; i <= runs; i++) {
      const t = performance.now();
      const res = await fetch(`${url}/api/projects/${projectId}/insights/${path}/`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      const json = await res.json();
      if (res.status !== 200 || json.is_cached)
        throw new Error(`${name}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      if (i > 0) times.push(performance.now() - t);
    }
    const ms = median(times);
    const limit = target * scale;
    if (ms > limit) failed = true;
    const floor = floors[path === 'path' ? 'paths' : path];
    const verdict = ms <= limit ? 'ok' : 'MISSED';
    console.log(
      `${name.padEnd(20)}${ms.toFixed(0).padStart(11)}${floor.toFixed(0).padStart(18)}${(ms / floor).toFixed(1).padStart(10)}${String(limit).padStart(12)}  ${verdict.padEnd(6)}${memoryOf(child.pid).peak.toFixed(0).padStart(16)}`,
    );
  }
  const { rss, peak } = memoryOf(child.pid);
  if (peak > 1536) failed = true;
  console.log(
    `server memory: ${rss.toFixed(0)} MB now, ${peak.toFixed(0)} MB peak (target ≤ 1536 MB): ${peak <= 1536 ? 'ok' : 'MISSED'}`,
  );
} finally {
  child.kill('SIGTERM');
  if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
