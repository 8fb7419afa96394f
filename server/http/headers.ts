import type { MiddlewareHandler } from 'hono';
import { THEME_SCRIPT_HASH } from './theme-script.ts';

/**
 * No inline script but the theme's (theme-script.ts), allowed by its hash. connect-src: the dashboard's own origin (where /api is served or
 * proxied) plus the API origins the server was told of: the upstream in proxy mode and any
 * `--api-origin` (for signing in to another server directly). Nothing else.
 */
export function contentSecurityPolicy(apiOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${THEME_SCRIPT_HASH}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src ${["'self'", ...apiOrigins].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The policy of a server with no other API origin. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** `https://host:8443/some/path` → `https://host:8443`; anything that is not an http(s) URL is refused. */
export function apiOrigin(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${url} is not an http(s) URL`);
  return parsed.origin;
}

function headersWith(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
}

const isApi = (path: string) => path === '/api' || path.startsWith('/api/');
/** API answers, and a shared insight's data (public, but revocable at once: never kept by a cache). */
const noStore = (path: string) => isApi(path) || /^\/shared\/[^/]+\/insight\/?$/.test(path);
const SECURITY_HEADERS = headersWith(CONTENT_SECURITY_POLICY);

/** The security headers a response to `path` carries: `Cache-Control: no-store` too on /api. */
export const securityHeadersFor = (path: string): Record<string, string> =>
  noStore(path) ? { ...SECURITY_HEADERS, 'Cache-Control': 'no-store' } : SECURITY_HEADERS;

/**
 * Security headers on every response; `Cache-Control: no-store` on every /api response.
 * Set on the context before the handler runs, so every response built through the context
 * (c.json, c.body, c.newResponse, errors rendered with ApiError.render) is created with them:
 * copying a finished Response to add headers costs more than the whole API handler.
 */
export const securityHeaders = (apiOrigins: readonly string[] = []): MiddlewareHandler => {
  const base = headersWith(contentSecurityPolicy(apiOrigins));
  const api = { ...base, 'Cache-Control': 'no-store' };
  return async (c, next) => {
    for (const [name, value] of Object.entries(noStore(c.req.path) ? api : base)) c.header(name, value);
    await next();
  };
};

export { isApi };
