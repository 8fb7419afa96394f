import type { PersonIndex } from './person-index/person-index.ts';
import type { ColumnReader, SqlRunner } from './store/db-types.ts';

/**
 * Shared shapes of the analytics side of the reference server: the event store (DuckDB) and
 * the engines computing trends, funnels, retention and paths over it.
 *
 * Storage (DuckDB file `<dataDir>/events.duckdb`, or in memory in tests):
 *   events               (uuid UUID, team_id INTEGER, event VARCHAR, distinct_id VARCHAR,
 *                         timestamp TIMESTAMPTZ, properties JSON, created_at TIMESTAMPTZ,
 *                         person_id UUID: the person when written, person_key INTEGER: its key)
 *   persons              (id UUID, team_id INTEGER, properties JSON, is_identified BOOLEAN,
 *                         created_at TIMESTAMPTZ)
 *   person_distinct_ids  (team_id INTEGER, distinct_id VARCHAR, person_id UUID)
 *   person_overrides     (team_id INTEGER, old_person_id UUID, person_id UUID, old_person_key
 *                         INTEGER, person_key INTEGER): merges
 *   person_keys          (team_id INTEGER, person_id UUID, key INTEGER): every person's integer key
 * An event belongs to the person its distinct id maps to *now* (docs/api.md: merges
 * re-attribute past events): its stored person, or that person's override (schema.ts).
 */

/** What an analysis knows of the project's cohorts (cohorts.ts): the name of a live cohort, or null. */
export type CohortLookup = (id: number) => { id: number; name: string } | null;

/** What an engine needs to know about the project it computes for. */
export interface AnalyticsProject {
  id: number;
  /** IANA zone; dates without a zone and every bucket are in it. */
  timezone: string;
  /** 0 = weeks start on Sunday, 1 = Monday. */
  week_start_day: 0 | 1;
  /**
   * Filters that define "internal and test accounts": `filter_test_accounts: true` keeps only
   * events matching all of them (person/event property filters of the contract's shape).
   */
  test_account_filters: ReadonlyArray<{ key: string; value?: unknown; operator: string; type: 'event' | 'person' }>;
}

export interface QueryContext {
  /** Rows as objects (`all`), or column by column for engines that walk many rows (`columns`). */
  db: SqlRunner & ColumnReader;
  project: AnalyticsProject;
  /** The clock: relative dates (`-7d`, `mStart`) are resolved against it. */
  now: Date;
  /**
   * Throws once the request's time budget is spent (QueryTimeoutError) or its caller cancelled
   * it (QueryCancelledError). The database interrupts SQL statements by itself; work done in
   * TypeScript (the funnel pass) calls this where it yields.
   */
  checkpoint?: () => void;
  /**
   * Whether every event of the project has its materialized columns filled, as
   * properties.ts's `materializedReady` checks: the endpoint keeps the answer per write of the
   * store (a scan of the whole table, 4–11 ms of a 1M-event funnel's ~90, whose answer only a
   * write can change). Absent (tests, tools): checked by every analysis.
   */
  materialized?: () => Promise<boolean>;
  /**
   * The project's events in person order when a current copy is in memory (person-index.ts):
   * funnels whose steps are told apart by names alone read it instead of SQL; with `groupIndex`,
   * its events in the order of that group type's groups (funnels aggregated by it). Absent or
   * null: SQL (tests, tools, a store written since).
   */
  personIndex?: (groupIndex?: number | null) => PersonIndex | null;
  /** The project's live cohorts (cohorts.ts): a cohort filter or breakdown may name only these. Absent: none. */
  cohorts?: CohortLookup;
  /** The project's group types by index (groups.ts), when the caller keeps them. Absent: read from the store. */
  groupTypes?: () => Promise<string[]>;
}

/** An event as the plain-TypeScript reference implementations see it (tests only). */
export interface ReferenceEvent {
  uuid: string;
  event: string;
  distinct_id: string;
  /** The person the distinct id belongs to now. */
  person_id: string;
  /** Milliseconds since the epoch, UTC. */
  timestamp: number;
  properties: Record<string, unknown>;
  person_properties: Record<string, unknown>;
  /** What an analysis aggregated by groups counts the event for (its group); absent: its person. */
  actor?: string;
}
