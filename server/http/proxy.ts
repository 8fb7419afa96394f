import type { Context } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import { badGateway } from './errors.ts';
import { securityHeadersFor } from './headers.ts';
import type { Logger } from './types.ts';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and those the fetch layer must set itself. */
const DROP_REQUEST = [
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'accept-encoding',
];
/** fetch already decoded the body, so its encoding and length no longer hold. */
const DROP_RESPONSE = ['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length'];

/** `https://host/base` + `/api/x/?q` → `https://host/base/api/x/?q`. */
export function upstreamUrl(upstream: string, requestUrl: string): string {
  const base = new URL(upstream);
  const incoming = new URL(requestUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  return `${base.origin}${prefix}${incoming.pathname}${incoming.search}`;
}

/** Forwards the request (method, headers incl. Authorization, body) and streams the answer back. */
export function createProxyHandler(upstream: string, logger: Logger) {
  return async (c: Context): Promise<Response> => {
    const headers = new Headers(c.req.raw.headers);
    for (const name of DROP_REQUEST) headers.delete(name);
    const hasBody = !['GET', 'HEAD'].includes(c.req.method);
    let res: Response;
    try {
      res = await fetch(upstreamUrl(upstream, c.req.url), {
        method: c.req.method,
        headers,
        body: hasBody ? c.req.raw.body : null,
        redirect: 'manual',
        ...(hasBody ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (error) {
      logger.error(`proxy: ${c.req.method} ${c.req.path} to ${upstream} failed`, error);
      return badGateway().render(c);
    }
    const out = new Headers(res.headers);
    for (const name of DROP_RESPONSE) out.delete(name);
    // Built through the context: the dashboard's own security headers win over the upstream's.
    for (const name of Object.keys(securityHeadersFor(c.req.path))) out.delete(name);
    return c.newResponse(res.body, { status: res.status as StatusCode, statusText: res.statusText, headers: out });
  };
}
