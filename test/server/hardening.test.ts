import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { openDataDir } from '../../server/data-dir.ts';
import { startNodeServer } from '../../server/http/node-server.ts';
import { BlockedDestinationError, isPrivateAddress, sendOutbound } from '../../server/net/outbound.ts';
import { createSecretBox } from '../../server/store/secret-box.ts';
import { createTestServer, HEDGEBOX, makeTempDir, type TestServer } from './helpers.ts';

/**
 * Regression tests of the server audit (issue "Hardening"), HTTP half: paths, bodies and slow
 * clients on a real socket, files and secrets, outbound targets, keys and origins.
 */

const NOW = new Date('2024-03-20T12:00:00Z');
let server: TestServer;
let orgId: string;

beforeAll(() => {
  server = createTestServer({ now: () => NOW });
  orgId = server.orgIds[HEDGEBOX]!;
});
afterAll(async () => {
  await server.close();
});

/** The app on a real socket: what a client's raw request line reaches (dot segments, slow and endless bodies). */
async function listen(requestTimeoutMs = 30_000) {
  let address!: AddressInfo;
  const node = await new Promise<ReturnType<typeof startNodeServer>>((resolve) => {
    const s = startNodeServer(server.app.fetch, { port: 0, hostname: '127.0.0.1', requestTimeoutMs }, (info) => {
      address = info;
      resolve(s);
    });
  });
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        (node as http.Server).closeAllConnections();
        node.close(() => resolve());
      }),
  };
}

function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('paths, bodies and slow clients on a real socket', () => {
  it('dot segments, plain or percent-encoded, are 404 and reach nothing', async () => {
    const socket = await listen();
    try {
      const auth = { Authorization: `Bearer ${server.demoKey}` };
      for (const target of [
        `/api/organizations/${orgId}/batch_exports/../`,
        `/api/organizations/${orgId}/batch_exports/%2e%2e/`,
        `/api/organizations/${orgId}/batch_exports/%2E%2e`,
        `/api/organizations/${orgId}/./`,
        `/api/organizations/x/..%2f..%2f`,
      ]) {
        const res = await rawRequest(socket.port, 'DELETE', target, auth);
        expect([target, res.status]).toEqual([target, 404]);
      }
      expect((await server.get(`/api/organizations/${orgId}/`)).status).toBe(200);
      expect((await rawRequest(socket.port, 'GET', `/api/organizations/${orgId}/`, auth)).status).toBe(200);
    } finally {
      await socket.close();
    }
  });

  it('a chunked 500 MB body is refused at the limit, with memory growth under 64 MB', async () => {
    const socket = await listen();
    try {
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const before = process.memoryUsage().rss;
      let peak = before;
      let sent = 0;
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: socket.port,
            method: 'POST',
            path: '/batch/',
            headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', (error) => (sent > 0 ? undefined : reject(error)));
        req.on('close', () => resolve(-1)); // reset before any answer: a failure that says so, not a hang
        const pump = () => {
          while (sent < 500 * 1024 * 1024 && !req.destroyed) {
            peak = Math.max(peak, process.memoryUsage().rss);
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
      expect(status).toBe(413);
      expect(sent).toBeLessThan(200 * 1024 * 1024);
      expect((peak - before) / 1024 / 1024).toBeLessThan(64);
      expect((await server.get('/api/organizations/')).status).toBe(200);
    } finally {
      await socket.close();
    }
  });

  it('a body that trickles in is cut with a 408 at the request timeout', async () => {
    const socket = await listen(1500);
    try {
      const started = performance.now();
      const status = await new Promise<number>((resolve) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: socket.port,
            method: 'POST',
            path: '/batch/',
            headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', () => resolve(-1));
        req.write('{"api_key":');
        const drip = setInterval(() => (req.destroyed ? clearInterval(drip) : req.write(' ')), 200);
        req.on('close', () => clearInterval(drip));
      });
      expect(status).toBe(408);
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await socket.close();
    }
  });
});

describe('files and secrets', () => {
  it('the data dir is 0700, its files 0600, and destination secrets are sealed at rest', async () => {
    const dir = makeTempDir();
    fs.rmSync(dir, { recursive: true });
    const { store, events } = openDataDir(dir);
    try {
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      for (const file of ['store.sqlite', 'secret-key', 'demo-key'])
        expect([file, fs.statSync(path.join(dir, file)).mode & 0o777]).toEqual([file, 0o600]);
      await events.ready();
      expect(fs.statSync(path.join(dir, 'events.duckdb')).mode & 0o777).toBe(0o600);
      const org = store.db.prepare('SELECT id FROM organizations ORDER BY created_at LIMIT 1').pluck().get() as string;
      const id = store.batchExports.create(
        org,
        {
          team_id: 1,
          name: 'sealed',
          model: 'events',
          destination_type: 'HTTP',
          interval: 'hour',
          paused: 1,
          destination_config: JSON.stringify({ url: 'https://example.com/in', token: 'SEALED-TOKEN-1234' }),
          last_paused_at: null,
          start_at: null,
          end_at: null,
          hogql_query: null,
          last_updated_at: '2024-01-01T00:00:00Z',
          next_run_at: null,
        },
        '2024-01-01T00:00:00Z',
      );
      expect(JSON.parse(store.batchExports.get(id)!.destination_config).token).toBe('SEALED-TOKEN-1234');
      store.db.pragma('wal_checkpoint(TRUNCATE)');
      const raw = store.db.prepare('SELECT destination_config FROM batch_exports').pluck().all() as string[];
      expect(raw.every((c) => c.startsWith('enc:v1:'))).toBe(true);
      for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('store.sqlite'))) {
        expect(fs.readFileSync(path.join(dir, file)).includes('SEALED-TOKEN-1234')).toBe(false);
      }
    } finally {
      store.close();
      await events.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const a = createSecretBox(':memory:', { SECRET_KEY: 'one' });
    const sealed = a.seal('s3cret');
    expect(createSecretBox(':memory:', { SECRET_KEY: 'one' }).open(sealed)).toBe('s3cret');
    expect(() => createSecretBox(':memory:', { SECRET_KEY: 'two' }).open(sealed)).toThrow();
  });
});

