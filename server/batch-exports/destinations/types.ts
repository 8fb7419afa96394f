import type { BatchExportModel } from '../../../src/contract/index.ts';
import type { RecordSource } from '../records.ts';

/** A failed delivery. `retryable`: the run becomes FailedRetryable and is tried again (bounded). */
export class DeliveryError extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.retryable = retryable;
  }
}

export interface DeliveryContext {
  /** The stored config, secrets included: never log it, never put it in an error message. */
  config: Record<string, unknown>;
  records: RecordSource;
  /** How many records the interval holds (already counted). */
  total: number;
  /** What is exported: each model has its own columns (see records.ts). */
  model: BatchExportModel;
  /** The run's data interval, ISO 8601 UTC; `start` is the epoch for an export's first run. */
  interval: { start: string; end: string };
  /** The batch export's id (object keys, table comments). */
  exportId: string;
  log(level: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR', message: string): void;
  /** Records written so far in this attempt: the run's `records_completed` moves while it works. */
  progress(delivered: number): void;
}

export interface DestinationOptions {
  /** Records per HTTP request (default 1000). */
  httpBatchSize?: number;
  /** Time limit of one HTTP request (default 10 s). */
  httpTimeoutMs?: number;
  /** Hosts a destination may reach although they are private or loopback (server/net/outbound.ts). */
  allowHosts?: readonly string[];
}

/** Delivers the interval's records; resolves to how many were delivered, or throws a DeliveryError. */
export type Deliver = (context: DeliveryContext, options: DestinationOptions) => Promise<number>;

/** One step of a connection test ("Resolve host", "Connect", "Authenticate", "Write a test object"). */
export interface CheckStep {
  step: string;
  status: 'passed' | 'failed' | 'skipped';
  /** What happened, for a person: the failure's cause (DNS, TLS, auth, permission), never a secret. */
  detail: string;
}

/**
 * Tests a config before it is saved: runs the destination's steps in order and reports each; after
 * the first failed step the rest are `skipped`. Leaves nothing behind (test objects and tables are
 * removed).
 */
export type CheckConnection = (config: Record<string, unknown>, options: DestinationOptions) => Promise<CheckStep[]>;

export interface Destination {
  deliver: Deliver;
  check: CheckConnection;
}
