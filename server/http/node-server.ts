import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';

/** Headers and body of a request must arrive within this (`REQUEST_TIMEOUT_MS` overrides). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface NodeServerOptions {
  port: number;
  hostname: string;
  /** A request whose headers and body have not all arrived by then is answered 408 and closed. */
  requestTimeoutMs?: number;
}

/**
 * Serves `fetch` (the Hono app) over HTTP. Slow clients are bounded: a request trickling its
 * headers or body in gets a 408 when `requestTimeoutMs` has passed (checked every second),
 * instead of holding a connection open for Node's default five minutes.
 */
export function startNodeServer(
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
  options: NodeServerOptions,
  onListen: (info: AddressInfo) => void,
): ServerType {
  const timeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return serve({
    fetch, port: options.port, hostname: options.hostname,
    serverOptions: { headersTimeout: timeout, requestTimeout: timeout, connectionsCheckingInterval: Math.min(1000, timeout) },
  }, onListen);
}
