import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { withRoutePreloads } from '../../server/http/route-preload.ts';
import { createTestServer, makeTempDir } from './helpers.ts';

/** The reference server names a path's route chunks in the page it serves (server/http/route-preload.ts). */

const INDEX = [
  '<!doctype html>',
  '<html lang="en">',
  '  <head>',
  '    <title>Dashboard</title>',
  '    <script async data-route-preload src="/assets/route-preload-1.js"></script>',
  '    <script type="module" crossorigin src="/assets/index-1.js"></script>',
  '    <link rel="stylesheet" crossorigin href="/assets/index-1.css">',
  '  </head>',
  '  <body><div id="root"></div></body>',
  '</html>',
].join('\n');
const TABLE = {
  base: '/',
  script: 'assets/route-preload-1.js',
  table: [
    ['^(/|$)', ['assets/root.js']],
    ['^/organizations/?$', ['assets/orgs.js', 'assets/list.js']],
    ['^/organizations/[^/]+/batch-exports(/|$)', ['assets/exports.js', 'assets/list.js']],
  ],
};

const withTable = makeTempDir('ref-dist-preload-');
fs.mkdirSync(path.join(withTable, '.vite'));
fs.writeFileSync(path.join(withTable, 'index.html'), INDEX);
fs.writeFileSync(path.join(withTable, '.vite', 'route-preload.json'), JSON.stringify(TABLE));
const withoutTable = makeTempDir('ref-dist-plain-');
fs.writeFileSync(path.join(withoutTable, 'index.html'), INDEX);
/** Builds whose table cannot be used: the page must go out as built. */
const unusable = {
  'another build': { ...TABLE, script: 'assets/route-preload-0.js' },
  'no table array': { base: '/', script: TABLE.script, table: null },
  'a pattern that is no regular expression': { ...TABLE, table: [['^/(', ['assets/x.js']]] },
  'no JSON': '{"base": "/", ',
};
const unusableDirs = Object.entries(unusable).map(([what, table]) => {
  const dir = makeTempDir('ref-dist-bad-');
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(
    path.join(dir, '.vite', 'route-preload.json'),
    typeof table === 'string' ? table : JSON.stringify(table),
  );
  return [what, dir] as const;
});

const server = createTestServer({ staticDir: withTable });
const plain = createTestServer({ staticDir: withoutTable });
afterAll(() => {
  server.close();
  plain.close();
  for (const dir of [withTable, withoutTable, ...unusableDirs.map(([, d]) => d)])
    fs.rmSync(dir, { recursive: true, force: true });
});

/** The links' paths; each asks for low priority (the stylesheet and the entry first). */
const preloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" fetchpriority="low" href="([^"]+)">/g)].map((m) => m[1]);

describe('the page names its route chunks', () => {
  it('links what the path needs, once each, after the entry and the stylesheet, and drops the script', async () => {
    const res = await server.app.request('/organizations/abc/batch-exports', { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(preloads(html)).toEqual(['/assets/root.js', '/assets/exports.js', '/assets/list.js']);
    expect(html).not.toContain('data-route-preload');
    expect(html.indexOf('modulepreload')).toBeGreaterThan(html.indexOf('rel="stylesheet"'));
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
  });

  it('compresses the page for a client that takes brotli or gzip, with its length', async () => {
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const res = await server.app.request('/organizations', {
        headers: { Accept: 'text/html', 'Accept-Encoding': encoding },
      });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('content-length')).toBe(String(bytes.length));
      expect(preloads(decode(bytes).toString('utf8'))).toEqual([
        '/assets/root.js',
        '/assets/orgs.js',
        '/assets/list.js',
      ]);
    }
  });

  it('serves the page as built when the build wrote no table (the script does the work then)', async () => {
    const res = await plain.app.request('/organizations', { headers: { Accept: 'text/html' } });
    expect(await res.text()).toBe(INDEX);
  });

  it('serves the page as built when the table is of another build or malformed, never a 500', async () => {
    for (const [what, dir] of unusableDirs) {
      const other = createTestServer({ staticDir: dir });
      try {
        const res = await other.app.request('/organizations', { headers: { Accept: 'text/html' } });
        expect(res.status, what).toBe(200);
        expect(await res.text(), what).toBe(INDEX);
      } finally {
        other.close();
      }
    }
  });
});

describe('withRoutePreloads', () => {
  const parsed = (base: string, table: Array<[string, string[]]>) => ({
    base,
    script: 'assets/route-preload-1.js',
    routes: table.map(([p, f]) => [new RegExp(p), f] as [RegExp, string[]]),
  });

  it('leaves a page without the marked script as it is', () => {
    const page = '<html><head><script type="module" src="/a.js"></script></head></html>';
    expect(withRoutePreloads(page, parsed('/', [['^/', ['assets/a.js']]]), '/organizations')).toBe(page);
  });

  it('links nothing for a path no route matches, and still drops the script', () => {
    const html = withRoutePreloads(INDEX, parsed('/', [['^/x$', ['assets/x.js']]]), '/organizations');
    expect(preloads(html)).toEqual([]);
    expect(html).not.toContain('route-preload-1.js');
    expect(withRoutePreloads(INDEX, parsed('/', [['^/x$', ['assets/x.js']]]), '/x')).toContain(
      '<link rel="modulepreload" fetchpriority="low" href="/assets/x.js">',
    );
  });
});
