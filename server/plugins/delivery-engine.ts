import { builtinDelivery, deliverHttp, DeliveryError, type HttpDelivery, type PluginEvent } from './http-delivery.ts';
import { createSandbox, DEFAULT_LIMITS, SandboxStopped, type Sandbox, type SandboxLimits } from './sandbox/sandbox.ts';

/**
 * The delivery side of the pipeline runtime (runtime.ts), which knows nothing of the store. It is
 * handed the enabled destinations (`setTargets`) and each accepted batch as JSON (`push`); it
 * delivers every event to every destination of its project, through the built-in delivery
 * (webhook, Slack) or the plugin's compiled code in a sandbox, with retries, and reports counts,
 * log lines and errors through `report`, which the runtime writes to the store.
 */

/** A destination as the server describes it (one enabled plugin config). */
export interface DeliveryTarget {
  configId: number;
  teamId: number;
  /** The built-in kind (webhook, slack), or null for a source plugin. */
  builtin: string | null;
  config: Record<string, unknown>;
  /** A source plugin's compiled `index` code. */
  code: string | null;
  /** The hosts of the URLs in the config: all a source plugin may reach. */
  hosts: string[];
  /** The source plugin exports composeWebhook (else onEvent). */
  composes: boolean;
}

export type DeliveryReport =
  | { type: 'count'; configId: number; key: 'delivered' | 'failed' | 'retried'; n: number }
  | {
      type: 'log';
      configId: number;
      level: 'LOG' | 'INFO' | 'WARN' | 'ERROR';
      source: 'delivery' | 'plugin';
      message: string;
    }
  | { type: 'error'; configId: number; message: string };

export interface DeliveryOptions {
  report(r: DeliveryReport): void;
  /** Hosts deliveries may reach although private (tests, private deployments). */
  allowHosts: readonly string[];
  /** Waits before the 2nd, 3rd, … attempt. */
  retryDelaysMs: readonly number[];
  limits?: SandboxLimits;
  /** Bytes of accepted batches (as JSON) waiting for delivery before new ones are dropped. */
  maxPendingBytes: number;
  /**
   * Ingestion is under pressure (a burst): no new delivery starts (those in flight finish), so
   * deliveries and their receivers leave the cores to ingestion and catch up after the burst.
   */
  paused?: () => boolean;
}

export interface DeliveryEngine {
  setTargets(targets: readonly DeliveryTarget[]): void;
  /** `count`: how many events the JSON holds (counted when they are dropped). */
  push(teamId: number, json: string, count: number): void;
  /** Resolves when nothing waits or is in flight. */
  idle(): Promise<void>;
  /** Events each destination has not delivered yet (waiting or in flight), by config id; none listed with 0. */
  undelivered(): Map<number, number>;
  close(): void;
}

/**
 * A batch as it waits: its JSON text, shared by every destination of the project until each has
 * taken all its events; then it is garbage. Each destination parses only the batch it is taking,
 * so a slow destination's backlog stays text.
 */
interface Batch {
  json: string;
  count: number;
  holders: number;
}

interface Target extends DeliveryTarget {
  /** Batches still to take, the first one parsed, and the index of its next event. */
  batches: Batch[];
  head: PluginEvent[] | null;
  next: number;
  /** Events to run again before the batches (after a stopped sandbox), one at a time. */
  again: PluginEvent[];
  inFlight: number;
  sandbox: Promise<Sandbox> | null;
  /** Events still to run one at a time after the sandbox was stopped with several in flight. */
  solo: number;
  gone: boolean;
}

/** The sandbox was stopped (a loop, an allocation) while this event ran in it. */
class StoppedWithSandbox extends DeliveryError {}

/**
 * Events of one destination in flight at once. A source plugin's calls are promises inside its
 * one sandbox, so while one awaits its fetch the next runs (one at a time, they waited on each
 * other's round trips: 4 s behind at 800 events/s). When a call stops the sandbox, the events in
 * flight with it are run again one at a time, so only the one that loops or allocates fails.
 * At 1,000 events/s on two busy cores a round trip can take 10 ms or more: with 8 in flight a
 * webhook fell behind (lag p50 0.4–0.9 s), with 32 it keeps up (0.1 s).
 */
export const HTTP_CONCURRENCY = 32;
const SANDBOX_CONCURRENCY = 64;
const concurrencyOf = (t: Target) => (t.builtin ? HTTP_CONCURRENCY : SANDBOX_CONCURRENCY);

