import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { Suspense } from 'react';
import { preloadable } from '@/lib/preloadable';
import { useToasterWanted } from '@/lib/toast';
import { NavigationProgress } from '@/components/feedback/navigation-progress';
import { NetworkBanner } from '@/components/feedback/network-banner';
import { RootNotFound } from '@/components/feedback/not-found';
import type { RouterContext } from '@/router-context';

// Toasts only matter after an action: the toaster (and sonner) load with the first toast.
const Toaster = preloadable(async () => ({ default: (await import('sonner')).Toaster })).Component;

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: RootNotFound,
});

function RootLayout() {
  const toasts = useToasterWanted();
  return (
    <>
      <NavigationProgress />
      <NetworkBanner />
      <Outlet />
      {toasts ? (
        <Suspense fallback={null}>
          <Toaster theme="system" richColors closeButton position="bottom-right" />
        </Suspense>
      ) : null}
    </>
  );
}
