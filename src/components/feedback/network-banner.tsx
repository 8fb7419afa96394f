import { useQueryClient, type Query } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isRetryableError } from '@/lib/query-client';
import { Button } from '@/components/ui/button';

type BannerState = 'ok' | 'retrying' | 'failed';

function stateOf(queries: Query[]): BannerState {
  let state: BannerState = 'ok';
  for (const query of queries) {
    const { fetchFailureReason, fetchStatus, status, error } = query.state;
    if (fetchStatus === 'fetching' && isRetryableError(fetchFailureReason)) return 'retrying';
    if (status === 'error' && isRetryableError(error) && query.getObserversCount() > 0) state = 'failed';
  }
  return state;
}

/** "Can't reach the server — retrying…" while queries fail with network errors or 5xx. */
export function NetworkBanner() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<BannerState>(() => stateOf(queryClient.getQueryCache().getAll()));

  useEffect(() => {
    const cache = queryClient.getQueryCache();
    // A fetch fires several cache events in a row: the queries are looked at once per burst.
    let queued = false;
    let active = true;
    const update = () => {
      queued = false;
      if (active) setState(stateOf(cache.getAll()));
    };
    update();
    const unsubscribe = cache.subscribe(() => {
      if (queued) return;
      queued = true;
      queueMicrotask(update);
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [queryClient]);

  return (
    <div role="status" aria-live="polite">
      {state === 'ok' ? null : (
        <div className="flex items-center justify-center gap-3 bg-amber-100 px-4 py-2 text-sm font-medium text-amber-950 dark:bg-amber-900 dark:text-amber-50">
          <WifiOff aria-hidden="true" className="size-4" />
          {state === 'retrying' ? (
            <span>Can't reach the server — retrying…</span>
          ) : (
            <>
              <span>Can't reach the server. What you see may be out of date.</span>
              <Button size="sm" onClick={() => void queryClient.refetchQueries({ type: 'active' })}>
                Retry now
              </Button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
