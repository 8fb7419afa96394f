import { endpoints } from '../../../../src/contract/index.ts';
import { computeFunnel } from '../../../analytics/engines/funnels.ts';
import { computePaths } from '../../../analytics/engines/paths.ts';
import { computeRetention } from '../../../analytics/engines/retention.ts';
import { computeTrends } from '../../../analytics/engines/trends.ts';
import type { AnalyticsProject } from '../../../analytics/types.ts';
import type { InsightResult } from '../../../insights/csv.ts';
import type { Analysis } from '../../../insights/query.ts';
import type { Deps } from '../../types.ts';
import { analyticsCacheOf, cachedAnalysis, type AnalyticsCompute, type AnalyticsMeta } from '../analytics/endpoint.ts';
import type { InsightComputed } from './serializers.ts';

/**
 * A client asking to `refresh` gets a new computation once its result is this old; before
 * that it gets the cached one (`is_cached: true`), and `next_allowed_client_refresh` says when.
 */
export const CLIENT_REFRESH_INTERVAL_MS = 15_000;

const e = endpoints.insights;

/**
 * The result of an insight's analysis through the analysis endpoints' cache (same entries as
 * `trend/`, `funnel/`, … with the same parameters), with the meta fields of a saved insight.
 * `signal` stops its reads (cancel/); a computation shared by identical requests stops for all.
 */
export async function computeInsight(
  deps: Deps,
  project: AnalyticsProject,
  analysis: Analysis,
  refresh: boolean,
  signal?: AbortSignal,
) {
  const maxAgeMs = refresh ? CLIENT_REFRESH_INTERVAL_MS : undefined;
  const run = <P, R>(path: string, params: P, compute: AnalyticsCompute<P, R>) =>
    cachedAnalysis(deps, path, project, params, compute, { maxAgeMs, signal });
  const out = await (async (): Promise<{ result: InsightResult; meta: AnalyticsMeta }> => {
    switch (analysis.kind) {
      case 'TRENDS': {
        const r = await run(e.trend.path, analysis.params, computeTrends);
        return { result: { kind: 'TRENDS', result: r.result }, meta: r.meta };
      }
      case 'FUNNELS': {
        const r = await run(e.funnel.path, analysis.params, computeFunnel);
        return { result: { kind: 'FUNNELS', result: r.result }, meta: r.meta };
      }
      case 'RETENTION': {
        const r = await run(e.retention.path, analysis.params, computeRetention);
        return { result: { kind: 'RETENTION', result: r.result }, meta: r.meta };
      }
      case 'PATHS': {
        const r = await run(e.path.path, analysis.params, computePaths);
        return { result: { kind: 'PATHS', result: r.result }, meta: r.meta };
      }
    }
  })();
  const refreshed = Date.parse(out.meta.last_refresh);
  const computed: InsightComputed = {
    result: out.result.result,
    is_cached: out.meta.is_cached,
    last_refresh: out.meta.last_refresh,
    next_allowed_client_refresh: new Date(refreshed + CLIENT_REFRESH_INTERVAL_MS).toISOString(),
    cache_target_age: new Date(refreshed + analyticsCacheOf(deps).ttlMs).toISOString(),
    timezone: out.meta.timezone,
  };
  return { computed, result: out.result };
}
