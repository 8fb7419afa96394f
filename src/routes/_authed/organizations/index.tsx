import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from 'zod';
import { PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';
import { organizationQueries } from '@/features/organizations/api/organizations.queries';
import { OrganizationsPage } from '@/features/organizations/components/organizations-page';
import { OrganizationsPageSkeleton } from '@/features/organizations/components/organizations-page-header';

const searchSchema = pageSearchSchema.extend({
  /** The "New organization" dialog is open. */
  create: z.boolean().optional().catch(undefined),
});

export const Route = createFileRoute('/_authed/organizations/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  loader: ({ context, deps }) =>
    context.queryClient.ensureQueryData(organizationQueries.list(pageParams(deps.page, deps.pageSize))),
  pendingComponent: OrganizationsPageSkeleton,
  component: OrganizationsRoute,
});

function OrganizationsRoute() {
  const { page, pageSize, create } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <OrganizationsPage
      page={page}
      pageSize={pageSize}
      createOpen={create === true}
      onPageChange={(next) => void navigate({ search: (prev) => ({ ...prev, page: next }) })}
      onCreateOpenChange={(open) =>
        void navigate({ search: (prev) => ({ ...prev, create: open ? true : undefined }), replace: !open })
      }
    />
  );
}
