import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { optionalParam, PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';
import { peopleQueries } from '@/features/organization-people/api/people.queries';
import { MembersPage } from '@/features/organization-people/components/members-page';
import {
  MembersPageError,
  MembersPageSkeleton,
} from '@/features/organization-people/components/organization-people-page-states';

const membersSearchSchema = z.extend(pageSearchSchema, { search: optionalParam(z.string()) });

export const Route = createFileRoute('/_authed/organizations/$organizationId/members/')({
  validateSearch: membersSearchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize, search: search.search }),
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params, deps }) =>
    Promise.all([
      context.queryClient.ensureQueryData(peopleQueries.organization(params.organizationId)),
      context.queryClient.ensureQueryData(
        peopleQueries.members(params.organizationId, { ...pageParams(deps.page, deps.pageSize), search: deps.search }),
      ),
    ]),
  pendingComponent: MembersPageSkeleton,
  errorComponent: MembersPageError,
  component: MembersPage,
});
