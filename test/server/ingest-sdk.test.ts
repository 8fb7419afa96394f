import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './helpers.ts';

// The real posthog-node package, talking HTTP to the reference server: what it sends (path,
// gzip body, sent_at, uuid, $identify shape) must be understood unchanged.
let server: TestServer;
let http: ServerType;
let host: string;
let token: string;
let requests: { path: string; encoding: string | null }[] = [];

beforeAll(async () => {
  server = createTestServer();
  token = (server.store.db.prepare('SELECT api_token FROM projects ORDER BY id LIMIT 1').get() as { api_token: string })
    .api_token;
  const app = server.app;
  http = await new Promise<ServerType>((resolve) => {
    const s = serve(
      {
        fetch: (req: Request) => {
          requests.push({ path: new URL(req.url).pathname, encoding: req.headers.get('content-encoding') });
          return app.fetch(req);
        },
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s),
    );
  });
  host = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await server.close();
});

const client = (options: { disableCompression?: boolean } = {}) =>
  new PostHog(token, { host, flushAt: 50, flushInterval: 0, fetchRetryCount: 0, ...options });

const counts = async (distinctPrefix: string) => {
  const rows = await server.events.all<{ event: string; n: number }>(
    `SELECT event, count(*)::INTEGER AS n FROM events WHERE team_id = 1 AND starts_with(distinct_id, $1) GROUP BY event ORDER BY event`,
    [distinctPrefix],
  );
  return Object.fromEntries(rows.map((r) => [r.event, r.n]));
};
/** The person each of the events' distinct ids belongs to now. */
const personsOf = (distinctIds: string[]) =>
  server.events.all<{ distinct_id: string; person_id: string; properties: string }>(
    `SELECT e.distinct_id, pdi.person_id, p.properties
     FROM events e JOIN person_distinct_ids pdi ON pdi.team_id = e.team_id AND pdi.distinct_id = e.distinct_id
     JOIN persons p ON p.team_id = pdi.team_id AND p.id = pdi.person_id
    WHERE e.team_id = 1 AND e.distinct_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`,
    [JSON.stringify(distinctIds)],
  );

describe('ingestion with the real posthog-node SDK', () => {
  it('stores a batch of captured events, sent gzip-compressed to /batch/', async () => {
    requests = [];
    const ph = client();
    ph.capture({ distinctId: 'sdk-a', event: '$pageview', properties: { $current_url: 'https://x.example/' } });
    ph.capture({ distinctId: 'sdk-a', event: '$pageview', properties: { $current_url: 'https://x.example/pricing' } });
    ph.capture({ distinctId: 'sdk-a', event: 'clicked button', properties: { color: 'blue' } });
    await ph.shutdown();
    expect(requests).toEqual([{ path: '/batch/', encoding: 'gzip' }]);
    expect(await counts('sdk-a')).toEqual({ $pageview: 2, 'clicked button': 1 });
    const [row] = await server.events.all<{ properties: string; uuid: string }>(
      `SELECT properties, uuid FROM events WHERE distinct_id = 'sdk-a' AND event = 'clicked button'`,
    );
    expect(JSON.parse(row!.properties)).toMatchObject({ color: 'blue', $lib: 'posthog-node' });
    expect(row!.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts uncompressed JSON too', async () => {
    requests = [];
    const ph = client({ disableCompression: true });
    ph.capture({ distinctId: 'sdk-plain', event: 'signed in' });
    await ph.shutdown();
    expect(requests).toEqual([{ path: '/batch/', encoding: null }]);
    expect(await counts('sdk-plain')).toEqual({ 'signed in': 1 });
  });

  it('keeps a timestamp in the past as given', async () => {
    const ph = client();
    const past = new Date('2024-03-01T10:20:30.456Z');
    ph.capture({ distinctId: 'sdk-past', event: 'old event', timestamp: past });
    await ph.shutdown();
    const rows = await server.events.all<{ timestamp: Date }>(
      `SELECT timestamp FROM events WHERE distinct_id = 'sdk-past'`,
    );
    expect(rows.map((r) => r.timestamp.toISOString())).toEqual([past.toISOString()]);
  });

  it('identify merges the anonymous id: its past events now belong to the identified person', async () => {
    const ph = client();
    ph.capture({ distinctId: 'sdk-anon-1', event: '$pageview' });
    ph.capture({ distinctId: 'sdk-anon-1', event: '$pageview' });
    await ph.flush();
    ph.identify({
      distinctId: 'sdk-user-1',
      properties: { $anon_distinct_id: 'sdk-anon-1', email: 'one@example.com' },
    });
    ph.capture({ distinctId: 'sdk-user-1', event: 'purchase', properties: { revenue: 20 } });
    await ph.shutdown();
    const rows = await personsOf(['sdk-anon-1', 'sdk-user-1']);
    expect(rows).toHaveLength(4); // 2 pageviews, $identify, purchase
    expect(new Set(rows.map((r) => r.person_id)).size).toBe(1);
    expect(JSON.parse(rows[0]!.properties)).toMatchObject({ email: 'one@example.com' });
  });

  it('identify merges two persons that both exist: every event of both follows the surviving one', async () => {
    const ph = client();
    ph.capture({ distinctId: 'sdk-anon-2', event: 'viewed docs', properties: { $set_once: { first_source: 'docs' } } });
    ph.capture({ distinctId: 'sdk-user-2', event: 'logged in', properties: { $set: { plan: 'pro' } } });
    await ph.flush();
    const before = await personsOf(['sdk-anon-2', 'sdk-user-2']);
    expect(new Set(before.map((r) => r.person_id)).size).toBe(2);
    ph.identify({ distinctId: 'sdk-user-2', properties: { $anon_distinct_id: 'sdk-anon-2' } });
    await ph.shutdown();
    const after = await personsOf(['sdk-anon-2', 'sdk-user-2']);
    expect(after).toHaveLength(3);
    expect(new Set(after.map((r) => r.person_id)).size).toBe(1);
    expect(JSON.parse(after[0]!.properties)).toMatchObject({ plan: 'pro', first_source: 'docs' });
    const [{ n }] = (await server.events.all<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM persons WHERE team_id = 1 AND id IN (SELECT person_id FROM person_distinct_ids WHERE distinct_id IN ('sdk-anon-2', 'sdk-user-2'))`,
    )) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('$set overwrites and $set_once only fills person properties', async () => {
    const ph = client();
    ph.capture({
      distinctId: 'sdk-props',
      event: 'a',
      properties: { $set: { plan: 'free', color: 'red' }, $set_once: { first: 'a' } },
    });
    ph.capture({
      distinctId: 'sdk-props',
      event: 'b',
      properties: { $set: { plan: 'pro' }, $set_once: { first: 'b', second: 'b' } },
    });
    await ph.shutdown();
    const [row] = await personsOf(['sdk-props']);
    expect(JSON.parse(row!.properties)).toEqual({ plan: 'pro', color: 'red', first: 'a', second: 'b' });
  });

  it('alias links a second distinct id to the same person', async () => {
    const ph = client();
    ph.capture({ distinctId: 'sdk-main', event: 'x' });
    ph.alias({ distinctId: 'sdk-main', alias: 'sdk-other' });
    ph.capture({ distinctId: 'sdk-other', event: 'y' });
    await ph.shutdown();
    const rows = await personsOf(['sdk-main', 'sdk-other']);
    expect(rows.length).toBe(3);
    expect(new Set(rows.map((r) => r.person_id)).size).toBe(1);
  });
});
