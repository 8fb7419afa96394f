import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { startNodeServer } from '../../server/http/node-server.ts';
import { publicUrlOf } from '../../server/http/public-url.ts';
import { isPrivateAddress } from '../../server/net/outbound.ts';
import { createTestServer, HEDGEBOX, type TestServer } from './helpers.ts';

/**
 * Absolute links come from the server's public URL, never from the request's Host header, and a
 * Host the server does not serve is a 400: over a real socket, where the header is the client's.
 */

let server: TestServer;
let port: number;
let node: http.Server;

beforeAll(async () => {
  server = createTestServer();
  const app = createApp({
    store: server.store,
    events: server.events,
    staticDir: path.join(server.dir, 'no-dist'),
    publicUrl: publicUrlOf('https://dash.example.com', '127.0.0.1'),
  });
  await new Promise<void>((resolve) => {
    node = startNodeServer(app.fetch, { port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      port = info.port;
      resolve();
    }) as http.Server;
  });
});
afterAll(async () => {
  node.closeAllConnections();
  await new Promise((resolve) => node.close(resolve));
  await server.close();
});

function send(
  method: string,
  target: string,
  host: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers: {
          Host: host,
          Authorization: `Bearer ${server.demoKey}`,
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('links and the Host header', () => {
  it('answers 400 to a Host it does not serve, before any handler runs', async () => {
    const evil = await send('GET', '/api/organizations/?limit=1', 'evil.example');
    expect(evil.status).toBe(400);
    expect(evil.json).toMatchObject({ type: 'validation_error', code: 'invalid_host' });
    const spoofed = await send('POST', `/api/organizations/${server.orgIds[HEDGEBOX]!}/invites/`, 'evil.example:443', {
      target_email: 'spoof@example.org',
    });
    expect(spoofed.status).toBe(400);
    expect(
      server.store.db.prepare('SELECT COUNT(*) FROM invites WHERE target_email = ?').pluck().get('spoof@example.org'),
    ).toBe(0);
  });

  it('builds next and previous from the public URL, whichever served name the request used', async () => {
    for (const host of ['dash.example.com', `127.0.0.1:${port}`, `localhost:${port}`]) {
      const page = await send('GET', '/api/organizations/?limit=1&offset=1', host);
      expect(page.status, host).toBe(200);
      expect(page.json.next ?? page.json.previous).toMatch(/^https:\/\/dash\.example\.com\/api\/organizations\/\?/);
      expect(page.json.previous).toBe('https://dash.example.com/api/organizations/?limit=1');
    }
  });

  it('puts the public URL in the invite email and the accept link', async () => {
    const created = await send('POST', `/api/organizations/${server.orgIds[HEDGEBOX]!}/invites/`, `localhost:${port}`, {
      target_email: 'linked@example.org',
    });
    expect(created.status).toBe(201);
    expect(created.json.accept_url).toMatch(/^https:\/\/dash\.example\.com\/invite\//);
    const outbox = path.join(server.dir, 'mail');
    const mail = fs
      .readdirSync(outbox)
      .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
      .find((m) => m.includes('To: linked@example.org'))!;
    expect(mail).toMatch(/https:\/\/dash\.example\.com\/invite\/[\w-]+#token=\w{32}/);
    expect(mail).not.toContain('localhost');
  });
});

describe('the outbound guard', () => {
  it('refuses every IPv6 form of a private or loopback v4 address', () => {
    for (const address of [
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:7f00:1',
      '::ffff:127.0.0.1',
      '0:0:0:0:0:ffff:7f00:0001',
      '::ffff:a00:1',
      '::ffff:c0a8:101',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      '2002:a9fe:a9fe::',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '::ffff:0:a9fe:a9fe',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    for (const address of ['::ffff:8.8.8.8', '2002:808:808::1', '2606:4700::1111', '2001:4860:4860::8888']) {
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
    }
  });
});