describe('outbound HTTP reaches only public hosts', () => {
  let receiver: http.Server;
  let hits = 0;
  let port = 0;
  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      hits += 1;
      if (req.url === '/redirect') res.writeHead(307, { Location: `http://127.0.0.1:${port}/in` }).end();
      else if (req.url === '/redirect-slow') res.writeHead(307, { Location: `http://127.0.0.1:${port}/stall` }).end();
      else if (req.url === '/stall')
        return; // never answers
      else if (req.url === '/stall-body')
        res.writeHead(200).write('part of it'); // never ends
      else res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        receiver.closeAllConnections();
        receiver.close(() => resolve());
      }),
  );
  // A generous limit by default: resolving localhost waits for libuv's thread pool, which other
  // suites in this process may keep busy (a refused target is the point here, not the time).
  const send = (url: string, allowHosts: string[] = [], timeoutMs = 10_000) =>
    sendOutbound(url, { method: 'POST', headers: {}, body: 'x', timeoutMs, readBodyBytes: 100 }, { allowHosts });

  it('loopback, private and link-local targets are refused before any byte is sent, after DNS too', async () => {
    await expect(send(`http://127.0.0.1:${port}/in`)).rejects.toBeInstanceOf(BlockedDestinationError);
    await expect(send(`http://localhost:${port}/in`)).rejects.toBeInstanceOf(BlockedDestinationError);
    await expect(send(`http://[::1]:${port}/in`)).rejects.toBeInstanceOf(BlockedDestinationError);
    await expect(send('file:///etc/passwd')).rejects.toBeInstanceOf(BlockedDestinationError);
    expect(hits).toBe(0);
    for (const a of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ]) {
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });

  it('an allow-listed host is reached; a redirect from it to another private host is refused', async () => {
    expect((await send(`http://localhost:${port}/in`, ['localhost'])).status).toBe(200);
    expect(hits).toBe(1);
    await expect(send(`http://localhost:${port}/redirect`, ['localhost'])).rejects.toBeInstanceOf(
      BlockedDestinationError,
    );
    expect(hits).toBe(2);
    expect((await send(`http://localhost:${port}/redirect`, ['localhost', '127.0.0.1'])).status).toBe(200);
  });

  it('gives up at its time limit on a host that never answers, one that stops in the middle of its body, and across a redirect', async () => {
    for (const path of ['/stall', '/stall-body', '/redirect-slow']) {
      const started = Date.now();
      const error = await send(`http://localhost:${port}${path}`, ['localhost', '127.0.0.1'], 300).then(
        () => null,
        (e: Error) => e,
      );
      expect([path, error?.name]).toEqual([path, 'TimeoutError']);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });
});

describe('keys and origins', () => {
  it('a key limited to some organizations cannot create one it could not open', async () => {
    const key = server.makeKey({ scopes: ['organization:write'], organizations: [orgId] });
    const before = (await server.get('/api/organizations/')).body.count;
    const res = await server.request('POST', '/api/organizations/', { key, json: { name: 'Escape' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
    expect((await server.get('/api/organizations/')).body.count).toBe(before);
    expect(
      (
        await server.request('POST', '/api/organizations/', {
          key: server.makeKey({ scopes: ['organization:write'] }),
          json: { name: 'Allowed' },
        })
      ).status,
    ).toBe(201);
  });

  it('failed authentication is limited per address (429 with Retry-After); valid keys are not slowed', async () => {
    const own = createTestServer({ now: () => NOW });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 40; i += 1) {
        const res = await own.get('/api/organizations/', { key: `phx_wrong${i}` });
        statuses.push(res.status);
        retryAfter ??= res.headers.get('retry-after');
      }
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      // The valid key is answered, not held back: a tarpit would take the 1 s or more of Retry-After.
      const started = performance.now();
      const valid = await own.get('/api/organizations/');
      expect(valid.status).toBe(200);
      expect(valid.headers.get('retry-after')).toBeNull();
      expect(performance.now() - started).toBeLessThan(Number(retryAfter) * 1000);
    } finally {
      await own.close();
    }
  });

  it("CSP connect-src is the dashboard's own origin, plus the upstream or the API origins it was given", async () => {
    const csp = (await server.get('/api/organizations/')).headers.get('content-security-policy')!;
    expect(csp).toContain("connect-src 'self';");
    const proxy = createApp({ upstream: 'https://eu.example.com/base', staticDir: path.join(server.dir, 'none') });
    expect((await proxy.request('/')).headers.get('content-security-policy')).toContain(
      "connect-src 'self' https://eu.example.com;",
    );
    const other = createApp({
      store: server.store,
      events: server.events,
      apiOrigins: ['http://10.0.0.5:8000/'],
      staticDir: path.join(server.dir, 'none'),
    });
    expect((await other.request('/')).headers.get('content-security-policy')).toContain(
      "connect-src 'self' http://10.0.0.5:8000;",
    );
  });
});
