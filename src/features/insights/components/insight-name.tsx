import { skipToken, useQuery } from '@tanstack/react-query';
import type { Insight } from '@/contract/insights';
import { CachedName } from '@/components/layout/cached-name';
import { insightKeys } from '../api/insights.keys';
import { insightTitle } from '../api/insight-title';

/** The insight's name (breadcrumbs), as its page titles it; `insightRef` is its address's short_id or id. */
export function InsightName({ projectId, insightRef }: { projectId: number; insightRef: string }) {
  // Read from the cache the route's loader fills, never fetched here (see CachedName).
  const { data: insightId } = useQuery<number>({
    queryKey: insightKeys.ref(projectId, insightRef),
    queryFn: skipToken,
  });
  return insightId === undefined ? (
    <>…</>
  ) : (
    <CachedName<Insight> queryKey={insightKeys.detail(projectId, insightId)} name={insightTitle} />
  );
}
