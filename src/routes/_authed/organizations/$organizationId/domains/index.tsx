import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';
import { peopleQueries } from '@/features/organization-people/api/people.queries';
import { DomainsPage } from '@/features/organization-people/components/domains-page';
import {
  DomainsPageError,
  DomainsPageSkeleton,
} from '@/features/organization-people/components/organization-people-page-states';

export const Route = createFileRoute('/_authed/organizations/$organizationId/domains/')({
  validateSearch: pageSearchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(
      peopleQueries.domains(params.organizationId, pageParams(deps.page, deps.pageSize)),
    ),
  pendingComponent: DomainsPageSkeleton,
  errorComponent: DomainsPageError,
  component: DomainsPage,
});
