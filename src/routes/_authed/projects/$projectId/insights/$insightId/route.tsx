import { createFileRoute, notFound } from '@tanstack/react-router';
import { loadInsightQueries, preloadInsightChart } from '@/features/insights/components/chart-preload';
import { InsightName } from '@/features/insights/components/insight-name';

/**
 * One insight: `$insightId` is its short_id (the addresses the app writes, as the production
 * service's) or its numeric id (older links), checked once here (else a 404); the loader finds the
 * insight it names. Its crumb is its name.
 */
export const Route = createFileRoute('/_authed/projects/$projectId/insights/$insightId')({
  params: {
    parse: ({ insightId }) => {
      // A short_id is 8 letters and digits (INSIGHT_SHORT_ID_PATTERN, kept out of the route tree).
      if (!/^[1-9]\d*$/.test(insightId) && !/^[A-Za-z0-9]{8}$/.test(insightId)) throw notFound();
      return { insightId };
    },
    stringify: ({ insightId }) => ({ insightId }),
  },
  staticData: {
    crumb: ({ params }) => <InsightName projectId={Number(params.projectId)} insightRef={String(params.insightId)} />,
  },
  // The insight's queries (and contract) load with the first insight opened, or earlier when the
  // list warms them: they stay out of the initial JavaScript.
  loader: async ({ context, params }) => {
    preloadInsightChart();
    const { insightQueries } = await loadInsightQueries();
    const insightId = await context.queryClient.ensureQueryData(
      insightQueries.resolve(params.projectId, params.insightId),
    );
    return context.queryClient.ensureQueryData(insightQueries.detail(params.projectId, insightId));
  },
});
