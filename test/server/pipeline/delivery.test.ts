import { afterAll, describe, expect, it } from 'vitest';
import { createDeliveryEngine, type DeliveryReport } from '../../../server/plugins/delivery.ts';
import { startReceiver, type Receiver } from './harness.ts';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const batch = (name: string, n: number, teamId = 7) => JSON.stringify(Array.from({ length: n }, (_, i) => ({
  uuid: `${name}-${i}`, event: name, distinct_id: 'd', timestamp: '2026-11-26T12:00:00.000Z', team_id: teamId, properties: {},
})));

async function until(check: () => boolean) {
  for (let i = 0; i < 500 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('events waiting for delivery', () => {
  it('are bounded in bytes: a batch past the bound is dropped and counted, earlier ones are all delivered, and room comes back', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const reports: DeliveryReport[] = [];
    const [first, second, third] = [batch('first', 20), batch('second', 20), batch('third', 20)];
    const engine = createDeliveryEngine({
      report: (r) => reports.push(r), allowHosts: ['127.0.0.1'], retryDelaysMs: [], maxPendingBytes: first.length + second.length + 10,
    });
    engine.setTargets([{ configId: 1, teamId: 7, stamp: 'a', builtin: 'webhook', config: { url: `${receiver.url}/in` }, code: null, hosts: [], composes: false }]);

    const release = receiver.hold();
    engine.push(7, first, 20);
    engine.push(7, second, 20);
    engine.push(7, third, 20); // over the bound while the receiver does not answer
    engine.push(8, batch('no destination', 5, 8), 5);
    await until(() => receiver.waiting === 8); // eight in flight at once
    release();
    await engine.idle();

    const events = receiver.received.map((r) => (JSON.parse(r.body) as { event: string }).event);
    expect(events.filter((e) => e === 'first')).toHaveLength(20);
    expect(events.filter((e) => e === 'second')).toHaveLength(20);
    expect(events).toHaveLength(40);
    const counted = (key: 'delivered' | 'failed') => reports.reduce((n, r) => n + (r.type === 'count' && r.key === key ? r.n : 0), 0);
    expect(counted('delivered')).toBe(40);
    expect(counted('failed')).toBe(20);
    expect(reports.find((r) => r.type === 'log')).toMatchObject({ configId: 1, level: 'ERROR', message: expect.stringMatching(/^20 events dropped/) });

    // delivered batches free their room
    engine.push(7, third, 20);
    await engine.idle();
    expect(receiver.received).toHaveLength(60);
    expect(counted('delivered')).toBe(60);
    engine.close();
  });

  it('a destination disabled while events wait for it gets none of them', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const engine = createDeliveryEngine({ report: () => {}, allowHosts: ['127.0.0.1'], retryDelaysMs: [], maxPendingBytes: 1e6 });
    engine.setTargets([{ configId: 1, teamId: 7, stamp: 'a', builtin: 'webhook', config: { url: receiver.url }, code: null, hosts: [], composes: false }]);
    const release = receiver.hold();
    engine.push(7, batch('waiting', 30), 30);
    await until(() => receiver.waiting === 8);
    engine.setTargets([]);
    release();
    await engine.idle(); // the eight already sent finish
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(8); // and nothing after them
    engine.close();
  });
});
