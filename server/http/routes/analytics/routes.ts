import { endpoints } from '../../../../src/contract/index.ts';
import { computeFunnelCorrelation } from '../../../analytics/engines/correlation.ts';
import { computeFunnel, computeFunnelPersons } from '../../../analytics/engines/funnels.ts';
import { computePaths } from '../../../analytics/engines/paths.ts';
import { computeRetention } from '../../../analytics/engines/retention.ts';
import { computeTrends } from '../../../analytics/engines/trends.ts';
import { nextPageUrl, pageWindow } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { fromBody, fromQuery, registerAnalyticsEndpoint, withMeta } from './endpoint.ts';

/** trend/ (POST and GET). */
export function registerAnalyticsRoutes(router: Router, deps: Deps): void {
  const e = endpoints.insights;
  registerAnalyticsEndpoint(router, deps, e.trendGet, fromQuery, computeTrends, withMeta);
  registerAnalyticsEndpoint(router, deps, e.trend, fromBody, computeTrends, withMeta);
}

/**
 * funnel/, retention/ and path/ (POST with a JSON body, GET with the same parameters in the
 * query string), and the persons of a funnel step (`persons/funnel/`, where the steps'
 * people URLs lead), through the shared analysis endpoint helper (auth, scope insight:read,
 * validation, project access, cache, parameter errors as 400 naming the parameter).
 */
export function registerFunnelRetentionPathRoutes(router: Router, deps: Deps): void {
  const e = endpoints.insights;
  // funnel/correlation/: which events or person properties raise or lower the funnel's conversion.
  registerAnalyticsEndpoint(router, deps, e.funnelCorrelationGet, fromQuery, computeFunnelCorrelation, withMeta);
  registerAnalyticsEndpoint(router, deps, e.funnelCorrelation, fromBody, computeFunnelCorrelation, withMeta);
  registerAnalyticsEndpoint(router, deps, e.funnelGet, fromQuery, computeFunnel, withMeta);
  registerAnalyticsEndpoint(router, deps, e.funnel, fromBody, computeFunnel, withMeta);
  registerAnalyticsEndpoint(router, deps, e.retentionGet, fromQuery, computeRetention, withMeta);
  registerAnalyticsEndpoint(router, deps, e.retention, fromBody, computeRetention, withMeta);
  registerAnalyticsEndpoint(router, deps, e.pathGet, fromQuery, computePaths, withMeta);
  registerAnalyticsEndpoint(router, deps, e.path, fromBody, computePaths, withMeta);
  registerAnalyticsEndpoint(
    router,
    deps,
    endpoints.persons.funnel,
    fromQuery,
    (q, ctx) => computeFunnelPersons(q, ctx, pageWindow(q)),
    (page, meta, input) => ({
      results: [{ people: page.people, count: page.people.length }],
      next: page.more ? nextPageUrl(input.url, pageWindow(input.query)) : null,
      ...meta,
    }),
  );
}
