import type { ReactNode } from 'react';
import { TableSkeleton } from '@/components/data-table/table-skeleton';

export function OrganizationsPageHeader({ action }: { action: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold">Organizations</h1>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">The organizations your API key can reach.</p>
      </div>
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
