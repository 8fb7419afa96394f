import { createFileRoute, notFound } from '@tanstack/react-router';
import { insightQueries } from '@/features/insights/api/insights.queries';
import { InsightName } from '@/features/insights/components/insight-name';
import { preloadInsightChart } from '@/features/insights/components/chart-preload';

/** One insight: `$insightId` is parsed once here (a number, or a 404); its crumb is its name. */
export const Route = createFileRoute('/_authed/projects/$projectId/insights/$insightId')({
  params: {
    parse: ({ insightId }) => {
      if (!/^[1-9]\d*$/.test(insightId)) throw notFound();
      return { insightId: Number(insightId) };
    },
    stringify: ({ insightId }) => ({ insightId: String(insightId) }),
  },
  staticData: { crumb: ({ params }) => <InsightName projectId={Number(params.projectId)} insightId={Number(params.insightId)} /> },
  // The loader travels with the page's chunk: the insight contract stays out of the initial JavaScript.
  codeSplitGroupings: [['loader', 'component'], ['pendingComponent', 'errorComponent', 'notFoundComponent']],
  loader: ({ context, params }) => {
    preloadInsightChart();
    return context.queryClient.ensureQueryData(insightQueries.detail(params.projectId, params.insightId));
  },
});
