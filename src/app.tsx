import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { clearCredentials, consumeKeyFromFragment } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { createAppRouter, type AppRouter } from './router';

/**
 * Builds the query client and the router, wired together: any 401 forgets the key and opens
 * sign-in with a way back to where the user was. A sign-in link's `#key=` is taken first.
 */
export function createApp(options: { history?: RouterHistory } = {}): { router: AppRouter; queryClient: QueryClient } {
  consumeKeyFromFragment();
  const queryClient = createQueryClient({ onUnauthorized: () => backToSignIn() });
  const router = createAppRouter({ queryClient, ...(options.history ? { history: options.history } : {}) });

  function backToSignIn() {
    clearCredentials();
    const location = router.latestLocation;
    if (location.pathname === '/sign-in') return;
    void router
      .navigate({ to: '/sign-in', search: { redirect: location.href, reason: 'expired' }, replace: true })
      .then(() => queryClient.clear());
  }

  return { router, queryClient };
}

export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
