import { useLocation } from '@tanstack/react-router';
import { Menu } from 'lucide-react';
import { Suspense, useRef, useState, type ReactNode } from 'react';
import { preloadable } from '@/lib/preloadable';

// The drawer (Radix Dialog with its focus trap and scroll lock, ~15 kB gzip) loads on first use.
const drawer = preloadable(() => import('./mobile-nav-drawer'));
const MobileNavDrawer = drawer.Component;
const prefetch = () => void drawer.load().catch(() => undefined);

/**
 * Below 768 px the sidebar is a drawer: a labelled menu button in the top bar opens it (focus
 * kept inside, Escape or the close button closes it, focus goes back to the button); following a
 * link closes it.
 */
export function MobileNav({ children }: { children: ReactNode }) {
  const href = useLocation({ select: (l) => l.href });
  const button = useRef<HTMLButtonElement>(null);
  // Open on the page it was opened on: a navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const [used, setUsed] = useState(false);
  const open = openOn === href;
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        className="-ml-1.5 inline-flex size-9 shrink-0 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 md:hidden dark:text-gray-300 dark:hover:bg-gray-800"
        onPointerDown={prefetch}
        onFocus={prefetch}
        onClick={() => {
          setUsed(true);
          setOpenOn(href);
        }}
      >
        <Menu aria-hidden="true" className="size-5" />
      </button>
      {used ? (
        <Suspense fallback={null}>
          <MobileNavDrawer open={open} onOpenChange={(next) => setOpenOn(next ? href : null)} returnFocus={button}>
            {children}
          </MobileNavDrawer>
        </Suspense>
      ) : null}
    </>
  );
}
