import { z } from './z';
import { destinationCreateSchema, destinationUpdateSchema } from './batch-export-destinations';

/**
 * What an admin does with an export beside editing it: test its connection, retry a run, and
 * follow its backfills.
 */

export const CONNECTION_STEP_STATUSES = ['passed', 'failed', 'skipped'] as const;
export type ConnectionStepStatus = (typeof CONNECTION_STEP_STATUSES)[number];

/** One step of a connection test ("Resolve host", "Connect", "Write a test object"). */
export const connectionStepSchema = z.looseObject({
  step: z.string(),
  status: z.enum(CONNECTION_STEP_STATUSES),
  /** What happened, for a person: the cause of a failure (DNS, TLS, auth); never a secret. */
  detail: z.string(),
});
export type ConnectionStep = z.infer<typeof connectionStepSchema>;

/** The steps in the order they ran; after the first failure the rest are skipped. */
export const connectionTestSchema = z.looseObject({
  steps: z.array(connectionStepSchema),
  ok: z.boolean(),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

/** POST `batch_exports/test/`: a destination as a create request has it, secrets included. */
export const connectionTestBodySchema = z.object({ destination: destinationCreateSchema });
export type ConnectionTestBody = z.infer<typeof connectionTestBodySchema>;

/**
 * POST `batch_exports/:id/test/`: the stored destination, or the given one over it (secrets left
 * out are the stored ones, as in a PATCH).
 */
export const exportConnectionTestBodySchema = z.object({ destination: z.optional(destinationUpdateSchema) });
export type ExportConnectionTestBody = z.infer<typeof exportConnectionTestBodySchema>;

/** POST `runs/:run_id/retry/`: the backfill that runs the interval again (and, here, its run). */
export const runRetrySchema = z.looseObject({
  backfill_id: z.string(),
  run_id: z.optional(z.string()),
});
export type RunRetry = z.infer<typeof runRetrySchema>;

export const backfillProgressSchema = z.looseObject({
  total_runs: z.nullable(z.int()),
  finished_runs: z.nullable(z.int()),
  /** finished_runs / total_runs, 0 to 1. */
  progress: z.nullable(z.number()),
  /** Records exported by its runs so far. */
  records_completed: z.optional(z.nullable(z.int())),
});
export type BackfillProgress = z.infer<typeof backfillProgressSchema>;
