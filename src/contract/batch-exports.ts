import { z } from './z';
import { endpoint, listQuerySchema, nullableTimestampSchema, pageSchema, timestampSchema } from './common';
import { destinationCreateSchema, destinationSchema, destinationUpdateSchema } from './batch-export-destinations';
import {
  backfillProgressSchema,
  connectionTestBodySchema,
  connectionTestSchema,
  exportConnectionTestBodySchema,
  runRetrySchema,
} from './batch-export-operations';
import { blankableText, bool, choice, integer, text, zonedDatetime } from './fields';

export * from './batch-export-destinations';
export * from './batch-export-operations';

export const BATCH_EXPORT_INTERVALS = ['hour', 'day', 'week', 'every 5 minutes'] as const;
export const batchExportIntervalSchema = choice(BATCH_EXPORT_INTERVALS);
export type BatchExportInterval = (typeof BATCH_EXPORT_INTERVALS)[number];
/** Length of one interval in milliseconds (a backfill creates one run per interval). */
export const BATCH_EXPORT_INTERVAL_MS: { readonly [I in BatchExportInterval]: number } = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  'every 5 minutes': 300_000,
};

/**
 * Intervals are aligned, in UTC: hours on the hour, days at midnight UTC, weeks on Monday
 * midnight UTC, five minutes on :00, :05, … (the server schedules and backfills on these marks;
 * the dashboard counts a backfill's runs with them).
 */
const WEEK_ORIGIN = Date.UTC(1970, 0, 5); // a Monday

/** The start (UTC ms) of the interval holding `ms`. */
export function alignDown(interval: BatchExportInterval, ms: number): number {
  const size = BATCH_EXPORT_INTERVAL_MS[interval];
  const origin = interval === 'week' ? WEEK_ORIGIN : 0;
  return Math.floor((ms - origin) / size) * size + origin;
}

export interface DataInterval {
  start: number;
  end: number;
}

/**
 * The aligned intervals of a backfill of [start, end) (UTC ms): every interval overlapping it,
 * oldest first, leaving out any that has not ended by `now` (the scheduler covers those). One run each.
 */
export function backfillIntervals(
  interval: BatchExportInterval,
  start: number,
  end: number,
  now: number,
): DataInterval[] {
  const size = BATCH_EXPORT_INTERVAL_MS[interval];
  const out: DataInterval[] = [];
  for (let s = alignDown(interval, start); s < end && s + size <= now; s += size) out.push({ start: s, end: s + size });
  return out;
}

export const BATCH_EXPORT_MODELS = ['events', 'persons'] as const;
export const BATCH_EXPORT_MODEL_LABELS = { events: 'Events', persons: 'Persons' } as const;
export const batchExportModelSchema = choice(BATCH_EXPORT_MODELS);
export type BatchExportModel = (typeof BATCH_EXPORT_MODELS)[number];

export const BATCH_EXPORT_RUN_STATUSES = [
  'Starting',
  'Running',
  'Completed',
  'Failed',
  'FailedRetryable',
  'Cancelled',
  'Terminated',
  'TimedOut',
  'ContinuedAsNew',
] as const;
export const batchExportRunStatusSchema = z.enum(BATCH_EXPORT_RUN_STATUSES);
export type BatchExportRunStatus = (typeof BATCH_EXPORT_RUN_STATUSES)[number];
/** Statuses after which a run does not change any more. */
export const FINAL_RUN_STATUSES: readonly BatchExportRunStatus[] = [
  'Completed',
  'Failed',
  'Cancelled',
  'Terminated',
  'TimedOut',
];
/** Runs that ended without exporting their interval: a retry runs it again. */
export const RETRYABLE_RUN_STATUSES: readonly BatchExportRunStatus[] = [
  'Failed',
  'FailedRetryable',
  'Cancelled',
  'TimedOut',
  'Terminated',
];

