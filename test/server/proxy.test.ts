import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { upstreamUrl } from '../../server/http/proxy.ts';

let upstream: ServerType;
let base = '';
const seen: { method: string; url: string; auth: string | undefined; body: string }[] = [];

beforeAll(async () => {
  const fake = new Hono();
  fake.all('*', async (c) => {
    seen.push({ method: c.req.method, url: c.req.url, auth: c.req.header('authorization'), body: await c.req.text() });
    return c.json({ echoed: c.req.path }, 201, { 'X-Upstream': 'yes' });
  });
  await new Promise<void>((resolve) => {
    upstream = serve({ fetch: fake.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      base = `http://127.0.0.1:${info.port}/prefix`;
      resolve();
    });
  });
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

describe('proxy mode', () => {
  it('forwards method, path, query, Authorization and body to the upstream and returns its answer', async () => {
    const app = createApp({ upstream: base });
    const res = await app.request('/api/organizations/?limit=2', {
      method: 'POST',
      headers: { Authorization: 'Bearer phx_abc', 'Content-Type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await res.json()).toEqual({ echoed: '/prefix/api/organizations/' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', auth: 'Bearer phx_abc', body: '{"name":"x"}' });
    expect(seen.at(-1)!.url).toMatch(/\/prefix\/api\/organizations\/\?limit=2$/);
  });

  it('502 with an API error body when the upstream is unreachable', async () => {
    const app = createApp({ upstream: 'http://127.0.0.1:1', logger: { error: () => {} } });
    const res = await app.request('/api/organizations/');
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ type: 'server_error', code: 'bad_gateway' });
  });

  it('builds upstream URLs with the base path', () => {
    expect(upstreamUrl('https://h.example/base/', 'http://localhost:8000/api/x/?a=1')).toBe(
      'https://h.example/base/api/x/?a=1',
    );
    expect(upstreamUrl('https://h.example', 'http://localhost/api/x/')).toBe('https://h.example/api/x/');
  });
});
