// End-to-end tests: the built app and real reference server processes, each on a free port with
// its own temporary data directory, driven by Playwright in Debian's Chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRecordsDnsServer } from './e2e-dns.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { bin, buildIfStale, run, startServer } from './lib.mjs';

// E2E_DIST_DIR: test an app already built elsewhere (`vite build --outDir X`) instead of dist/.
const distDir = process.env.E2E_DIST_DIR;
// Playwright runs this many test files at once (E2E_WORKERS), each worker against a server of its
// own, so no test sees what another worker's tests changed. One worker left the second core
// mostly idle (the browser waits on the server and the server on the browser): two run the suite
// in 5.5 minutes instead of 9 on this 2-core machine.
const workers = Math.max(1, Number(process.env.E2E_WORKERS) || 2);
let code = await ensureChromium();
if (code === 0 && !distDir) code = await buildIfStale();
if (code !== 0) process.exit(code);

/**
 * One worker's server. Domain verification looks up TXT records on a loopback DNS server of its
 * own; tests publish them in its file. The batch-export test runs its HTTP receiver on loopback:
 * the one private host allowed here. The builders are tested on the demo's real events: 200,000
 * over 90 days (every chart has data on every day) seed in about 6 s; the engine and the builder
 * at 1,000,000 and past it are measured by bench/ instead.
 */
async function startWorkerServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'dashboard-e2e-'));
  const dnsRecords = join(dataDir, 'dns-records.json');
  const dns = await startRecordsDnsServer(dnsRecords);
  const { child, url, key } = await startServer(
    [
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--allow-destination',
      '127.0.0.1',
      ...(distDir ? ['--static-dir', distDir] : []),
    ],
    {
      env: {
        ...process.env,
        LOG_REQUESTS: '0',
        SEED_EVENTS: process.env.SEED_EVENTS ?? '200000',
        DNS_SERVER: dns.address,
      },
      quiet: true,
    },
  );
  console.log(`e2e: reference server at ${url} with data in ${dataDir}`);
  return {
    url,
    key,
    dataDir,
    dnsRecords,
    async close() {
      child.kill('SIGTERM');
      await dns.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// One after the other: each first start seeds on every core it can get.
const servers = [];
try {
  for (let i = 0; i < workers; i += 1) servers.push(await startWorkerServer());
  code = await run(bin('playwright'), ['test', ...process.argv.slice(2)], {
    env: {
      ...process.env,
      E2E_SERVERS: JSON.stringify(
        servers.map(({ url, key, dataDir, dnsRecords }) => ({ url, key, dataDir, dnsRecords })),
      ),
    },
  });
} finally {
  await Promise.all(servers.map((server) => server.close()));
}
process.exit(code);
