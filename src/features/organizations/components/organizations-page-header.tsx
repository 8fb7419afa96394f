import type { ReactNode } from 'react';
import { TableSkeleton } from '@/components/data-table/table-skeleton';
import { PageTitle } from '@/components/layout/page-title';

export function OrganizationsPageHeader({ action }: { action: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <PageTitle title="Organizations" description="The organizations your API key can reach." />
      {action}
    </div>
  );
}

/** What the list looks like while its first data loads. */
export function OrganizationsPageSkeleton() {
  return (
    <>
      <OrganizationsPageHeader action={null} />
      <TableSkeleton columns={5} label="Loading organizations" />
    </>
  );
}
