/**
 * The page's first script, an entry of its own (vite.config.ts: `warmUp`), loaded `async` at the
 * top of index.html: it needs nothing of the app, so it runs as soon as its few hundred bytes
 * arrive, long before the app's entry has downloaded. It starts a worker that does, for the whole
 * browser process, work the first screen needs:
 *
 * - **Locale data.** The first Intl formatter a page makes loads the locale's data (ICU): 30–60 ms
 *   on a desktop, four times that on a phone, in one block of the main thread (the first list's
 *   "3 hours ago" or its dates). The data is loaded once per process, so once a worker has made
 *   its formatters the page's own take under a millisecond. Started from the app's entry, the
 *   worker was still starting when the entry made its formatters (src/lib/dates.ts:
 *   formatterSteps), and the main thread loaded the data itself: 15–40 ms in one task.
 * - **Fonts.** The first layout that draws text looks up each family of the font stack in each
 *   weight, and loads the font found: 20–40 ms in Chromium on Linux, where each lookup asks the
 *   browser process. The lookups are cached for the process too, so a worker that measures a
 *   letter in each family and weight the app uses (on an OffscreenCanvas) takes them off the
 *   first render's layout: 21 ms → 4 ms, measured. The fonts are read from the stylesheet once
 *   it has loaded.
 *
 * It imports nothing: a module the app's entry shares would make this script wait for the
 * entry's chunk. Where workers or OffscreenCanvas are missing (old browsers) the page does the
 * work itself on first use, as it would without this.
 */

/** The weights the interface's text uses (Tailwind's font-normal, -medium, -semibold, -bold). */
const SANS_WEIGHTS = [400, 500, 600, 700];

/**
 * CSS `font` values for each family and weight the app draws text in: the body's font stack
 * (styles.css) in every weight, and the monospace stack (`--font-mono`: identifiers, code).
 */
function appFonts(): string[] {
  const sans = getComputedStyle(document.body).fontFamily;
  const mono = getComputedStyle(document.documentElement).getPropertyValue('--font-mono').trim();
  return [
    ...(sans ? SANS_WEIGHTS.map((weight) => `${weight} 16px ${sans}`) : []),
    ...(mono ? [`400 16px ${mono}`] : []),
  ];
}

/** Runs `callback` once the page is parsed and its stylesheet applies. */
function whenStyled(callback: () => void): void {
  const styled = () => {
    const sheet = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
    if (!sheet || sheet.sheet) callback();
    else sheet.addEventListener('load', callback, { once: true });
  };
  if (document.readyState === 'loading') document.addEventListener('readystatechange', styled, { once: true });
  else styled();
}

if (typeof Worker !== 'undefined') {
  try {
    const worker = new Worker(new URL('./warm-up.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = () => worker.terminate();
    worker.onerror = () => worker.terminate();
    whenStyled(() => {
      try {
        worker.postMessage(appFonts());
      } catch {
        worker.terminate();
      }
    });
  } catch {
    // A browser that refuses the worker does the work on first use.
  }
}
