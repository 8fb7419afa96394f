import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { EventStore } from '../analytics/store/event-store.ts';
import { consoleLogger, createApp } from '../app.ts';
import { createScheduler, type Scheduler } from '../batch-exports/scheduler.ts';
import { openDataDir } from '../data-dir.ts';
import { createPipelineRuntime, type PipelineRuntime } from '../plugins/runtime.ts';
import { startNodeServer } from '../http/node-server.ts';
import { publicUrlOf } from '../http/public-url.ts';
import { demoEventCount, ensureDemoEvents } from '../seed/events.ts';
import { seedProgressPrinter } from '../seed/progress.ts';
import type { Store } from '../store/store.ts';
import { dataDirFrom, httpUrlFrom, portFrom, upstreamFrom, UsageError } from './args.ts';

const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../../dist', import.meta.url));
/** How long a stopping server waits for the batch-export run in progress and for pipeline deliveries. */
const SHUTDOWN_WAIT_MS = 2000;
const LOOPBACK_OR_ANY = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::']);
const listFromEnv = (name: string) =>
  (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Opens the event store and seeds the demo events on first use; a locked file is a clear error. */
export async function prepareEvents(store: Store, events: EventStore, count: number): Promise<void> {
  try {
    await events.ready();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(
      /lock/i.test(message)
        ? `${events.file} is in use by another process (a running server?): stop it first`
        : `cannot open ${events.file}: ${message}`,
    );
  }
  // A million events take from 15 s to minutes on a busy machine: say how far it has come.
  // SEED_PROGRESS_EVERY_MS sets how often a log (not a terminal) gets a line.
  const every = Number(process.env.SEED_PROGRESS_EVERY_MS);
  const progress = seedProgressPrinter(process.stderr, Number.isFinite(every) && every >= 0 ? { everyMs: every } : {});
  const result = await ensureDemoEvents(store, events, {
    count,
    now: new Date(),
    onProgress: progress.listener,
  }).finally(progress.done);
  if (result)
    process.stderr.write(
      `seeded ${result.events} demo events for ${result.persons} persons in ${(result.milliseconds / 1000).toFixed(1)} s\n`,
    );
}

/** `start [--port N] [--data-dir DIR] [--upstream URL] [--host H] [--public-url URL] [--static-dir DIR] [--demo-events N]` */
export async function start(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      upstream: { type: 'string' },
      host: { type: 'string' },
      'static-dir': { type: 'string' },
      'demo-events': { type: 'string' },
      'allow-destination': { type: 'string', multiple: true },
      'api-origin': { type: 'string', multiple: true },
      'public-url': { type: 'string' },
    },
    strict: true,
  });
  let demoEvents: number;
  try {
    demoEvents = demoEventCount(values['demo-events']);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const port = portFrom(values.port);
  const host = values.host ?? '127.0.0.1';
  const upstream = upstreamFrom(values.upstream);
  const staticDir = values['static-dir'] ?? DEFAULT_STATIC_DIR;
  // Hosts batch-export HTTP destinations may reach although private or loopback (default: none).
  const allowHosts = [...(values['allow-destination'] ?? []), ...listFromEnv('ALLOW_DESTINATIONS')];
  // Other API base URLs the dashboard may sign in to directly (CSP connect-src).
  const apiOrigins = [...(values['api-origin'] ?? []), ...listFromEnv('API_ORIGINS')];
  for (const origin of apiOrigins) upstreamFrom(origin); // a bad URL is a usage error, not a crash
  // Where users reach this server: links are built from it and other Host headers get a 400.
  // Default: the address it listens on, known once it listens.
  const publicUrlFlag = httpUrlFrom(values['public-url'] ?? (process.env.PUBLIC_URL || undefined), 'public-url');
  const publicUrl = publicUrlOf(publicUrlFlag ?? `http://localhost:${port || 8000}`, host);

  // LOG_REQUESTS=0 silences the per-request lines (benchmarks, e2e); errors are always logged.
  const logger = process.env.LOG_REQUESTS === '0' ? { error: consoleLogger.error } : consoleLogger;
  let store: Store | undefined;
  let events: EventStore | undefined;
  let demoKey: string | null = null;
  let scheduler: Scheduler | undefined;
  let pipeline: PipelineRuntime | undefined;
  let app;
  if (upstream) {
    app = createApp({ upstream, staticDir, logger, apiOrigins, publicUrl });
  } else {
    ({ store, events, demoKey } = openDataDir(dataDirFrom(values['data-dir'])));
    try {
      await prepareEvents(store, events, demoEvents);
    } catch (error) {
      store.close();
      throw error;
    }
    // ANALYTICS_CACHE_TTL_MS: how long identical analytics requests are served from the cache (0 = off).
    const cacheTtl = process.env.ANALYTICS_CACHE_TTL_MS;
    pipeline = createPipelineRuntime({ store, now: () => new Date(), allowHosts });
    app = createApp({
      store,
      events,
      staticDir,
      logger,
      apiOrigins,
      publicUrl,
      allowDestinations: allowHosts,
      pipeline,
      analyticsCacheTtlMs: cacheTtl === undefined ? undefined : Number(cacheTtl),
      preparePersonIndexes: true,
    });
    // Batch export runs: scheduled intervals and backfills, executed in this process (ticks every second).
    scheduler = createScheduler({
      store,
      events,
      now: () => new Date(),
      onError: logger.error,
      runner: { allowHosts },
    });
  }
  let closing: Promise<void> | undefined;
  // once: the 3 s fallback below may call it again while the first is still waiting
  const closeAll = () => (closing ??= closeStores());
  const closeStores = async () => {
    // The run in progress may be waiting on a slow receiver: wait for it at most 2 s. Events
    // waiting for pipeline destinations get as long to be delivered (what is left is logged).
    await Promise.all([
      Promise.race([scheduler?.stop(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())]),
      pipeline?.close(SHUTDOWN_WAIT_MS),
    ]);
    await events?.close().catch((error: unknown) => console.error('closing the event store failed', error));
    store?.close();
  };

  const requestTimeoutMs = Number(process.env.REQUEST_TIMEOUT_MS) || undefined;
  const server = startNodeServer(
    app.fetch,
    { port, hostname: host, ...(requestTimeoutMs ? { requestTimeoutMs } : {}) },
    (info) => {
      const origin = `http://${LOOPBACK_OR_ANY.has(host) ? 'localhost' : host}:${info.port}`;
      if (!publicUrlFlag) publicUrl.origin = origin;
      process.stdout.write(`listening on ${origin}\n`);
      if (upstream) process.stdout.write(`proxying ${origin}/api to ${upstream}/api\n`);
      else if (demoKey) process.stdout.write(`sign in: ${origin}/#key=${demoKey}\n`);
      else
        process.stdout.write(
          'sign in: the demo key file is gone; create a key with `npm run key -- create --label me --scopes "*"`\n',
        );
      scheduler?.start();
    },
  );
  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(error.code === 'EADDRINUSE' ? `port ${port} is already in use: try --port` : error);
    void closeAll().then(() => process.exit(1));
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      void closeAll().then(() => process.exit(0));
    });
    if ('closeAllConnections' in server) server.closeAllConnections();
    setTimeout(() => {
      void closeAll().then(() => process.exit(0));
    }, 3000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

export { UsageError };
