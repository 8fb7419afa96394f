import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { Suspense } from 'react';
import { preloadable } from '@/lib/preloadable';
import { NavigationProgress } from '@/components/feedback/navigation-progress';
import { NetworkBanner } from '@/components/feedback/network-banner';
import { RootNotFound } from '@/components/feedback/not-found';
import type { RouterContext } from '@/router-context';

// Toasts only matter after the first action: the toaster loads after the page.
const Toaster = preloadable(async () => ({ default: (await import('sonner')).Toaster })).Component;

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: RootNotFound,
});

function RootLayout() {
  return (
    <>
      <NavigationProgress />
      <NetworkBanner />
      <Outlet />
      <Suspense fallback={null}>
        <Toaster theme="system" richColors closeButton position="bottom-right" />
      </Suspense>
    </>
  );
}
