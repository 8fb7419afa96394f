import type { Endpoint } from '../../../../src/contract/index.ts';
import { createAnalyticsCache, cacheKey, type AnalyticsCache } from '../../../analytics/cache.ts';
import { isValidTimeZone } from '../../../analytics/dates.ts';
import { AnalyticsParamError } from '../../../analytics/errors.ts';
import { toAnalyticsProject } from '../../../analytics/project.ts';
import type { AnalyticsProject, QueryContext } from '../../../analytics/types.ts';
import { reachableProject } from '../../access.ts';
import { notFound, validationError } from '../../errors.ts';
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
export interface AnalyticsMeta { is_cached: boolean; last_refresh: string; timezone: string }

type ParamsOf<E extends Endpoint> = E extends { body: infer _B } ? HandlerInput<E>['body'] : HandlerInput<E>['query'];

/** One cache per set of deps, shared by every analysis endpoint registered with them. */
const caches = new WeakMap<object, AnalyticsCache>();
export function analyticsCacheOf(deps: Deps): AnalyticsCache {
  let cache = caches.get(deps);
  if (!cache) {
    cache = createAnalyticsCache({ now: deps.now, ttlMs: deps.analyticsCacheTtlMs });
    caches.set(deps, cache);
  }
  return cache;
}

/** `project_id` → the analytics view of a project the key can reach (404 unknown, 403 unreachable). */
function projectFor(deps: Deps, input: { auth: HandlerInput<Endpoint>['auth']; params: unknown }): AnalyticsProject {
  const raw = (input.params as { project_id?: string } | undefined)?.project_id ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  const id = Number(raw);
  const project = toAnalyticsProject(reachableProject(deps.store, input.auth, id));
  return isValidTimeZone(project.timezone) ? project : { ...project, timezone: 'UTC' };
}

/** The usual body of an analysis endpoint: the meta fields and the engine's `result`. */
export const withMeta = <R>(result: R, meta: AnalyticsMeta) => ({ ...meta, result });

/**
 * Registers one analysis endpoint (POST with a body, or GET with a query string). `compute`
 * gets the parsed parameters and a QueryContext; it throws AnalyticsParamError for a 400.
 * `respond` shapes the body (usually {@link withMeta}); its type is checked against the
 * endpoint's response schema.
 */
export function registerAnalyticsEndpoint<E extends Endpoint, R>(
  router: Router, deps: Deps, endpoint: E, compute: AnalyticsCompute<NonNullable<ParamsOf<E>>, R>,
  respond: (result: R, meta: AnalyticsMeta, input: HandlerInput<E>) => ResponseBody<E>,
): void {
  const cache = analyticsCacheOf(deps);
  router.route(endpoint, async (input) => {
    const project = projectFor(deps, input);
    const params = (input.body ?? input.query) as NonNullable<ParamsOf<E>>;
    const events = deps.events;
    const key = cacheKey({ endpoint: endpoint.path, project, params, version: events.writeVersion() });
    try {
      const cached = await cache.get(key, () => compute(params, { db: events, project, now: deps.now() }));
      return respond(cached.result, { is_cached: cached.is_cached, last_refresh: cached.last_refresh, timezone: project.timezone }, input);
    } catch (error) {
      if (error instanceof AnalyticsParamError) throw validationError(error.code, error.message, error.attr);
      throw error;
    }
  });
}
