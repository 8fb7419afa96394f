import { Outlet } from '@tanstack/react-router';
import { LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSignOut } from '@/lib/auth';
import { Button } from '@/components/ui/button';
import { Breadcrumbs } from './breadcrumbs';

/** The signed-in page: sidebar, top bar (breadcrumbs, sign-out) and the route's content. */
export function AppShell({ sidebar }: { sidebar: ReactNode }) {
  const signOut = useSignOut();
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-gray-900"
      >
        Skip to content
      </a>
      <aside
        aria-label="Sidebar"
        className="shrink-0 border-b border-gray-200 bg-gray-50 md:w-64 md:border-b-0 md:border-r dark:border-gray-800 dark:bg-gray-900"
      >
        {sidebar}
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 items-center justify-between gap-4 border-b border-gray-200 px-6 dark:border-gray-800">
          <Breadcrumbs />
          <Button variant="ghost" size="sm" onClick={() => void signOut()}>
            <LogOut aria-hidden="true" className="size-4" />
            Sign out
          </Button>
        </header>
        <main id="main" tabIndex={-1} className="flex-1 px-6 py-6 focus:outline-none">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
