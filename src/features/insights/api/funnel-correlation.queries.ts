import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { FunnelParamsInput } from '@/contract/analytics-params';
import { insightEndpoints, type FunnelCorrelationParamsInput } from '@/contract/insights';
import { apiRequest } from '@/lib/api-client';
import { projectScope } from '@/lib/query-keys';

/** What to correlate with conversion: the events persons did, or values of chosen person properties. */
export type FunnelCorrelationRequest =
  | { type: 'events'; excludeEventNames?: readonly string[] | undefined }
  | { type: 'properties'; names: readonly string[] };

export const funnelCorrelationKeys = {
  all: (projectId: number) => [...projectScope(projectId), 'funnel-correlation'] as const,
  result: (projectId: number, params: FunnelParamsInput, request: FunnelCorrelationRequest) =>
    [...funnelCorrelationKeys.all(projectId), { params, request }] as const,
};

/** The correlation endpoint's body: the funnel's parameters (as the steps view) and what to correlate. */
export function correlationBody(
  params: FunnelParamsInput,
  request: FunnelCorrelationRequest,
): FunnelCorrelationParamsInput {
  const funnel = { ...params, funnel_viz_type: 'steps' as const };
  if (request.type === 'properties') {
    return { ...funnel, funnel_correlation_type: 'properties', funnel_correlation_names: [...request.names] };
  }
  return {
    ...funnel,
    funnel_correlation_type: 'events',
    ...(request.excludeEventNames?.length
      ? { funnel_correlation_exclude_event_names: [...request.excludeEventNames] }
      : {}),
  };
}

/** `POST insights/funnel/correlation/`: the ten events (or property values) that most raise, and most lower, conversion. */
export const funnelCorrelationQueries = {
  result: (projectId: number, params: FunnelParamsInput, request: FunnelCorrelationRequest) =>
    queryOptions({
      queryKey: funnelCorrelationKeys.result(projectId, params, request),
      queryFn: ({ signal }) =>
        apiRequest(insightEndpoints.funnelCorrelation, {
          params: { project_id: projectId },
          body: correlationBody(params, request),
          signal,
        }),
      placeholderData: keepPreviousData,
      enabled: request.type === 'events' || request.names.length > 0,
    }),
};
