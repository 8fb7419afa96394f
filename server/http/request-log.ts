import type { MiddlewareHandler } from 'hono';

/** One line per request: `GET /api/organizations/ 200 1.2ms` (no query string, no headers). */
export const requestLog =
  (write: (line: string) => void): MiddlewareHandler =>
  async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const ms = (performance.now() - start).toFixed(1);
      write(`${c.req.method} ${new URL(c.req.url).pathname} ${c.res.status} ${ms}ms`);
    }
  };
