import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { clearCredentials, consumeKeyFromFragment } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { createAppRouter, type AppRouter } from './router';

/**
 * Builds the query client and the router, wired together: any 401 forgets the key and opens
 * sign-in with a way back to where the user was. A sign-in link's `#key=` is taken first.
 */
export function createApp(options: { history?: RouterHistory } = {}): {
  router: AppRouter;
  queryClient: QueryClient;
  /** Stops this app for good: requests still in flight no longer navigate, its history lets go of the window's. */
  dispose: () => void;
} {
  // The entry has taken it already, a step before (src/main.tsx); other callers (tests) have not.
  consumeKeyFromFragment();
  let disposed = false;
  const queryClient = createQueryClient({
    onUnauthorized: () => {
      if (!disposed) backToSignIn();
    },
  });
  const router = createAppRouter({ queryClient, ...(options.history ? { history: options.history } : {}) });

  function backToSignIn() {
    clearCredentials();
    const location = router.latestLocation;
    if (location.pathname === '/sign-in') return;
    void router
      // Past any "Leave without saving?": the key is gone, nothing could be saved any more.
      .navigate({
        to: '/sign-in',
        search: { redirect: location.href, reason: 'expired' },
        replace: true,
        ignoreBlocker: true,
      })
      .then(() => queryClient.clear());
  }

  function dispose() {
    if (disposed) return;
    disposed = true;
    queryClient.clear();
    // No navigation of this app gets through any more (a load or redirect still in flight would
    // reach the window's history, which another app may own by now); then let go of it.
    router.history.block({ blockerFn: () => true, enableBeforeUnload: false });
    router.history.destroy();
  }

  return { router, queryClient, dispose };
}

export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