export function createDeliveryEngine(o: DeliveryOptions): DeliveryEngine {
  const policy = { allowHosts: o.allowHosts };
  const delays = o.retryDelaysMs;
  let targets = new Map<number, Target>();
  let byTeam = new Map<number, Target[]>();
  let pendingBytes = 0;
  /** Deliveries running, also those of destinations removed meanwhile. */
  let running = 0;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const bump = (configId: number, key: 'delivered' | 'failed' | 'retried', n = 1) =>
    o.report({ type: 'count', configId, key, n });
  const log = (t: Target, level: 'LOG' | 'INFO' | 'WARN' | 'ERROR', message: string) =>
    o.report({ type: 'log', configId: t.configId, level, source: t.builtin ? 'delivery' : 'plugin', message });

  const busy = () => running > 0 || [...targets.values()].some((t) => t.again.length > 0 || t.batches.length > 0);
  const checkIdle = () => {
    if (idleWaiters.length === 0 || busy()) return;
    const waiting = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiting) resolve();
  };

  const sandboxOf = (t: Target): Promise<Sandbox> => {
    if (t.gone || closed) return Promise.reject(new DeliveryError('The destination was disabled.', false));
    if (!t.sandbox) {
      let created: Promise<Sandbox>;
      try {
        created = createSandbox(
          t.code ?? '',
          {
            log: (level, message) => log(t, level, message),
            fetch: { hosts: t.hosts, policy },
          },
          o.limits ?? DEFAULT_LIMITS,
        );
      } catch (error) {
        // no worker could be started here (a test environment without file URLs): this destination fails, the others run
        created = Promise.reject(error as Error);
      }
      t.sandbox = created;
      created.catch(() => {
        if (t.sandbox === created) t.sandbox = null;
      });
    }
    return t.sandbox;
  };
  const dropSandbox = (t: Target) => {
    void t.sandbox?.then(
      (s) => s.dispose(),
      () => {},
    );
    t.sandbox = null;
  };

  /** One attempt: resolves when delivered (or not meant for this destination). */
  const attempt = async (t: Target, event: PluginEvent): Promise<boolean> => {
    let delivery: HttpDelivery | null;
    if (t.builtin) {
      delivery = builtinDelivery(t.builtin, event, t.config);
    } else {
      const pending = sandboxOf(t);
      const sandbox = await pending;
      const meta = { config: t.config };
      try {
        if (t.composes) {
          const out = (await sandbox.call('composeWebhook', [event, meta])) as HttpDelivery | null;
          delivery = out && typeof out.url === 'string' ? out : null;
          if (delivery && !t.hosts.includes(new URL(delivery.url).host.toLowerCase())) {
            throw new DeliveryError(
              `composeWebhook returned ${new URL(delivery.url).host}, which is not a host of the plugin's config.`,
              false,
            );
          }
        } else {
          await sandbox.call('onEvent', [event, meta]);
          return true;
        }
      } catch (error) {
        if (error instanceof DeliveryError) throw error;
        if (error instanceof SandboxStopped) {
          // a loop or allocation stopped by the limits leaves the sandbox unusable: a new one next
          // time (unless an event in flight beside this one already made it)
          if (t.sandbox === pending) t.sandbox = null;
          sandbox.dispose();
          throw new StoppedWithSandbox((error as Error).message, false);
        }
        throw new DeliveryError((error as Error).message, false);
      }
    }
    if (!delivery) return false;
    await deliverHttp(delivery, policy);
    return true;
  };

  /** `alone`: no other event of this destination could run beside it (after a stopped sandbox). */
  const deliver = async (t: Target, event: PluginEvent, alone: boolean) => {
    for (let i = 0; ; i += 1) {
      try {
        if (await attempt(t, event)) bump(t.configId, 'delivered');
        return;
      } catch (error) {
        const e = error instanceof DeliveryError ? error : new DeliveryError((error as Error).message, false);
        if (e instanceof StoppedWithSandbox && !alone && !closed && !t.gone) {
          // maybe another event's doing: this one runs again, alone, before it can count as failed
          t.solo = Math.max(t.solo, concurrencyOf(t) * 2);
          t.again.unshift(event);
          return;
        }
        if (e.retryable && i < delays.length && !closed && !t.gone) {
          bump(t.configId, 'retried');
          log(
            t,
            'WARN',
            `Event ${event.uuid} (${event.event}): ${e.message} Retrying in ${delays[i]} ms (attempt ${i + 2} of ${delays.length + 1}).`,
          );
          await new Promise((resolve) => setTimeout(resolve, delays[i]).unref());
          if (closed || t.gone) return; // disabled or shut down meanwhile: not sent again
          continue;
        }
        bump(t.configId, 'failed');
        log(t, 'ERROR', `Event ${event.uuid} (${event.event}) was not delivered: ${e.message}`);
        o.report({ type: 'error', configId: t.configId, message: e.message });
        return;
      }
    }
  };

  const release = (batch: Batch) => {
    batch.holders -= 1;
    if (batch.holders === 0) pendingBytes -= batch.json.length;
  };

  /** The destination's next event, or null when it has none waiting. */
  const take = (t: Target): PluginEvent | null => {
    if (t.again.length > 0) return t.again.shift()!;
    for (;;) {
      const batch = t.batches[0];
      if (!batch) return null;
      t.head ??= JSON.parse(batch.json) as PluginEvent[];
      if (t.next < t.head.length) return t.head[(t.next += 1) - 1]!;
      t.batches.shift();
      t.head = null;
      t.next = 0;
      release(batch);
    }
  };

  /** While paused, the destinations are pumped again every 20 ms. */
  let resume: NodeJS.Timeout | null = null;
  const pumpAll = () => {
    resume = null;
    for (const t of targets.values()) pump(t);
  };
  const pump = (t: Target) => {
    if (closed || t.gone) return;
    if (o.paused?.()) {
      if (!resume) {
        resume = setTimeout(pumpAll, 20);
        resume.unref();
      }
      return;
    }
    while (!closed && !t.gone && t.inFlight < (t.solo > 0 ? 1 : concurrencyOf(t))) {
      const event = take(t);
      if (!event) break;
      t.inFlight += 1;
      running += 1;
      const alone = t.solo > 0;
      if (alone) t.solo -= 1;
      void deliver(t, event, alone).finally(() => {
        t.inFlight -= 1;
        running -= 1;
        pump(t);
        checkIdle();
      });
    }
  };

  const forget = (t: Target) => {
    t.gone = true;
    dropSandbox(t);
    for (const batch of t.batches) release(batch);
    t.batches = [];
    t.head = null;
    t.again = [];
  };

  return {
    setTargets(list) {
      const next = new Map<number, Target>();
      const team = new Map<number, Target[]>();
      for (const d of list) {
        const old = targets.get(d.configId);
        let t: Target;
        if (old) {
          // a sandbox holds the code and may reach the hosts: the config itself goes with each call
          if (old.code !== d.code || old.hosts.join(' ') !== d.hosts.join(' ')) dropSandbox(old);
          t = Object.assign(old, d);
        } else {
          t = { ...d, batches: [], head: null, next: 0, again: [], inFlight: 0, sandbox: null, solo: 0, gone: false };
        }
        next.set(d.configId, t);
        team.set(d.teamId, [...(team.get(d.teamId) ?? []), t]);
        // started now, not with the first event: a worker takes half a second to start
        if (!t.builtin && t.code !== null) sandboxOf(t).catch(() => {});
      }
      // a destination disabled or deleted: what waited for it is dropped (nothing more arrives)
      for (const [id, old] of targets) if (!next.has(id)) forget(old);
      targets = next;
      byTeam = team;
      checkIdle();
    },
    push(teamId, json, count) {
      if (closed) return;
      const list = byTeam.get(teamId);
      if (!list || list.length === 0) return;
      if (pendingBytes + json.length > o.maxPendingBytes) {
        for (const t of list) {
          bump(t.configId, 'failed', count);
          log(
            t,
            'ERROR',
            `${count} events dropped: ${Math.round(o.maxPendingBytes / 1e6)} MB of events are already waiting for this project's destinations.`,
          );
        }
        return;
      }
      const batch: Batch = { json, count, holders: list.length };
      pendingBytes += json.length;
      for (const t of list) {
        t.batches.push(batch);
        pump(t);
      }
    },
    undelivered() {
      const left = new Map<number, number>();
      for (const t of targets.values()) {
        // the head batch's events still to take, the later batches whole, those to run again and those in flight
        const waiting = t.batches.reduce((n, b, i) => n + (i === 0 && t.head ? t.head.length - t.next : b.count), 0);
        const n = waiting + t.again.length + t.inFlight;
        if (n > 0) left.set(t.configId, n);
      }
      return left;
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        checkIdle();
      });
    },
    close() {
      closed = true;
      if (resume) clearTimeout(resume);
      for (const t of targets.values()) forget(t);
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    },
  };
}
