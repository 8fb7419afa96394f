import type { CaptureEvent } from '../analytics/store/ingest-parse.ts';
import type { PluginRow } from '../store/plugins.ts';
import type { Store } from '../store/store.ts';
import { compiledCode, exportsEvents } from './compile/compiled-code.ts';
import { effectiveConfig, schemaFields } from './config-values.ts';
import { configuredHosts, type PluginEvent } from './http-delivery.ts';
import { createDeliveryEngine, type DeliveryReport, type DeliveryTarget } from './delivery-engine.ts';
import { createPluginLogWriter } from './log-writer.ts';
import type { SandboxLimits } from './sandbox/sandbox.ts';

/**
 * Runs the enabled destinations. Ingestion hands each accepted batch to `onIngested`, which only
 * queues it (never waits, never throws) for the delivery engine (delivery-engine.ts): every enabled
 * destination of the project gets the events in the background, through its built-in delivery
 * (webhook, Slack) or its compiled source in a sandbox (a worker thread per plugin), with retries
 * on retryable failures. While ingestion is under pressure (a burst of `/batch/`), no new delivery
 * starts, so deliveries and their receivers leave the cores to ingestion and catch up after it.
 * This side reads the destinations from the store and writes what the engine reports: counters
 * to the plugin metrics, failures and the plugin's console output to its log.
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
  /**
   * Stops the deliveries. With `drainMs`, those waiting get that long to be delivered first (the
   * server's shutdown, after it stopped taking requests); what is still undelivered then is
   * written to each destination's log, as lost.
   */
  close(drainMs?: number): Promise<void>;
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

/**
 * Ingestion is under pressure when this many batches are being written at once… (At a steady
 * 1,000 events/s in batches of 50 about three are, when deliveries share the cores; a burst from
 * ten connections keeps ten. At four, deliveries paused a third of the time at that steady rate.)
 */
const PRESSING_WRITES = 8;
/** …in at least half of the last ten samples, taken every 10 ms. */
const SAMPLES = 10;

