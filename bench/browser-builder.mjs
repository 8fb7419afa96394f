/* global document, MutationObserver, requestAnimationFrame, HTMLSelectElement -- used inside page.evaluate, which runs in the browser */
// In the browser, against a real reference server process with the demo events (1,000,000
// unless SEED_EVENTS says otherwise) and the server's analysis cache OFF (every edit computes):
//   builder edit → chart repainted: from a change of a builder control to the new result drawn
//   (the result's busy state gone and its table showing the new buckets, then the next animation
//   frame), measured in the page with performance.now(), a MutationObserver and
//   requestAnimationFrame. Each run opens the builder afresh on one value of a select, waits as
//   a user would, and sets the other value: the app has not got that result in its cache, and
//   the server computes it (the builder's debounce and the app's cache, which answered
//   back-to-back edits of an earlier version of this bench, play no part).
//   - trends: bench/analytics.mjs's trend (30 days, 3 series: $pageview, user signed up,
//     purchase, totals, by browser); the edit: Interval, Day ↔ Week. Target ≤ 150 ms.
//   - trends with unique users (the second series counts distinct persons): the same edit, a
//     heavier query, for reference.
//   - funnels: 4 steps, last 90 days, 14-day window, steps; the edit: Step order,
//     Sequential ↔ Strict order. Target ≤ 400 ms.
// Playwright with Debian's /usr/bin/chromium and the flags of playwright.config.ts.
// Usage: npm run build && node bench/browser-builder.mjs [--runs 20] [--from DATA_DIR] [--dist DIR]
//   --from: start from a copy of a data dir seeded earlier (the 1M seed takes minutes).
//   --dist: an app built elsewhere with `vite build --outDir` (another commit, to compare);
//   else dist/, built if stale.
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { apiClient, benchDataDir, CHROMIUM_ARGS, fmt, startAppServer, stats } from './browser-lib.mjs';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, from: { type: 'string' }, dist: { type: 'string' } },
});
const RUNS = Number(args.runs);

const dataDir = benchDataDir('bench-builder-', args.from);
const seedStarted = performance.now();
const { child, url, key } = await startAppServer({ dist: args.dist, dataDir, env: { ANALYTICS_CACHE_TTL_MS: '0' } });
console.log(
  `server seeded and listening in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (SEED_EVENTS=${process.env.SEED_EVENTS ?? 'default'}, cache off)`,
);
const api = apiClient(url, key);

/** A builder URL: the state as TanStack Router writes it (JSON values for objects and lists). */
const builderUrl = (projectId, kind, state) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(state)) search.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return `${url}/projects/${projectId}/insights/new/${kind}?${search}`;
};

/** The state field each measured select writes. */
const FIELD = { Interval: 'interval', 'Step order': 'funnel_order_type' };

const TRENDS = {
  events: ['$pageview', 'user signed up', 'purchase'].map((id, order) => ({
    id,
    type: 'events',
    order,
    math: 'total',
  })),
  date_from: '-30d',
  interval: 'day',
  breakdown: '$browser',
  breakdown_type: 'event',
};
const TRENDS_DAU = {
  ...TRENDS,
  events: [
    { id: '$pageview', type: 'events', order: 0, math: 'total' },
    { id: '$pageview', type: 'events', order: 1, math: 'dau' },
    { id: 'user signed up', type: 'events', order: 2, math: 'total' },
  ],
};
const FUNNELS = {
  events: ['$pageview', 'user signed up', 'created project', 'purchase'].map((id, order) => ({
    id,
    type: 'events',
    order,
  })),
  date_from: '-90d',
  interval: 'day',
  funnel_window_interval: 14,
  funnel_window_interval_unit: 'day',
  funnel_order_type: 'ordered',
  funnel_viz_type: 'steps',
};

