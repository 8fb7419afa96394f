import type { Insight } from '@/contract/insights';
import { CachedName } from '@/components/layout/cached-name';
import { insightKeys } from '../api/insights.keys';
import { insightTitle } from '../api/insight-title';

/** The insight's name (breadcrumbs), as its page titles it. */
export function InsightName({ projectId, insightId }: { projectId: number; insightId: number }) {
  return <CachedName<Insight> queryKey={insightKeys.detail(projectId, insightId)} name={insightTitle} />;
}
