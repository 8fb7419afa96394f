import { skipToken, useQuery } from '@tanstack/react-query';
import type { Insight } from '@/contract/insights';
import { insightKeys } from '../api/insights.keys';
import { insightTitle } from '../api/insight-title';

/**
 * The insight's name (breadcrumbs), from the cache the route's loader fills; a placeholder until
 * then. It never fetches itself, so the route tree does not carry the contract.
 */
export function InsightName({ projectId, insightId }: { projectId: number; insightId: number }) {
  const { data } = useQuery<Insight>({ queryKey: insightKeys.detail(projectId, insightId), queryFn: skipToken });
  return <>{data ? insightTitle(data) : '…'}</>;
}
