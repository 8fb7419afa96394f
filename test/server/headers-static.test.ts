import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../server/http/headers.ts';
import { createTestServer, makeTempDir } from './helpers.ts';

const dist = makeTempDir('ref-dist-');
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><title>Dashboard</title><script type="module" src="/assets/index-abc123.js"></script>',
);
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.map'), '{"sources":["src/secret-source.ts"]}');
fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
// A big script with the build's pre-compressed siblings (vite.config.ts: precompress).
const bigScript = `console.log(${JSON.stringify('analytics '.repeat(2000))});\n`;
fs.writeFileSync(path.join(dist, 'assets', 'app-def456.js'), bigScript);
fs.writeFileSync(path.join(dist, 'assets', 'app-def456.js.br'), zlib.brotliCompressSync(bigScript));
fs.writeFileSync(path.join(dist, 'assets', 'app-def456.js.gz'), zlib.gzipSync(bigScript));
fs.writeFileSync(path.join(path.dirname(dist), 'outside-secret.txt'), 'secret');

const server = createTestServer({ staticDir: dist });
const unbuilt = createTestServer();
afterAll(() => {
  server.close();
  unbuilt.close();
  fs.rmSync(dist, { recursive: true, force: true });
  fs.rmSync(path.join(path.dirname(dist), 'outside-secret.txt'), { force: true });
});
const html = { key: null, headers: { Accept: 'text/html,application/xhtml+xml' } };

describe('security headers', () => {
  it('are on every response: API success, API error, static, fallback', async () => {
    const responses = [
      await server.get('/api/organizations/'),
      await server.get('/api/organizations/', { key: null }),
      await server.get('/', html),
      await server.get('/assets/index-abc123.js', { key: null }),
      await server.get('/api/nothing/'),
      await unbuilt.get('/', html),
    ];
    for (const res of responses) {
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    // One inline script, the theme's, by its hash: nothing else inline runs.
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self' 'sha256-[\w+/]+=*';/);
    expect(CONTENT_SECURITY_POLICY).not.toContain("script-src 'self' 'unsafe-inline'");
  });

  it('Cache-Control: no-store on /api, including errors', async () => {
    expect((await server.get('/api/organizations/')).headers.get('cache-control')).toBe('no-store');
    expect((await server.get('/api/organizations/', { key: null })).headers.get('cache-control')).toBe('no-store');
    expect((await server.request('PUT', '/api/organizations/')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('static files', () => {
  it('serves index.html for client-side routes that accept HTML', async () => {
    for (const p of ['/', '/organizations/abc/members', '/projects/1/insights/new/trends']) {
      const res = await server.get(p, html);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toContain('<title>Dashboard</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('caches hashed assets forever, and 404s missing ones instead of sending HTML', async () => {
    const res = await server.get('/assets/index-abc123.js', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await server.get('/assets/missing-123.js', html)).status).toBe(404);
  });

  it('serves other files of dist/ and 404s non-HTML requests for unknown files', async () => {
    expect((await server.get('/favicon.svg', { key: null })).headers.get('content-type')).toBe('image/svg+xml');
    expect((await server.get('/nope.png', { key: null, headers: { Accept: 'image/*' } })).status).toBe(404);
  });

  it('never serves source maps, even ones an older build left in dist/', async () => {
    for (const accept of [{}, { Accept: 'text/html' }] as Record<string, string>[]) {
      const res = await server.get('/assets/index-abc123.js.map', { key: null, headers: accept });
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('secret-source');
    }
  });

  it('never serves a file outside dist/', async () => {
    for (const p of ['/../outside-secret.txt', '/%2e%2e/outside-secret.txt', '/assets/..%2f..%2foutside-secret.txt']) {
      const res = await server.get(p, { key: null });
      expect(res.text, p).not.toContain('secret');
    }
  });

  it('503 in plain text saying to run npm run build when dist/ is missing', async () => {
    const res = await unbuilt.get('/', html);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toContain('npm run build');
    expect((await unbuilt.get('/api/organizations/')).status).toBe(200);
  });
});

describe('compression', () => {
  const raw = (url: string, headers: Record<string, string>, method = 'GET') =>
    server.app.request(url, { method, headers });
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it('serves the pre-compressed file the client accepts, brotli first, with its length and Vary', async () => {
    const br = await raw('/assets/app-def456.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const brBytes = await bytes(br);
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.length);
    expect(zlib.brotliDecompressSync(brBytes).toString()).toBe(bigScript);
    expect(brBytes.length).toBeLessThan(bigScript.length / 10);

    const gz = await raw('/assets/app-def456.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(await bytes(gz)).toString()).toBe(bigScript);
    const refused = await raw('/assets/app-def456.js', { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(refused.headers.get('content-encoding')).toBe('gzip');
  });

  it('sends plain bytes to a client that accepts no encoding; HEAD and Range requests behave', async () => {
    const plain = await raw('/assets/app-def456.js', {});
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    expect((await bytes(plain)).toString()).toBe(bigScript);
    expect(Number(plain.headers.get('content-length'))).toBe(Buffer.byteLength(bigScript));
    const head = await raw('/assets/app-def456.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe('br');
    expect((await bytes(head)).length).toBe(0);
    // A Range is not served partially: the whole file, 200 (what HTTP allows a server to do).
    const range = await raw('/assets/app-def456.js', { Range: 'bytes=0-9' });
    expect(range.status).toBe(200);
    expect((await bytes(range)).toString()).toBe(bigScript);
  });

  it('compresses API answers over 1 kB for clients that accept it, and leaves small ones plain', async () => {
    const headers = { Authorization: `Bearer ${server.demoKey}` };
    const plain = await raw('/api/schema/', headers);
    const plainText = (await bytes(plain)).toString();
    const gz = await raw('/api/schema/', { ...headers, 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toContain('Accept-Encoding');
    const gzBytes = await bytes(gz);
    expect(Number(gz.headers.get('content-length'))).toBe(gzBytes.length);
    expect(zlib.gunzipSync(gzBytes).toString()).toBe(plainText);
    const br = await raw('/api/schema/', { ...headers, 'Accept-Encoding': 'br' });
    expect(zlib.brotliDecompressSync(await bytes(br)).toString()).toBe(plainText);
    const small = await raw('/api/personal_api_keys/@current/', { ...headers, 'Accept-Encoding': 'gzip, br' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse((await bytes(small)).toString()).scopes).toEqual(['*']);
    const error = await raw('/api/organizations/', { 'Accept-Encoding': 'gzip' });
    expect(error.status).toBe(401);
    expect(JSON.parse((await bytes(error)).toString()).code).toBe('not_authenticated');
  });
});
