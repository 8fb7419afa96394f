import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from 'zod';
import { batchExportQueries, pageParams } from '@/features/batch-exports/api/batch-exports.queries';
import { BatchExportsPage } from '@/features/batch-exports/components/batch-exports-page';
import { BatchExportsPageSkeleton } from '@/features/batch-exports/components/batch-exports-page-header';

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
});

export const Route = createFileRoute('/_authed/organizations/$organizationId/batch-exports/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  // The loader travels with the page's chunk: the batch export contract stays out of the initial JavaScript.
  codeSplitGroupings: [['loader', 'component'], ['pendingComponent', 'errorComponent', 'notFoundComponent']],
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(batchExportQueries.list(params.organizationId, pageParams(deps.page, deps.pageSize))),
  pendingComponent: BatchExportsPageSkeleton,
  component: BatchExportsRoute,
});

function BatchExportsRoute() {
  const { organizationId } = Route.useParams();
  const { page, pageSize } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <BatchExportsPage
      organizationId={organizationId}
      page={page}
      pageSize={pageSize}
      onPageChange={(next) => void navigate({ search: (prev) => ({ ...prev, page: next }) })}
      onCreate={() => void navigate({ to: '/organizations/$organizationId/batch-exports/new', params: { organizationId } })}
    />
  );
}
