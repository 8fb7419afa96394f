import { Outlet } from '@tanstack/react-router';
import { LogOut } from 'lucide-react';
import { type ReactNode } from 'react';
import { useSignOut } from '@/lib/auth';
import { useMediaQuery } from '@/lib/use-media-query';
import { CommandPaletteLauncher } from '@/components/command-palette/palette-launcher';
import { Button } from '@/components/ui/button';
import { Breadcrumbs } from './breadcrumbs';
import { MobileNav } from './mobile-nav';
import { ThemeToggle } from './theme-toggle';

/**
 * Where the sidebar stands beside the page: Tailwind's `md` (48rem, which the drawer's button
 * hides at), in the same unit so that both agree whatever the browser's font size; below it, it
 * is a drawer.
 */
const SIDEBAR_BESIDE = '(min-width: 48rem)';

/**
 * The signed-in page: sidebar (a drawer below 768 px, opened from the top bar's menu button),
 * top bar (breadcrumbs, search and commands (⌘K), the theme, sign-out) and the route's content.
 */
export function AppShell({ sidebar, actions }: { sidebar: ReactNode; actions?: ReactNode }) {
  const signOut = useSignOut();
  // On a phone the sidebar is not drawn beside the page at all (not merely hidden): its links,
  // switchers and their requests cost the first render nothing until the drawer opens. Wider,
  // there is no drawer (one left open closes when the window widens).
  const beside = useMediaQuery(SIDEBAR_BESIDE, true);
  return (
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
          {sidebar}
        </aside>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 items-center gap-2 border-b border-gray-200 px-4 sm:gap-4 md:px-6 dark:border-gray-800">
          {beside ? null : (
            <MobileNav>
              {/* A phone's top bar has no room to spare: the theme is at the foot of the drawer. */}
              <div className="flex h-full flex-col">
                <div className="min-h-0 flex-1">{sidebar}</div>
                <div className="flex items-center justify-between gap-3 border-t border-gray-200 p-4 text-sm text-gray-700 dark:border-gray-800 dark:text-gray-300">
                  <span aria-hidden="true">Theme</span>
                  <ThemeToggle />
                </div>
              </div>
            </MobileNav>
          )}
          <div className="min-w-0 flex-1">
            <Breadcrumbs />
          </div>
          {actions}
          <CommandPaletteLauncher />
          {beside ? <ThemeToggle /> : null}
          <Button variant="ghost" size="sm" className="shrink-0" onClick={() => void signOut()}>
            <LogOut aria-hidden="true" className="size-4" />
            <span className="sr-only sm:not-sr-only">Sign out</span>
          </Button>
        </header>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
