import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';
import { cohortQueries } from '@/features/cohorts/api/cohorts.queries';
import { CohortsPage } from '@/features/cohorts/components/cohorts-page';
import { CohortsPageError, CohortsPageSkeleton } from '@/features/cohorts/components/cohorts-page-states';

export const Route = createFileRoute('/_authed/projects/$projectId/cohorts/')({
  validateSearch: pageSearchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(cohortQueries.list(params.projectId, pageParams(deps.page, deps.pageSize))),
  pendingComponent: CohortsPageSkeleton,
  errorComponent: CohortsPageError,
  component: CohortsPage,
});
