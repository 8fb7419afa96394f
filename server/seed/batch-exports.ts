import { BATCH_EXPORT_INTERVAL_MS, type BatchExportInterval, type BatchExportModel, type DestinationType } from '../../src/contract/index.ts';
import { unreachableMessage } from '../batch-exports/destinations/unreachable.ts';
import { alignDown, iso } from '../batch-exports/intervals.ts';
import type { Store } from '../store/store.ts';
import { SEED_EPOCH, SEED_PRNG_SEED } from './data.ts';
import { createPrng, type Prng } from './prng.ts';

export interface SeedBatchExport {
  name: string;
  type: DestinationType;
  model: BatchExportModel;
  interval: BatchExportInterval;
  /** Index into the organization's projects. */
  project: number;
  paused: boolean;
  /** How many past intervals have a run. */
  runs: number;
  config: (prng: Prng) => Record<string, unknown>;
}

/** The demo exports of the first seeded organization: every kind of destination, some paused. */
export const SEED_BATCH_EXPORTS: readonly SeedBatchExport[] = [
  { name: 'Hourly export check', type: 'NoOp', model: 'events', interval: 'hour', project: 0, paused: false, runs: 12, config: () => ({}) },
  {
    name: 'Webhook relay', type: 'HTTP', model: 'events', interval: 'hour', project: 0, paused: true, runs: 10,
    config: (p) => ({ url: 'https://hooks.hedgebox.example/batch-exports', token: `whk_${p.base62(32)}` }),
  },
  {
    name: 'Event archive (S3)', type: 'S3', model: 'events', interval: 'day', project: 0, paused: true, runs: 5,
    config: (p) => ({
      bucket_name: 'hedgebox-event-archive', region: 'eu-west-1', prefix: 'posthog/', aws_access_key_id: `AKIA${p.base62(16).toUpperCase()}`,
      aws_secret_access_key: p.base62(40), compression: 'gzip', encryption: null, kms_key_id: null, endpoint_url: null, file_format: 'JSONLines',
    }),
  },
  {
    name: 'Warehouse sync', type: 'Snowflake', model: 'events', interval: 'day', project: 0, paused: false, runs: 6,
    config: (p) => ({
      account: 'hedgebox-xy12345', user: 'EXPORTER', password: p.base62(24), database: 'ANALYTICS', warehouse: 'COMPUTE_WH',
      schema: 'POSTHOG', table_name: 'EVENTS', role: null,
    }),
  },
  {
    name: 'Mobile persons to Postgres', type: 'Postgres', model: 'persons', interval: 'day', project: 1, paused: true, runs: 4,
    config: (p) => ({
      host: 'db.hedgebox.example', port: 5432, database: 'crm', schema: 'public', table_name: 'persons', user: 'exporter',
      password: p.base62(24), has_self_signed_cert: false,
    }),
  },
  {
    name: 'Weekly marketing export', type: 'BigQuery', model: 'events', interval: 'week', project: 1, paused: false, runs: 4,
    config: (p) => ({
      project_id: 'hedgebox-marketing', dataset_id: 'posthog', table_id: 'mobile_events', private_key: `-----BEGIN PRIVATE KEY-----\n${p.base62(64)}\n-----END PRIVATE KEY-----\n`,
      private_key_id: p.hex(40), client_email: 'exporter@hedgebox-marketing.iam.gserviceaccount.com', token_uri: 'https://oauth2.googleapis.com/token',
    }),
  },
];

/** Runs of the history end here: 30 days after the seed epoch. */
const HISTORY_END = SEED_EPOCH + 30 * 86_400_000;

/**
 * Seeds the demo exports of `organizationId` with a run history and its log entries, dated
 * from the seed epoch (same ids and dates on every machine). `next_run_at` is left unset: the
 * scheduler anchors it at the next interval after the server starts (no catch-up flood).
 */
export function seedBatchExports(store: Store, organizationId: string, projectIds: readonly number[]): string[] {
  const prng = createPrng(SEED_PRNG_SEED + 1);
  const ids: string[] = [];
  SEED_BATCH_EXPORTS.forEach((spec, index) => {
    const created = iso(SEED_EPOCH + (index + 1) * 3_600_000);
    const config = spec.config(prng);
    const size = BATCH_EXPORT_INTERVAL_MS[spec.interval];
    const lastEnd = alignDown(spec.interval, HISTORY_END);
    const pausedAt = spec.paused ? iso(lastEnd + 600_000) : null;
    const id = store.batchExports.create(organizationId, {
      team_id: projectIds[spec.project] ?? projectIds[0]!, name: spec.name, model: spec.model, destination_type: spec.type,
      destination_config: JSON.stringify(config), interval: spec.interval, paused: spec.paused ? 1 : 0, last_paused_at: pausedAt,
      start_at: null, end_at: null, hogql_query: null, last_updated_at: pausedAt ?? created, next_run_at: null,
    }, created, prng.uuid());
    ids.push(id);
    for (let i = spec.runs - 1; i >= 0; i -= 1) {
      const end = lastEnd - i * size;
      const total = Math.round((size / 3_600_000) * (300 + prng.next() * 400) * (spec.model === 'persons' ? 0.05 : 1));
      const failedHttp = spec.type === 'HTTP' && i === 3;
      const unreachable = spec.type !== 'HTTP' && spec.type !== 'NoOp';
      const error = unreachable ? unreachableMessage(spec.type, config, total)
        : failedHttp ? `HTTP destination ${String(config.url)} answered 503 Service Unavailable on batch 1; 0 of ${total} records delivered.` : null;
      const at = (seconds: number) => iso(end + seconds * 1000);
      const runId = store.batchExportRuns.create({
        id: prng.uuid(), batch_export_id: id, data_interval_start: iso(end - size), data_interval_end: iso(end),
        status: error ? 'Failed' : 'Completed', records_total_count: total, records_completed: error ? 0 : total,
        latest_error: error, finished_at: at(12 + Math.floor(prng.next() * 40)),
      }, at(5));
      store.batchExportLogs.add(id, runId, 'INFO', `Run started for ${spec.model} of ${iso(end - size)} – ${iso(end)} to ${spec.type}.`, at(5));
      store.batchExportLogs.add(id, runId, 'INFO', `${total} ${spec.model} in the interval.`, at(6));
      if (error) store.batchExportLogs.add(id, runId, 'ERROR', `Run failed after ${failedHttp ? 3 : 1} attempt${failedHttp ? 's' : ''}: ${error}`, at(12));
      else store.batchExportLogs.add(id, runId, 'INFO', `Run completed: ${total} of ${total} records exported.`, at(12));
    }
    if (spec.paused && pausedAt) store.batchExportLogs.add(id, null, 'INFO', 'Export paused.', pausedAt);
  });
  return ids;
}
