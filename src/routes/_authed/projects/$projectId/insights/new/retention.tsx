import { createFileRoute } from '@tanstack/react-router';
import { pickSearch } from '@/features/insights/components/builder/builder-search';
import { BuilderPageError, BuilderPageSkeleton } from '@/features/insights/components/builder/builder-page-states';
import { NewRetentionBuilder } from '@/features/insights/components/builder/new-builder-page';
import { preloadInsightChart } from '@/features/insights/components/chart-preload';

/** A new retention insight; the whole builder state is in the URL (checked by the page against the contract). */
export const Route = createFileRoute('/_authed/projects/$projectId/insights/new/retention')({
  validateSearch: pickSearch('retention'),
  staticData: { crumb: 'New retention' },
  // The loader and page travel in their own chunk: the insight contract stays out of the initial JavaScript.
  codeSplitGroupings: [['loader', 'component'], ['pendingComponent', 'errorComponent', 'notFoundComponent']],
  loader: () => preloadInsightChart(),
  pendingComponent: BuilderPageSkeleton,
  errorComponent: BuilderPageError,
  component: NewRetentionBuilder,
});
