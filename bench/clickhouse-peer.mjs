// The same analytics on the same events, side by side: this server (through its HTTP endpoints)
// and ClickHouse (chdb, in process), in one run, alternating query by query. Prints each side's
// median, the ratio ours ÷ ClickHouse, and cross-checks counts (the ordered funnel's step counts
// and the trend's totals must be equal on both sides).
//
// chdb is installed into a temporary folder when missing (never a dependency of this project):
// `npm install chdb@<CHDB_VERSION>` there; its native library comes in the npm package
// @chdb/lib-linux-x64-gnu (no download at install time).
//
// Usage: node bench/clickhouse-peer.mjs [--events 1000000] [--runs 7] [--data-dir DIR] [--chdb-dir DIR]
//   --data-dir reuses a directory seeded by an earlier run (seeding 10M takes minutes).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { root, startServer } from '../scripts/lib.mjs';
import { waitForIdleMachine } from './api-lib.mjs';
import { clickhouseQueries } from './clickhouse-peer-queries.mjs';

const CHDB_VERSION = '3.4.0';
const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '7' },
    'data-dir': { type: 'string' },
    'chdb-dir': { type: 'string', default: join(tmpdir(), 'clickhouse-peer-chdb') },
  },
});
const runs = Number(args.runs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const DAY = 86_400_000;

// --- chdb, installed beside the project, not in it -------------------------------------------
const chdbDir = args['chdb-dir'];
if (!existsSync(join(chdbDir, 'node_modules', 'chdb', 'package.json'))) {
  mkdirSync(chdbDir, { recursive: true });
  writeFileSync(join(chdbDir, 'package.json'), JSON.stringify({ name: 'clickhouse-peer', private: true }));
  console.log(`installing chdb@${CHDB_VERSION} into ${chdbDir}…`);
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `chdb@${CHDB_VERSION}`],
    { cwd: chdbDir, stdio: 'inherit' },
  );
}
const { Session } = createRequire(join(chdbDir, 'package.json'))('chdb');

// --- seeded events -----------------------------------------------------------------------------
const keepDir = Boolean(args['data-dir']);
const dataDir = args['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-peer-'));
if (!existsSync(join(dataDir, 'events.duckdb'))) {
  console.log(`seeding ${Number(args.events).toLocaleString('en')} demo events into ${dataDir}…`);
  const seed = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', 'seed', '--data-dir', dataDir, '--demo-events', args.events],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (seed.status !== 0) process.exit(seed.status ?? 1);
}

// Events with their resolved persons (the person a distinct id belongs to now), exported before
// the server opens the file (DuckDB allows one process at a time).
const work = mkdtempSync(join(tmpdir(), 'peer-work-'));
const parquet = join(work, 'events.parquet');
{
  const instance = await DuckDBInstance.create(join(dataDir, 'events.duckdb'));
  const db = await instance.connect();
  await db.run(`COPY (
    SELECT e.uuid::VARCHAR AS uuid, e.event, coalesce(ov.person_id, e.person_id, md5(e.distinct_id)::UUID)::VARCHAR AS person_id,
      epoch_ms(e.timestamp) AS ts, coalesce(e.mp_browser, json_extract_string(e.properties, '$."$browser"'), '') AS browser,
      coalesce(e.mp_current_url, json_extract_string(e.properties, '$."$current_url"')) AS current_url,
      coalesce(e.mp_screen_name, json_extract_string(e.properties, '$."$screen_name"')) AS screen_name
    FROM events e LEFT JOIN person_overrides ov ON ov.team_id = e.team_id AND ov.old_person_id = e.person_id
    WHERE e.team_id = 1) TO '${parquet}' (FORMAT parquet)`);
  db.closeSync();
  instance.closeSync();
}

const ch = new Session(join(work, 'chdb'));
const chQuery = (sql) => JSON.parse(ch.query(sql, 'JSONCompact')).data;
// Off the event loop, so that the HTTP client keeps its sockets meanwhile.
const chQueryAsync = async (sql) => (await ch.queryAsync(sql, { format: 'JSONCompact' })).json().data;
// Sorted like the production service's events table (toDate(timestamp), event, …).
ch.query(`CREATE TABLE events (
    uuid UUID, event LowCardinality(String), person_id UUID, timestamp DateTime64(3, 'UTC'),
    browser LowCardinality(String), current_url Nullable(String), screen_name Nullable(String)
  ) ENGINE = MergeTree ORDER BY (toDate(timestamp), event, cityHash64(person_id), cityHash64(uuid))`);
ch.query(`INSERT INTO events SELECT toUUID(uuid), event, toUUID(person_id), fromUnixTimestamp64Milli(ts, 'UTC'), browser, current_url, screen_name
  FROM file('${parquet}', Parquet)`);
ch.query('OPTIMIZE TABLE events FINAL');
const eventCount = Number(chQuery('SELECT count() FROM events')[0][0]);