let browser;
try {
  const projects = await api('/api/projects/?limit=100');
  const project = projects.results.find((p) => p.name === 'Hedgebox Web') ?? projects.results[0];
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${url}/projects/${project.id}/insights#key=${key}`);
  await page.getByRole('table', { name: 'Insights' }).waitFor();

  /**
   * Sets the select labelled `label` from one of `values` to the other, timing each repaint. Each
   * run starts on a freshly loaded builder (the app's cache holds only the state it opened on)
   * and waits as a user would between edits: back-to-back edits would be gathered by the
   * builder's debounce (EDIT_DEBOUNCE_MS) and the second one answered from the app's cache.
   */
  const measure = async (kind, state, label, values) => {
    const times = [];
    const requests = [];
    const starts = [];
    for (let run = 0; run < RUNS; run++) {
      const from = values[run % values.length];
      const next = values[(run + 1) % values.length];
      await page.goto(builderUrl(project.id, kind, { ...state, [FIELD[label]]: from }));
      await page.locator('figure[data-insight-chart]').waitFor({ timeout: 60_000 });
      await page
        .locator('section[aria-label="Result"] [aria-busy="true"]')
        .waitFor({ state: 'detached', timeout: 60_000 });
      await page.waitForTimeout(400);
      const timing = await page.evaluate(
        ({ label, next }) =>
          new Promise((resolve, reject) => {
            const select = [...document.querySelectorAll('label')].find((l) => l.textContent === label)?.control;
            if (!(select instanceof HTMLSelectElement)) return reject(new Error(`no select labelled ${label}`));
            const result = document.querySelector('section[aria-label="Result"]');
            const rowsBefore = result.querySelectorAll('table tbody tr').length;
            const headBefore = result.querySelector('table')?.textContent;
            const timeout = setTimeout(() => reject(new Error('the chart never repainted')), 30_000);
            const done = () => {
              const busy = result.querySelector('[aria-busy="true"]');
              const table = result.querySelector('table');
              return (
                !busy &&
                table &&
                (table.querySelectorAll('tbody tr').length !== rowsBefore || table.textContent !== headBefore)
              );
            };
            let t0 = 0;
            const observer = new MutationObserver(() => {
              if (!done()) return;
              const changed = performance.now() - t0;
              observer.disconnect();
              clearTimeout(timeout);
              requestAnimationFrame(() => {
                // The edit's analysis request (insights/trend/ or insights/funnel/): from its start to its last byte.
                const analysis = performance
                  .getEntriesByType('resource')
                  .find((e) => e.startTime >= t0 && /\/insights\/(trend|funnel)\//.test(e.name));
                resolve({
                  changed,
                  frame: performance.now() - t0,
                  request: analysis?.duration ?? null,
                  started: analysis ? analysis.startTime - t0 : null,
                });
              });
            });
            observer.observe(result, { subtree: true, childList: true, attributes: true, characterData: true });
            t0 = performance.now();
            select.value = next;
            select.dispatchEvent(new Event('change', { bubbles: true }));
          }),
        { label, next },
      );
      times.push(timing.frame);
      if (timing.request !== null) requests.push(timing.request);
      if (timing.started !== null) starts.push(timing.started);
    }
    return { times, requests, starts };
  };

  const trends = await measure('trends', TRENDS, 'Interval', ['week', 'day']);
  const trendsDau = await measure('trends', TRENDS_DAU, 'Interval', ['week', 'day']);
  const funnels = await measure('funnels', FUNNELS, 'Step order', ['strict', 'ordered']);
  // Where the time goes: when the request left after the edit, and how long the API took to answer it.
  const parts = ({ requests, starts }) =>
    requests.length === 0
      ? '(no analysis request seen)'
      : `(request sent after ${stats(starts).median.toFixed(1)} ms, answered in ${stats(requests).median.toFixed(1)} ms, medians of ${requests.length})`;
  console.log(`builder edit → chart repainted, ${RUNS} runs each, server cache off`);
  console.log(
    `  trends (30 d, 3 series, by browser; Interval)   ${fmt(stats(trends.times))}   target ≤ 150 ms: ${stats(trends.times).median <= 150 ? 'ok' : 'MISSED'}  ${parts(trends)}`,
  );
  console.log(
    `  the same with unique users as series B          ${fmt(stats(trendsDau.times))}   (for reference)  ${parts(trendsDau)}`,
  );
  console.log(
    `  funnels (4 steps, 90 d; Step order)             ${fmt(stats(funnels.times))}   target ≤ 400 ms: ${stats(funnels.times).median <= 400 ? 'ok' : 'MISSED'}  ${parts(funnels)}`,
  );
} finally {
  await browser?.close();
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
