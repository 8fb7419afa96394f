import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { z } from '@/contract/z';
import { BatchExportDetail } from '@/features/batch-exports/components/batch-export-detail';
import { BatchExportDetailSkeleton } from '@/features/batch-exports/components/batch-exports-page-states';
import { optionalParam, pageNumberSchema, paramOr } from '@/lib/page-search';

const defaults = { tab: 'runs', runsPage: 1, logsPage: 1, backfillsPage: 1 } as const;

const searchSchema = z.object({
  tab: paramOr(z.enum(['runs', 'backfills', 'logs']), defaults.tab),
  runsPage: pageNumberSchema,
  logsPage: pageNumberSchema,
  backfillsPage: pageNumberSchema,
  /** The backfill dialog is open. */
  backfill: optionalParam(z.boolean()),
});

/** One export's page; it reads and writes this search state itself (getRouteApi). */
export const Route = createFileRoute('/_authed/organizations/$organizationId/batch-exports/$batchExportId/')({
  validateSearch: searchSchema,
  search: { middlewares: [stripSearchParams(defaults)] },
  // The skeleton loads apart from the route tree: nothing of this feature in the initial JavaScript.
  codeSplitGroupings: [['component'], ['pendingComponent', 'errorComponent', 'notFoundComponent']],
  pendingComponent: BatchExportDetailSkeleton,
  component: BatchExportDetail,
});
