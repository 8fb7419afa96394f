import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
let token: string;
let otherToken: string;
const NOW = new Date('2025-06-01T12:00:00.000Z');

beforeAll(() => {
  server = createTestServer({ now: () => NOW });
  const tokens = server.store.db.prepare('SELECT api_token FROM projects ORDER BY id').pluck().all() as string[];
  [token, otherToken] = tokens as [string, string];
});
afterAll(() => server.close());

const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
  server.app.request(path, {
    method: 'POST',
    body: body as BodyInit,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
const json = (v: unknown) => JSON.stringify(v);
const countOf = async (distinctId: string, team = 1) => {
  const [row] = await server.events.all<{ n: number }>(
    'SELECT count(*)::INTEGER AS n FROM events WHERE team_id = $1 AND distinct_id = $2',
    [team, distinctId],
  );
  return row!.n;
};

describe('capture endpoints', () => {
  it.each(['/batch/', '/batch', '/capture/', '/capture', '/e/', '/e', '/i/v0/e/', '/track/'])(
    '%s stores events and answers {status: 1}',
    async (path) => {
      const id = `http-${path}`;
      const res = await post(
        path,
        json({
          api_key: token,
          batch: [
            { event: 'a', distinct_id: id },
            { event: 'b', properties: { distinct_id: id } },
          ],
        }),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 1 });
      expect(await countOf(id)).toBe(2);
    },
  );

  it('takes a single event with the token in `token`, `api_key`, properties.token or ?token=', async () => {
    expect((await post('/capture/', json({ token, event: 'x', distinct_id: 'single-1' }))).status).toBe(200);
    expect((await post('/e/', json({ event: 'x', distinct_id: 'single-1', properties: { token } }))).status).toBe(200);
    expect((await post(`/e/?token=${token}`, json([{ event: 'x', distinct_id: 'single-1' }]))).status).toBe(200);
    expect(await countOf('single-1')).toBe(3);
  });

  it('routes by token: the other project gets its own events', async () => {
    expect(
      (await post('/batch/', json({ api_key: otherToken, batch: [{ event: 'x', distinct_id: 'proj-2' }] }))).status,
    ).toBe(200);
    expect(await countOf('proj-2', 2)).toBe(1);
    expect(await countOf('proj-2', 1)).toBe(0);
  });

  it('decodes gzip announced by header, by ?compression=gzip-js, or by its magic bytes, and form-encoded base64 data', async () => {
    const body = (id: string) => json({ api_key: token, batch: [{ event: 'zipped', distinct_id: id }] });
    expect((await post('/batch/', gzipSync(body('gz-1')), { 'Content-Encoding': 'gzip' })).status).toBe(200);
    expect(
      (await post('/e/?compression=gzip-js', gzipSync(body('gz-2')), { 'Content-Type': 'text/plain' })).status,
    ).toBe(200);
    expect((await post('/e/', gzipSync(body('gz-3')))).status).toBe(200);
    const form = `data=${encodeURIComponent(Buffer.from(body('form-1')).toString('base64'))}`;
    expect((await post('/e/', form, { 'Content-Type': 'application/x-www-form-urlencoded' })).status).toBe(200);
    for (const id of ['gz-1', 'gz-2', 'gz-3', 'form-1']) expect(await countOf(id)).toBe(1);
  });

  it('keeps past timestamps as given; corrects a skewed client clock by sent_at; resolves offset; clamps the far future', async () => {
    const batch = [
      { event: 'past', distinct_id: 'time-1', timestamp: '2023-05-06T07:08:09.123Z' },
      { event: 'offset', distinct_id: 'time-1', offset: 5000 },
      { event: 'future', distinct_id: 'time-1', timestamp: '2030-01-01T00:00:00Z' },
      { event: 'none', distinct_id: 'time-1' },
    ];
    expect((await post('/batch/', json({ api_key: token, batch }))).status).toBe(200);
    const skewed = {
      api_key: token,
      sent_at: '2025-06-01T10:00:00.000Z',
      batch: [{ event: 'skewed', distinct_id: 'time-1', timestamp: '2025-06-01T09:59:00.000Z' }],
    };
    expect((await post('/batch/', json(skewed))).status).toBe(200);
    const rows = await server.events.all<{ event: string; timestamp: Date }>(
      "SELECT event, timestamp FROM events WHERE distinct_id = 'time-1'",
    );
    const at = Object.fromEntries(rows.map((r) => [r.event, r.timestamp.toISOString()]));
    expect(at).toEqual({
      past: '2023-05-06T07:08:09.123Z',
      offset: '2025-06-01T11:59:55.000Z',
      future: NOW.toISOString(),
      none: NOW.toISOString(),
      skewed: '2025-06-01T11:59:00.000Z',
    });
  });

  it('stores every batch of many concurrent requests, each answered only once its events are stored', async () => {
    const counts = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const id = `concurrent-${i}`;
        const res = await post(
          '/batch/',
          json({
            api_key: i % 4 === 3 ? otherToken : token,
            batch: Array.from({ length: 10 }, (__, j) => ({ event: 'c', distinct_id: id, properties: { j } })),
          }),
        );
        expect(res.status).toBe(200);
        return countOf(id, i % 4 === 3 ? 2 : 1);
      }),
    );
    expect(counts).toEqual(Array.from({ length: 24 }, () => 10));
  });

  it('answers a CORS preflight and puts CORS headers on answers and errors: any origin, never with credentials', async () => {
    for (const origin of ['https://shop.example', 'null']) {
      const pre = await server.app.request('/e/', {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Headers': 'content-type' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      const bad = await post('/e/', 'nope', { Origin: origin });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('access-control-allow-origin')).toBe('*');
      expect(bad.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('capture errors', () => {
  it('401 for an unknown or missing token, nothing stored', async () => {
    const wrong = await post('/batch/', json({ api_key: 'phc_wrong', batch: [{ event: 'x', distinct_id: 'tok-1' }] }));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key', attr: null });
    const missing = await post('/batch/', json({ batch: [{ event: 'x', distinct_id: 'tok-1' }] }));
    expect(missing.status).toBe(401);
    expect(await countOf('tok-1')).toBe(0);
  });

  const cases: [string, string | Buffer, string | null, string][] = [
    ['invalid JSON', '{"api_key": ', null, 'parse_error'],
    ['empty body', '', null, 'parse_error'],
    ['a number', '42', 'batch', 'invalid_input'],
    ['batch not a list', json({ api_key: 't', batch: { event: 'x' } }), 'batch', 'invalid_input'],
    ['empty batch', json({ api_key: 't', batch: [] }), 'batch', 'required'],
    [
      'event missing',
      json({ api_key: 't', batch: [{ event: 'a', distinct_id: 'd' }, { distinct_id: 'd' }] }),
      'batch__1__event',
      'required',
    ],
    [
      'event not a string',
      json({ api_key: 't', batch: [{ event: { $ne: 1 }, distinct_id: 'd' }] }),
      'batch__0__event',
      'invalid_input',
    ],
    ['distinct id missing', json({ api_key: 't', event: 'x' }), 'distinct_id', 'required'],
    [
      'distinct id an object',
      json({ api_key: 't', event: 'x', distinct_id: { a: 1 } }),
      'distinct_id',
      'invalid_input',
    ],
    [
      'huge distinct id',
      json({ api_key: 't', event: 'x', distinct_id: 'x'.repeat(10_000) }),
      'distinct_id',
      'invalid_input',
    ],
    [
      'properties a list',
      json({ api_key: 't', event: 'x', distinct_id: 'd', properties: [1] }),
      'properties',
      'invalid_input',
    ],
    [
      'bad timestamp',
      json({ api_key: 't', batch: [{ event: 'x', distinct_id: 'd', timestamp: "'; DROP TABLE events; --" }] }),
      'batch__0__timestamp',
      'invalid_input',
    ],
    ['bad uuid', json({ api_key: 't', event: 'x', distinct_id: 'd', uuid: 'not-a-uuid' }), 'uuid', 'invalid_input'],
    ['bad $set', json({ api_key: 't', event: 'x', distinct_id: 'd', $set: 'plan' }), '$set', 'invalid_input'],
    ['negative offset', json({ api_key: 't', event: 'x', distinct_id: 'd', offset: -5 }), 'offset', 'invalid_input'],
    ['garbage gzip', Buffer.from([0x1f, 0x8b, 1, 2, 3, 4]), null, 'parse_error'],
    ['deep nesting', '['.repeat(100_000) + ']'.repeat(100_000), 'batch__0', 'invalid_input'],
    [
      'deeply nested properties',
      `{"api_key":"t","event":"x","distinct_id":"d","properties":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
      'properties',
      'invalid_input',
    ],
    [
      'deeply nested $set',
      `{"api_key":"t","event":"x","distinct_id":"d","$set":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`,
      '$set',
      'invalid_input',
    ],
  ];
  it.each(cases)('400 for %s, naming the field', async (_name, body, attr, code) => {
    const res = await post('/batch/', body);
    const payload = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(payload)).toBe(400);
    expect(payload).toMatchObject({ type: 'validation_error', code, attr });
  });

  it('a valid batch with one bad event stores nothing', async () => {
    const res = await post(
      '/batch/',
      json({
        api_key: token,
        batch: [
          { event: 'ok', distinct_id: 'atomic-1' },
          { event: 'bad', distinct_id: 'atomic-1', timestamp: 'soon' },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(await countOf('atomic-1')).toBe(0);
  });

  it('hostile names and values are stored as data, never as SQL', async () => {
    const evil = "x'); DROP TABLE events; --";
    const res = await post(
      '/batch/',
      json({
        api_key: token,
        batch: [{ event: evil, distinct_id: evil, properties: { [evil]: evil, $set: { [evil]: evil } } }],
      }),
    );
    expect(res.status).toBe(200);
    expect(await countOf(evil)).toBe(1);
    const [row] = await server.events.all<{ event: string; properties: string }>(
      'SELECT event, properties FROM events WHERE distinct_id = $1',
      [evil],
    );
    expect(row!.event).toBe(evil);
    expect(JSON.parse(row!.properties)).toMatchObject({ [evil]: evil });
  });
});
