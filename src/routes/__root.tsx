import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTheme } from '@/lib/theme';
import { preloadToasts, Toasts } from '@/lib/toast';
import { whenIdle } from '@/lib/when-idle';
import { MutationStatus } from '@/components/feedback/mutation-status';
import { NavigationProgress } from '@/components/feedback/navigation-progress';
import { DocumentTitle } from '@/components/layout/document-title';
import { NetworkBanner } from '@/components/feedback/network-banner';
import { RootNotFound } from '@/components/feedback/not-found';
import type { RouterContext } from '@/router-context';

/**
 * Toasts only matter after an action: sonner loads with the first toast, or when the app has
 * been idle this long after it started (late enough to stay out of the first page's loading),
 * so that a toast saying a request failed can still be shown once the network is gone.
 */
const PRELOAD_TOASTS_AFTER_MS = 5000;

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: RootNotFound,
});

function RootLayout() {
  const [theme] = useTheme();
  useEffect(() => {
    let cancel = () => {};
    const timer = setTimeout(() => {
      cancel = whenIdle(preloadToasts);
    }, PRELOAD_TOASTS_AFTER_MS);
    return () => {
      clearTimeout(timer);
      cancel();
    };
  }, []);
  return (
    <>
      <DocumentTitle />
      <NavigationProgress />
      <NetworkBanner />
      <Outlet />
      <MutationStatus />
      <Toasts theme={theme} richColors closeButton position="bottom-right" />
    </>
  );
}
