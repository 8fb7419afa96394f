import {
  BATCH_EXPORT_INTERVAL_MS,
  type BatchExportInterval,
  type BatchExportModel,
  type DestinationType,
} from '../../src/contract/index.ts';
import { alignDown, iso } from '../batch-exports/intervals.ts';
import type { Store } from '../store/store.ts';
import { SEED_PRNG_SEED, type SeedClock } from './data.ts';
import { createPrng, type Prng } from './prng.ts';

export interface SeedBatchExport {
  name: string;
  type: DestinationType;
  model: BatchExportModel;
  interval: BatchExportInterval;
  /** Index into the organization's projects. */
  project: number;
  /** Null: active (its destination is reachable from here); else when a user paused it. */
  pausedHoursAgo: number | null;
  /** How many past intervals have a run (the oldest starts within the seed's 30 days). */
  runs: number;
  /** Runs that failed, by age (0: the latest run), with their error. */
  failures: Record<number, (config: Record<string, unknown>, total: number) => string>;
  config: (prng: Prng) => Record<string, unknown>;
}

/** The demo exports of the first seeded organization: every kind of destination; those this server cannot reach, paused. */
export const SEED_BATCH_EXPORTS: readonly SeedBatchExport[] = [
  {
    name: 'Hourly export check',
    type: 'NoOp',
    model: 'events',
    interval: 'hour',
    project: 0,
    pausedHoursAgo: null,
    runs: 24,
    failures: {},
    config: () => ({}),
  },
  {
    name: 'Webhook relay',
    type: 'HTTP',
    model: 'events',
    interval: 'hour',
    project: 0,
    pausedHoursAgo: 5,
    runs: 10,
    failures: {
      3: (c, n) =>
        `HTTP destination ${String(c.url)} answered 503 Service Unavailable on batch 1; 0 of ${n} records delivered.`,
    },
    config: (p) => ({ url: 'https://hooks.hedgebox.example/batch-exports', token: `whk_${p.base62(32)}` }),
  },
  {
    name: 'Event archive (S3)',
    type: 'S3',
    model: 'events',
    interval: 'day',
    project: 0,
    pausedHoursAgo: 20,
    runs: 12,
    failures: {
      0: (c, n) =>
        `An error occurred (AccessDenied) when calling the PutObject operation: Access Denied (bucket ${String(c.bucket_name)}); 0 of ${n} records exported.`,
    },
    config: (p) => ({
      bucket_name: 'hedgebox-event-archive',
      region: 'eu-west-1',
      prefix: 'posthog/',
      aws_access_key_id: `AKIA${p.base62(16).toUpperCase()}`,
      aws_secret_access_key: p.base62(40),
      compression: 'gzip',
      encryption: null,
      kms_key_id: null,
      endpoint_url: null,
      file_format: 'JSONLines',
    }),
  },
  {
    name: 'Warehouse sync',
    type: 'Snowflake',
    model: 'events',
    interval: 'day',
    project: 0,
    pausedHoursAgo: 50,
    runs: 14,
    failures: {
      6: (c) =>
        `250001 (08001): Failed to connect to DB: ${String(c.account)}.snowflakecomputing.com:443. Warehouse '${String(c.warehouse)}' cannot be resumed because resource monitor 'MONTHLY_CAP' has exceeded its quota.`,
    },
    config: (p) => ({
      account: 'hedgebox-xy12345',
      user: 'EXPORTER',
      password: p.base62(24),
      database: 'ANALYTICS',
      warehouse: 'COMPUTE_WH',
      schema: 'POSTHOG',
      table_name: 'EVENTS',
      role: null,
    }),
  },
  {
    name: 'Mobile persons to Postgres',
    type: 'Postgres',
    model: 'persons',
    interval: 'day',
    project: 1,
    pausedHoursAgo: 30,
    runs: 9,
    failures: {
      4: (c) => `connection to server at "${String(c.host)}" (10.20.3.14), port 5432 failed: timeout expired`,
    },
    config: (p) => ({
      host: 'db.hedgebox.example',
      port: 5432,
      database: 'crm',
      schema: 'public',
      table_name: 'persons',
      user: 'exporter',
      password: p.base62(24),
      has_self_signed_cert: false,
    }),
  },
  {
    name: 'Weekly marketing export',
    type: 'BigQuery',
    model: 'events',
    interval: 'week',
    project: 1,
    pausedHoursAgo: 70,
    runs: 2,
    failures: {},
    config: (p) => ({
      project_id: 'hedgebox-marketing',
      dataset_id: 'posthog',
      table_id: 'mobile_events',
      private_key: `-----BEGIN PRIVATE KEY-----\n${p.base62(64)}\n-----END PRIVATE KEY-----\n`,
      private_key_id: p.hex(40),
      client_email: 'exporter@hedgebox-marketing.iam.gserviceaccount.com',
      token_uri: 'https://oauth2.googleapis.com/token',
    }),
  },
];

