import { useCallback, useSyncExternalStore } from 'react';

const lists = new Map<string, MediaQueryList>();
const listFor = (query: string): MediaQueryList | undefined => {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return undefined;
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
};

/**
 * Whether the CSS media query matches now, kept up to date as the window changes. Where the
 * platform cannot tell (no `matchMedia`), `fallback`.
 */
export function useMediaQuery(query: string, fallback: boolean): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = listFor(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  const read = useCallback(() => listFor(query)?.matches ?? fallback, [query, fallback]);
  return useSyncExternalStore(subscribe, read, () => fallback);
}
