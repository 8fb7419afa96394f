import type { CaptureEvent } from '../analytics/ingest-parse.ts';
import type { PluginRow } from '../store/plugins.ts';
import type { Store } from '../store/store.ts';
import { compiledCode, hasCode } from './compiled-code.ts';
import { effectiveConfig, schemaFields } from './config-values.ts';
import { builtinDelivery, configuredHosts, deliverHttp, DeliveryError, type HttpDelivery, type PluginEvent } from './deliver.ts';
import { createSandbox, DEFAULT_LIMITS, SandboxStopped, type Sandbox, type SandboxLimits } from './sandbox.ts';

/**
 * Runs the enabled destinations. Ingestion hands each accepted batch to `onIngested`, which only
 * queues the events (never waits, never throws): every enabled destination of the project gets
 * them in the background, through its built-in delivery (webhook, Slack) or its compiled source
 * in a sandbox, with retries on retryable failures. Counters go to the plugin metrics, failures
 * and the plugin's console output to its log.
 */
export interface PipelineRuntimeOptions {
  store: Store;
  now: () => Date;
  /** Hosts deliveries may reach although private (tests, private deployments). */
  allowHosts?: readonly string[];
  /** Waits before the 2nd, 3rd, … attempt; default 500 ms, 2 s, 5 s. */
  retryDelaysMs?: readonly number[];
  limits?: SandboxLimits;
  /**
   * Events waiting per destination before new ones are dropped (and counted as failed); default
   * 50,000. Ingestion never waits on a destination, so a burst faster than the slowest one
   * delivers waits here: at 10,000 a 15 s burst of 3,000 events/s (10 connections, group commit)
   * overflowed the source plugin's queue. The queues share the events: 50,000 small events
   * (bench-sized, 5 properties) hold about 40 MB.
   */
  maxQueue?: number;
}

export interface PipelineRuntime {
  onIngested(teamId: number, events: readonly CaptureEvent[]): void;
  /** Plugins or configs changed: the destinations are read again before the next batch. */
  invalidate(): void;
  /** Resolves when every queue is empty and the counters are written (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface Target {
  configId: number;
  teamId: number;
  plugin: PluginRow;
  stamp: string;
  config: Record<string, unknown>;
  queue: PluginEvent[];
  inFlight: number;
  sandbox: Promise<Sandbox> | null;
  /** Events still to run one at a time after the sandbox was stopped with several in flight. */
  solo: number;
  /** The hosts of the URLs in the config: all a source plugin may reach (read once per config, not per event). */
  hosts: Set<string>;
  /** The source plugin exports composeWebhook (else onEvent). */
  composes: boolean;
}

/** The per-config facts a delivery needs, read when the destinations are (re)built. */
function settingsOf(plugin: PluginRow, config: Record<string, unknown>): Pick<Target, 'hosts' | 'composes'> {
  let methods: unknown;
  try {
    methods = (JSON.parse(plugin.capabilities) as { methods?: unknown }).methods;
  } catch {
    methods = undefined;
  }
  return { hosts: configuredHosts(config), composes: Array.isArray(methods) && methods.includes('composeWebhook') };
}

/** The sandbox was stopped (a loop, an allocation) while this event ran in it. */
class StoppedWithSandbox extends DeliveryError {}

/**
 * Events of one destination in flight at once. A source plugin's calls are promises inside its
 * one sandbox, so while one awaits its fetch the next runs (one at a time, they waited on each
 * other's round trips: 4 s behind at 800 events/s). When a call stops the sandbox, the events in
 * flight with it are run again one at a time, so only the one that loops or allocates fails.
 * A sandbox call also crosses to the plugin's worker thread and back, waiting for both event
 * loops: with eight in flight a source plugin fell 3 s behind at 900 events/s on a loaded machine.
 */
const HTTP_CONCURRENCY = 8;
const SANDBOX_CONCURRENCY = 32;
const concurrencyOf = (t: Target) => (t.plugin.builtin ? HTTP_CONCURRENCY : SANDBOX_CONCURRENCY);

