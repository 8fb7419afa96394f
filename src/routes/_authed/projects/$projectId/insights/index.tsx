import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { INSIGHT_KINDS } from '@/contract/insight-kinds';
import { insightQueries } from '@/features/insights/api/insights.queries';
import { currentUserQuery } from '@/lib/current-user';
import { InsightsPage } from '@/features/insights/components/insights-page';
import { InsightsPageError, InsightsPageSkeleton } from '@/features/insights/components/insights-page-states';
import { optionalParam, PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';

const searchSchema = z.extend(pageSearchSchema, {
  search: optionalParam(z.string().check(z.maxLength(400))),
  favorited: optionalParam(z.boolean()),
  kind: optionalParam(z.enum(INSIGHT_KINDS)),
  /** Only the insights created by the key's user. */
  mine: optionalParam(z.boolean()),
});

export const Route = createFileRoute('/_authed/projects/$projectId/insights/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({
    page: search.page,
    pageSize: search.pageSize,
    search: search.search,
    favorited: search.favorited,
    kind: search.kind,
    mine: search.mine,
  }),
  // The loader travels with the page's chunk: the insight contract stays out of the initial JavaScript.
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: async ({ context, params, deps }) => {
    // "Created by me" needs the key's user first; otherwise both load side by side.
    const me = context.queryClient.ensureQueryData(currentUserQuery());
    const createdBy = deps.mine ? (await me).id : undefined;
    await Promise.all([
      me,
      context.queryClient.ensureQueryData(
        insightQueries.list(params.projectId, {
          ...pageParams(deps.page, deps.pageSize),
          search: deps.search,
          favorited: deps.favorited,
          insight: deps.kind,
          created_by: createdBy,
        }),
      ),
    ]);
  },
  pendingComponent: InsightsPageSkeleton,
  errorComponent: InsightsPageError,
  component: InsightsPage,
});
