import { defineConfig } from '@playwright/test';

import { e2eServers, workerServer } from './test/e2e/servers';

// Started by scripts/e2e.mjs, which runs a real reference server per worker and passes their URLs
// and keys. Each worker process loads this file again and takes its own server's URL.
const workers = e2eServers().length;
const baseURL = workerServer().url;

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: false,
  workers,
  forbidOnly: true,
  retries: 0,
  // Two workers share two cores (with traces recorded): a step takes up to twice as long as alone.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    // Recording a trace of every test took the two-worker run from 5.5 to 8 minutes; a run that
    // needs one sets E2E_TRACE=1 (a failure's screenshot and error are kept either way).
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
