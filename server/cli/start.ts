import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { consoleLogger, createApp } from '../app.ts';
import { openDataDir } from '../data-dir.ts';
import type { Store } from '../store/store.ts';
import { dataDirFrom, portFrom, upstreamFrom, UsageError } from './args.ts';

const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../../dist', import.meta.url));
const LOOPBACK_OR_ANY = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::']);

/** `start [--port N] [--data-dir DIR] [--upstream URL] [--host H] [--static-dir DIR]` */
export function start(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' }, 'data-dir': { type: 'string' }, upstream: { type: 'string' },
      host: { type: 'string' }, 'static-dir': { type: 'string' },
    },
    strict: true,
  });
  const port = portFrom(values.port);
  const host = values.host ?? '127.0.0.1';
  const upstream = upstreamFrom(values.upstream);
  const staticDir = values['static-dir'] ?? DEFAULT_STATIC_DIR;

  // LOG_REQUESTS=0 silences the per-request lines (benchmarks, e2e); errors are always logged.
  const logger = process.env.LOG_REQUESTS === '0' ? { error: consoleLogger.error } : consoleLogger;
  let store: Store | undefined;
  let demoKey: string | null = null;
  let app;
  if (upstream) {
    app = createApp({ upstream, staticDir, logger });
  } else {
    ({ store, demoKey } = openDataDir(dataDirFrom(values['data-dir'])));
    app = createApp({ store, staticDir, logger });
  }

  const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
    const origin = `http://${LOOPBACK_OR_ANY.has(host) ? 'localhost' : host}:${info.port}`;
    process.stdout.write(`listening on ${origin}\n`);
    if (upstream) process.stdout.write(`proxying ${origin}/api to ${upstream}/api\n`);
    else if (demoKey) process.stdout.write(`sign in: ${origin}/#key=${demoKey}\n`);
    else process.stdout.write('sign in: the demo key file is gone; create a key with `npm run key -- create --label me --scopes "*"`\n');
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(error.code === 'EADDRINUSE' ? `port ${port} is already in use: try --port` : error);
    store?.close();
    process.exit(1);
  });

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      store?.close();
      process.exit(0);
    });
    if ('closeAllConnections' in server) server.closeAllConnections();
    setTimeout(() => {
      store?.close();
      process.exit(0);
    }, 3000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

export { UsageError };