// --- the work, one definition for both sides ----------------------------------------------------
const now = Date.now();
const FUNNEL_STEPS = ['$pageview', 'user signed up', 'created project', 'purchase'];
const TREND_EVENTS = ['$pageview', 'user signed up', 'purchase'];
const dayStart = (t) => Math.floor(t / DAY) * DAY;
const iso = (t) => new Date(t).toISOString();
const range = (days) => ({ from: dayStart(now - days * DAY), to: now });
const work30 = range(30);
const work90 = range(90);
const ours = {
  trend: [
    'trend',
    {
      events: TREND_EVENTS.map((id) => ({ id })),
      date_from: iso(now - 30 * DAY),
      date_to: iso(now),
      interval: 'day',
      breakdown: '$browser',
    },
  ],
  'funnel ordered': [
    'funnel',
    {
      events: FUNNEL_STEPS.map((id, i) => ({ id, order: i })),
      date_from: iso(now - 90 * DAY),
      date_to: iso(now),
      funnel_order_type: 'ordered',
      funnel_window_interval: 14,
      funnel_window_interval_unit: 'day',
    },
  ],
  'funnel strict': [
    'funnel',
    {
      events: FUNNEL_STEPS.map((id, i) => ({ id, order: i })),
      date_from: iso(now - 90 * DAY),
      date_to: iso(now),
      funnel_order_type: 'strict',
      funnel_window_interval: 14,
      funnel_window_interval_unit: 'day',
    },
  ],
  retention: [
    'retention',
    {
      target_entity: { id: '$pageview', type: 'events' },
      returning_entity: { id: '$pageview', type: 'events' },
      period: 'Week',
      total_intervals: 8,
      retention_type: 'retention_recurring',
      date_to: iso(now),
    },
  ],
  paths: ['path', { include_event_types: ['$pageview', '$screen'], date_from: iso(now - 30 * DAY), date_to: iso(now) }],
};
const theirs = clickhouseQueries({
  now,
  trend: work30,
  funnel: work90,
  paths: work30,
  trendEvents: TREND_EVENTS,
  funnelSteps: FUNNEL_STEPS,
});

const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
  env: { ...process.env, LOG_REQUESTS: '0', ANALYTICS_CACHE_TTL_MS: '0' },
  quiet: true,
});
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
let failed = false;
try {
  const projectId = (await (await fetch(`${url}/api/projects/`, { headers })).json()).results[0].id;
  const ask = async ([path, body], retried = false) => {
    let res;
    try {
      res = await fetch(`${url}/api/projects/${projectId}/insights/${path}/`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
    } catch (error) {
      // A kept-alive socket the server closed while ClickHouse ran: once more on a new one.
      if (retried) throw error;
      return ask([path, body], true);
    }
    const json = await res.json();
    if (res.status !== 200 || json.is_cached)
      throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json.result;
  };
  // Both sides start on a quiet machine: the server prepares its funnels' person index as it
  // starts (docs/limits.md), which would slow the first runs of either side.
  await waitForIdleMachine(60_000, 'the first runs may read high', 1000);
  console.log(
    `\n${eventCount.toLocaleString('en')} events; median of ${runs} alternating runs (ours through HTTP, cache off; ClickHouse ${chQuery('SELECT version()')[0][0]} via chdb)`,
  );
  console.log('query              ours ms   ClickHouse ms   ours ÷ ClickHouse');
  const answers = {};
  for (const name of Object.keys(ours)) {
    const a = [];
    const b = [];
    for (let i = 0; i <= runs; i++) {
      let t = performance.now();
      const mine = await ask(ours[name]);
      if (i > 0) a.push(performance.now() - t);
      t = performance.now();
      const peer = await chQueryAsync(theirs[name]);
      if (i > 0) b.push(performance.now() - t);
      answers[name] = { mine, peer };
    }
    const [x, y] = [median(a), median(b)];
    console.log(
      `${name.padEnd(16)}${x.toFixed(0).padStart(9)}${y.toFixed(0).padStart(16)}${(x / y).toFixed(2).padStart(20)}   (ours ${a.map((v) => v.toFixed(0)).join(' ')}; ClickHouse ${b.map((v) => v.toFixed(0)).join(' ')})`,
    );
  }

  // Cross-checks.
  const { mine: trend, peer: trendRows } = answers.trend;
  const oursTotals = TREND_EVENTS.map((e) =>
    trend.filter((s) => s.action?.id === e).reduce((sum, s) => sum + s.count, 0),
  );
  const theirTotals = TREND_EVENTS.map((e) =>
    trendRows.filter((r) => r[0] === e).reduce((sum, r) => sum + Number(r[3]), 0),
  );
  const trendOk = JSON.stringify(oursTotals) === JSON.stringify(theirTotals);
  console.log(
    `trend totals: ours ${oursTotals.join(', ')}; ClickHouse ${theirTotals.join(', ')}: ${trendOk ? 'equal' : 'DIFFERENT'}`,
  );
  for (const name of ['funnel ordered', 'funnel strict']) {
    const { mine, peer } = answers[name];
    const oursSteps = mine.map((s) => s.count);
    const levels = new Map(peer.map((r) => [Number(r[0]), Number(r[1])]));
    const theirSteps = FUNNEL_STEPS.map((_, k) =>
      [...levels].filter(([level]) => level >= k + 1).reduce((s, [, n]) => s + n, 0),
    );
    const equal = JSON.stringify(oursSteps) === JSON.stringify(theirSteps);
    const checked = name === 'funnel ordered';
    if (checked && !equal) failed = true;
    console.log(
      `${name} steps: ours ${oursSteps.join(', ')}; ClickHouse ${theirSteps.join(', ')}: ${equal ? 'equal' : checked ? 'DIFFERENT' : "different (ClickHouse's strict_order stops a person at the first other event after any step-1 event; ours checks each attempt)"}`,
    );
  }
  if (!trendOk) failed = true;
} finally {
  child.kill('SIGTERM');
  ch.close?.();
  rmSync(work, { recursive: true, force: true });
  if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
