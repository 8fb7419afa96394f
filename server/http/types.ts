import type { EventStore } from '../analytics/store/event-store.ts';
import type { PipelineRuntime } from '../plugins/runtime.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './auth.ts';
import type { PublicUrl } from './public-url.ts';

export interface Logger {
  /** One line per request: `GET /api/organizations/ 200 1.2ms`. */
  request(line: string): void;
  /** Unexpected failures, with their stack: never sent to the client. */
  error(message: string, error?: unknown): void;
}

export type AppEnv = { Variables: { auth: AuthContext } };

/** What route modules need: the store, the event store and the clock. */
export interface Deps {
  store: Store;
  /** Events and persons (DuckDB): ingestion writes them, the analytics engines query them. */
  events: EventStore;
  now: () => Date;
  /** Where the server is reached from outside: absolute links are built from it. */
  publicUrl: PublicUrl;
  /** How long identical analytics requests are answered from the cache (default 60 s; 0 = off). */
  analyticsCacheTtlMs?: number | undefined;
  /** Time budget of one analytics request (default 9 s): past it the query is interrupted → 400 `query_timeout`. */
  analyticsTimeoutMs?: number | undefined;
  /** Analyses computing at once (default: DuckDB's threads; `ANALYTICS_CONCURRENCY`); the rest wait (server/analytics/admission.ts). */
  analyticsConcurrency?: number | undefined;
  /** Enabled destinations: ingestion hands them each accepted batch (server/plugins/runtime.ts). */
  pipeline?: PipelineRuntime | undefined;
  /** Hosts plugin deliveries and imports may reach although private (`--allow-destination`). */
  allowDestinations?: readonly string[] | undefined;
  /** Import jobs running in the background (awaited by tests and on shutdown). */
  jobs?: Set<Promise<void>> | undefined;
}
