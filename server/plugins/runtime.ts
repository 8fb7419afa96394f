import type { Worker } from 'node:worker_threads';
import type { CaptureEvent } from '../analytics/ingest-parse.ts';
import type { PluginRow } from '../store/plugins.ts';
import type { Store } from '../store/store.ts';
import { compiledCode, hasCode } from './compiled-code.ts';
import { effectiveConfig, schemaFields } from './config-values.ts';
import { configuredHosts, type PluginEvent } from './deliver.ts';
import type { DeliveryTarget } from './delivery.ts';
import type { WorkerIn, WorkerOut } from './delivery-worker.ts';
import type { SandboxLimits } from './sandbox.ts';
import { startTsWorker } from './ts-worker.ts';

/**
 * Runs the enabled destinations. Ingestion hands each accepted batch to `onIngested`, which only
 * passes it on (never waits, never throws) to the delivery worker thread (delivery-worker.ts,
 * delivery.ts): there every enabled destination of the project gets the events in the
 * background, through its built-in delivery (webhook, Slack) or its compiled source in a sandbox,
 * with retries on retryable failures. The worker runs at the lowest CPU priority, so deliveries
 * never take the server's cores from ingestion: after a burst they catch up. This side reads the
 * destinations from the store and writes what the worker reports: counters to the plugin
 * metrics, failures and the plugin's console output to its log.
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
   * Bytes of accepted events (as JSON) waiting for delivery before new ones are dropped (and
   * counted as failed); default 256 MB, about a million small events. Ingestion never waits on a
   * destination: a burst faster than the deliveries waits here, in text, and each batch is parsed
   * only when its first destination reaches it.
   */
  maxPendingBytes?: number;
}

