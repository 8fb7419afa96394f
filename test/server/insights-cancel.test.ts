import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryCancelledError } from '../../server/analytics/store/duckdb.ts';
import { createEventStore, type EventStore } from '../../server/analytics/store/event-store.ts';
import { createRunningQueries } from '../../server/insights/running-queries.ts';
import { createTestServerWithEvents, type TestServer } from './helpers.ts';

describe('cancelling event store reads', () => {
  let events: EventStore;
  beforeAll(() => {
    events = createEventStore(':memory:');
  });
  afterAll(() => events.close());

  it('interrupts a running read when its signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const read = events.all('SELECT sum(hash(range)) AS s FROM range(100000000000)', [], { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(read).rejects.toBeInstanceOf(QueryCancelledError);
    expect(Date.now() - started).toBeLessThan(20_000);
    // The connection is usable again afterwards.
    expect(await events.all<{ n: number }>('SELECT 42 AS n')).toEqual([{ n: 42 }]);
  });

  it('never starts a read whose signal already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(events.all('SELECT 1', [], { signal: controller.signal })).rejects.toBeInstanceOf(QueryCancelledError);
  });
});

describe('running queries', () => {
  const owner = { projectId: 1, userId: 1, clientQueryId: 'q1' };
  it('cancel aborts the running query of the same owner only', async () => {
    const running = createRunningQueries(() => new Date());
    let seen: AbortSignal | undefined;
    let release!: () => void;
    const work = running.run(owner, (signal) => {
      seen = signal;
      return new Promise<void>((r) => {
        release = r;
      });
    });
    expect(running.cancel({ ...owner, userId: 2 })).toBe(false);
    expect(seen!.aborted).toBe(false);
    expect(running.cancel(owner)).toBe(true);
    expect(seen!.aborted).toBe(true);
    release();
    await work;
  });
  it('remembers a cancel that comes first, once, for a while', async () => {
    let now = new Date('2025-01-01T00:00:00Z');
    const running = createRunningQueries(() => now);
    running.cancel(owner);
    expect(await running.run(owner, async (s) => s.aborted)).toBe(true);
    expect(await running.run(owner, async (s) => s.aborted)).toBe(false);
    running.cancel(owner);
    now = new Date(now.getTime() + 61_000);
    expect(await running.run(owner, async (s) => s.aborted)).toBe(false);
  });
});

describe('POST insights/cancel/', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServerWithEvents({ demoEvents: 500 });
  });
  afterAll(() => server.close());
  const P1 = '/api/projects/1/insights/';

  it("stops the caller's query by client_query_id: that request answers 400 query_cancelled", async () => {
    const made = await server.request('POST', P1, {
      json: { filters: { insight: 'TRENDS', events: [{ id: '$pageview' }], date_from: '-3d' } },
    });
    const id = made.body.id;
    const cancel = await server.request('POST', `${P1}cancel/`, { json: { client_query_id: 'abc-1' } });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ client_query_id: 'abc-1', cancelled: false });
    const stopped = await server.get(`${P1}${id}/?client_query_id=abc-1`);
    expect(stopped.status).toBe(400);
    expect(stopped.body).toMatchObject({ type: 'validation_error', code: 'query_cancelled', attr: null });
    const again = await server.get(`${P1}${id}/?client_query_id=abc-1`);
    expect(again.status).toBe(200);
    expect(again.body.result.length).toBe(1);
    // Another user's cancel with the same id does not touch this caller's queries.
    const other = server.makeKey({ scopes: ['insight:read'], userEmail: 'priya@hedgebox.example' });
    await server.request('POST', `${P1}cancel/`, { key: other, json: { client_query_id: 'abc-2' } });
    expect((await server.get(`${P1}${id}/?client_query_id=abc-2&refresh=true`)).status).toBe(200);
    expect((await server.request('POST', `${P1}cancel/`, { json: {} })).body).toMatchObject({
      attr: 'client_query_id',
      code: 'required',
    });
    expect(
      (
        await server.request('POST', `${P1}cancel/`, {
          key: server.makeKey({ scopes: ['organization:read'] }),
          json: { client_query_id: 'x' },
        })
      ).status,
    ).toBe(403);
  });
});
