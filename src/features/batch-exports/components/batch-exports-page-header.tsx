import type { ReactNode } from 'react';
import { TableSkeleton } from '@/components/data-table/table-skeleton';
import { PageTitle } from '@/components/layout/page-title';

// Kept apart from the page: the route's pending component loads with the route tree.
export function BatchExportsPageHeader({ action }: { action: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <PageTitle title="Batch exports" description="Scheduled exports of this organization's events and persons to other systems." />
      {action}
    </div>
  );
}

/** What the list looks like while its first data loads. */
export function BatchExportsPageSkeleton() {
  return (
    <>
      <BatchExportsPageHeader action={null} />
      <TableSkeleton columns={7} label="Loading batch exports" />
    </>
  );
}

/** What an export's page looks like while it loads. */
export function BatchExportDetailSkeleton() {
  return <TableSkeleton columns={4} rows={6} label="Loading batch export" />;
}
