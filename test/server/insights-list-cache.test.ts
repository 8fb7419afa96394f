import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './helpers.ts';

/** The saved-insights list keeps whole answers (bytes and compressed variants): what a client sees must not change. */

let server: TestServer;
let base: string;

const raw = (url: string, encoding?: string) =>
  server.app.request(url, {
    headers: { Authorization: `Bearer ${server.demoKey}`, ...(encoding ? { 'Accept-Encoding': encoding } : {}) },
  });
const decoded = async (res: Response) => {
  const bytes = Buffer.from(await res.arrayBuffer());
  const encoding = res.headers.get('content-encoding');
  if (encoding) expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
  return (encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString(
    'utf8',
  );
};

beforeAll(async () => {
  server = createTestServer();
  const projectId = server.store.db.prepare('SELECT id FROM projects ORDER BY id LIMIT 1').pluck().get() as number;
  base = `/api/projects/${projectId}/insights/`;
  for (let i = 0; i < 30; i += 1) {
    const res = await server.request('POST', base, {
      json: {
        name: `Insight ${i}`,
        description: `Weekly numbers ${i}`,
        saved: true,
        filters: { insight: 'TRENDS', events: [{ id: '$pageview' }], date_from: '-30d' },
      },
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => server.close());

describe('GET {PRJ}/insights/ answered again', () => {
  it('gives the same JSON plain, brotli and gzip, on the first request and the next ones', async () => {
    const url = `${base}?limit=20`;
    const plain = await (await raw(url)).text();
    expect(JSON.parse(plain).results).toHaveLength(20);
    for (const encoding of ['gzip, deflate, br', 'gzip', 'br;q=0, gzip']) {
      for (let i = 0; i < 2; i += 1) {
        const res = await raw(url, encoding);
        expect(res.headers.get('content-encoding')).toBe(encoding === 'gzip, deflate, br' ? 'br' : 'gzip');
        expect(res.headers.get('vary')).toBe('Accept-Encoding');
        expect(await decoded(res)).toBe(plain);
      }
    }
    expect(await (await raw(url)).text()).toBe(plain);
  });

  it('sends a small answer (under 1 kB) plain with its length, whatever the client accepts', async () => {
    const url = `${base}?search=${encodeURIComponent('no such insight')}`;
    for (const encoding of [undefined, 'gzip, deflate, br']) {
      for (let i = 0; i < 2; i += 1) {
        const res = await raw(url, encoding);
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('content-encoding')).toBeNull();
        expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
        expect(bytes.byteLength).toBeLessThan(1024);
        expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ count: 0, results: [] });
        expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      }
    }
  });

  it('shows a change at once, whatever the encoding', async () => {
    const url = `${base}?limit=5`;
    const before = JSON.parse(await decoded(await raw(url, 'br')));
    const first = before.results[0];
    const patched = await server.request('PATCH', `${base}${first.id}/`, {
      json: { favorited: !first.favorited, name: 'Renamed' },
    });
    expect(patched.status).toBe(200);
    for (const encoding of [undefined, 'br', 'gzip']) {
      const after = JSON.parse(await decoded(await raw(url, encoding)));
      const row = after.results.find((r: { id: number }) => r.id === first.id);
      expect(row).toMatchObject({ name: 'Renamed', favorited: !first.favorited });
    }
  });

  it('keeps each page and its links apart', async () => {
    const a = JSON.parse(await (await raw(`${base}?limit=10`)).text());
    const b = JSON.parse(await (await raw(`${base}?limit=10&offset=10`)).text());
    expect(a.next).toBe(`http://localhost${base}?limit=10&offset=10`);
    expect(b.previous).toBe(`http://localhost${base}?limit=10`);
    expect(a.results.map((r: { id: number }) => r.id)).not.toEqual(b.results.map((r: { id: number }) => r.id));
    // Another name the server answers to gets the same links: they come from the public URL.
    const other = JSON.parse(
      await (
        await server.app.request(`http://127.0.0.1${base}?limit=10`, {
          headers: { Authorization: `Bearer ${server.demoKey}` },
        })
      ).text(),
    );
    expect(other.next).toBe(`http://localhost${base}?limit=10&offset=10`);
  });

  it('still checks the caller first: a key without insight:read gets 403, not the kept answer', async () => {
    const key = server.makeKey({ scopes: ['batch_export:read'] });
    const res = await server.get(`${base}?limit=20`, { key });
    expect(res.status).toBe(403);
  });
});
