/**
 * Loads the browser's locale data (ICU) off the main thread. The first Intl formatter a page makes
 * loads it: 30–60 ms on a desktop, four times that on a phone, in one block of the main thread
 * (the first list's "3 hours ago" or its dates). The data is loaded once per browser process, so
 * once a worker has made its formatters the page's own take under a millisecond. Where workers
 * are missing (tests, old browsers) the formatters are simply made on first use.
 */
export function warmUpIntl(): void {
  if (typeof Worker === 'undefined') return;
  try {
    const worker = new Worker(new URL('./intl-warmup.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = () => worker.terminate();
    worker.onerror = () => worker.terminate();
  } catch {
    // A browser that refuses the worker makes the formatters on first use.
  }
}
