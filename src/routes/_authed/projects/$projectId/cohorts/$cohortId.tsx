import { createFileRoute, notFound, stripSearchParams } from '@tanstack/react-router';
import { PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';
import { cohortQueries } from '@/features/cohorts/api/cohorts.queries';
import { CohortPage } from '@/features/cohorts/components/cohort-page';

/** One cohort (`$cohortId` a positive integer, else a 404) and a page of its persons (`?page=`). */
export const Route = createFileRoute('/_authed/projects/$projectId/cohorts/$cohortId')({
  params: {
    parse: ({ cohortId }) => {
      if (!/^[1-9]\d{0,14}$/.test(cohortId)) throw notFound();
      return { cohortId: Number(cohortId) };
    },
    stringify: ({ cohortId }) => ({ cohortId: String(cohortId) }),
  },
  validateSearch: pageSearchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  staticData: { crumb: 'Cohort' },
  codeSplitGroupings: [['loader', 'component']],
  loader: async ({ context, params, deps }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(cohortQueries.detail(params.projectId, params.cohortId)),
      context.queryClient.ensureQueryData(
        cohortQueries.persons(params.projectId, params.cohortId, pageParams(deps.page, deps.pageSize)),
      ),
    ]);
  },
  component: CohortPage,
});
