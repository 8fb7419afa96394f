import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { encodeAnalyticsQuery } from '@/contract/analytics';
import type { FunnelParamsInput } from '@/contract/analytics-params';
import { personEndpoints, type FunnelActor } from '@/contract/persons';
import { apiRequest } from '@/lib/api-client';
import { projectScope } from '@/lib/query-keys';

/** How many persons one page of the side panel shows. */
export const FUNNEL_PERSONS_PAGE_SIZE = 25;

/** Which persons of a funnel: those who reached `step` (1-based), or who dropped off before it. */
export interface FunnelPersonsTarget {
  step: number;
  dropped: boolean;
  breakdownValue?: string | undefined;
  /** The group as the API names it when that differs from breakdownValue (several breakdowns' JSON list). */
  breakdownKey?: string | undefined;
}

/** The listing's `funnel_step`: `k` reached step k, `-k` reached step k − 1 and not step k. */
export const funnelStepParam = (t: FunnelPersonsTarget) => (t.dropped ? -t.step : t.step);

/** Keys under the project (`['projects', id, 'funnel-persons', …]`), apart from the insights' own branch. */
export const funnelPersonsKeys = {
  all: (projectId: number) => [...projectScope(projectId), 'funnel-persons'] as const,
  page: (projectId: number, params: FunnelParamsInput, target: FunnelPersonsTarget, offset: number) =>
    [
      ...funnelPersonsKeys.all(projectId),
      {
        params,
        step: funnelStepParam(target),
        breakdown: target.breakdownKey ?? target.breakdownValue ?? null,
        offset,
      },
    ] as const,
};

/** One page of a step's persons: `GET persons/funnel/` with the funnel's parameters in the query string. */
function requestPersons(
  projectId: number,
  params: FunnelParamsInput,
  target: FunnelPersonsTarget,
  offset: number,
  limit: number,
  signal?: AbortSignal,
) {
  return apiRequest(personEndpoints.funnel, {
    params: { project_id: projectId },
    query: {
      // The persons of a step are those of the steps view, whatever the chart shows.
      ...encodeAnalyticsQuery({ ...params, funnel_viz_type: 'steps' }),
      funnel_step: funnelStepParam(target),
      funnel_step_breakdown: target.breakdownKey ?? target.breakdownValue,
      limit,
      offset,
    },
    signal,
  });
}

/** The most persons a download holds (40 requests of 1,000). */
export const FUNNEL_PERSONS_DOWNLOAD_MAX = 40_000;

/** Every person (or group) of a step, a page of 1,000 at a time, up to FUNNEL_PERSONS_DOWNLOAD_MAX; `more` when some were left out. */
export async function allFunnelPersons(
  projectId: number,
  params: FunnelParamsInput,
  target: FunnelPersonsTarget,
): Promise<{ people: FunnelActor[]; more: boolean }> {
  const people: FunnelActor[] = [];
  for (let offset = 0; offset < FUNNEL_PERSONS_DOWNLOAD_MAX; offset += 1000) {
    const page = await requestPersons(projectId, params, target, offset, 1000);
    people.push(...(page.results[0]?.people ?? []));
    if (!page.next) return { people, more: false };
  }
  return { people, more: true };
}

export const funnelPersonsQueries = {
  page: (projectId: number, params: FunnelParamsInput, target: FunnelPersonsTarget, offset: number) =>
    queryOptions({
      queryKey: funnelPersonsKeys.page(projectId, params, target, offset),
      queryFn: ({ signal }) => requestPersons(projectId, params, target, offset, FUNNEL_PERSONS_PAGE_SIZE, signal),
      placeholderData: keepPreviousData,
    }),
};
