// One batch-export interval of 1M seeded demo events delivered to a real PostgreSQL server
// (Debian's, started for the run by scripts/pg-cluster.mjs, over TLS with SCRAM), through the real
// destination (server/batch-exports/destinations/postgres.ts) and record source (records.ts).
// Prints events/s for reading the records alone (the floor this side of the wire) and for the
// delivery, and the peak RSS of this process and of the database's processes. Target: ≥ 20,000 events/s.
// Usage: node bench/export-postgres.mjs [--events 1000000] [--data-dir DIR] [--model events|persons]
//   --data-dir reuses a directory seeded by an earlier run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { root } from '../scripts/lib.mjs';
import { startPgCluster } from '../scripts/pg-cluster.mjs';
import { waitForIdleMachine } from './api-lib.mjs';

register();
const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    'data-dir': { type: 'string' },
    model: { type: 'string', default: 'events' },
  },
});
const keepDir = Boolean(args['data-dir']);
const dataDir = args['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-export-pg-'));
const model = args.model === 'persons' ? 'persons' : 'events';

if (!existsSync(join(dataDir, 'events.duckdb'))) {
  console.log(`seeding ${Number(args.events).toLocaleString('en')} demo events into ${dataDir}…`);
  const started = performance.now();
  const seed = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', 'seed', '--data-dir', dataDir, '--demo-events', args.events],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (seed.status !== 0) process.exit(seed.status ?? 1);
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// The database: a real PostgreSQL cluster of its own (scripts/pg-cluster.mjs: TLS, SCRAM, fsync off).
const cluster = await startPgCluster();
const statOf = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
const cpuSeconds = (fields) => (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const peakKb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/**
 * The database's processes (the postmaster and its children: the session's backend, the writers),
 * sampled while the delivery runs, as a backend's numbers are gone once its session ends: each
 * one's last CPU seconds and peak RSS.
 */
const database = new Map();
function sampleDatabase() {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statOf(entry);
      if (Number(entry) !== cluster.pid && Number(fields[1]) !== cluster.pid) continue;
      const name = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      database.set(entry, { name, cpu: cpuSeconds(fields), peakKb: peakKb(entry) });
    } catch {
      /* it ended between the listing and the read */
    }
  }
}

const { openDataDir } = await import('../server/data-dir.ts');
const { recordSource } = await import('../server/batch-exports/records.ts');
const { postgresDestination } = await import('../server/batch-exports/destinations/postgres.ts');
const { READ_BATCH } = await import('../server/batch-exports/destinations/postgres.ts');
const pg = (await import('pg')).default;

const { store, events } = openDataDir(dataDir);
// Persons: a record (a table row) per distinct id of every person, each changed before the interval's end.
const [{ team_id: teamId, n }] = await events.all(
  `SELECT team_id, count(*)::DOUBLE AS n FROM ${model === 'persons' ? 'person_distinct_ids' : 'events'} GROUP BY team_id ORDER BY n DESC LIMIT 1`,
);
const interval = { start: new Date(0).toISOString(), end: new Date(Date.now() + 86_400_000).toISOString() };
const source = () => recordSource(events, model, teamId, interval.start, interval.end);
console.log(
  `${model}: ${Number(n).toLocaleString('en')} ${model === 'persons' ? 'distinct ids of persons ' : ''}in one interval of project ${teamId}; PostgreSQL on 127.0.0.1:${cluster.port} (pid ${cluster.pid})`,
);

const rate = (count, ms) => `${Math.round(count / (ms / 1000)).toLocaleString('en')} ${model}/s`;
// Other work on the machine slows both measurements: each waits for a quiet moment, and says the load it ran under.
const load = () => `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs`;
await waitForIdleMachine(60_000, 'the numbers may read low', 1000);
{
  const t = performance.now();
  const cpu = ownCpu();
  let read = 0;
  for await (const chunk of source().batches(READ_BATCH)) read += chunk.length;
  const ms = performance.now() - t;
  console.log(
    `read only (records.ts, batches of ${READ_BATCH}): ${read.toLocaleString('en')} in ${(ms / 1000).toFixed(1)} s = ${rate(read, ms)}, ` +
      `CPU ${(ownCpu() - cpu).toFixed(1)} s (${load()})`,
  );
}
await waitForIdleMachine(60_000, 'the numbers may read low', 1000);

const config = {
  host: '127.0.0.1',
  port: cluster.port,
  database: 'postgres',
  user: cluster.user,
  password: cluster.password,
  schema: 'public',
  table_name: `bench_${model}`,
  has_self_signed_cert: true,
};
let lastLog = 0;
sampleDatabase();
const dbBefore = [...database.values()].reduce((sum, p) => sum + p.cpu, 0);
const ownBefore = ownCpu();
const sampler = setInterval(sampleDatabase, 100);
// The peak RSS from here on is the delivery's (Linux resets VmHWM on this write); the read-only pass set the one before.
const peakBefore = peakKb(process.pid);
writeFileSync('/proc/self/clear_refs', '5');
const t = performance.now();
const delivered = await postgresDestination.deliver(
  {
    config,
    records: source(),
    total: Number(n),
    model,
    interval,
    exportId: 'bench',
    log: (level, message) => {
      if (level !== 'DEBUG') console.log(`  ${level} ${message}`);
    },
    progress: (done) => {
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        console.log(`  … ${done.toLocaleString('en')} after ${((lastLog - t) / 1000).toFixed(0)} s`);
      }
    },
  },
  { allowHosts: ['127.0.0.1'] },
);
const ms = performance.now() - t;
clearInterval(sampler);
sampleDatabase();
const dbCpu = [...database.values()].reduce((sum, p) => sum + p.cpu, 0) - dbBefore;
console.log(
  `CPU during delivery: this process ${(ownCpu() - ownBefore).toFixed(1)} s, the database's processes ${dbCpu.toFixed(1)} s`,
);
console.log(
  `delivered: ${delivered.toLocaleString('en')} in ${(ms / 1000).toFixed(1)} s = ${rate(delivered, ms)} (target ≥ 20,000 events/s; ${load()})`,
);

const client = new pg.Client({ host: cluster.socketDir, port: cluster.port, user: cluster.user, database: 'postgres' });
await client.connect();
const [{ rows, size }] = (
  await client.query(
    `SELECT count(*)::int AS rows, pg_size_pretty(pg_total_relation_size('public.bench_${model}')) AS size FROM public.bench_${model}`,
  )
).rows;
await client.end();
console.log(`table: ${rows.toLocaleString('en')} rows, ${size}`);
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const backend = [...database.values()]
  .filter((p) => p.name.includes('127.0.0.1('))
  .sort((a, b) => b.peakKb - a.peakKb)[0];
console.log(
  `peak RSS: this process (the exporting server) ${mb(peakKb(process.pid))} during the delivery (${mb(peakBefore)} before it, reading alone); ` +
    `the session's backend ${backend ? mb(backend.peakKb) : 'not seen'} (shared buffers it touched included); ` +
    `largest database process ${mb(Math.max(...[...database.values()].map((p) => p.peakKb)))}`,
);

await cluster.stop();
await events.close();
store.close();
if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
