import { TableSkeleton } from '@/components/data-table/table-skeleton';
import { listPageStates, type ListHeader } from '@/components/list-kit';

// Kept apart from the pages: the routes' pending and error components load apart from them.
export const batchExportsHeader: ListHeader = {
  title: 'Batch exports',
  description: "Scheduled exports of this organization's events and persons to other systems.",
};

export const { PageSkeleton: BatchExportsPageSkeleton, PageError: BatchExportsPageError } = listPageStates(
  batchExportsHeader,
  7,
);

/** What an export's page looks like while it loads. */
export function BatchExportDetailSkeleton() {
  return <TableSkeleton columns={4} rows={6} label="Loading batch export" />;
}
