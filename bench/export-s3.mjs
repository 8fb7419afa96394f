// S3 batch export of one interval holding every seeded event, to a local s3rver: as JSON lines
// (gzip) and as Parquet (zstd), each in a process of its own. Prints events/s and that process's
// peak memory, beside a reading floor (the same records read from the event store and dropped).
// Targets: ≥ 50,000 events/s; memory bounded by a file's size, not the interval's.
// Usage: node bench/export-s3.mjs [--events 1000000] [--data-dir DIR] [--max-file-size-mb N] [--modes a,b]
//   modes: read (the floor), JSONLines/gzip, Parquet/zstd, and each as `generated …` (as many
//   made-up records, the event store not read: the export's own cost).
//   --data-dir reuses a directory seeded by an earlier run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { root } from '../scripts/lib.mjs';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    'data-dir': { type: 'string' },
    'max-file-size-mb': { type: 'string' },
    modes: {
      type: 'string',
      default: 'read,JSONLines/gzip,Parquet/zstd,generated JSONLines/gzip,generated Parquet/zstd',
    },
    child: { type: 'string' },
    endpoint: { type: 'string' },
  },
});
const INTERVAL = { start: new Date(0).toISOString(), end: new Date(Date.now() + 86_400_000).toISOString() };
const TEAM = 1;
const BUCKET = 'bench';

if (args.child) {
  await child(args.child);
} else {
  await main();
}

async function main() {
  const keepDir = Boolean(args['data-dir']);
  const dataDir = args['data-dir'] ?? mkdtempSync(join(tmpdir(), 'bench-export-s3-'));
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
  // The S3 server runs here, so its memory is not counted in the exporting process.
  const S3rver = createRequire(import.meta.url)('s3rver');
  const s3Dir = mkdtempSync(join(tmpdir(), 'bench-s3rver-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const rows = [];
  try {
    for (const mode of args.modes.split(',')) {
      console.log(`${mode}…`);
      // Not spawnSync: this process's event loop serves the S3 requests meanwhile.
      const run = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'bench/export-s3.mjs',
          '--child',
          mode,
          '--data-dir',
          dataDir,
          '--endpoint',
          endpoint,
          ...(args['max-file-size-mb'] ? ['--max-file-size-mb', args['max-file-size-mb']] : []),
        ],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit'],
          env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        },
      );
      let out = '';
      run.stdout.on('data', (chunk) => (out += chunk));
      const status = await new Promise((resolve) => run.on('close', resolve));
      if (status !== 0) {
        console.error(out);
        process.exitCode = 1;
        break;
      }
      rows.push(JSON.parse(out.trim().split('\n').at(-1)));
    }
  } finally {
    await s3.close();
    rmSync(s3Dir, { recursive: true, force: true });
    if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
  }
  if (process.exitCode) return;
  const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `\n${'mode'.padEnd(26)}${'events'.padStart(11)}${'seconds'.padStart(9)}${'events/s'.padStart(10)}${'files'.padStart(7)}${'uploaded'.padStart(10)}${'RSS before'.padStart(12)}${'peak RSS'.padStart(10)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.mode.padEnd(26)}${r.events.toLocaleString('en').padStart(11)}${r.seconds.toFixed(1).padStart(9)}${Math.round(
        r.events / r.seconds,
      )
        .toLocaleString('en')
        .padStart(10)}` +
        `${String(r.files).padStart(7)}${(r.bytes ? mb(r.bytes) : '-').padStart(10)}${mb(r.rssBefore).padStart(12)}${mb(r.peakRss).padStart(10)}`,
    );
  }
  console.log(
    '\ntarget: ≥ 50,000 events/s; peak RSS bounded by a file, not by the interval (read: the floor of reading the records alone)',
  );
}

/**
 * As many records as the store's, made up in memory like demo events: the export's own cost,
 * without reading the event store.
 */
function generated(total) {
  const record = (i) => ({
    uuid: `0190a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, '0')}`,
    event: i % 3 ? '$pageview' : 'created project',
    distinct_id: `user-${i % 30_000}`,
    timestamp: new Date(Date.UTC(2024, 5, 1) + i * 1000).toISOString(),
    team_id: TEAM,
    properties: {
      $browser: 'Chrome',
      $os: 'Mac OS X',
      $device_type: 'Desktop',
      $current_url: `https://hedgebox.net/files/${i % 97}`,
      $pathname: `/files/${i % 97}`,
      $session_id: `s-${i % 50_000}`,
      $geoip_country_code: 'US',
      plan: 'pro',
    },
  });
  return {
    count: async () => total,
    async *batches(size) {
      for (let at = 0; at < total; at += size)
        yield Array.from({ length: Math.min(size, total - at) }, (_, j) => record(at + j));
    },
  };
}

/**
 * One measurement, in this process: `read` drains the records; `<format>/<compression>` exports
 * them; `generated <format>/<compression>` exports as many made-up records.
 */
async function child(requested) {
  const { openEventStore, eventStoreFile } = await import('../server/analytics/store/event-store.ts');
  const { recordSource } = await import('../server/batch-exports/records.ts');
  const { s3Destination } = await import('../server/batch-exports/destinations/s3.ts');
  const events = await openEventStore(eventStoreFile(args['data-dir']));
  const stored = recordSource(events, 'events', TEAM, INTERVAL.start, INTERVAL.end);
  const total = await stored.count();
  const mode = requested.replace(/^generated /, '');
  const records = mode === requested ? stored : generated(total);
  let peakRss = 0;
  const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
  const sampler = setInterval(sample, 50);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  let delivered = 0;
  let files = 0;
  let bytes = 0;
  if (mode === 'read') {
    for await (const batch of records.batches(10_000)) delivered += batch.length;
  } else {
    const [format, compression] = mode.split('/');
    delivered = await s3Destination.deliver(
      {
        config: {
          bucket_name: BUCKET,
          region: 'us-east-1',
          prefix: requested.replaceAll(' ', '-'),
          aws_access_key_id: 'S3RVER',
          aws_secret_access_key: 'S3RVER',
          endpoint_url: args.endpoint,
          file_format: format,
          compression,
          max_file_size_mb: args['max-file-size-mb'] ? Number(args['max-file-size-mb']) : null,
        },
        records,
        total,
        model: 'events',
        interval: INTERVAL,
        exportId: 'bench',
        log: (level, message) => {
          const uploaded = /: (\d+) records, (\d+) bytes\.$/.exec(message);
          if (uploaded) {
            files += 1;
            bytes += Number(uploaded[2]);
          }
        },
        progress: () => sample(),
      },
      { allowHosts: ['127.0.0.1'] },
    );
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  await events.close();
  if (delivered !== total) throw new Error(`${mode}: ${delivered} of ${total} records`);
  // maxRSS is the kernel's own peak (KiB), sampling may miss a short one.
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  console.log(JSON.stringify({ mode: requested, events: delivered, seconds, files, bytes, rssBefore, peakRss }));
}
