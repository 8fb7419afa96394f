import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';
import { peopleQueries } from '@/features/organization-people/api/people.queries';
import { InvitesPage } from '@/features/organization-people/components/invites-page';
import {
  InvitesPageError,
  InvitesPageSkeleton,
} from '@/features/organization-people/components/organization-people-page-states';

export const Route = createFileRoute('/_authed/organizations/$organizationId/invites/')({
  validateSearch: pageSearchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(
      peopleQueries.invites(params.organizationId, pageParams(deps.page, deps.pageSize)),
    ),
  pendingComponent: InvitesPageSkeleton,
  errorComponent: InvitesPageError,
  component: InvitesPage,
});
