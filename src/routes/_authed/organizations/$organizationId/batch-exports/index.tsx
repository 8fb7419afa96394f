import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { PAGE_DEFAULTS as defaults, pageParams, pageSearchSchema } from '@/lib/page-search';
import { batchExportQueries } from '@/features/batch-exports/api/batch-exports.queries';
import { BatchExportsPage } from '@/features/batch-exports/components/batch-exports-page';
import {
  BatchExportsPageError,
  BatchExportsPageSkeleton,
} from '@/features/batch-exports/components/batch-exports-page-states';

export const Route = createFileRoute('/_authed/organizations/$organizationId/batch-exports/')({
  validateSearch: pageSearchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  loaderDeps: ({ search }) => ({ page: search.page, pageSize: search.pageSize }),
  // The loader travels with the page's chunk: the batch export contract stays out of the initial JavaScript.
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params, deps }) =>
    context.queryClient.ensureQueryData(
      batchExportQueries.list(params.organizationId, pageParams(deps.page, deps.pageSize)),
    ),
  pendingComponent: BatchExportsPageSkeleton,
  errorComponent: BatchExportsPageError,
  component: BatchExportsPage,
});
