import { RefreshCw } from 'lucide-react';
import type { Insight } from '@/contract/insights';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';

/**
 * When the result was computed ("Computed 3 minutes ago · from cache") and a button to recompute
 * it. Only the state is a live region ("Computing…", "Computed"): the age beside it keeps
 * counting while the page is open, and a screen reader would otherwise announce every tick.
 */
export function RefreshStatus({
  insight,
  refreshing,
  onRefresh,
}: {
  insight: Insight;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const cached = insight.is_cached === true || insight.is_cached === 'true';
  const computed = !refreshing && insight.last_refresh;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-gray-700 dark:text-gray-300">
      <p>
        <span role="status">{refreshing ? 'Computing…' : insight.last_refresh ? 'Computed' : 'Not computed yet'}</span>
        {computed ? (
          <>
            {' '}
            <RelativeTime value={computed} />
            {cached ? ' · from cache' : ''}
          </>
        ) : null}
      </p>
      <Button size="sm" onClick={onRefresh} disabled={refreshing}>
        <RefreshCw aria-hidden="true" className="size-4" />
        Refresh
      </Button>
    </div>
  );
}
