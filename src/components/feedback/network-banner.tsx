import { useQueryClient, type Query } from '@tanstack/react-query';
import { ServerCrash, WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isApiError } from '@/lib/api-client';
import { isRetryableError } from '@/lib/query-client';
import { Button } from '@/components/ui/button';

type BannerState = { state: 'ok' } | { state: 'retrying' | 'failed'; server: boolean };

/** Whether a failure came from the server (a 5xx), not from the way to it (no answer at all). */
const fromServer = (error: unknown) => isApiError(error) && error.status >= 500;

function stateOf(queries: Query[]): BannerState {
  let state: BannerState = { state: 'ok' };
  for (const query of queries) {
    const { fetchFailureReason, fetchStatus, status, error } = query.state;
    if (fetchStatus === 'fetching' && isRetryableError(fetchFailureReason))
      return { state: 'retrying', server: fromServer(fetchFailureReason) };
    if (status === 'error' && isRetryableError(error) && query.getObserversCount() > 0)
      state = { state: 'failed', server: fromServer(error) };
  }
  return state;
}

const sameState = (a: BannerState, b: BannerState) =>
  a.state === b.state && (a.state === 'ok' || (b.state !== 'ok' && a.server === b.server));

/**
 * "Can't reach the server — retrying…" while queries fail with network errors, "The server ran
 * into a problem — retrying…" while they fail with a 5xx (the server answers: it is reached).
 */
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
      if (!active) return;
      const next = stateOf(cache.getAll());
      setState((current) => (sameState(current, next) ? current : next));
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
      {state.state === 'ok' ? null : (
        <div className="flex items-center justify-center gap-3 bg-amber-100 px-4 py-2 text-sm font-medium text-amber-950 dark:bg-amber-900 dark:text-amber-50">
          {state.server ? (
            <ServerCrash aria-hidden="true" className="size-4" />
          ) : (
            <WifiOff aria-hidden="true" className="size-4" />
          )}
          {state.state === 'retrying' ? (
            <span>{state.server ? 'The server ran into a problem' : "Can't reach the server"} — retrying…</span>
          ) : (
            <>
              <span>
                {state.server ? 'The server ran into a problem' : "Can't reach the server"}. What you see may be out of
                date.
              </span>
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
