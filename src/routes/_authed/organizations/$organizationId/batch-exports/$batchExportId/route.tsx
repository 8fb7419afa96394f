import { createFileRoute } from '@tanstack/react-router';
import { batchExportQueries } from '@/features/batch-exports/api/batch-exports.queries';
import { BatchExportName } from '@/features/batch-exports/components/batch-export-name';

/** One batch export: its crumb is its name; detail and edit are children. */
export const Route = createFileRoute('/_authed/organizations/$organizationId/batch-exports/$batchExportId')({
  staticData: {
    crumb: ({ params }) => (
      <BatchExportName organizationId={String(params.organizationId)} batchExportId={String(params.batchExportId)} />
    ),
  },
  // The loader travels with the page's chunk: the batch export contract stays out of the initial JavaScript.
  codeSplitGroupings: [
    ['loader', 'component'],
    ['pendingComponent', 'errorComponent', 'notFoundComponent'],
  ],
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(batchExportQueries.detail(params.organizationId, params.batchExportId)),
});
