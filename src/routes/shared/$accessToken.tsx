import { createFileRoute } from '@tanstack/react-router';
import { insightQueries } from '@/features/insights/api/insights.queries';
import { preloadInsightChart } from '@/features/insights/components/chart-preload';
import {
  SharedInsightError,
  SharedInsightPage,
  SharedInsightSkeleton,
} from '@/features/insights/components/shared-insight-page';

/** A shared insight: public, outside `_authed` (no key, no sign-in); the token is the whole permission. */
export const Route = createFileRoute('/shared/$accessToken')({
  staticData: { title: 'Shared insight' },
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params }) => {
    preloadInsightChart();
    return context.queryClient.ensureQueryData(insightQueries.shared(params.accessToken));
  },
  pendingComponent: SharedInsightSkeleton,
  errorComponent: SharedInsightError,
  component: SharedInsightRoute,
});

function SharedInsightRoute() {
  const { accessToken } = Route.useParams();
  return <SharedInsightPage accessToken={accessToken} />;
}
