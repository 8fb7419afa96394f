import { Search } from 'lucide-react';
import { Suspense, useLayoutEffect, useState } from 'react';
import { isApple } from '@/lib/platform';
import { preloadable } from '@/lib/preloadable';

// The palette (cmdk, Radix Dialog, the list endpoints' contract) and the shortcuts dialog load on
// first use: neither is part of any page's initial JavaScript.
const palette = preloadable(() => import('./command-palette'));
const CommandPalette = palette.Component;
const ShortcutsDialog = preloadable(() => import('./shortcuts-dialog')).Component;
const prefetch = () => void palette.load().catch(() => undefined);

/** True when a key press goes to a field (a `?` typed there is text, not a shortcut). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The top bar's search button, and the app's keyboard shortcuts: ⌘K / Ctrl+K opens the command
 * palette, `?` lists the shortcuts.
 */
export function CommandPaletteLauncher() {
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  // Mounted from the first opening on (so closing keeps Radix's focus return and the cache).
  const [paletteUsed, setPaletteUsed] = useState(false);
  const [shortcutsUsed, setShortcutsUsed] = useState(false);
  const openPalette = (open: boolean) => {
    if (open) setPaletteUsed(true);
    setPaletteOpen(open);
  };
  const openShortcuts = (open: boolean) => {
    if (open) setShortcutsUsed(true);
    setShortcutsOpen(open);
  };

  // Listening from the first paint on: the shortcuts work as soon as the shell shows.
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteUsed(true);
        setPaletteOpen((open) => !open);
      } else if (event.key === '?' && !event.metaKey && !event.ctrlKey && !event.altKey && !isTyping(event.target)) {
        event.preventDefault();
        setShortcutsUsed(true);
        setShortcutsOpen(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <>
      <button
        type="button"
        aria-label="Search and commands"
        aria-keyshortcuts="Meta+K Control+K"
        aria-haspopup="dialog"
        className="inline-flex h-9 shrink-0 items-center gap-2 rounded-md border border-gray-300 px-2.5 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-300 dark:hover:bg-gray-900"
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={() => openPalette(true)}
      >
        <Search aria-hidden="true" className="size-4" />
        <span className="hidden sm:inline">Search…</span>
        <kbd
          aria-hidden="true"
          className="hidden rounded border border-gray-300 px-1 font-sans text-xs text-gray-600 lg:inline dark:border-gray-600 dark:text-gray-400"
        >
          {isApple() ? '⌘K' : 'Ctrl K'}
        </kbd>
      </button>
      {paletteUsed ? (
        <Suspense fallback={null}>
          <CommandPalette open={paletteOpen} onOpenChange={openPalette} onShowShortcuts={() => openShortcuts(true)} />
        </Suspense>
      ) : null}
      {shortcutsUsed ? (
        <Suspense fallback={null}>
          <ShortcutsDialog open={shortcutsOpen} onOpenChange={openShortcuts} />
        </Suspense>
      ) : null}
    </>
  );
}
