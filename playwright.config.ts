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
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
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
