/* global document, MutationObserver, requestAnimationFrame, requestIdleCallback -- used inside page.evaluate, which runs in the browser */
// In the browser, against a real reference server process (fresh seeded data dir, free port, the
// demo events: 1,000,000 unless SEED_EVENTS says otherwise):
//   insight page open → chart painted: from the click on an insight's link in the saved-insights
//   list to its chart's SVG in the DOM (then the next animation frame), measured in the page with
//   performance.now(), a MutationObserver and requestAnimationFrame. The app's query cache is
//   emptied before each open (a reload of the list), so every open fetches the insight. The click
//   comes once the list is idle (its requests done, then an idle callback), as it does for anyone
//   who reads the list first: the list has warmed the insight page's code by then. The cached
//   open is also timed with the click at the very moment the link appears (the code still cold),
//   which no reader does, for reference.
//   - fresh: each run opens a new insight whose date range the server has not computed yet
//     (its result is computed from the events: is_cached false). Target ≤ 300 ms.
//   - cached: each run opens the same insight again, its result in the server's cache
//     (is_cached true). Target ≤ 100 ms.
// Playwright with Debian's /usr/bin/chromium and the flags of playwright.config.ts.
// Usage: node bench/browser-insights.mjs [--runs 20] [--from DATA_DIR] [--dist DIR (another build)]   (SEED_EVENTS=0 for a quick run without events;
//   --from: start from a copy of a data dir seeded earlier)
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { apiClient, benchDataDir, CHROMIUM_ARGS, fmt, startAppServer, stats } from './browser-lib.mjs';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, from: { type: 'string' }, dist: { type: 'string' } },
});
const RUNS = Number(args.runs);

const dataDir = benchDataDir('bench-insights-', args.from);
const seedStarted = performance.now();
const { child, url, key } = await startAppServer({ dist: args.dist, dataDir });
console.log(
  `server seeded and listening in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (SEED_EVENTS=${process.env.SEED_EVENTS ?? 'default'})`,
);
const api = apiClient(url, key);

/** A trends insight of daily pageviews over `days` days: each `days` is a query the server has not cached. */
const trendsInsight = (name, days) => ({
  name,
  saved: true,
  filters: {
    insight: 'TRENDS',
    events: [{ id: '$pageview', type: 'events' }],
    date_from: `-${days}d`,
    interval: 'day',
    display: 'ActionsLineGraph',
  },
});

let browser;
try {
  const projects = await api('/api/projects/?limit=100');
  const project = projects.results.find((p) => p.name === 'Hedgebox Web') ?? projects.results[0];
  const base = `/api/projects/${project.id}/insights/`;

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${url}/projects/${project.id}/insights#key=${key}`);
  await page.getByRole('table', { name: 'Insights' }).waitFor();

  /** Reloads the list filtered to `name` (the app's cache empty), clicks its link, times until the chart is painted. */
  const open = async (name, { immediately = false } = {}) => {
    await page.goto(`${url}/projects/${project.id}/insights?search=${encodeURIComponent(name)}`);
    await page.getByRole('table', { name: 'Insights' }).getByRole('link', { name, exact: true }).waitFor();
    if (!immediately) {
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })));
    }
    const timing = await page.evaluate(
      (name) =>
        new Promise((resolve, reject) => {
          const link = [...document.querySelectorAll('table a')].find((a) => a.textContent === name);
          if (!link) return reject(new Error(`no link ${name}`));
          const timeout = setTimeout(() => reject(new Error('the chart never painted')), 20_000);
          const painted = () => document.querySelector('figure[data-insight-chart] svg[role="img"] path[data-series]');
          let t0 = 0;
          const observer = new MutationObserver(() => {
            if (!painted()) return;
            const changed = performance.now() - t0;
            observer.disconnect();
            clearTimeout(timeout);
            requestAnimationFrame(() => resolve({ changed, frame: performance.now() - t0 }));
          });
          observer.observe(document.body, { subtree: true, childList: true });
          t0 = performance.now();
          link.click();
        }),
      name,
    );
    // Let the page's own requests (viewed, recently viewed) finish before the next run.
    await page.waitForLoadState('networkidle');
    return timing.frame;
  };

  // Fresh: a new date range each run (computed from the events).
  const fresh = [];
  const freshCached = [];
  for (let run = 0; run < RUNS; run++) {
    const name = `Bench fresh ${String(run).padStart(2, '0')}`;
    const created = await api(base, { method: 'POST', body: JSON.stringify(trendsInsight(name, 100 + run)) });
    // Creating computes nothing: the first retrieve (the page's) does.
    fresh.push(await open(name));
    const check = await api(`${base}${created.id}/`);
    freshCached.push(check.is_cached === true);
  }
  // Cached: the same insight again and again, its result in the server's cache.
  const cachedName = 'Bench cached';
  const cachedInsight = await api(base, { method: 'POST', body: JSON.stringify(trendsInsight(cachedName, 30)) });
  await open(cachedName);
  const cached = [];
  for (let run = 0; run < RUNS; run++) cached.push(await open(cachedName));
  const cachedCold = [];
  for (let run = 0; run < RUNS; run++) cachedCold.push(await open(cachedName, { immediately: true }));
  // The server's part of a cached open: the insight's retrieve alone, from Node.
  const retrieve = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    await api(`${base}${cachedInsight.id}/`);
    retrieve.push(performance.now() - t0);
  }

  console.log(`insight page open (click in the list → chart painted), ${RUNS} runs each, daily pageviews`);
  console.log('  (clicked once the list is idle)');
  console.log(
    `  fresh (computed from the events)   ${fmt(stats(fresh))}   target ≤ 300 ms: ${stats(fresh).median <= 300 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `  cached (the server's cache)        ${fmt(stats(cached))}   target ≤ 100 ms: ${stats(cached).median <= 100 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `  cached, clicked as the link appears  ${fmt(stats(cachedCold))}   (for reference: the list's warm-up not run yet, the code in the HTTP cache)`,
  );
  console.log(`  cached retrieve alone (GET :id/ from Node)  ${fmt(stats(retrieve))}`);
  if (!freshCached.every(Boolean)) console.log('  note: a fresh insight was not in the cache after its open');
} finally {
  await browser?.close();
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
