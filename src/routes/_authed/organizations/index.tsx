import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from 'zod';
import { organizationQueries, organizationsListParams } from '@/features/organizations/api/organizations.queries';
import { OrganizationsPage } from '@/features/organizations/components/organizations-page';
import { OrganizationsPageSkeleton } from '@/features/organizations/components/organizations-page-header';

const PAGE_SIZES = [10, 20, 50, 100] as const;
const defaults = { page: 1, pageSize: 20 } as const;

const searchSchema = z.object({
  page: z.number().int().min(1).default(defaults.page).catch(defaults.page),
  pageSize: z
    .number()
    .int()
    .refine((size) => (PAGE_SIZES as readonly number[]).includes(size))
    .default(defaults.pageSize)
    .catch(defaults.pageSize),
  /** The "New organization" dialog is open. */
  create: z.boolean().optional().catch(undefined),
});

export const Route = createFileRoute('/_authed/organizations/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  loader: ({ context, deps }) =>
    context.queryClient.ensureQueryData(organizationQueries.list(organizationsListParams(deps.page, deps.pageSize))),
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
