import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { optionalParam, PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';
import { organizationQueries } from '@/features/organizations/api/organizations.queries';
import { OrganizationsPage } from '@/features/organizations/components/organizations-page';
import {
  OrganizationsPageError,
  OrganizationsPageSkeleton,
} from '@/features/organizations/components/organizations-page-states';

const searchSchema = z.extend(pageSearchSchema, {
  /** The "New organization" dialog is open. */
  create: optionalParam(z.boolean()),
});

export const Route = createFileRoute('/_authed/organizations/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  loader: ({ context, deps }) =>
    context.queryClient.ensureQueryData(organizationQueries.list(pageParams(deps.page, deps.pageSize))),
  pendingComponent: OrganizationsPageSkeleton,
  errorComponent: OrganizationsPageError,
  component: OrganizationsPage,
});
