import { createFileRoute, notFound } from '@tanstack/react-router';
import { loadInsightQueries, preloadInsightChart } from '@/features/insights/components/chart-preload';
import { InsightName } from '@/features/insights/components/insight-name';

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
  // The insight's queries (and contract) load with the first insight opened, or earlier when the
  // list warms them: they stay out of the initial JavaScript.
  loader: async ({ context, params }) => {
    preloadInsightChart();
    const { insightQueries } = await loadInsightQueries();
    return context.queryClient.ensureQueryData(insightQueries.detail(params.projectId, params.insightId));
  },
});
