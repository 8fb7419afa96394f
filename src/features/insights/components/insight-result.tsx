import { lazy, Suspense, useMemo } from 'react';
import type { Insight } from '@/contract/insights';
import { Skeleton } from '@/components/ui/skeleton';
import { EmptyState } from '@/components/feedback/empty-state';
import { loadInsightChart } from './chart-preload';
import { resultView } from './result-model';
import { ResultTable } from './result-table';

const InsightChart = lazy(loadInsightChart);

/** The insight's chart (lazy) with its numbers as a table under it; read-only, shared by the page and the shared view. */
export function InsightResult({ insight, title }: { insight: Pick<Insight, 'filters' | 'query' | 'result'>; title: string }) {
  const view = useMemo(() => resultView(insight), [insight]);
  if (view.type === 'empty') {
    return <EmptyState title="No results">There is nothing to show for this insight's date range yet.</EmptyState>;
  }
  const charted = view.type === 'trends' || view.type === 'funnel' || view.type === 'time-to-convert';
  return (
    <div className="space-y-4">
      {charted ? (
        <figure aria-label={`${title}: chart`} data-insight-chart className="min-h-[300px] rounded-lg border border-gray-200 p-4 dark:border-gray-800">
          <Suspense fallback={<Skeleton className="h-[300px] w-full" />}>
            <InsightChart view={view} />
          </Suspense>
        </figure>
      ) : null}
      <ResultTable view={view} title={title} />
    </div>
  );
}
