import { BATCH_EXPORT_INTERVAL_MS } from '../../src/contract/index.ts';
import type { BatchExportRow } from '../store/batch-exports.ts';
import { alignDown, iso } from './intervals.ts';
import { nextRunAt } from './pause.ts';
import { executeRun, type RunnerDeps, type RunnerOptions } from './runner.ts';

/** How often the server's scheduler looks for due intervals and waiting runs. */
export const DEFAULT_TICK_MS = 1000;
/**
 * After a stop longer than this many intervals the oldest missed intervals are skipped (with a
 * WARNING log entry) instead of creating a flood of runs.
 */
export const MAX_CATCH_UP_RUNS = 24;

export interface SchedulerOptions extends RunnerDeps {
  tickMs?: number;
  maxCatchUp?: number;
  runner?: RunnerOptions;
  onError?: (message: string, error: unknown) => void;
}

export interface Scheduler {
  /** Creates the runs of every elapsed interval, then executes every waiting run, oldest first. */
  tick(): Promise<void>;
  /** Creates the due runs (no execution); returns how many. */
  schedule(): number;
  /** Executes waiting runs (scheduled or backfilled) one at a time, oldest first; returns how many. */
  drain(): Promise<number>;
  /** Ticks every `tickMs` (after re-queueing runs a previous stop interrupted). */
  start(): void;
  /** Stops ticking and waits for the run in progress. */
  stop(): Promise<void>;
}

/**
 * The batch export scheduler. An unpaused export gets one run per elapsed interval while the
 * interval's end lies within start_at..end_at; `next_run_at` (the end of the next interval to
 * run) is its cursor, set to the next boundary on create and on unpause, so neither makes
 * catch-up runs. The clock is `now`: tests inject theirs and call `tick()`.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, now } = options;
  const maxCatchUp = Math.max(1, options.maxCatchUp ?? MAX_CATCH_UP_RUNS);
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let stopped = false;

  function scheduleExport(row: BatchExportRow, nowMs: number): number {
    const interval = row.interval;
    const at = iso(nowMs);
    if (row.next_run_at === null) {
      store.batchExports.setNextRunAt(row.id, nextRunAt(interval, row.start_at, nowMs));
      return 0;
    }
    const size = BATCH_EXPORT_INTERVAL_MS[interval];
    const endAt = row.end_at === null ? Infinity : Date.parse(row.end_at);
    let end = Date.parse(row.next_run_at);
    const earliest = alignDown(interval, nowMs) - (maxCatchUp - 1) * size;
    if (end < earliest) {
      const skipped = Math.round((earliest - end) / size);
      store.batchExportLogs.add(
        row.id,
        null,
        'WARNING',
        `Skipped ${skipped} missed intervals before ${iso(earliest - size)} (the server was stopped).`,
        at,
      );
      end = earliest;
    }
    let created = 0;
    for (; end <= nowMs && end <= endAt; end += size) {
      store.batchExportRuns.create(
        { batch_export_id: row.id, data_interval_start: iso(end - size), data_interval_end: iso(end) },
        at,
      );
      created += 1;
    }
    store.batchExports.setNextRunAt(row.id, iso(end));
    return created;
  }

  function schedule(): number {
    const nowMs = now().getTime();
    return store.transaction(() =>
      store.batchExports.due(iso(nowMs)).reduce((n, row) => n + scheduleExport(row, nowMs), 0),
    );
  }

  async function drain(): Promise<number> {
    let done = 0;
    for (let run = store.batchExportRuns.nextStarting(); run && !stopped; run = store.batchExportRuns.nextStarting()) {
      await executeRun(options, run, options.runner);
      done += 1;
    }
    return done;
  }

  const tick = () => {
    current ??= (async () => {
      try {
        schedule();
        await drain();
      } catch (error) {
        (options.onError ?? ((m, e) => console.error(m, e)))('batch export scheduler tick failed', error);
      }
    })().finally(() => {
      current = undefined;
    });
    return current;
  };

  return {
    tick,
    schedule,
    drain,
    start() {
      if (timer) return;
      stopped = false;
      store.batchExportRuns.requeueInterrupted(now().toISOString());
      timer = setInterval(() => void tick(), options.tickMs ?? DEFAULT_TICK_MS);
      timer.unref();
      void tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await current;
    },
  };
}