export const batchExportRunSchema = z.looseObject({
  id: z.string(),
  status: batchExportRunStatusSchema,
  records_completed: z.nullable(z.int()),
  latest_error: z.nullable(z.string()),
  data_interval_start: nullableTimestampSchema,
  data_interval_end: timestampSchema,
  cursor: z.nullable(z.string()),
  created_at: timestampSchema,
  finished_at: nullableTimestampSchema,
  last_updated_at: timestampSchema,
  records_total_count: z.nullable(z.int()),
  batch_export: z.string(),
  /** The backfill that made the run (a retry is a backfill of one run); null for a scheduled run. */
  backfill: z.optional(z.nullable(z.string())),
});
export type BatchExportRun = z.infer<typeof batchExportRunSchema>;

/**
 * A backfill, with the production service's fields. `status` takes the run statuses; the ones a
 * backfill reaches here are Running, Completed, Failed and Cancelled.
 */
export const backfillSchema = z.looseObject({
  id: z.string(),
  // A real instance has sent other shapes here: the list still shows without it.
  progress: z.catch(z.nullable(backfillProgressSchema), null),
  start_at: nullableTimestampSchema,
  end_at: nullableTimestampSchema,
  status: batchExportRunStatusSchema,
  created_at: timestampSchema,
  finished_at: nullableTimestampSchema,
  last_updated_at: timestampSchema,
  total_records_count: z.optional(z.nullable(z.int())),
  team: z.int(),
  batch_export: z.string(),
});
export type Backfill = z.infer<typeof backfillSchema>;

/** A backfill still working: its runs may still change. */
export const isBackfillActive = (backfill: Pick<Backfill, 'status'>) =>
  backfill.status === 'Running' || backfill.status === 'Starting';

export const batchExportSchema = z.looseObject({
  id: z.string(),
  team_id: z.int(),
  name: z.string(),
  model: z.nullable(batchExportModelSchema),
  destination: destinationSchema,
  interval: batchExportIntervalSchema,
  paused: z.boolean(),
  created_at: timestampSchema,
  last_updated_at: timestampSchema,
  last_paused_at: nullableTimestampSchema,
  start_at: nullableTimestampSchema,
  end_at: nullableTimestampSchema,
  latest_runs: z.array(batchExportRunSchema),
  hogql_query: z.optional(z.nullable(z.string())),
  schema: z.unknown(),
});
export type BatchExport = z.infer<typeof batchExportSchema>;

export const BATCH_EXPORT_NAME_MAX = 255;

/** Fields writable on create and update, apart from `model` and `destination`. */
const writableShape = {
  name: text(BATCH_EXPORT_NAME_MAX),
  interval: batchExportIntervalSchema,
  paused: z.optional(bool()),
  last_paused_at: z.optional(z.nullable(zonedDatetime())),
  start_at: z.optional(z.nullable(zonedDatetime())),
  end_at: z.optional(z.nullable(zonedDatetime())),
  hogql_query: z.optional(z.nullable(blankableText())),
  /** The project whose data is exported (a project of the organization); default: the organization's first project. */
  team_id: z.optional(integer({ min: 1 })),
};

type Range = { start_at?: string | null; end_at?: string | null };
/** Adds an issue on `end_at` when both bounds are given and start is not before end. */
function checkRange(value: Range, ctx: z.core.$RefinementCtx<Range>, message: string) {
  if (value.start_at && value.end_at && Date.parse(value.start_at) >= Date.parse(value.end_at)) {
    ctx.addIssue({ code: 'custom', path: ['end_at'], message, input: value.end_at });
  }
}

/** POST `{ORG}/batch_exports/`. */
export const batchExportCreateSchema = z
  .object({
    ...writableShape,
    model: z._default(batchExportModelSchema, 'events'),
    destination: destinationCreateSchema,
  })
  .check(z.superRefine((v, ctx) => checkRange(v, ctx, 'The end must be after the start.')));
export type BatchExportCreate = z.infer<typeof batchExportCreateSchema>;
export type BatchExportCreateInput = z.input<typeof batchExportCreateSchema>;

