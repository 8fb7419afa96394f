import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteError } from '@/components/feedback/route-error';
import { Skeleton } from '@/components/ui/skeleton';

// Kept apart from the page: the route's pending and error components load apart from it.

/** The person page while the person loads: its title, its details, then its properties' and events' places. */
export function PersonPageSkeleton() {
  return (
    <div role="status" aria-label="Loading the person" className="max-w-5xl space-y-6">
      <div className="space-y-2">
        <Skeleton className="h-8 w-72 max-w-full" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      <Skeleton className="h-20 w-full" />
      {['Properties', 'Recent events'].map((section) => (
        <div key={section} className="space-y-3">
          <Skeleton className="h-6 w-40" />
          <Skeleton className="h-40 w-full" />
        </div>
      ))}
    </div>
  );
}

/** The person could not be loaded (not there: the way back up; the server down: why, and try again). */
export function PersonPageError(props: ErrorComponentProps) {
  return <RouteError {...props} />;
}
