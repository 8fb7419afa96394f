import fs from 'node:fs';
import path from 'node:path';
import { createEventStore, eventStoreFile, type EventStore } from './analytics/store/event-store.ts';
import { seed } from './seed/seed.ts';
import { openStore, storeFile, type Store } from './store/store.ts';

export const demoKeyFile = (dataDir: string) => path.join(dataDir, 'demo-key');

/**
 * The data dir holds tokens, key hashes and destination secrets: the directory is 0700 and
 * its files 0600 (made so, and fixed on every open of an older dir). Processes of the CLI also
 * run with umask 077, so files made later (DuckDB's WAL, spill files) are private too.
 */
export function makePrivateDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
}

/** chmod 0600 every regular file directly in `dataDir`. */
export function privateFiles(dataDir: string): void {
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isFile()) fs.chmodSync(path.join(dataDir, entry.name), 0o600);
  }
}

export interface DataDir {
  store: Store;
  /**
   * `<dataDir>/events.duckdb`, opened on first use (commands that never touch events never
   * open it); close it with `await events.close()`. Demo events: `ensureDemoEvents` (seed/events.ts).
   */
  events: EventStore;
  demoKey: string | null;
  seeded: boolean;
}

/**
 * Opens `<dataDir>/store.sqlite`, creating the directory and seeding the demo data on first
 * use; the demo key's plaintext is kept in `<dataDir>/demo-key` (mode 0600) so every start
 * can print the sign-in link. Returns the key, or null when the file is gone. The seed's
 * dates are relative to `now` (default: the current time).
 */
export function openDataDir(dataDir: string, options: { now?: Date } = {}): DataDir {
  makePrivateDir(dataDir);
  const store = openStore(storeFile(dataDir));
  privateFiles(dataDir);
  const events = createEventStore(eventStoreFile(dataDir));
  const file = demoKeyFile(dataDir);
  if (store.isEmpty()) {
    const { demoKey } = seed(store, options);
    fs.writeFileSync(file, `${demoKey}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    return { store, events, demoKey, seeded: true };
  }
  let demoKey: string | null = null;
  try {
    demoKey = fs.readFileSync(file, 'utf8').trim() || null;
  } catch {
    demoKey = null;
  }
  return { store, events, demoKey, seeded: false };
}
