import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../server/app.ts';
import { createPipelineRuntime, type PipelineRuntime } from '../../../server/plugins/runtime.ts';
import { createTestServer, requester, type TestServer } from '../helpers.ts';

/**
 * A seeded test server whose app may reach loopback receivers (the plugins' deliveries and
 * imports), with short retry delays, plus a receiver of its own.
 */
export interface PipelineServer extends TestServer {
  pipeline: PipelineRuntime;
  orgId: string;
  projectId: number;
  token: string;
  send(events: { event: string; distinct_id: string; properties?: Record<string, unknown> }[]): Promise<number>;
  settle(): Promise<void>;
}

export function createPipelineServer(): PipelineServer {
  const base = createTestServer();
  const pipeline = createPipelineRuntime({
    store: base.store,
    now: () => new Date(),
    allowHosts: ['127.0.0.1'],
    retryDelaysMs: [20, 40],
    limits: { cpuMs: 200, memoryBytes: 16 * 1024 * 1024, wallMs: 1500 },
  });
  const app = createApp({
    store: base.store,
    events: base.events,
    staticDir: '/nonexistent',
    allowDestinations: ['127.0.0.1'],
    pipeline,
  });
  const request = requester(app, base.demoKey);
  const orgId = base.orgIds['Hedgebox']!;
  const project = base.store.db
    .prepare('SELECT id, api_token FROM projects WHERE organization_id = ? ORDER BY id LIMIT 1')
    .get(orgId) as { id: number; api_token: string };
  return {
    ...base,
    app,
    pipeline,
    orgId,
    projectId: project.id,
    token: project.api_token,
    request,
    get: (url, opts) => request('GET', url, opts),
    async send(events) {
      const res = await app.request('/batch/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ api_key: project.api_token, batch: events }),
      });
      return res.status;
    },
    async settle() {
      await pipeline.idle();
    },
    async close() {
      await pipeline.close();
      await base.close();
    },
  };
}

export interface Receiver {
  url: string;
  received: { path: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** Status to answer for the next requests (default 200). */
  failNext(count: number, status?: number): void;
  /** Requests arriving from now on wait unanswered until the returned function is called. */
  hold(): () => void;
  /** Requests waiting to be answered (while held). */
  readonly waiting: number;
  close(): Promise<void>;
}

export async function startReceiver(
  respond?: (path: string) => { status: number; body: string } | undefined,
): Promise<Receiver> {
  const received: Receiver['received'] = [];
  let failures = 0;
  let failStatus = 500;
  let held: (() => void)[] | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (held) {
        held.push(answer);
        return;
      }
      answer();
    });
    function answer() {
      const custom = respond?.(req.url ?? '/');
      if (custom) {
        res.writeHead(custom.status, { 'Content-Type': 'text/plain' }).end(custom.body);
        return;
      }
      if (failures > 0) {
        failures -= 1;
        res.writeHead(failStatus).end();
        return;
      }
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext(count, status = 500) {
      failures = count;
      failStatus = status;
    },
    hold() {
      const list: (() => void)[] = [];
      held = list;
      return () => {
        if (held === list) held = null;
        for (const answer of list.splice(0)) answer();
      };
    },
    get waiting() {
      return held?.length ?? 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
