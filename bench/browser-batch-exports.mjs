/* global document, MutationObserver, requestAnimationFrame -- used inside page.evaluate, which runs in the browser */
// In the browser, against a real reference server process (fresh seeded data dir, free port):
//  1. pause latency: from the click on a row's switch to the row showing "Paused" (DOM change,
//     then the next animation frame), measured in the page with performance.now(), a
//     MutationObserver and requestAnimationFrame. Target: the next frame, ≤ 50 ms.
//  2. list page render with 1,000 exports in the store (created through the API first): from the
//     click on "Next" to the new page's rows in the DOM (server fetch included), and from
//     "Previous" back to a page already in the cache. Target ≤ 200 ms.
// Playwright with Debian's /usr/bin/chromium and the flags of playwright.config.ts.
// Usage: node bench/browser-batch-exports.mjs [--exports 1000] [--runs 20]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { buildIfStale, startServer } from '../scripts/lib.mjs';
import { apiClient, CHROMIUM_ARGS, fmt, stats } from './browser-lib.mjs';

const { values: args } = parseArgs({
  options: { exports: { type: 'string', default: '1000' }, runs: { type: 'string', default: '20' } },
});
const TARGET_EXPORTS = Number(args.exports);
const RUNS = Number(args.runs);

if ((await buildIfStale()) !== 0) process.exit(1);
const dataDir = mkdtempSync(join(tmpdir(), 'bench-batch-exports-'));
const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir], {
  env: { ...process.env, LOG_REQUESTS: '0', SEED_EVENTS: process.env.SEED_EVENTS ?? '0' },
  quiet: true,
});
const api = apiClient(url, key);

let browser;
try {
  // The seeded organization with the demo exports, filled up to TARGET_EXPORTS.
  const organizations = await api('/api/organizations/?limit=100');
  let organization = null;
  for (const candidate of organizations.results) {
    if ((await api(`/api/organizations/${candidate.id}/batch_exports/?limit=1`)).count > 0) organization = candidate;
    if (organization) break;
  }
  organization ??= organizations.results[0];
  const base = `/api/organizations/${organization.id}/batch_exports/`;
  let count = (await api(`${base}?limit=1`)).count;
  const started = performance.now();
  const toCreate = Math.max(0, TARGET_EXPORTS - count);
  for (let i = 0; i < toCreate; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, toCreate - i) }, (_, j) =>
        api(base, {
          method: 'POST',
          body: JSON.stringify({
            name: `Bench export ${String(i + j).padStart(4, '0')}`,
            interval: 'day',
            paused: false,
            destination: { type: 'NoOp', config: {} },
          }),
        }),
      ),
    );
  }
  count = (await api(`${base}?limit=1`)).count;
  console.log(
    `${count} batch exports in the store (${toCreate} created in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const listPath = `/organizations/${organization.id}/batch-exports`;

  // --- 1. pause latency -------------------------------------------------------------------
  await page.goto(`${url}${listPath}?pageSize=100#key=${key}`);
  await page.getByRole('table', { name: 'Batch exports' }).waitFor();
  const mutation = [];
  const frame = [];
  for (let run = 0; run < RUNS; run++) {
    const result = await page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const toggle = [...document.querySelectorAll('[role="switch"][aria-checked="true"]')].find(
            (el) => !el.disabled,
          );
          if (!toggle) return reject(new Error('no active export on the page'));
          const state = toggle.closest('tr').querySelector('[data-column="state"]');
          const timeout = setTimeout(() => reject(new Error('the row never showed "Paused"')), 5000);
          let t0 = 0;
          const observer = new MutationObserver(() => {
            if (!state.textContent.includes('Paused')) return;
            const changed = performance.now() - t0;
            observer.disconnect();
            clearTimeout(timeout);
            // The frame that shows the change: the next requestAnimationFrame callback runs before its paint.
            requestAnimationFrame(() =>
              resolve({ id: toggle.closest('tr').dataset.batchExportId, changed, frame: performance.now() - t0 }),
            );
          });
          observer.observe(state, { subtree: true, childList: true, characterData: true });
          t0 = performance.now();
          toggle.click();
        }),
    );
    mutation.push(result.changed);
    frame.push(result.frame);
    // Let the server answer and the list refetch before the next click.
    await page.waitForLoadState('networkidle');
  }
  console.log(`pause click → row shows "Paused" (${RUNS} runs, page of 100 rows)`);
  console.log(`  DOM updated     ${fmt(stats(mutation))}`);
  console.log(`  next frame      ${fmt(stats(frame))}`);
  console.log(`  target next frame ≤ 50 ms: ${stats(frame).p95 <= 50 ? 'ok' : 'MISSED'}`);

  // --- 2. list page render with the store full --------------------------------------------
  for (const pageSize of [20, 100]) {
    await page.goto(`${url}${listPath}?pageSize=${pageSize}`);
    await page.getByRole('table', { name: 'Batch exports' }).waitFor();
    const fetched = [];
    const cached = [];
    const pages = Math.min(RUNS, Math.floor(count / pageSize) - 1);
    for (let n = 1; n <= pages; n++) {
      const measure = (button, expected) =>
        page.evaluate(
          ({ button, expected }) =>
            new Promise((resolve, reject) => {
              const nav = document.querySelector('nav[aria-label="Batch exports pages"]');
              const timeout = setTimeout(() => reject(new Error(`never showed ${expected}`)), 10_000);
              const t0 = performance.now();
              const check = () => {
                const text = document.querySelector('nav[aria-label="Batch exports pages"] p')?.textContent ?? '';
                const rows = document.querySelectorAll('table tbody tr').length;
                if (text.startsWith(expected) && rows > 0) {
                  observer.disconnect();
                  clearTimeout(timeout);
                  const changed = performance.now() - t0;
                  requestAnimationFrame(() => resolve({ changed, frame: performance.now() - t0 }));
                }
              };
              const observer = new MutationObserver(check);
              observer.observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true });
              [...nav.querySelectorAll('button')].find((b) => b.textContent.trim() === button).click();
            }),
          { button, expected },
        );
      fetched.push((await measure('Next', `${n * pageSize + 1}–`)).frame);
      cached.push((await measure('Previous', `${(n - 1) * pageSize + 1}–`)).frame);
      await measure('Next', `${n * pageSize + 1}–`);
    }
    console.log(`list page of ${pageSize} with ${count} exports in the store (${pages} pages, click → rows painted)`);
    console.log(`  new page (server fetch + render)  ${fmt(stats(fetched))}`);
    console.log(`  page in the cache (render)        ${fmt(stats(cached))}`);
    console.log(`  target ≤ 200 ms: ${stats(fetched).p95 <= 200 ? 'ok' : 'MISSED'}`);
  }
} finally {
  await browser?.close();
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
