import { createFileRoute } from '@tanstack/react-router';
import { pickAnySearch } from '@/features/insights/components/builder/builder-search';
import { BuilderPageError, BuilderPageSkeleton } from '@/features/insights/components/builder/builder-page-states';
import { EditBuilderPage } from '@/features/insights/components/builder/edit-builder-page';
import { preloadInsightChart } from '@/features/insights/components/chart-preload';

/**
 * A saved insight in its builder (the parent route loads it and the chart code). An empty search
 * is the saved parameters; edits live in the URL until saved.
 */
export const Route = createFileRoute('/_authed/projects/$projectId/insights/$insightId/edit')({
  validateSearch: pickAnySearch,
  staticData: { crumb: 'Edit' },
  // The parent loads the insight and the chart kit; a builder can switch to any display: recharts too.
  loader: () => preloadInsightChart(true),
  codeSplitGroupings: [['component'], ['pendingComponent', 'errorComponent', 'notFoundComponent']],
  pendingComponent: BuilderPageSkeleton,
  errorComponent: BuilderPageError,
  component: EditBuilderPage,
});
