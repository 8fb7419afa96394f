// One batch-export interval of 1M seeded demo events delivered to Postgres (PGlite over a socket,
// in a child process of its own so the two sides do not share a core's time), through the real
// destination (server/batch-exports/destinations/postgres.ts) and record source (records.ts).
// Prints events/s for reading the records alone (the floor this side of the wire) and for the
// delivery, and the peak RSS of this process and of the database process. Target: ≥ 20,000 events/s.
// Usage: node bench/export-postgres.mjs [--events 1000000] [--data-dir DIR] [--model events|persons]
//   --data-dir reuses a directory seeded by an earlier run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import { root } from '../scripts/lib.mjs';

register();
const { values: args } = parseArgs({
  options: { events: { type: 'string', default: '1000000' }, 'data-dir': { type: 'string' }, model: { type: 'string', default: 'events' } },
});
const keepDir = Boolean(args['data-dir']);
const dataDir = args['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-export-pg-'));
const model = args.model === 'persons' ? 'persons' : 'events';

if (!existsSync(join(dataDir, 'events.duckdb'))) {
  console.log(`seeding ${Number(args.events).toLocaleString('en')} demo events into ${dataDir}…`);
  const started = performance.now();
  const seed = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts', 'seed', '--data-dir', dataDir, '--demo-events', args.events], {
    cwd: root, stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (seed.status !== 0) process.exit(seed.status ?? 1);
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

// The database: PGlite behind its socket server, in its own process; it prints its port.
const DB_PROCESS = `
  import { PGlite } from '@electric-sql/pglite';
  import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 4 });
  await server.start();
  console.log(server.getServerConn().split(':').pop());
  process.stdin.on('end', async () => { await server.stop(); await db.close(); process.exit(0); });
  process.stdin.resume();
`;
const dbProcess = spawn(process.execPath, ['--input-type=module', '-e', DB_PROCESS], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  dbProcess.stdout.once('data', (data) => resolve(Number(String(data).trim())));
  dbProcess.once('exit', (code) => reject(new Error(`the database process exited (${code})`)));
});
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
};
const ownCpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const peakKb = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

const { openDataDir } = await import('../server/data-dir.ts');
const { recordSource } = await import('../server/batch-exports/records.ts');
const { postgresDestination } = await import('../server/batch-exports/destinations/postgres.ts');
const { READ_BATCH } = await import('../server/batch-exports/destinations/postgres.ts');
const pg = (await import('pg')).default;

const { store, events } = openDataDir(dataDir);
const [{ team_id: teamId, n }] = await events.all(
  `SELECT team_id, count(*)::DOUBLE AS n FROM ${model} GROUP BY team_id ORDER BY n DESC LIMIT 1`);
const interval = { start: new Date(0).toISOString(), end: new Date(Date.now() + 86_400_000).toISOString() };
const source = () => recordSource(events, model, teamId, interval.start, interval.end);
console.log(`${model}: ${Number(n).toLocaleString('en')} in one interval of project ${teamId}; PGlite on 127.0.0.1:${port} (pid ${dbProcess.pid})`);

const rate = (count, ms) => `${Math.round(count / (ms / 1000)).toLocaleString('en')} ${model}/s`;
{
  const t = performance.now();
  let read = 0;
  for await (const chunk of source().batches(READ_BATCH)) read += chunk.length;
  const ms = performance.now() - t;
  console.log(`read only (records.ts, batches of ${READ_BATCH}): ${read.toLocaleString('en')} in ${(ms / 1000).toFixed(1)} s = ${rate(read, ms)}`);
}

const config = { host: '127.0.0.1', port, database: 'postgres', user: 'postgres', password: 'bench', schema: 'public', table_name: `bench_${model}`, has_self_signed_cert: false };
let lastLog = 0;
const cpuBefore = { own: ownCpu(), db: cpuSeconds(dbProcess.pid) };
const t = performance.now();
const delivered = await postgresDestination.deliver({
  config, records: source(), total: Number(n), model, interval, exportId: 'bench',
  log: (level, message) => { if (level !== 'DEBUG') console.log(`  ${level} ${message}`); },
  progress: (done) => {
    if (performance.now() - lastLog > 5000) {
      lastLog = performance.now();
      console.log(`  … ${done.toLocaleString('en')} after ${((lastLog - t) / 1000).toFixed(0)} s`);
    }
  },
}, { allowHosts: ['127.0.0.1'] });
const ms = performance.now() - t;
console.log(`CPU during delivery: this process ${(ownCpu() - cpuBefore.own).toFixed(1)} s, database process ${(cpuSeconds(dbProcess.pid) - cpuBefore.db).toFixed(1)} s`);
console.log(`delivered: ${delivered.toLocaleString('en')} in ${(ms / 1000).toFixed(1)} s = ${rate(delivered, ms)} (target ≥ 20,000 events/s)`);

const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
await client.connect();
const [{ rows, size }] = (await client.query(`SELECT count(*)::int AS rows, pg_size_pretty(pg_total_relation_size('public.bench_${model}')) AS size FROM public.bench_${model}`)).rows;
await client.end();
console.log(`table: ${rows.toLocaleString('en')} rows, ${size}`);
console.log(`peak RSS: this process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, database process ${(peakKb(dbProcess.pid) / 1024).toFixed(0)} MB`);

dbProcess.stdin.end();
await new Promise((resolve) => dbProcess.once('exit', resolve));
await events.close();
store.close();
if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
