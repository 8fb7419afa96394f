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
  log(level: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR', message: string): void;
}

export interface DestinationOptions {
  /** Records per HTTP request (default 1000). */
  httpBatchSize?: number;
  /** Time limit of one HTTP request (default 10 s). */
  httpTimeoutMs?: number;
  /** Hosts an HTTP destination may reach although they are private or loopback (server/net/outbound.ts). */
  allowHosts?: readonly string[];
}

/** Delivers the interval's records; resolves to how many were delivered, or throws a DeliveryError. */
export type Deliver = (context: DeliveryContext, options: DestinationOptions) => Promise<number>;
