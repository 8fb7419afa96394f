import { nextTask } from './next-task';

/**
 * Work the first screen needs that a worker can do for the whole browser process, started before
 * the app so that it runs while the page's code and data are on the wire:
 *
 * - **Locale data.** The first Intl formatter a page makes loads the locale's data (ICU): 30–60 ms
 *   on a desktop, four times that on a phone, in one block of the main thread (the first list's
 *   "3 hours ago" or its dates). The data is loaded once per process, so once a worker has made
 *   its formatters the page's own take under a millisecond.
 * - **Fonts.** The first layout that draws text looks up each family of the font stack in each
 *   weight, and loads the font found: 20–40 ms in Chromium on Linux, where each lookup asks the
 *   browser process. The lookups are cached for the process too, so a worker that measures a
 *   letter in each family and weight the app uses (on an OffscreenCanvas) takes them off the
 *   first render's layout: 21 ms → 4 ms, measured.
 *
 * Where workers or OffscreenCanvas are missing (tests, old browsers) the page does the work itself
 * on first use, as it would without this.
 */
export function warmUp(): void {
  if (typeof Worker === 'undefined') return;
  try {
    const worker = new Worker(new URL('./warm-up.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = () => worker.terminate();
    worker.onerror = () => worker.terminate();
    // The fonts are read from the computed style (a style pass) in the next task, not while the
    // entry's modules run.
    nextTask(() => {
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

/** The weights the interface's text uses (Tailwind's font-normal, -medium, -semibold, -bold). */
const SANS_WEIGHTS = [400, 500, 600, 700];

/**
 * CSS `font` values for each family and weight the app draws text in: the body's font stack
 * (styles.css) in every weight, and the monospace stack (`--font-mono`: identifiers, code).
 */
function appFonts(): string[] {
  const sans = getComputedStyle(document.body).fontFamily;
  const mono = getComputedStyle(document.documentElement).getPropertyValue('--font-mono').trim();
  return [...(sans ? SANS_WEIGHTS.map((weight) => `${weight} 16px ${sans}`) : []), ...(mono ? [`400 16px ${mono}`] : [])];
}
