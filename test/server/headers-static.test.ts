import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../server/http/headers.ts';
import { createTestServer, makeTempDir } from './helpers.ts';

const dist = makeTempDir('ref-dist-');
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Dashboard</title><script type="module" src="/assets/index-abc123.js"></script>');
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.map'), '{"sources":["src/secret-source.ts"]}');
fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
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
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self';/);
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
