import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { notFound } from './errors.ts';

/** What @hono/node-server passes as `c.env`: the Node request behind the Fetch Request. */
export interface NodeBindings {
  incoming?: IncomingMessage;
}

const incomingOf = (c: Context): IncomingMessage | undefined => (c.env as NodeBindings | undefined)?.incoming;

/**
 * The request target as the client sent it. The Fetch `Request` has already resolved dot
 * segments (`/api/a/../b` → `/api/b`, `%2e%2e` too), so only the raw line shows them.
 */
export const rawTarget = (c: Context): string => incomingOf(c)?.url ?? new URL(c.req.url).pathname;

/** The peer's address (`unknown` without a socket, e.g. `app.request()` in tests). Proxies' headers are not trusted. */
export const clientAddress = (c: Context): string => incomingOf(c)?.socket?.remoteAddress ?? 'unknown';

/** `.` or `..` as a path segment, plain or percent-encoded (`%2e`, `%2E`), with `/` or `\` around it. */
const DOT_SEGMENT = /(^|[/\\])(\.|%2e){1,2}([/\\?#]|$)/i;

/**
 * Paths with dot segments are refused (404) before routing: the URL parser would resolve them,
 * so `DELETE /api/organizations/<id>/batch_exports/../` would reach the organization itself.
 */
export const refuseDotSegments = (): MiddlewareHandler => async (c, next) => {
  const target = rawTarget(c);
  const path = target.split('?')[0] ?? '';
  if (DOT_SEGMENT.test(path)) return notFound().render(c);
  await next();
};