/**
 * PATCH `{ORG}/batch_exports/:id/`: every field optional; the destination's secrets may be
 * omitted to keep the stored ones (see mergeDestinationConfig).
 */
export const batchExportUpdateSchema = z
  .object({
    name: z.optional(writableShape.name),
    interval: z.optional(writableShape.interval),
    paused: writableShape.paused,
    last_paused_at: writableShape.last_paused_at,
    start_at: writableShape.start_at,
    end_at: writableShape.end_at,
    hogql_query: writableShape.hogql_query,
    team_id: writableShape.team_id,
    model: z.optional(batchExportModelSchema),
    destination: z.optional(destinationUpdateSchema),
  })
  .check(z.superRefine((v, ctx) => checkRange(v, ctx, 'The end must be after the start.')));
export type BatchExportUpdate = z.infer<typeof batchExportUpdateSchema>;

/**
 * POST `:id/backfill/` (docs/api.md): ISO 8601 bounds with a time zone, start before end.
 * "End in the future" needs the clock and is checked by the server (400 on `end_at`).
 */
export const batchExportBackfillSchema = z
  .object({ start_at: zonedDatetime(), end_at: zonedDatetime() })
  .check(z.superRefine((v, ctx) => checkRange(v, ctx, 'The end of the backfill must be after its start.')));
export type BatchExportBackfill = z.infer<typeof batchExportBackfillSchema>;

/**
 * One entry of `:id/logs/`. The API shows no shape; this follows the production service's
 * batch export log entries ({timestamp, level, message, run_id}) and, like every list here,
 * comes in a Page so the dashboard pages through it with limit/offset.
 */
export const BATCH_EXPORT_LOG_LEVELS = ['DEBUG', 'LOG', 'INFO', 'WARNING', 'ERROR'] as const;
export const batchExportLogEntrySchema = z.looseObject({
  timestamp: timestampSchema,
  level: z.string(),
  message: z.string(),
  run_id: z.nullable(z.string()),
});
export type BatchExportLogEntry = z.infer<typeof batchExportLogEntrySchema>;

/** Logs query: paging plus optional filters on level (comma-separated allowed) and run. */
export const batchExportLogsQuerySchema = z.extend(listQuerySchema, {
  level: z.optional(
    z.string().check(
      z.refine(
        (v) =>
          v.split(',').every((l) => (BATCH_EXPORT_LOG_LEVELS as readonly string[]).includes(l.trim().toUpperCase())),
        {
          error: (iss) => `"${String(iss.input)}" is not a valid choice.`,
        },
      ),
    ),
  ),
  run_id: z.optional(z.string()),
});
export type BatchExportLogsQuery = z.infer<typeof batchExportLogsQuerySchema>;

export const batchExportParams = z.object({ organization_id: z.string(), id: z.string() });
const orgParams = z.object({ organization_id: z.string() });
const runParams = z.object({ organization_id: z.string(), id: z.string(), run_id: z.string() });
const backfillParams = z.object({ organization_id: z.string(), id: z.string(), backfill_id: z.string() });

const base = '/api/organizations/:organization_id/batch_exports/';

