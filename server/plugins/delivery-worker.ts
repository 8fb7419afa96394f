import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createDeliveryEngine, type DeliveryOptions, type DeliveryReport, type DeliveryTarget } from './delivery.ts';

/**
 * The delivery worker thread (see runtime.ts): the deliveries and the sandboxes run here, at the
 * lowest CPU priority, so a burst of ingestion keeps the cores it needs and deliveries catch up
 * after it.
 */
export type WorkerIn =
  | { type: 'targets'; targets: DeliveryTarget[] }
  | { type: 'batch'; teamId: number; json: string }
  /** Answered with `done` once nothing waits (idle) or everything is dropped and counted (close). */
  | { type: 'idle' | 'close'; id: number };

export type WorkerOut = DeliveryReport | { type: 'done'; id: number };

const port = parentPort!;
const { pressure, ...options } = workerData as Omit<DeliveryOptions, 'report' | 'paused'> & { pressure: SharedArrayBuffer };
/** 1 while ingestion is under pressure (runtime.ts). */
const flag = new Int32Array(pressure);

try {
  // On Linux a nice value belongs to a thread: this lowers only this one (and the sandbox threads
  // it starts, which inherit it), never the server's event loop.
  setPriority(0, 19);
} catch {
  // not allowed here: deliveries run at the server's priority
}

const post = (msg: WorkerOut) => port.postMessage(msg);
const engine = createDeliveryEngine({ ...options, report: post, paused: () => Atomics.load(flag, 0) === 1 });

port.on('message', (msg: WorkerIn) => {
  if (msg.type === 'batch') engine.push(msg.teamId, msg.json);
  else if (msg.type === 'targets') engine.setTargets(msg.targets);
  else if (msg.type === 'idle') void engine.idle().then(() => post({ type: 'done', id: msg.id }));
  else {
    engine.close();
    post({ type: 'done', id: msg.id });
  }
});
