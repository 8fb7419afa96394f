import { useSyncExternalStore } from 'react';

/**
 * One clock for everything on the page that says how long ago something was ("3 minutes ago"):
 * while any of it is shown, one timer ticks every {@link TICK_MS} and re-renders exactly those
 * components, and a tab brought back to the front ticks at once (browsers slow a background
 * tab's timers to about one a minute). Nothing is shown: no timer runs.
 */
export const TICK_MS = 15_000;

const listeners = new Set<() => void>();
let ticks = 0;
let timer: ReturnType<typeof setInterval> | undefined;

const tick = () => {
  ticks += 1;
  for (const listener of [...listeners]) listener();
};
const onVisible = () => {
  if (document.visibilityState === 'visible') tick();
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    timer = setInterval(tick, TICK_MS);
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0 || timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
  };
}

const read = () => ticks;

/**
 * Re-renders the calling component at each tick of the page's clock; it then reads the time
 * itself (`new Date()`), so a render for any other reason is as current.
 */
export function useClockTick(): void {
  useSyncExternalStore(subscribe, read, read);
}
