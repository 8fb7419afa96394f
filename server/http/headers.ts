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
const API_HEADERS = { ...SECURITY_HEADERS, 'Cache-Control': 'no-store' };

/** The security headers a response to `path` carries: `Cache-Control: no-store` too on /api. */
export const securityHeadersFor = (path: string): Record<string, string> => (isApi(path) ? API_HEADERS : SECURITY_HEADERS);

/**
 * Security headers on every response; `Cache-Control: no-store` on every /api response.
 * Set on the context before the handler runs, so every response built through the context
 * (c.json, c.body, c.newResponse, errors rendered with ApiError.render) is created with them:
 * copying a finished Response to add headers costs more than the whole API handler.
 */
export const securityHeaders = (): MiddlewareHandler => async (c, next) => {
  for (const [name, value] of Object.entries(securityHeadersFor(c.req.path))) c.header(name, value);
  await next();
};

export { isApi };
