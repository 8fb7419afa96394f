import { Outlet, useElementScrollRestoration } from '@tanstack/react-router';
import { LogOut } from 'lucide-react';
import { useCallback, type ReactNode } from 'react';
import { useSignOut } from '@/lib/auth';
import { AfterFirstScreen, DrawnLateProvider, FIRST_SCREEN } from '@/lib/first-screen';
import { useMediaQuery } from '@/lib/use-media-query';
import { CommandPaletteLauncher } from '@/components/command-palette/palette-launcher';
import { Button } from '@/components/ui/button';
import { Breadcrumbs } from './breadcrumbs';
import { MobileNav } from './mobile-nav';

/**
 * Where the sidebar stands beside the page: Tailwind's `md` (48rem, which the drawer's button
 * hides at), in the same unit so that both agree whatever the browser's font size; below it, it
 * is a drawer.
 */
const SIDEBAR_BESIDE = '(min-width: 48rem)';

/**
 * The signed-in page: sidebar (a drawer below 768 px, opened from the top bar's menu button),
 * top bar (breadcrumbs, search and commands (⌘K), sign-out) and the route's content.
 */
export function AppShell({ sidebar, actions }: { sidebar: ReactNode; actions?: ReactNode }) {
  const signOut = useSignOut();
  // On a phone the sidebar is not drawn beside the page at all (not merely hidden): its links,
  // switchers and their requests cost the first render nothing until the drawer opens. Wider,
  // there is no drawer (one left open closes when the window widens).
  const beside = useMediaQuery(SIDEBAR_BESIDE, true);
  // Where a reloaded page was scrolled to. The router scrolls there once the layout is drawn; on a
  // fresh load the page's content, a list's table and the sidebar come tasks later (FIRST_SCREEN),
  // so it is scrolled to again as each comes.
  const saved = useElementScrollRestoration({ getElement: () => window });
  const scrollBack = useCallback(() => {
    if (saved) window.scrollTo({ left: saved.scrollX, top: saved.scrollY, behavior: 'instant' });
  }, [saved]);
  return (
    <DrawnLateProvider value={scrollBack}>
      <div className="flex min-h-screen">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-gray-900"
        >
          Skip to content
        </a>
        {beside ? (
          <aside
            aria-label="Sidebar"
            className="w-64 shrink-0 border-r border-gray-200 bg-gray-50 dark:border-gray-800 dark:bg-gray-900"
          >
            <AfterFirstScreen stage={FIRST_SCREEN.navigation}>{sidebar}</AfterFirstScreen>
          </aside>
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex h-14 items-center gap-2 border-b border-gray-200 px-4 sm:gap-4 md:px-6 dark:border-gray-800">
            {/* The bar's height is fixed: on a fresh load its contents come after the page's, its
                actions after those (FIRST_SCREEN). The breadcrumbs' box takes the room left, so
                the actions appearing moves nothing. */}
            <AfterFirstScreen stage={FIRST_SCREEN.navigation}>{beside ? null : <MobileNav>{sidebar}</MobileNav>}</AfterFirstScreen>
            <div className="min-w-0 flex-1">
              <AfterFirstScreen stage={FIRST_SCREEN.navigation}>
                <Breadcrumbs />
              </AfterFirstScreen>
            </div>
            <AfterFirstScreen stage={FIRST_SCREEN.actions}>
              {actions}
              <CommandPaletteLauncher />
              <Button variant="ghost" size="sm" className="shrink-0" onClick={() => void signOut()}>
                <LogOut aria-hidden="true" className="size-4" />
                <span className="sr-only sm:not-sr-only">Sign out</span>
              </Button>
            </AfterFirstScreen>
          </header>
          <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-6">
            <AfterFirstScreen stage={FIRST_SCREEN.page}>
              <Outlet />
            </AfterFirstScreen>
          </main>
        </div>
      </div>
    </DrawnLateProvider>
  );
}
