// End-to-end tests: the built app and a real reference server process on a free port with its
// own temporary data directory, driven by Playwright in Debian's Chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRecordsDnsServer } from './e2e-dns.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { bin, buildIfStale, run, startServer } from './lib.mjs';

// E2E_DIST_DIR: test an app already built elsewhere (`vite build --outDir X`) instead of dist/.
const distDir = process.env.E2E_DIST_DIR;
let code = await ensureChromium();
if (code === 0 && !distDir) code = await buildIfStale();
if (code !== 0) process.exit(code);

const dataDir = mkdtempSync(join(tmpdir(), 'dashboard-e2e-'));
// Domain verification looks up TXT records on this loopback DNS server; tests publish them in the file.
const dnsRecords = join(dataDir, 'dns-records.json');
const dns = await startRecordsDnsServer(dnsRecords);
// The batch-export test runs its HTTP receiver on loopback: the one private host allowed here.
// The builders are tested on the demo's real events: 200,000 over 90 days (every chart has data
// on every day) seed in about 6 s; a first start's 1,000,000 took 30 s of the suite's time, and
// the engine and the builder at that size and past it are measured by bench/ instead.
const { child, url, key } = await startServer(['--port', '0', '--data-dir', dataDir, '--allow-destination', '127.0.0.1', ...(distDir ? ['--static-dir', distDir] : [])], {
  env: { ...process.env, LOG_REQUESTS: '0', SEED_EVENTS: process.env.SEED_EVENTS ?? '200000', DNS_SERVER: dns.address },
  quiet: true,
});
console.log(`e2e: reference server at ${url} with data in ${dataDir}`);
try {
  code = await run(bin('playwright'), ['test', ...process.argv.slice(2)], {
    env: { ...process.env, E2E_BASE_URL: url, E2E_DEMO_KEY: key, E2E_DATA_DIR: dataDir, E2E_DNS_RECORDS: dnsRecords },
  });
} finally {
  child.kill('SIGTERM');
  await dns.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
