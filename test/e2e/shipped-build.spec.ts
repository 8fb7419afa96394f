import { expect, test } from '@playwright/test';

/** What the production build publishes, seen from a browser's side of the wire. */

test('the built app ships no source maps: no .map files, no sourceMappingURL in the scripts', async ({ request }) => {
  const html = await (await request.get('/', { headers: { Accept: 'text/html' } })).text();
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link[^>]+href="([^"]+\.js)"/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of [...scripts, ...preloads]) {
    const js = await request.get(src);
    expect(js.status()).toBe(200);
    expect(await js.text()).not.toContain('sourceMappingURL');
    expect((await request.get(`${src}.map`)).status()).toBe(404);
  }
});

test("the page may connect only to its own origin: CSP connect-src 'self'", async ({ request }) => {
  const csp = (await request.get('/', { headers: { Accept: 'text/html' } })).headers()['content-security-policy'] ?? '';
  expect(csp).toContain("connect-src 'self';");
  expect(csp).not.toMatch(/connect-src[^;]*\bhttps?:(?!\/\/)/);
});

test('scripts reach the browser brotli-compressed; the page itself is never cached', async ({ request }) => {
  const page = await request.get('/', { headers: { Accept: 'text/html', 'Accept-Encoding': 'gzip, deflate, br' } });
  expect(page.headers()['cache-control']).toBe('no-cache');
  const html = await page.text();
  const entry = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toBeTruthy();
  const js = await request.get(entry!, { headers: { 'Accept-Encoding': 'br' } });
  expect(js.headers()['content-encoding']).toBe('br');
  expect(js.headers()['vary']).toContain('Accept-Encoding');
  expect((await js.body()).length).toBeGreaterThan(1000);
});

