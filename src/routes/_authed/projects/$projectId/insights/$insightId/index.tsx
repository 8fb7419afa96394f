import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { optionalParam, paramOr } from '@/lib/page-search';
import { InsightPage } from '@/features/insights/components/insight-page';
import { InsightPageError, InsightPageSkeleton } from '@/features/insights/components/insights-page-states';

const defaults = { tab: 'results' } as const;

const searchSchema = z.object({
  tab: paramOr(z.enum(['results', 'activity']), defaults.tab),
  /** The sharing dialog is open. */
  share: optionalParam(z.boolean()),
});

/** One insight's page; it reads and writes this search state itself (getRouteApi). */
export const Route = createFileRoute('/_authed/projects/$projectId/insights/$insightId/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  codeSplitGroupings: [['component'], ['pendingComponent', 'errorComponent', 'notFoundComponent']],
  pendingComponent: InsightPageSkeleton,
  errorComponent: InsightPageError,
  component: InsightPage,
});
