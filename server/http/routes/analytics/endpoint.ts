import type { z } from '../../../../src/contract/z';
import type { Endpoint } from '../../../../src/contract/index.ts';
import { GROUP_TYPE_INDEX_MAX } from '../../../../src/contract/analytics-filters.ts';
import { createAnalyticsCache, cacheKey, type AnalyticsCache } from '../../../analytics/cache.ts';
import { isValidTimeZone } from '../../../analytics/query/dates.ts';
import { createAnalysisGate, type AnalysisGate } from '../../../analytics/admission.ts';
import {
  DEFAULT_QUERY_TIMEOUT_MS,
  duckdbThreads,
  QueryCancelledError,
  QueryTimeoutError,
  throwIfSpent,
} from '../../../analytics/store/duckdb.ts';
import type { EventStore } from '../../../analytics/store/event-store.ts';
import {
  createPersonIndexes,
  PERSON_INDEX_DEFAULTS,
  type PersonIndexes,
} from '../../../analytics/person-index/person-indexes.ts';
import { materializedReady } from '../../../analytics/query/properties.ts';
import { toAnalyticsProject } from '../../../analytics/project.ts';
import type { AnalyticsProject, QueryContext } from '../../../analytics/types.ts';
import type { ProjectRow } from '../../../store/projects.ts';
import { reachableProject } from '../../access.ts';
import { cohortLookup } from '../cohorts/lookup.ts';
import { notFound, queryTimeout, validationError } from '../../errors.ts';
import type { HandlerInput, ResponseBody, Router } from '../../router.ts';
import type { Deps } from '../../types.ts';

/**
 * The analysis endpoints under `/api/projects/:project_id/insights/`: POST takes the
 * parameters as a JSON body, GET the same parameters in the query string (decoded by the
 * contract's `decodeAnalyticsQuery`). Both go through the router (key, scope insight:read,
 * validation → 400 with `attr`), then: the project must be reachable (404 / 403 as
 * server/http/access.ts), the result comes from the cache or the engine, and engine-level
 * parameter errors become a 400 naming the parameter.
 */

/** What an engine computes from the parsed parameters (typed by the contract's result types). */
export type AnalyticsCompute<P, R> = (params: P, ctx: QueryContext) => Promise<R>;

/** Whether the result came from the cache, when it was computed, and the project's zone. */
export interface AnalyticsMeta {
  is_cached: boolean;
  last_refresh: string;
  timezone: string;
}

/** Where an endpoint's parameters are: its body (POST forms) or its query string (GET forms, and persons/funnel/). */
export const fromBody = <E extends Endpoint>(input: HandlerInput<E>) => input.body;
export const fromQuery = <E extends Endpoint>(input: HandlerInput<E>) => input.query;

/** One `make(deps)` per set of deps, shared by every analysis endpoint registered with them. */
function perDeps<T>(make: (deps: Deps) => T): (deps: Deps) => T {
  const made = new WeakMap<Deps, T>();
  return (deps) => {
    if (!made.has(deps)) made.set(deps, make(deps));
    return made.get(deps)!;
  };
}

/** The analysis cache. */
export const analyticsCacheOf = perDeps((deps): AnalyticsCache =>
  createAnalyticsCache({ now: deps.now, ttlMs: deps.analyticsCacheTtlMs }),
);

/** The admission gate: how many analyses compute at once (cache hits never wait). */
const analysisGateOf = perDeps((deps): AnalysisGate =>
  createAnalysisGate(deps.analyticsConcurrency ?? (Number(process.env.ANALYTICS_CONCURRENCY) || duckdbThreads())),
);

/**
 * The projects' events in person order, for funnels (person-index.ts, person-indexes.ts). A build takes its turn
 * among the analyses. `PERSON_INDEX_MAX_ROWS`: most events indexed in all (0 = no index).
 */
const personIndexesOf = perDeps((deps): PersonIndexes => {
  const maxRows =
    process.env.PERSON_INDEX_MAX_ROWS === undefined
      ? PERSON_INDEX_DEFAULTS.maxRows
      : Number(process.env.PERSON_INDEX_MAX_ROWS);
  if (!(maxRows > 0)) return { current: () => null, settled: () => Promise.resolve() };
  return createPersonIndexes(deps.events, {
    maxRows,
    admit: (work, deadline) => analysisGateOf(deps).run(work, { deadline }),
  });
});

/** Asks for the person index of every project with events (at the server's start: ready before the first funnel). */
export async function preparePersonIndexes(deps: Deps): Promise<void> {
  const teams = await deps.events.all<{ team_id: number }>('SELECT DISTINCT team_id FROM events ORDER BY team_id');
  for (const { team_id } of teams) personIndexesOf(deps).current(Number(team_id));
}

/** `project_id` → the analytics view of a project the key can reach (404 unknown, 403 unreachable). */
export function projectFor(deps: Deps, auth: HandlerInput<Endpoint>['auth'], raw: string): AnalyticsProject {
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  return analyticsViewOf(reachableProject(deps.store, auth, Number(raw)));
}

/** Views made per stored row: the read cache hands every request the same row until the project changes. */
const views = new WeakMap<ProjectRow, AnalyticsProject>();

