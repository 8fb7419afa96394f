import { afterAll, beforeAll } from 'vitest';
import { startTxtDnsServer, type TxtDnsServer } from '../../scripts/txt-dns-server.mjs';

/**
 * A loopback DNS server for this test file, set as the reference server's `DNS_SERVER` while the
 * file runs: the returned map (lower-case name → TXT values) is what it answers; anything else
 * is NXDOMAIN.
 */
export function txtRecordsForThisFile(): Map<string, string[]> {
  const records = new Map<string, string[]>();
  let dns: TxtDnsServer;
  beforeAll(async () => {
    dns = await startTxtDnsServer((name) => records.get(name));
    process.env.DNS_SERVER = dns.address;
  });
  afterAll(async () => {
    delete process.env.DNS_SERVER;
    await dns.close();
  });
  return records;
}
