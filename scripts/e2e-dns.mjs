// The e2e run's DNS server: it answers TXT questions from a JSON file of
// `{ "<name>": ["<value>", …] }` read on every question, so a test publishes a record by writing
// the file (E2E_DNS_RECORDS) and the reference server (DNS_SERVER) sees it at once.
import { readFileSync, writeFileSync } from 'node:fs';
import { startTxtDnsServer } from './txt-dns-server.mjs';

export async function startRecordsDnsServer(recordsFile) {
  writeFileSync(recordsFile, '{}');
  return startTxtDnsServer((name) => {
    try {
      return JSON.parse(readFileSync(recordsFile, 'utf8'))[name];
    } catch {
      return undefined;
    }
  });
}
