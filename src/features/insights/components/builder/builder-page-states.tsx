import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteError } from '@/components/feedback/route-error';
import { Skeleton } from '@/components/ui/skeleton';

/** What a builder looks like while its code and data load: the controls column and the chart. */
export function BuilderPageSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading the insight builder" className="space-y-6">
      <Skeleton className="h-8 w-64" />
      <div className="grid gap-6 lg:grid-cols-[minmax(20rem,24rem)_minmax(0,1fr)]">
        <Skeleton className="h-96 w-full" />
        <Skeleton className="h-96 w-full" />
      </div>
    </div>
  );
}

export function BuilderPageError(props: ErrorComponentProps) {
  return <RouteError {...props} />;
}