export function createPipelineRuntime(o: PipelineRuntimeOptions): PipelineRuntime {
  const { store, now } = o;
  /** Teams with an enabled destination: only their batches are queued. */
  let teams = new Set<number>();
  let dirty = true;
  /** A rebuild reading compiled code: batches accepted meanwhile wait here, in order. */
  let rebuilding: Promise<void> | null = null;
  /** Counts the changes to the destinations (`invalidate`): a held batch remembers the count it came at. */
  let generation = 0;
  let held: [number, readonly CaptureEvent[], number][] = [];
  let closed = false;
  const counters = new Map<number, { delivered: number; failed: number; retried: number }>();

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
  const logs = createPluginLogWriter(store, now);

  let writing = 0;
  let pressed = 0;
  const samples: boolean[] = [];
  let sampler: NodeJS.Timeout | null = null;
  const sample = () => {
    const busy = writing >= PRESSING_WRITES;
    samples.push(busy);
    if (busy) pressed += 1;
    if (samples.length > SAMPLES && samples.shift()) pressed -= 1;
    // nothing being written and nothing remembered: the sampler rests until the next write
    if (writing === 0 && pressed === 0 && sampler) {
      clearInterval(sampler);
      sampler = null;
      samples.length = 0;
    }
  };

  const report = (r: DeliveryReport) => {
    try {
      if (r.type === 'count') {
        // counted here and written to the metrics once a second
        const c = counters.get(r.configId) ?? { delivered: 0, failed: 0, retried: 0 };
        c[r.key] += r.n;
        counters.set(r.configId, c);
      } else if (r.type === 'log') {
        logs.add(r.configId, r.level, r.source, r.message);
      } else {
        store.pluginConfigs.setError(r.configId, { message: r.message, time: now().toISOString() });
      }
    } catch {
      // config deleted meanwhile, or the store is closing
    }
  };

  const engine = createDeliveryEngine({
    report,
    allowHosts: o.allowHosts ?? [],
    retryDelaysMs: o.retryDelaysMs ?? [500, 2000, 5000],
    limits: o.limits,
    maxPendingBytes: o.maxPendingBytes ?? 256e6,
    paused: () => pressed * 2 >= SAMPLES,
  });

  const pass = (teamId: number, events: readonly CaptureEvent[]) => {
    if (!teams.has(teamId)) return;
    const converted = events.map((e): PluginEvent => ({
      uuid: e.uuid,
      event: e.event,
      distinct_id: e.distinct_id,
      timestamp: e.timestamp.toISOString(),
      team_id: teamId,
      properties: e.properties,
    }));
    engine.push(teamId, JSON.stringify(converted), converted.length);
  };

  const rebuild = async () => {
    const targets: DeliveryTarget[] = [];
    for (const { row, secrets } of store.pluginConfigs.enabledWithSecrets()) {
      const plugin = store.plugins.get(row.plugin_id);
      if (!plugin || !exportsEvents(plugin)) continue;
      const config = effectiveConfig(
        schemaFields(plugin.config_schema),
        JSON.parse(row.config) as Record<string, unknown>,
        secrets,
      );
      let code: string | null = null;
      if (!plugin.builtin) {
        try {
          code = await compiledCode(store, plugin, 'index');
        } catch {
          code = null; // its sandbox fails on the first event, and says so in the plugin's log
        }
      }
      targets.push({
        configId: row.id,
        teamId: row.team_id,
        builtin: plugin.builtin,
        config,
        code,
        hosts: [...configuredHosts(config)],
        composes: composesWebhook(plugin),
      });
    }
    teams = new Set(targets.map((t) => t.teamId));
    engine.setTargets(targets);
  };

  const startRebuild = () => {
    dirty = false;
    // The destinations are read at once, when the rebuild starts: they are those of this count.
    const reads = generation;
    const done = rebuild()
      .catch((error: unknown) => {
        // a store closed meanwhile (a test's server gone) has nothing more to deliver
        if (store.db.open) console.error('pipeline destinations could not be read:', error);
      })
      .then(() => {
        if (rebuilding !== done) return;
        rebuilding = null;
        // Batches accepted while the destinations were read go to them as read, if they came
        // before any later change; those that came after one (a destination enabled meanwhile)
        // wait for the next rebuild, started below, so each goes to the destinations of its time.
        const waiting = held.filter(([, , at]) => at <= reads);
        held = held.filter(([, , at]) => at > reads);
        try {
          for (const [teamId, events] of waiting) pass(teamId, events);
        } catch {
          // ingestion never fails because of a plugin
        }
        if (dirty && !closed) startRebuild();
      });
    rebuilding = done;
  };

  let soon: NodeJS.Timeout | null = null;
  /** Until nothing waits; `reread`: read changed destinations first (not while stopping). */
  const delivered = async (reread: boolean) => {
    if (reread && dirty && !rebuilding && !closed) startRebuild();
    while (rebuilding) await rebuilding;
    await engine.idle();
  };
  const idle = async () => {
    await delivered(true);
    flush();
    logs.flush();
  };

  return {
    ingesting() {
      writing += 1;
      if (!sampler) {
        sampler = setInterval(sample, 10);
        sampler.unref();
      }
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
        if (rebuilding) held.push([teamId, events, generation]);
        else pass(teamId, events);
      } catch {
        // ingestion never fails because of a plugin
      }
    },
    invalidate() {
      dirty = true;
      generation += 1;
      // read again soon, not with the next event: an enabled source plugin's sandbox starts now
      if (soon || closed) return;
      soon = setTimeout(() => {
        soon = null;
        if (dirty && !rebuilding && !closed) startRebuild();
      }, 0);
      soon.unref();
    },
    idle,
    async close(drainMs = 0) {
      if (soon) clearTimeout(soon);
      if (drainMs > 0 && !closed) {
        // what is queued now gets the time; no new rebuild (no sandbox starts while stopping)
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([delivered(false), new Promise((resolve) => (timer = setTimeout(resolve, drainMs)))]);
        clearTimeout(timer);
        for (const [configId, n] of engine.undelivered()) {
          report({
            type: 'log',
            configId,
            level: 'ERROR',
            source: 'delivery',
            message: `${n} ${n === 1 ? 'event was' : 'events were'} not delivered when the server stopped (still waiting, or sent without an answer yet).`,
          });
        }
      }
      closed = true;
      clearInterval(timer);
      if (sampler) clearInterval(sampler);
      pressed = 0;
      if (rebuilding) await rebuilding;
      engine.close();
      flush();
      logs.flush(true);
    },
  };
}
