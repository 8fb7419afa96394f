import { Skeleton } from '@/components/ui/skeleton';

/**
 * Every route's pending component unless it has its own (router.tsx): a heading and lines in the
 * page's place, inside the app shell. Without one, a route that waits (a layout's loader, a page
 * with no skeleton of its own) left nothing at all on screen on a first visit, not even the
 * shell or the offline banner, until its data came or its retries ran out.
 */
export function PageSkeleton() {
  return (
    <div role="status" aria-label="Loading the page" className="space-y-4">
      <Skeleton className="h-8 w-64 max-w-full" />
      <Skeleton className="h-4 w-96 max-w-full" />
      <div className="space-y-3 pt-4">
        {Array.from({ length: 4 }, (_, row) => (
          <Skeleton key={row} className="h-4 w-full" />
        ))}
      </div>
    </div>
  );
}
