/**
 * Runs `callback` when the browser is next idle (at the latest after `timeout` ms), or after a
 * short delay where there is no `requestIdleCallback`. Returns a function that cancels it.
 */
export function whenIdle(callback: () => void, timeout = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(callback, { timeout });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, 50);
  return () => clearTimeout(timer);
}
