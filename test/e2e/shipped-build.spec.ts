import { expect, test, type Page } from '@playwright/test';
import { demoKey, seededOrganization } from './fixtures';

/** What the production build publishes, seen from a browser's side of the wire. */

/** The app's entry script in index.html: a module script that is not the page's first script (src/warm-up.ts, marked data-warm-up). */
const APP_ENTRY = /<script type="module"(?![^>]*\sdata-warm-up)[^>]*\ssrc="([^"]+\.js)"/;

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
  const entry = APP_ENTRY.exec(html)?.[1];
  expect(entry).toBeTruthy();
  const js = await request.get(entry!, { headers: { 'Accept-Encoding': 'br' } });
  expect(js.headers()['content-encoding']).toBe('br');
  expect(js.headers()['vary']).toContain('Accept-Encoding');
  expect((await js.body()).length).toBeGreaterThan(1000);
  // Its first line asks the browser to compile it while it downloads, not function by function on
  // the main thread as the first render calls them (scripts/route-preload.ts: COMPILE_HINT).
  expect((await (await request.get(entry!)).text()).startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
});

const WARM_UP = /\/assets\/warm-up\.worker-[\w-]+\.js$/;

test("the locale's data loads in a worker the page's CSP allows, and the dates show", async ({ page, request }) => {
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const org = await seededOrganization(request);
  await page.goto(`/organizations/${org.id}/batch-exports#key=${demoKey()}`);
  // The last runs' times, made by the page's own formatters ("3 hours ago"; the full date on hover).
  const lastRun = page.locator('table time').first();
  await expect(lastRun).toHaveText(/ago|yesterday|now/);
  await expect(lastRun).toHaveAttribute('title', /\d{4}/);
  expect(workers.some((path) => WARM_UP.test(path))).toBe(true);
  expect(violations).toEqual([]);
  // The worker is started by the page's first script (src/warm-up.ts), async and ahead of the
  // app's entry, and importing nothing, so it never waits for the entry's download.
  const html = await (await request.get('/', { headers: { Accept: 'text/html' } })).text();
  const first = /<script type="module"[^>]*\sdata-warm-up\s[^>]*src="([^"]+\.js)"/.exec(html);
  expect(first).not.toBeNull();
  expect(first![0]).toMatch(/\sasync\s/);
  expect(first!.index).toBeLessThan(APP_ENTRY.exec(html)!.index);
  expect(await (await request.get(first![1]!)).text()).not.toMatch(/\bimport\s*["'{(*\w]/);
});

/** The chunk files the page was told to preload (`<link rel="modulepreload">`: the reference server writes them into the page; another host gets them from the route-preload script). */
const preloaded = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => new URL(l.href).pathname),
  );

test("a deep link fetches its route's code beside the entry script, and only that route's", async ({
  page,
  browser,
  request,
}) => {
  const org = await seededOrganization(request);
  await page.goto(`/organizations/${org.id}/batch-exports#key=${demoKey()}`);
  await expect(page.getByRole('heading', { name: 'Batch exports' })).toBeVisible();
  const deep = await preloaded(page);
  // The signed-in layout and the batch-exports page, fetched because the path asked for them…
  expect(deep.some((p) => /\/assets\/_authed-[\w-]+\.js$/.test(p))).toBe(true);
  expect(deep.some((p) => /\/assets\/batch-exports-[\w-]+\.js$/.test(p))).toBe(true);
  // …and all of them used: each one is a script the page loaded.
  const loaded = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
  );
  for (const file of deep) expect(loaded).toContain(file);
  // Each is compiled while it downloads, as the entry is (the compile hint on its first line).
  for (const file of deep)
    expect((await (await request.get(file)).text()).startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
  // No script of the first view waited for the router to ask for it (a round trip more on a
  // phone before the list's request can start): every script requested before the list's
  // request is the entry or preloaded by the page's HTML (later ones, such as code fetched
  // when the browser is idle, are not the first view's).
  const entry = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement>('script[type="module"]')].map((s) => new URL(s.src).pathname),
  );
  const html = await (
    await request.get(`/organizations/${org.id}/batch-exports`, { headers: { Accept: 'text/html' } })
  ).text();
  const inHtml = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  expect(inHtml.length).toBeGreaterThan(0);
  const timed = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({ path: new URL(e.name).pathname, start: e.startTime })),
  );
  const listStart = timed.find((e) => /\/batch_exports\/$/.test(e.path))!.start;
  // (The locale warm-up worker is the page's first script's own, started as it runs: see the test above.)
  const early = timed
    .filter((e) => e.start < listStart && /^\/assets\/.+\.js$/.test(e.path) && !WARM_UP.test(e.path))
    .map((e) => e.path);
  expect(early.filter((p) => !entry.includes(p) && !inHtml.includes(p))).toEqual([]);

  // Signed out, the sign-in page preloads its own form, not the signed-in layout.
  const signedOut = await browser.newPage();
  await signedOut.goto('/sign-in');
  await expect(signedOut.getByRole('button', { name: /sign in/i })).toBeVisible();
  const signIn = await preloaded(signedOut);
  await signedOut.close();
  expect(signIn.some((p) => /\/assets\/sign-in-[\w-]+\.js$/.test(p))).toBe(true);
  expect(signIn.filter((p) => /_authed|batch-exports/.test(p))).toEqual([]);
});

test('the dashboard can be added to a home screen (its manifest parses, with PNG icons of 192 and 512 px) and asks search engines to stay out', async ({
  page,
  request,
}) => {
  await page.goto('/sign-in');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', /^#[0-9a-f]{6}$/i);
  const cdp = await page.context().newCDPSession(page);
  const { url, errors, data } = await cdp.send('Page.getAppManifest');
  expect(new URL(url).pathname).toBe('/manifest.webmanifest');
  expect(errors).toEqual([]);
  const manifest = JSON.parse(data!) as {
    name: string;
    display: string;
    start_url: string;
    icons: Array<{ src: string; sizes: string; type: string }>;
  };
  expect(manifest).toMatchObject({ name: 'Analytics admin', display: 'standalone', start_url: '/' });
  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  expect(pngs.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) {
    const res = await request.get(icon.src);
    expect(res.headers()['content-type'], icon.src).toBe(icon.type);
    const body = await res.body();
    // A PNG's width and height are in its header: the size the manifest says.
    if (icon.type === 'image/png') expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`).toBe(icon.sizes);
  }
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toMatch(/^User-agent: \*\s*\nDisallow: \/\s*$/m);
});