export const batchExportEndpoints = {
  list: endpoint({
    method: 'GET',
    path: base,
    access: 'batch_export:read',
    summary: 'List batch exports',
    params: orgParams,
    query: listQuerySchema,
    status: 200,
    response: pageSchema(batchExportSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: base,
    access: 'batch_export:write',
    summary: 'Create a batch export',
    params: orgParams,
    body: batchExportCreateSchema,
    status: 201,
    response: batchExportSchema,
  }),
  retrieve: endpoint({
    method: 'GET',
    path: `${base}:id/`,
    access: 'batch_export:read',
    summary: 'Retrieve a batch export',
    params: batchExportParams,
    status: 200,
    response: batchExportSchema,
  }),
  update: endpoint({
    method: 'PATCH',
    path: `${base}:id/`,
    access: 'batch_export:write',
    summary: 'Update a batch export',
    params: batchExportParams,
    body: batchExportUpdateSchema,
    status: 200,
    response: batchExportSchema,
  }),
  destroy: endpoint({
    method: 'DELETE',
    path: `${base}:id/`,
    access: 'batch_export:write',
    summary: 'Delete a batch export',
    params: batchExportParams,
    status: 204,
  }),
  backfill: endpoint({
    method: 'POST',
    path: `${base}:id/backfill/`,
    access: 'batch_export:write',
    summary: 'Backfill a time range: one run per interval',
    params: batchExportParams,
    body: batchExportBackfillSchema,
    status: 200,
    response: batchExportSchema,
  }),
  /** † in the API (scope not given); readable with batch_export:read (docs/api.md). */
  logs: endpoint({
    method: 'GET',
    path: `${base}:id/logs/`,
    access: 'batch_export:read',
    summary: 'Log entries of a batch export, newest first',
    params: batchExportParams,
    query: batchExportLogsQuerySchema,
    status: 200,
    response: pageSchema(batchExportLogEntrySchema),
  }),
  /** Idempotent; any body is ignored. */
  pause: endpoint({
    method: 'POST',
    path: `${base}:id/pause/`,
    access: 'batch_export:write',
    summary: 'Pause a batch export',
    params: batchExportParams,
    status: 200,
    response: batchExportSchema,
  }),
  /** Idempotent; any body is ignored. */
  unpause: endpoint({
    method: 'POST',
    path: `${base}:id/unpause/`,
    access: 'batch_export:write',
    summary: 'Unpause a batch export',
    params: batchExportParams,
    status: 200,
    response: batchExportSchema,
  }),
  runs: endpoint({
    method: 'GET',
    path: `${base}:id/runs/`,
    access: 'batch_export:read',
    summary: 'Runs of a batch export, newest first',
    params: batchExportParams,
    query: listQuerySchema,
    status: 200,
    response: pageSchema(batchExportRunSchema),
  }),
  /** As the production service: the run's interval is backfilled again (a backfill of one run). */
  retryRun: endpoint({
    method: 'POST',
    path: `${base}:id/runs/:run_id/retry/`,
    access: 'batch_export:write',
    summary: 'Retry a run: a new run of the same interval',
    params: runParams,
    status: 200,
    response: runRetrySchema,
  }),
  backfills: endpoint({
    method: 'GET',
    path: `${base}:id/backfills/`,
    access: 'batch_export:read',
    summary: 'Backfills of a batch export, newest first',
    params: batchExportParams,
    query: listQuerySchema,
    status: 200,
    response: pageSchema(backfillSchema),
  }),
  retrieveBackfill: endpoint({
    method: 'GET',
    path: `${base}:id/backfills/:backfill_id/`,
    access: 'batch_export:read',
    summary: 'Retrieve a backfill with its progress',
    params: backfillParams,
    status: 200,
    response: backfillSchema,
  }),
  /** Its runs still waiting are cancelled; a run already under way finishes. */
  cancelBackfill: endpoint({
    method: 'POST',
    path: `${base}:id/backfills/:backfill_id/cancel/`,
    access: 'batch_export:write',
    summary: 'Cancel a backfill',
    params: backfillParams,
    status: 200,
    response: backfillSchema,
  }),
  testConnection: endpoint({
    method: 'POST',
    path: `${base}test/`,
    access: 'batch_export:write',
    extension: true,
    summary: 'Test a destination before saving it: each step of connecting, with what it found',
    params: orgParams,
    body: connectionTestBodySchema,
    status: 200,
    response: connectionTestSchema,
  }),
  testExportConnection: endpoint({
    method: 'POST',
    path: `${base}:id/test/`,
    access: 'batch_export:write',
    extension: true,
    summary: "Test an export's destination: the stored config, with the given fields over it",
    params: batchExportParams,
    body: exportConnectionTestBodySchema,
    status: 200,
    response: connectionTestSchema,
  }),
};
