/* global document, window, CSS, PopStateEvent, MutationObserver, requestAnimationFrame -- used inside page.evaluate, which runs in the browser */
// In the browser, against a real reference server process: the chart kit with a large trends
// result, 30 series × 366 daily points ($pageview total and daily persons, each broken down by
// the 15 seeded $current_url values, over the last 365 days), measured in the page with
// performance.now(), a MutationObserver and requestAnimationFrame:
//   - open: click on the insight's link in the saved-insights list (the app's cache empty, the
//     result in the server's cache) → its 30 lines painted (the next frame). Target ≤ 300 ms.
//   - switch display: the same result saved with another display (line → bar → cumulative →
//     line …), each insight already in the app's cache: click on a link to the other one → the
//     new chart painted. The builders' display switch without the route change. Target ≤ 100 ms.
//   - legend: a click on a series' legend button → that series' line gone (the next frame).
// The builder routes were not merged when this was written, so it times saved insights' pages.
// Usage: npm run build && node bench/browser-chart.mjs [--runs 20]
//        node bench/browser-chart.mjs --url http://localhost:8312 --key phx_… (a running server; no build, no seed)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { buildIfStale, startServer } from '../scripts/lib.mjs';
import { apiClient, CHROMIUM_ARGS, fmt, stats } from './browser-lib.mjs';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, url: { type: 'string' }, key: { type: 'string' } },
});
const RUNS = Number(args.runs);

let server = null;
let dataDir = null;
if (!args.url) {
  if ((await buildIfStale()) !== 0) process.exit(1);
  dataDir = mkdtempSync(join(tmpdir(), 'bench-chart-'));
  server = await startServer(
    ['--port', '0', '--data-dir', dataDir, '--demo-events', process.env.SEED_EVENTS ?? '200000'],
    {
      env: { ...process.env, LOG_REQUESTS: '0' },
      quiet: true,
    },
  );
}
const url = args.url ?? server.url;
const key = args.key ?? server.key;
const api = apiClient(url, key);

const DISPLAYS = ['ActionsLineGraph', 'ActionsBar', 'ActionsLineGraphCumulative'];
const filters = (display) => ({
  insight: 'TRENDS',
  events: [
    { id: '$pageview', type: 'events', math: 'total' },
    { id: '$pageview', type: 'events', math: 'dau' },
  ],
  breakdown: '$current_url',
  breakdown_limit: 30,
  date_from: '-365d',
  interval: 'day',
  display,
});
/** The chart's marks: one path per series (a line, or all its bars). */
const MARKS = 'svg[role="img"] path[data-series]';

let browser;
try {
  const projects = await api('/api/projects/?limit=100');
  const project = projects.results.find((p) => p.name === 'Hedgebox Web') ?? projects.results[0];
  const base = `/api/projects/${project.id}/insights/`;
  const stamp = Date.now().toString(36);
  const insights = [];
  for (const display of DISPLAYS) {
    const name = `Bench chart ${display} ${stamp}`;
    const created = await api(base, {
      method: 'POST',
      body: JSON.stringify({ name, saved: true, filters: filters(display) }),
    });
    const full = await api(`${base}${created.id}/`); // computes the result once: the runs read the server's cache
    insights.push({ id: created.id, name, series: full.result.length, points: full.result[0]?.data.length ?? 0 });
  }
  const { series, points } = insights[0];

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${url}/projects/${project.id}/insights#key=${key}`);
  await page.getByRole('table', { name: 'Insights' }).waitFor();

  /** Clicks `click` (a function run in the page) and resolves when `done()` holds, at the next frame. */
  const time = (click, done, arg) =>
    page.evaluate(
      ([click, done, arg]) =>
        new Promise((resolve, reject) => {
          const isDone = new Function('arg', `return (${done})(arg)`);
          const timeout = setTimeout(() => reject(new Error('never painted')), 20_000);
          let t0 = 0;
          const observer = new MutationObserver(() => {
            if (!isDone(arg)) return;
            observer.disconnect();
            clearTimeout(timeout);
            requestAnimationFrame(() => resolve(performance.now() - t0));
          });
          observer.observe(document.body, { subtree: true, childList: true, attributes: true });
          t0 = performance.now();
          new Function('arg', `return (${click})(arg)`)(arg);
        }),
      [click.toString(), done.toString(), arg],
    );
  /** The chart of the insight named `arg.name` shows `arg.count` marks. */
  const painted = (arg) =>
    document.querySelectorAll(`figure[aria-label="${CSS.escape(arg.name)}: chart"] :is(${arg.marks})`).length ===
    arg.count;
  const clickLink = (arg) => [...document.querySelectorAll('table a')].find((a) => a.textContent === arg.name).click();
  /** A client-side navigation (the router follows the history), as the builders' display switch re-renders in place. */
  const go = (arg) => {
    window.history.pushState({}, '', arg.href);
    window.dispatchEvent(new PopStateEvent('popstate'));
  };
  const hrefOf = (id) => `/projects/${project.id}/insights/${id}`;

  // Open: the list (the app's cache empty) → the insight's chart.
  const open = [];
  for (let run = 0; run < RUNS; run++) {
    const { name } = insights[0];
    await page.goto(`${url}/projects/${project.id}/insights?search=${encodeURIComponent(name)}`);
    await page.getByRole('table', { name: 'Insights' }).getByRole('link', { name, exact: true }).waitFor();
    open.push(await time(clickLink, painted, { name, marks: MARKS, count: series }));
    await page.waitForLoadState('networkidle');
  }

  // Switch display: the same result in each display, every insight already in the app's cache.
  for (const insight of insights) {
    await page.evaluate(go, { href: hrefOf(insight.id) });
    await page
      .locator(`figure[aria-label="${insight.name}: chart"] :is(${MARKS})`)
      .nth(series - 1)
      .waitFor();
    await page.waitForLoadState('networkidle');
  }
  const switches = [];
  for (let run = 0; run < RUNS; run++) {
    const next = insights[(run + 1) % insights.length];
    switches.push(await time(go, painted, { href: hrefOf(next.id), name: next.name, marks: MARKS, count: series }));
    await page.waitForLoadState('networkidle');
  }

  // Legend: hide the first series, then show it again.
  const last = insights[RUNS % insights.length];
  const legend = [];
  for (let run = 0; run < RUNS; run++) {
    const hide = run % 2 === 0;
    legend.push(
      await time(
        () => document.querySelector('figure[data-insight-chart] ul[aria-label="Series"] button').click(),
        painted,
        { name: last.name, marks: MARKS, count: hide ? series - 1 : series },
      ),
    );
  }

  console.log(`chart kit, ${series} series × ${points} points (trends, saved insights' pages), ${RUNS} runs each`);
  console.log(
    `  open (list click → 30 lines painted)      ${fmt(stats(open))}   target ≤ 300 ms: ${stats(open).median <= 300 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `  switch display (line → bar → cumulative)  ${fmt(stats(switches))}   target ≤ 100 ms: ${stats(switches).median <= 100 ? 'ok' : 'MISSED'}`,
  );
  console.log(`  legend toggle (one series hidden/shown)   ${fmt(stats(legend))}`);
  for (const { id } of insights)
    await api(`${base}${id}/`, { method: 'PATCH', body: JSON.stringify({ deleted: true }) });
} finally {
  await browser?.close();
  server?.child.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
