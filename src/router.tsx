import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { NotFound } from '@/components/feedback/not-found';
import { PageSkeleton } from '@/components/feedback/page-skeleton';
import { RouteError } from '@/components/feedback/route-error';
import { routeTree } from './routeTree.gen';

export type { RouterContext } from './router-context';

export function createAppRouter({ queryClient, history }: { queryClient: QueryClient; history?: RouterHistory }) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    context: { queryClient },
    // Loaders fill the query cache; React Query decides what is fresh.
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    defaultPendingComponent: PageSkeleton,
    defaultPendingMs: 300,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface StaticDataRouteOption {
    /** This route's breadcrumb: a text, or a component given the route's params. */
    crumb?: string | ComponentType<{ params: Record<string, unknown> }>;
    /** False when the crumb's path has no page of its own. */
    crumbIsLink?: boolean;
    /** The tab's title of a page without a crumb (sign-in, a shared insight): see DocumentTitle. */
    title?: string;
  }
}
