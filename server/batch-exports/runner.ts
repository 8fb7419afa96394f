import type { EventStore } from '../analytics/store/event-store.ts';
import type { BatchExportRunRow, RunProgress } from '../store/batch-export-runs.ts';
import type { Store } from '../store/store.ts';
import { DeliveryError, destinationFor, type DestinationOptions } from './destinations/index.ts';
import { recordSource, type EventFilter } from './records.ts';

export interface RunnerOptions extends DestinationOptions {
  /** Delivery attempts before a retryable failure becomes Failed (default 3). */
  maxAttempts?: number;
  /** Pause before attempt n+1: n × this (default 2 s; tests pass 0). */
  retryDelayMs?: number;
}

export interface RunnerDeps {
  store: Store;
  events: EventStore;
  now: () => Date;
}

export const DEFAULT_MAX_ATTEMPTS = 3;
export const DEFAULT_RETRY_DELAY_MS = 2000;

const sleep = (ms: number) =>
  ms <= 0 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Executes one run: Starting → Running → Completed, or → FailedRetryable (retried up to
 * `maxAttempts`) → Failed with `latest_error`. Counts the interval's records first
 * (`records_total_count`), then hands them to the destination. Every step writes a log entry;
 * no entry and no error text ever holds a config secret.
 */
export async function executeRun(deps: RunnerDeps, run: BatchExportRunRow, options: RunnerOptions = {}): Promise<void> {
  const { store, events, now } = deps;
  const exported = store.batchExports.get(run.batch_export_id);
  if (!exported) return;
  const at = () => now().toISOString();
  const log = (level: string, message: string) => store.batchExportLogs.add(exported.id, run.id, level, message, at());
  const progress: RunProgress = {
    status: 'Running',
    records_completed: null,
    records_total_count: run.records_total_count,
    latest_error: null,
    finished_at: null,
    attempts: run.attempts,
  };
  const save = (change: Partial<RunProgress>) => {
    Object.assign(progress, change);
    store.batchExportRuns.setProgress(run.id, progress, at());
  };
  const interval = `${run.data_interval_start ?? '-'} – ${run.data_interval_end}`;
  save({ status: 'Running' });
  log('INFO', `Run started for ${exported.model} of ${interval} to ${exported.destination_type}.`);

  const start = run.data_interval_start ?? new Date(0).toISOString();
  const config = JSON.parse(exported.destination_config) as Record<string, unknown> & EventFilter;
  const records = recordSource(events, exported.model, exported.team_id, start, run.data_interval_end, config);
  let total: number;
  try {
    total = await records.count();
  } catch (error) {
    const message = `Could not read the records of ${interval}: ${error instanceof Error ? error.message : String(error)}`;
    save({ status: 'Failed', latest_error: message, finished_at: at() });
    log('ERROR', `Run failed: ${message}`);
    return;
  }
  save({ records_total_count: total });
  log('INFO', `${total} ${exported.model} in the interval.`);

  const { deliver } = destinationFor(exported.destination_type);
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  for (;;) {
    const attempt = progress.attempts + 1;
    // A retry keeps the status FailedRetryable until its outcome is known.
    save({ attempts: attempt });
    try {
      const completed = await deliver(
        {
          config,
          records,
          total,
          log,
          model: exported.model,
          exportId: exported.id,
          interval: { start, end: run.data_interval_end },
          progress: (delivered) => save({ records_completed: delivered }),
        },
        options,
      );
      save({ status: 'Completed', records_completed: completed, latest_error: null, finished_at: at() });
      log('INFO', `Run completed: ${completed} of ${total} records exported.`);
      return;
    } catch (error) {
      const known = error instanceof DeliveryError;
      const message = known ? error.message : `Unexpected error: ${error instanceof Error ? error.name : 'unknown'}`;
      if (known && error.retryable && attempt < maxAttempts) {
        save({ status: 'FailedRetryable', latest_error: message });
        log('WARNING', `Attempt ${attempt} of ${maxAttempts} failed, retrying: ${message}`);
        await sleep(attempt * (options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS));
        continue;
      }
      save({ status: 'Failed', records_completed: 0, latest_error: message, finished_at: at() });
      log('ERROR', `Run failed after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${message}`);
      return;
    }
  }
}