/**
 * Seeds the demo exports of `organizationId` with a run history over the days before the seed's
 * moment (mostly completed, a few failures with the errors such destinations give) and its log
 * entries. Exports whose destination this server cannot reach (everything but NoOp) are seeded
 * paused, as a user would have paused them. An active export's `next_run_at` is the interval
 * after its last seeded run: a server started later (even days later) catches up from there
 * (at most MAX_CATCH_UP_RUNS runs, server/batch-exports/scheduler.ts), so its history stays current.
 */
export function seedBatchExports(
  store: Store,
  organizationId: string,
  projectIds: readonly number[],
  clock: SeedClock,
): string[] {
  const prng = createPrng(SEED_PRNG_SEED + 1);
  const ids: string[] = [];
  SEED_BATCH_EXPORTS.forEach((spec, index) => {
    const created = clock.day(1, (index + 1) * 60);
    const config = spec.config(prng);
    const size = BATCH_EXPORT_INTERVAL_MS[spec.interval];
    const paused = spec.pausedHoursAgo !== null;
    const pausedMs = Date.parse(clock.hoursAgo(spec.pausedHoursAgo ?? 0));
    // The last run ended before the pause (or a few minutes ago); every run finished before now.
    const lastEnd = alignDown(spec.interval, pausedMs - (paused ? 3_600_000 : 120_000));
    const pausedAt = paused ? iso(pausedMs) : null;
    const id = store.batchExports.create(
      organizationId,
      {
        team_id: projectIds[spec.project] ?? projectIds[0]!,
        name: spec.name,
        model: spec.model,
        destination_type: spec.type,
        destination_config: JSON.stringify(config),
        interval: spec.interval,
        paused: paused ? 1 : 0,
        last_paused_at: pausedAt,
        start_at: null,
        end_at: null,
        hogql_query: null,
        last_updated_at: pausedAt ?? created,
        next_run_at: paused ? null : iso(lastEnd + size),
      },
      created,
      prng.uuid(),
    );
    ids.push(id);
    for (let i = spec.runs - 1; i >= 0; i -= 1) {
      const end = lastEnd - i * size;
      const total = Math.round((size / 3_600_000) * (300 + prng.next() * 400) * (spec.model === 'persons' ? 0.05 : 1));
      const failure = spec.failures[i];
      const error = failure ? failure(config, total) : null;
      const at = (seconds: number) => iso(end + seconds * 1000);
      const runId = store.batchExportRuns.create(
        {
          id: prng.uuid(),
          batch_export_id: id,
          data_interval_start: iso(end - size),
          data_interval_end: iso(end),
          status: error ? 'Failed' : 'Completed',
          records_total_count: total,
          records_completed: error ? 0 : total,
          latest_error: error,
          finished_at: at(12 + Math.floor(prng.next() * 40)),
        },
        at(5),
      );
      store.batchExportLogs.add(
        id,
        runId,
        'INFO',
        `Run started for ${spec.model} of ${iso(end - size)} – ${iso(end)} to ${spec.type}.`,
        at(5),
      );
      store.batchExportLogs.add(id, runId, 'INFO', `${total} ${spec.model} in the interval.`, at(6));
      if (error) store.batchExportLogs.add(id, runId, 'ERROR', `Run failed after 3 attempts: ${error}`, at(12));
      else
        store.batchExportLogs.add(id, runId, 'INFO', `Run completed: ${total} of ${total} records exported.`, at(12));
    }
    if (pausedAt) store.batchExportLogs.add(id, null, 'INFO', 'Export paused.', pausedAt);
  });
  return ids;
}
