import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from 'zod';
import { BatchExportDetail } from '@/features/batch-exports/components/batch-export-detail';
import { BatchExportDetailSkeleton } from '@/features/batch-exports/components/batch-exports-page-states';
import { pageNumberSchema } from '@/lib/page-search';

const defaults = { tab: 'runs', runsPage: 1, logsPage: 1 } as const;

const searchSchema = z.object({
  tab: z.enum(['runs', 'logs']).default(defaults.tab).catch(defaults.tab),
  runsPage: pageNumberSchema,
  logsPage: pageNumberSchema,
  /** The backfill dialog is open. */
  backfill: z.boolean().optional().catch(undefined),
});

export const Route = createFileRoute('/_authed/organizations/$organizationId/batch-exports/$batchExportId/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  // The skeleton loads apart from the route tree: nothing of this feature in the initial JavaScript.
  codeSplitGroupings: [['component'], ['pendingComponent', 'errorComponent', 'notFoundComponent']],
  pendingComponent: BatchExportDetailSkeleton,
  component: BatchExportDetailRoute,
});

function BatchExportDetailRoute() {
  const { organizationId, batchExportId } = Route.useParams();
  const { tab, runsPage, logsPage, backfill } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <BatchExportDetail
      organizationId={organizationId}
      batchExportId={batchExportId}
      tab={tab}
      onTabChange={(next) => void navigate({ search: (prev) => ({ ...prev, tab: next }), replace: true })}
      runsPage={runsPage}
      onRunsPageChange={(next) => void navigate({ search: (prev) => ({ ...prev, runsPage: next }) })}
      logsPage={logsPage}
      onLogsPageChange={(next) => void navigate({ search: (prev) => ({ ...prev, logsPage: next }) })}
      backfillOpen={backfill === true}
      onBackfillOpenChange={(open) =>
        void navigate({ search: (prev) => ({ ...prev, backfill: open ? true : undefined }), replace: !open })
      }
      onBackfillStarted={() =>
        void navigate({ search: (prev) => ({ ...prev, backfill: undefined, tab: 'runs', runsPage: 1 }), replace: true })
      }
      onEdit={() =>
        void navigate({ to: '/organizations/$organizationId/batch-exports/$batchExportId/edit', params: { organizationId, batchExportId } })
      }
      onDeleted={() => navigate({ to: '/organizations/$organizationId/batch-exports', params: { organizationId }, replace: true })}
    />
  );
}
