import { createFileRoute, notFound } from '@tanstack/react-router';
import {
  isBuilderKind,
  NEW_BUILDER_CRUMBS,
  pickAnySearch,
} from '@/features/insights/components/builder/builder-search';
import { BuilderPageError, BuilderPageSkeleton } from '@/features/insights/components/builder/builder-page-states';
import { NewBuilderPage } from '@/features/insights/components/builder/new-builder-page';
import { preloadInsightChart } from '@/features/insights/components/chart-preload';

/**
 * A new insight's builder: `new/trends`, `new/funnels`, `new/retention`, `new/paths` (any other
 * kind is a 404). The whole builder state is in the URL (checked by the page against the contract).
 */
export const Route = createFileRoute('/_authed/projects/$projectId/insights/new/$kind')({
  params: {
    parse: ({ kind }) => {
      if (!isBuilderKind(kind)) throw notFound();
      return { kind };
    },
    stringify: ({ kind }) => ({ kind }),
  },
  validateSearch: pickAnySearch,
  staticData: { crumb: ({ params }) => NEW_BUILDER_CRUMBS[params.kind as keyof typeof NEW_BUILDER_CRUMBS] ?? null },
  // The loader and page travel in their own chunk: the insight contract stays out of the initial JavaScript.
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: () => preloadInsightChart(true),
  pendingComponent: BuilderPageSkeleton,
  errorComponent: BuilderPageError,
  component: NewBuilderPage,
});
