import { RefreshCw } from 'lucide-react';
import type { Insight } from '@/contract/insights';
import { formatDateTime, formatRelative } from '@/lib/dates';
import { Button } from '@/components/ui/button';

/** When the result was computed ("Computed 3 minutes ago · from cache") and a button to recompute it. */
export function RefreshStatus({ insight, refreshing, onRefresh }: { insight: Insight; refreshing: boolean; onRefresh: () => void }) {
  const cached = insight.is_cached === true || insight.is_cached === 'true';
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-gray-700 dark:text-gray-300">
      <p role="status">
        {refreshing ? (
          'Computing…'
        ) : insight.last_refresh ? (
          <>
            Computed{' '}
            <time dateTime={insight.last_refresh} title={formatDateTime(insight.last_refresh)}>
              {formatRelative(insight.last_refresh)}
            </time>
            {cached ? ' · from cache' : ''}
          </>
        ) : (
          'Not computed yet'
        )}
      </p>
      <Button size="sm" onClick={onRefresh} disabled={refreshing}>
        <RefreshCw aria-hidden="true" className="size-4" />
        Refresh
      </Button>
    </div>
  );
}
