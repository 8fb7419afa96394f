import { afterAll, describe, expect, it } from 'vitest';
import {
  createDeliveryEngine,
  HTTP_CONCURRENCY,
  type DeliveryReport,
} from '../../../server/plugins/delivery-engine.ts';
import { startReceiver, type Receiver } from './harness.ts';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const batch = (name: string, n: number, teamId = 7) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      uuid: `${name}-${i}`,
      event: name,
      distinct_id: 'd',
      timestamp: '2026-11-26T12:00:00.000Z',
      team_id: teamId,
      properties: {},
    })),
  );

async function until(check: () => boolean) {
  for (let i = 0; i < 500 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('events waiting for delivery', () => {
  it('are bounded in bytes: a batch past the bound is dropped and counted, earlier ones are all delivered, and room comes back', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const reports: DeliveryReport[] = [];
    // each batch is more than a destination takes in flight at once, so the first is still held when the third comes
    const N = HTTP_CONCURRENCY + 8;
    const [first, second, third] = [batch('first', N), batch('second', N), batch('third', N)];
    const engine = createDeliveryEngine({
      report: (r) => reports.push(r),
      allowHosts: ['127.0.0.1'],
      retryDelaysMs: [],
      maxPendingBytes: first.length + second.length + 10,
    });
    engine.setTargets([
      {
        configId: 1,
        teamId: 7,
        builtin: 'webhook',
        config: { url: `${receiver.url}/in` },
        code: null,
        hosts: [],
        composes: false,
      },
    ]);

    const release = receiver.hold();
    engine.push(7, first, N);
    engine.push(7, second, N);
    engine.push(7, third, N); // over the bound while the receiver does not answer
    engine.push(8, batch('no destination', 5, 8), 5);
    await until(() => receiver.waiting === HTTP_CONCURRENCY); // as many in flight at once as a destination may have
    release();
    await engine.idle();

    const events = receiver.received.map((r) => (JSON.parse(r.body) as { event: string }).event);
    expect(events.filter((e) => e === 'first')).toHaveLength(N);
    expect(events.filter((e) => e === 'second')).toHaveLength(N);
    expect(events).toHaveLength(2 * N);
    const counted = (key: 'delivered' | 'failed') =>
      reports.reduce((n, r) => n + (r.type === 'count' && r.key === key ? r.n : 0), 0);
    expect(counted('delivered')).toBe(2 * N);
    expect(counted('failed')).toBe(N);
    expect(reports.find((r) => r.type === 'log')).toMatchObject({
      configId: 1,
      level: 'ERROR',
      message: expect.stringMatching(new RegExp(`^${N} events dropped`)),
    });

    // delivered batches free their room
    engine.push(7, third, N);
    await engine.idle();
    expect(receiver.received).toHaveLength(3 * N);
    expect(counted('delivered')).toBe(3 * N);
    engine.close();
  });

  it('a destination disabled while events wait for it gets none of them', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const engine = createDeliveryEngine({
      report: () => {},
      allowHosts: ['127.0.0.1'],
      retryDelaysMs: [],
      maxPendingBytes: 1e6,
    });
    engine.setTargets([
      {
        configId: 1,
        teamId: 7,
        builtin: 'webhook',
        config: { url: receiver.url },
        code: null,
        hosts: [],
        composes: false,
      },
    ]);
    const release = receiver.hold();
    engine.push(7, batch('waiting', HTTP_CONCURRENCY + 30), HTTP_CONCURRENCY + 30);
    await until(() => receiver.waiting === HTTP_CONCURRENCY);
    engine.setTargets([]);
    release();
    await engine.idle(); // those already sent finish
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(HTTP_CONCURRENCY); // and nothing after them
    engine.close();
  });
});
