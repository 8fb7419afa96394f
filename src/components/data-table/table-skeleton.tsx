import { Skeleton } from '@/components/ui/skeleton';

/** Placeholder rows while a table loads. */
export function TableSkeleton({ columns, rows = 5, label }: { columns: number; rows?: number; label: string }) {
  return (
    <div
      role="status"
      aria-label={label}
      className="space-y-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800"
    >
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className="flex gap-4">
          {Array.from({ length: columns }, (_, column) => (
            <Skeleton key={column} className="h-4 flex-1" />
          ))}
        </div>
      ))}
    </div>
  );
}
