import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  FunnelParamsInput,
  PathParamsInput,
  RetentionParamsInput,
  TrendParamsInput,
} from '@/contract/analytics-params';
import type { Endpoint } from '@/contract/common';
import { insightEndpoints } from '@/contract/insights';
import { apiRequest } from '@/lib/api-client';
import { insightKeys } from './insights.keys';

/** The analysis endpoint of each builder kind. */
const ENDPOINTS = {
  trends: insightEndpoints.trend,
  funnels: insightEndpoints.funnel,
  retention: insightEndpoints.retention,
  paths: insightEndpoints.path,
} as const;

export interface AnalysisParams {
  trends: TrendParamsInput;
  funnels: FunnelParamsInput;
  retention: RetentionParamsInput;
  paths: PathParamsInput;
}
export type AnalysisKind = keyof AnalysisParams;

export const analysisKeys = {
  all: (projectId: number) => [...insightKeys.all(projectId), 'analysis'] as const,
  run: <K extends AnalysisKind>(projectId: number, kind: K, params: AnalysisParams[K]) =>
    [...analysisKeys.all(projectId), kind, params] as const,
};

/**
 * Query options of the analysis endpoints (POST trend/, funnel/, retention/, path/), keyed by
 * their parameters. The fetch takes the query's signal: when the builder's parameters change
 * the superseded request is aborted. The previous result stays while the next one loads.
 */
export function analysisQuery<K extends AnalysisKind>(projectId: number, kind: K, params: AnalysisParams[K]) {
  return queryOptions({
    queryKey: analysisKeys.run(projectId, kind, params),
    queryFn: ({ signal }) =>
      // One query for four endpoints: the kind picks one, so its body is typed by AnalysisParams instead.
      apiRequest<Endpoint>(ENDPOINTS[kind], {
        params: { project_id: projectId },
        body: params,
        signal,
      }) as Promise<unknown>,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