/** The analytics view of a stored project, its time zone checked (UTC when unusable). */
export function analyticsViewOf(row: ProjectRow): AnalyticsProject {
  let view = views.get(row);
  if (!view) {
    const project = toAnalyticsProject(row);
    view = isValidTimeZone(project.timezone) ? project : { ...project, timezone: 'UTC' };
    views.set(row, view);
  }
  return view;
}

/**
 * Per event store and project: whether its events' materialized columns are all filled
 * (properties.ts), as of the store's write version. Only a write can change the answer, and
 * checking scans the whole table (4–11 ms of a 1M-event funnel's ~90). Answers only: a check
 * in progress is not shared, so one request's cancel or budget never fails another's.
 */
const filled = new WeakMap<EventStore, Map<number, { version: number; ready: boolean }>>();

function keptMaterialized(events: EventStore, db: QueryContext['db'], teamId: number): () => Promise<boolean> {
  return async () => {
    const version = events.writeVersion();
    let byTeam = filled.get(events);
    if (!byTeam) filled.set(events, (byTeam = new Map()));
    const kept = byTeam.get(teamId);
    if (kept?.version === version) return kept.ready;
    const ready = await materializedReady(db, teamId);
    // A check that began before a later one finished keeps the later answer.
    if ((byTeam.get(teamId)?.version ?? -1) <= version) byTeam.set(teamId, { version, ready });
    return ready;
  };
}

/**
 * One analysis through the shared cache: the result of `compute(params)` for the project, from
 * the cache when an identical request of the same endpoint (`path`) was answered recently
 * (younger than `maxAgeMs` when given), else computed. Engine parameter errors become the 400.
 * The analysis endpoints and the saved insights both answer through here.
 */
export async function cachedAnalysis<P, R>(
  deps: Deps,
  path: string,
  project: AnalyticsProject,
  params: P,
  compute: AnalyticsCompute<P, R>,
  options: { maxAgeMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<{ result: R; meta: AnalyticsMeta }> {
  const events = deps.events;
  // One time budget for the whole request, its wait for a turn included, however many
  // statements the engine runs; the caller's signal (cancel/) interrupts it too.
  const budgetMs = deps.analyticsTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const read = { deadline: Date.now() + budgetMs, signal: options.signal };
  const db: QueryContext['db'] = {
    all: (sql, values) => events.all(sql, values, read),
    columns: (sql, values, types) => events.columns(sql, values, types, read),
  };
  const checkpoint = () => throwIfSpent(read);
  // A project someone analyses gets its events in person order ready for its funnels (the
  // funnels of a project are rarely its first analysis).
  const personIndexes = personIndexesOf(deps);
  personIndexes.current(project.id);
  // An analysis by a group type asks for that type's index as well (its funnels read it).
  const byGroup = (params as { aggregation_group_type_index?: unknown }).aggregation_group_type_index;
  if (typeof byGroup === 'number' && Number.isInteger(byGroup) && byGroup >= 0 && byGroup <= GROUP_TYPE_INDEX_MAX)
    personIndexes.current(project.id, byGroup);
  const key = cacheKey({ endpoint: path, project, params, version: events.writeVersion() });
  try {
    const cached = await analyticsCacheOf(deps).get(
      key,
      () =>
        analysisGateOf(deps).run(
          () =>
            compute(params, {
              db,
              project,
              now: deps.now(),
              checkpoint,
              materialized: keptMaterialized(events, db, project.id),
              personIndex: (group) => personIndexes.current(project.id, group),
              cohorts: cohortLookup(deps.store, project.id),
            }),
          read,
        ),
      options.maxAgeMs,
    );
    return {
      result: cached.result,
      meta: { is_cached: cached.is_cached, last_refresh: cached.last_refresh, timezone: project.timezone },
    };
  } catch (error) {
    if (error instanceof QueryCancelledError) throw validationError('query_cancelled', error.message, null);
    if (error instanceof QueryTimeoutError) throw queryTimeout(budgetMs);
    throw error;
  }
}

/** The usual body of an analysis endpoint: the meta fields and the engine's `result`. */
export const withMeta = <R>(result: R, meta: AnalyticsMeta) => ({ ...meta, result });

/** An analysis endpoint: under a project (`project_id` in its path). */
type ProjectEndpoint = Endpoint & { params: z.ZodMiniType<{ project_id: string }> };

/**
 * Registers one analysis endpoint (POST with a body, or GET with a query string). `paramsOf`
 * picks the parsed parameters ({@link fromBody} or {@link fromQuery}); `compute` gets them and
 * a QueryContext, and throws AnalyticsParamError for a 400. `respond` shapes the body (usually
 * {@link withMeta}); its type is checked against the endpoint's response schema.
 */
export function registerAnalyticsEndpoint<E extends ProjectEndpoint, P, R>(
  router: Router,
  deps: Deps,
  endpoint: E,
  paramsOf: (input: HandlerInput<E>) => P,
  compute: AnalyticsCompute<P, R>,
  respond: (result: R, meta: AnalyticsMeta, input: HandlerInput<E>) => ResponseBody<E>,
): void {
  router.route(endpoint, async (input) => {
    const project = projectFor(deps, input.auth, input.params.project_id);
    const { result, meta } = await cachedAnalysis(deps, endpoint.path, project, paramsOf(input), compute);
    return respond(result, meta, input);
  });
}
