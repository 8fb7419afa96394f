/* global document, window, MutationObserver, requestAnimationFrame -- used inside page.evaluate, which runs in the browser */
// In the browser, against a real reference server process whose first organization has 5,000
// members (users and memberships written straight into its SQLite store), measured in the page
// with performance.now(), a MutationObserver and requestAnimationFrame:
//   - first page: a click on the sidebar's "Members" (app loaded, members not in its cache) →
//     the first page of rows painted (the next frame). Target ≤ 200 ms.
//   - search: one keystroke in the search box → the rows of the new answer painted (the URL
//     changes, the server searches 5,000 members, the table re-renders). Target ≤ 100 ms.
// Usage: node bench/browser-members.mjs [--runs 15] [--members 5000] [--dist /tmp/dist-x]
//        (--dist: an app built elsewhere with `vite build --outDir`; else dist/, built if stale)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';
import { apiClient, CHROMIUM_ARGS, fmt, startAppServer, stats } from './browser-lib.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    members: { type: 'string', default: '5000' },
    dist: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const MEMBERS = Number(args.members);

const dataDir = mkdtempSync(join(tmpdir(), 'bench-members-'));
const { child, url, key } = await startAppServer({ dist: args.dist, dataDir, env: { SEED_EVENTS: '0' } });
const api = apiClient(url, key);

let browser;
try {
  const organization = (await api('/api/organizations/?limit=100')).results.find((o) => o.name === 'Hedgebox');
  // Users m00000@bench.example … with memberships, in one transaction (the server sees the commit at once).
  const db = new Database(join(dataDir, 'store.sqlite'));
  const started = performance.now();
  db.transaction(() => {
    const user = db.prepare(`INSERT INTO users (uuid, distinct_id, first_name, last_name, email, created_at)
      VALUES (lower(hex(randomblob(16))), lower(hex(randomblob(16))), ?, ?, ?, ?)`);
    const member = db.prepare(
      'INSERT INTO memberships (id, organization_id, user_id, level, joined_at, updated_at) VALUES (lower(hex(randomblob(16))), ?, ?, ?, ?, ?)',
    );
    const at = new Date().toISOString();
    for (let i = 0; i < MEMBERS; i++) {
      const n = String(i).padStart(5, '0');
      const id = user.run(`Member${n}`, `Bench${n}`, `m${n}@bench.example`, at).lastInsertRowid;
      member.run(organization.id, id, i % 50 === 0 ? 8 : 1, at, at);
    }
  })();
  db.close();
  const total = (await api(`/api/organizations/${organization.id}/members/?limit=1`)).count;
  console.log(
    `${total} members in ${organization.name} (inserted in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${url}/organizations/${organization.id}#key=${key}`);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();

  // --- 1. first page painted ----------------------------------------------------------------
  const first = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`${url}/organizations/${organization.id}`);
    await page.getByRole('link', { name: 'Members' }).waitFor();
    await page.waitForLoadState('networkidle');
    first.push(
      await page.evaluate(
        () =>
          new Promise((resolve, reject) => {
            const timeout = setTimeout(() => reject(new Error('the members table never showed')), 10_000);
            const t0 = performance.now();
            const observer = new MutationObserver(() => {
              if (!document.querySelector('table tbody tr [aria-label^="Level of"]')) return;
              observer.disconnect();
              clearTimeout(timeout);
              requestAnimationFrame(() => resolve(performance.now() - t0));
            });
            observer.observe(document.body, { subtree: true, childList: true });
            [...document.querySelectorAll('a')].find((a) => a.textContent.trim() === 'Members').click();
          }),
      ),
    );
  }
  console.log(
    `sidebar "Members" click → first page of 20 rows painted (${RUNS} runs, ${total} members, app cache empty)`,
  );
  console.log(
    `  ${fmt(stats(first))}   target ≤ 200 ms (median, as the other browser benches): ${stats(first).median <= 200 ? 'ok' : 'MISSED'}`,
  );

  // --- 2. search keystroke → rows -----------------------------------------------------------
  const search = [];
  const box = page.getByRole('searchbox', { name: 'Search members by name or email' });
  for (let run = 0; run < RUNS; run++) {
    const term = `m0${String(10 + run).padStart(3, '0')}`; // m0010 → m00100…m00109 (10 rows)
    await box.fill(term.slice(0, -1));
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(100);
    search.push(
      await page.evaluate(
        (term) =>
          new Promise((resolve, reject) => {
            const input = document.querySelector('input[type="search"]');
            const timeout = setTimeout(() => reject(new Error(`rows never matched ${term}`)), 10_000);
            const matches = () => {
              const rows = [...document.querySelectorAll('table tbody tr')];
              return rows.length > 0 && rows.every((row) => row.textContent.includes(`${term}`));
            };
            const observer = new MutationObserver(() => {
              if (!matches()) return;
              observer.disconnect();
              clearTimeout(timeout);
              requestAnimationFrame(() => resolve(performance.now() - t0));
            });
            observer.observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true });
            const t0 = performance.now();
            // A keystroke as React sees it: the native value setter, then an input event.
            Object.getOwnPropertyDescriptor(window.HTMLInputElement.prototype, 'value').set.call(input, term);
            input.dispatchEvent(new Event('input', { bubbles: true }));
          }),
        term,
      ),
    );
  }
  console.log(`search keystroke → matching rows painted (${RUNS} runs, ${total} members searched by the server)`);
  console.log(`  ${fmt(stats(search))}   target ≤ 100 ms (median): ${stats(search).median <= 100 ? 'ok' : 'MISSED'}`);
} finally {
  await browser?.close();
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