export function createPipelineRuntime(o: PipelineRuntimeOptions): PipelineRuntime {
  const { store, now } = o;
  const policy = { allowHosts: o.allowHosts ?? [] };
  const delays = o.retryDelaysMs ?? [500, 2000, 5000];
  const maxQueue = o.maxQueue ?? 50_000;
  let byTeam = new Map<number, Target[]>();
  let targets = new Map<number, Target>();
  let dirty = true;
  let closed = false;
  const counters = new Map<number, { delivered: number; failed: number; retried: number }>();

  const bump = (id: number, key: 'delivered' | 'failed' | 'retried', n = 1) => {
    const c = counters.get(id) ?? { delivered: 0, failed: 0, retried: 0 };
    c[key] += n;
    counters.set(id, c);
  };
  const flush = () => {
    if (counters.size === 0) return;
    const at = now();
    const list = [...counters];
    counters.clear();
    try {
      store.transaction(() => {
        for (const [id, c] of list) if (store.pluginConfigs.get(id)) store.pluginConfigs.addMetrics(id, at, c);
      });
    } catch {
      // the store is closing: the counters of the last second are lost, events were delivered
    }
  };
  const timer = setInterval(flush, 1000);
  timer.unref();

  const log = (t: Target, level: 'LOG' | 'INFO' | 'WARN' | 'ERROR', message: string) => {
    try {
      store.pluginConfigs.log(t.configId, level, t.plugin.builtin ? 'delivery' : 'plugin', message, now().toISOString());
    } catch {
      // config deleted meanwhile
    }
  };

  const runnable = (p: PluginRow): boolean => {
    if (p.grp !== 'pipeline_destinations') return false;
    return p.builtin !== null || hasCode(p, 'index');
  };

  const rebuild = () => {
    dirty = false;
    const next = new Map<number, Target>();
    const team = new Map<number, Target[]>();
    for (const { row, secrets } of store.pluginConfigs.enabledWithSecrets()) {
      const plugin = store.plugins.get(row.plugin_id);
      if (!plugin || !runnable(plugin)) continue;
      const stamp = `${row.updated_at}|${plugin.updated_at}`;
      const config = effectiveConfig(schemaFields(plugin.config_schema), JSON.parse(row.config) as Record<string, unknown>, secrets);
      let t = targets.get(row.id);
      if (t && t.stamp !== stamp) {
        void t.sandbox?.then((s) => s.dispose(), () => {});
        t = { ...t, plugin, stamp, config, sandbox: null, ...settingsOf(plugin, config) };
      }
      t ??= { configId: row.id, teamId: row.team_id, plugin, stamp, config, queue: [], inFlight: 0, sandbox: null, solo: 0, ...settingsOf(plugin, config) };
      next.set(row.id, t);
      team.set(row.team_id, [...(team.get(row.team_id) ?? []), t]);
    }
    for (const [id, old] of targets) if (!next.has(id)) void old.sandbox?.then((s) => s.dispose(), () => {});
    targets = next;
    byTeam = team;
  };

  const sandboxOf = (t: Target): Promise<Sandbox> => {
    if (!t.sandbox) {
      const created = compiledCode(store, t.plugin, 'index').then((code) => createSandbox(code ?? '', {
        log: (level, message) => log(t, level, message),
        fetch: { hosts: [...t.hosts], policy },
      }, o.limits ?? DEFAULT_LIMITS));
      t.sandbox = created;
      created.catch(() => { if (t.sandbox === created) t.sandbox = null; });
    }
    return t.sandbox;
  };

  /** One attempt: resolves when delivered (or not meant for this destination). */
  const attempt = async (t: Target, event: PluginEvent): Promise<boolean> => {
    let delivery: HttpDelivery | null;
    if (t.plugin.builtin) {
      delivery = builtinDelivery(t.plugin.builtin, event, t.config);
    } else {
      const pending = sandboxOf(t);
      const sandbox = await pending;
      const meta = { config: t.config };
      try {
        if (t.composes) {
          const out = (await sandbox.call('composeWebhook', [event, meta])) as HttpDelivery | null;
          delivery = out && typeof out.url === 'string' ? out : null;
          if (delivery && !t.hosts.has(new URL(delivery.url).host.toLowerCase())) {
            throw new DeliveryError(`composeWebhook returned ${new URL(delivery.url).host}, which is not a host of the plugin's config.`, false);
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
        if (e instanceof StoppedWithSandbox && !alone && !closed) {
          // maybe another event's doing: this one runs again, alone, before it can count as failed
          t.solo = Math.max(t.solo, concurrencyOf(t) * 2);
          t.queue.unshift(event);
          return;
        }
        if (e.retryable && i < delays.length && !closed) {
          bump(t.configId, 'retried');
          log(t, 'WARN', `Event ${event.uuid} (${event.event}): ${e.message} Retrying in ${delays[i]} ms (attempt ${i + 2} of ${delays.length + 1}).`);
          await new Promise((resolve) => setTimeout(resolve, delays[i]).unref());
          continue;
        }
        bump(t.configId, 'failed');
        log(t, 'ERROR', `Event ${event.uuid} (${event.event}) was not delivered: ${e.message}`);
        try {
          store.pluginConfigs.setError(t.configId, { message: e.message, time: now().toISOString() });
        } catch {
          // config deleted meanwhile
        }
        return;
      }
    }
  };

  const pump = (t: Target) => {
    while (!closed && t.inFlight < (t.solo > 0 ? 1 : concurrencyOf(t)) && t.queue.length > 0) {
      const event = t.queue.shift()!;
      t.inFlight += 1;
      const alone = t.solo > 0;
      if (alone) t.solo -= 1;
      void deliver(t, event, alone).finally(() => {
        t.inFlight -= 1;
        pump(t);
      });
    }
  };

  return {
    onIngested(teamId, events) {
      try {
        if (closed) return;
        if (dirty) rebuild();
        const list = byTeam.get(teamId);
        if (!list) return;
        const converted = events.map((e): PluginEvent => ({
          uuid: e.uuid, event: e.event, distinct_id: e.distinct_id, timestamp: e.timestamp.toISOString(), team_id: teamId, properties: e.properties,
        }));
        for (const t of list) {
          const room = Math.max(0, maxQueue - t.queue.length);
          if (room < converted.length) {
            bump(t.configId, 'failed', converted.length - room);
            log(t, 'ERROR', `${converted.length - room} events dropped: ${maxQueue} events are already waiting for this destination.`);
          }
          t.queue.push(...converted.slice(0, room));
          pump(t);
        }
      } catch {
        // ingestion never fails because of a plugin
      }
    },
    invalidate() {
      dirty = true;
    },
    async idle() {
      for (;;) {
        const busy = [...targets.values()].some((t) => t.queue.length > 0 || t.inFlight > 0);
        if (!busy) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      flush();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      flush();
      for (const t of targets.values()) void t.sandbox?.then((s) => s.dispose(), () => {});
    },
  };
}
