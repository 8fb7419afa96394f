import type { MiddlewareHandler } from 'hono';

/** No inline script anywhere; connect-src allows http(s) so the SPA can talk to another base URL. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' http: https:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/** Security headers on every response; `Cache-Control: no-store` on every /api response. */
export const securityHeaders = (): MiddlewareHandler => async (c, next) => {
  await next();
  // Responses built elsewhere (proxied, static) may have immutable headers: copy when needed.
  let res = c.res;
  try {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.headers.set(name, value);
  } catch {
    res = new Response(res.body, res);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.headers.set(name, value);
  }
  if (isApi(c.req.path)) res.headers.set('Cache-Control', 'no-store');
  c.res = res;
};

export { isApi };
