import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { insightQueries } from '../api/insights.queries';

/**
 * The insight's page keeps its state in its URL (`?tab=&share=`, validated by the route): the
 * page and its parts read and change it here instead of through props.
 */
export const detailRoute = getRouteApi('/_authed/projects/$projectId/insights/$insightId/');

/** The numeric id of the insight an address names (`$insightId`: its short_id or id), as the route's loader resolved it. */
export function useAddressedInsightId(projectId: number, ref: string): number {
  return useSuspenseQuery(insightQueries.resolve(projectId, ref)).data;
}
