import { Skeleton } from '@/components/ui/skeleton';

/** While a pipeline page loads. */
export function PipelinePageSkeleton() {
  return (
    <div className="space-y-4" role="status" aria-label="Loading pipeline apps">
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}
