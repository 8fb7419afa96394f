import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createTestServer } from './helpers.ts';

const server = createTestServer();
afterAll(() => server.close());

describe('request log', () => {
  it('writes one line per request: method, path, status, milliseconds; no query, no key', async () => {
    const lines: string[] = [];
    const app = createApp({ store: server.store, logger: { request: (l) => lines.push(l) } });
    await app.request('/api/organizations/?limit=1&secret=x', {
      headers: { Authorization: `Bearer ${server.demoKey}` },
    });
    await app.request('/api/organizations/', { method: 'PUT' });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/api\/organizations\/ 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^PUT \/api\/organizations\/ 405 \d+\.\dms$/);
    expect(lines.join('\n')).not.toContain(server.demoKey);
  });

  it('is off unless a request logger is given', async () => {
    const writes: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => (writes.push(String(chunk)), true)) as typeof process.stdout.write;
    try {
      await server.get('/api/organizations/');
    } finally {
      process.stdout.write = original;
    }
    expect(writes.filter((w) => w.includes('/api/organizations/'))).toEqual([]);
  });
});