export interface PipelineRuntime {
  /**
   * A batch is being written; call the returned function when it is. While writes queue up (a
   * burst), deliveries wait, so they and their receivers leave the cores to ingestion.
   */
  ingesting(): () => void;
  onIngested(teamId: number, events: readonly CaptureEvent[]): void;
  /** Plugins or configs changed: the destinations are read again before the next batch. */
  invalidate(): void;
  /** Resolves when every queue is empty and the counters are written (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** What a destination needs besides its config, read once when the destinations are (re)built. */
function composesWebhook(plugin: PluginRow): boolean {
  let methods: unknown;
  try {
    methods = (JSON.parse(plugin.capabilities) as { methods?: unknown }).methods;
  } catch {
    methods = undefined;
  }
  return Array.isArray(methods) && methods.includes('composeWebhook');
}

const runnable = (p: PluginRow): boolean => p.grp === 'pipeline_destinations' && (p.builtin !== null || hasCode(p, 'index'));

const WORKER = new URL('./delivery-worker.ts', import.meta.url);
/** The delivery worker could not start in this process: it is not tried again. */
let cannotStart = false;

export function createPipelineRuntime(o: PipelineRuntimeOptions): PipelineRuntime {
  const { store, now } = o;
  let worker: Worker | null = null;
  /** Teams with an enabled destination: only their batches go to the worker. */
  let teams = new Set<number>();
  let dirty = true;
  /** A rebuild reading compiled code: batches accepted meanwhile wait here, in order. */
  let rebuilding: Promise<void> | null = null;
  let held: [number, readonly CaptureEvent[]][] = [];
  let closed = false;
  const counters = new Map<number, { delivered: number; failed: number; retried: number }>();
  /** Idle and close calls the worker has not answered yet. */
  const asked = new Map<number, () => void>();
  let nextAsk = 0;

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
  // Ingestion under pressure: two or more batches being written at once in at least half of the
  // last ten 10 ms samples. Shared with the delivery worker (1 = deliveries wait).
  let writing = 0;
  const pressure = new Int32Array(new SharedArrayBuffer(4));
  const samples: boolean[] = [];
  const loadTimer = setInterval(() => {
    samples.push(writing >= 2);
    if (samples.length > 10) samples.shift();
    Atomics.store(pressure, 0, samples.filter(Boolean).length >= 5 ? 1 : 0);
  }, 10);
  loadTimer.unref();

  const onReport = (r: WorkerOut) => {
    try {
      if (r.type === 'count') {
        const c = counters.get(r.configId) ?? { delivered: 0, failed: 0, retried: 0 };
        c.delivered += r.delivered;
        c.failed += r.failed;
        c.retried += r.retried;
        counters.set(r.configId, c);
      } else if (r.type === 'log') {
        store.pluginConfigs.log(r.configId, r.level, r.source, r.message, now().toISOString());
      } else if (r.type === 'error') {
        store.pluginConfigs.setError(r.configId, { message: r.message, time: now().toISOString() });
      } else {
        asked.get(r.id)?.();
        asked.delete(r.id);
      }
    } catch {
      // config deleted meanwhile, or the store is closing
    }
  };

  const send = (msg: WorkerIn) => {
    if (!worker) {
      if (cannotStart) return;
      try {
        worker = startTsWorker(WORKER, {
          workerData: { allowHosts: [...(o.allowHosts ?? [])], retryDelaysMs: o.retryDelaysMs ?? [500, 2000, 5000], limits: o.limits, maxPendingBytes: o.maxPendingBytes ?? 256e6, pressure: pressure.buffer },
        });
      } catch (error) {
        // not a Node process that can run it (the app's component tests run the server in a
        // browser-like environment): deliveries are off, said once
        cannotStart = true;
        console.error(`Pipeline deliveries are off: the delivery worker cannot start (${(error as Error).message}).`);
        return;
      }
      worker.unref();
      worker.on('message', onReport);
      worker.on('error', (error) => {
        // a bug in the worker: what waited there is lost; the next batch starts a new one
        console.error('pipeline delivery worker failed:', error);
        worker = null;
        dirty = true;
        for (const resolve of asked.values()) resolve();
        asked.clear();
      });
    }
    worker.postMessage(msg);
  };

  /** Asks the worker to be idle or to close; resolves with its answer (at once without a worker). */
  const ask = (type: 'idle' | 'close'): Promise<void> => {
    if (!worker) return Promise.resolve();
    const id = (nextAsk += 1);
    const answered = new Promise<void>((resolve) => asked.set(id, resolve));
    send({ type, id });
    return answered;
  };

  const pass = (teamId: number, events: readonly CaptureEvent[]) => {
    if (!teams.has(teamId)) return;
    const converted = events.map((e): PluginEvent => ({
      uuid: e.uuid, event: e.event, distinct_id: e.distinct_id, timestamp: e.timestamp.toISOString(), team_id: teamId, properties: e.properties,
    }));
    send({ type: 'batch', teamId, json: JSON.stringify(converted) });
  };

  const rebuild = async () => {
    const targets: DeliveryTarget[] = [];
    for (const { row, secrets } of store.pluginConfigs.enabledWithSecrets()) {
      const plugin = store.plugins.get(row.plugin_id);
      if (!plugin || !runnable(plugin)) continue;
      const config = effectiveConfig(schemaFields(plugin.config_schema), JSON.parse(row.config) as Record<string, unknown>, secrets);
      let code: string | null = null;
      if (!plugin.builtin) {
        try {
          code = await compiledCode(store, plugin, 'index');
        } catch {
          code = null; // its sandbox fails on the first event, and says so in the plugin's log
        }
      }
      targets.push({
        configId: row.id, teamId: row.team_id, stamp: `${row.updated_at}|${plugin.updated_at}`, builtin: plugin.builtin, config, code,
        hosts: [...configuredHosts(config)], composes: composesWebhook(plugin),
      });
    }
    teams = new Set(targets.map((t) => t.teamId));
    if (targets.length > 0 || worker) send({ type: 'targets', targets });
  };

  const startRebuild = () => {
    dirty = false;
    const done = rebuild().catch((error: unknown) => {
      console.error('pipeline destinations could not be read:', error);
    }).then(() => {
      if (rebuilding !== done) return;
      rebuilding = null;
      const waiting = held;
      held = [];
      try {
        for (const [teamId, events] of waiting) pass(teamId, events);
      } catch {
        // ingestion never fails because of a plugin
      }
      if (dirty && !closed) startRebuild();
    });
    rebuilding = done;
  };

  return {
    ingesting() {
      writing += 1;
      let ended = false;
      return () => {
        if (!ended) writing -= 1;
        ended = true;
      };
    },
    onIngested(teamId, events) {
      try {
        if (closed) return;
        if (dirty && !rebuilding) startRebuild();
        if (rebuilding) held.push([teamId, events]);
        else pass(teamId, events);
      } catch {
        // ingestion never fails because of a plugin
      }
    },
    invalidate() {
      dirty = true;
    },
    async idle() {
      if (dirty && !rebuilding && !closed) startRebuild();
      while (rebuilding) await rebuilding;
      await ask('idle');
      flush();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(loadTimer);
      if (rebuilding) await rebuilding;
      const w = worker;
      await ask('close'); // its last counts arrive before its answer
      worker = null;
      await w?.terminate();
      flush();
    },
  };
}
