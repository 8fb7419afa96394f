import { useCallback, useSyncExternalStore } from 'react';

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

/**
 * The one item the app keeps in localStorage: the reader's theme choice (never the API key). The
 * page's inline script reads the same item before the first paint (server/http/theme-script.ts).
 */
const THEME_ITEM = 'theme';
const listeners = new Set<() => void>();

function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(THEME_ITEM);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system'; // storage refused (a locked-down browser): the system's theme
  }
}

/**
 * Light or dark on <html> (`data-theme`, which the CSS's `dark` variant reads); none for "system",
 * where the CSS follows the system's setting as it changes, with no script.
 */
function apply(theme: Theme) {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

export function setTheme(theme: Theme) {
  try {
    if (theme === 'system') localStorage.removeItem(THEME_ITEM);
    else localStorage.setItem(THEME_ITEM, theme);
  } catch {
    // Not remembered, but still applied to this page.
  }
  apply(theme);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Chosen in another tab: this one follows.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_ITEM && event.key !== null) return;
    apply(storedTheme());
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The theme the person chose (light, dark, or the system's), remembered in this browser. */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(subscribe, storedTheme, () => 'system' as const);
  return [theme, useCallback((next: Theme) => setTheme(next), [])];
}
