import { serve, type ServerType } from '@hono/node-server';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Headers and body of a request must arrive within this (`REQUEST_TIMEOUT_MS` overrides). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * After answering a request whose body is still arriving (a 413) and closing, the server goes on
 * reading and dropping the body for this long, or this many bytes, before it closes the socket.
 * Closing at once makes the client's next write fail before it has read the answer, so it sees
 * "connection reset" instead of the 413 (nginx calls this lingering close).
 */
const LINGER_MS = 2_000;
const LINGER_BYTES = 64 * 1024 * 1024;

export interface NodeServerOptions {
  port: number;
  hostname: string;
  /** A request whose headers and body have not all arrived by then is answered 408 and closed. */
  requestTimeoutMs?: number;
}

/**
 * Serves `fetch` (the Hono app) over HTTP. Slow clients are bounded: a request trickling its
 * headers or body in gets a 408 when `requestTimeoutMs` has passed (checked every second),
 * instead of holding a connection open for Node's default five minutes. A request refused while
 * its body is still coming gets its answer reliably: see LINGER_MS.
 */
export function startNodeServer(
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
  options: NodeServerOptions,
  onListen: (info: AddressInfo) => void,
): ServerType {
  const timeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const server = serve(
    {
      fetch,
      port: options.port,
      hostname: options.hostname,
      serverOptions: {
        headersTimeout: timeout,
        requestTimeout: timeout,
        connectionsCheckingInterval: Math.min(1000, timeout),
      },
    },
    onListen,
  );
  (server as Server).on('request', (request: IncomingMessage, response: ServerResponse) =>
    lingerOnEarlyClose(request, response),
  );
  return server;
}

/**
 * Node ends a `Connection: close` answer with `socket.destroySoon()`, which drops the socket as
 * soon as the answer is written. When the request body has not all arrived, that socket
 * instead half-closes (the answer and a FIN go out), keeps reading and discarding, and is
 * destroyed after LINGER_MS or LINGER_BYTES more.
 */
function lingerOnEarlyClose(request: IncomingMessage, response: ServerResponse) {
  response.once('prefinish', () => {
    if (request.complete) return;
    const socket = request.socket as Socket & { destroySoon?: () => void };
    const start = socket.bytesRead;
    socket.destroySoon = () => {
      socket.end();
      request.resume();
      const check = setInterval(() => {
        if (socket.destroyed) return void clearInterval(check);
        if (socket.bytesRead - start > LINGER_BYTES) socket.destroy();
      }, 25);
      const stop = setTimeout(() => socket.destroy(), LINGER_MS);
      check.unref();
      stop.unref();
      socket.once('close', () => {
        clearInterval(check);
        clearTimeout(stop);
      });
    };
  });
}
