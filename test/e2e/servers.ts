/** A reference server that scripts/e2e.mjs started for one Playwright worker. */
export interface E2eServer {
  url: string;
  /** The seeded demo key (scope `*`). */
  key: string;
  /** Its data directory (the CLI's `--data-dir`; sent mail lands in `mail/`). */
  dataDir: string;
  /** The JSON file its DNS server answers TXT questions from. */
  dnsRecords: string;
}

export function e2eServers(): E2eServer[] {
  const servers = process.env.E2E_SERVERS;
  if (!servers) throw new Error('Run the e2e tests with `npm run test:e2e` (it starts the servers).');
  return JSON.parse(servers) as E2eServer[];
}

/**
 * This worker's server. Playwright numbers the workers running at once 0…workers-1
 * (TEST_PARALLEL_INDEX, also for a worker that replaces a failed one); the main process, which
 * runs no test, gets the first.
 */
export function workerServer(): E2eServer {
  const servers = e2eServers();
  return servers[Number(process.env.TEST_PARALLEL_INDEX ?? 0) % servers.length]!;
}
