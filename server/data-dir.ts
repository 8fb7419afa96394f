import fs from 'node:fs';
import path from 'node:path';
import { createEventStore, eventStoreFile, type EventStore } from './analytics/event-store.ts';
import { seed } from './seed/seed.ts';
import { openStore, storeFile, type Store } from './store/store.ts';

export const demoKeyFile = (dataDir: string) => path.join(dataDir, 'demo-key');

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
 * can print the sign-in link. Returns the key, or null when the file is gone.
 */
export function openDataDir(dataDir: string): DataDir {
  fs.mkdirSync(dataDir, { recursive: true });
  const store = openStore(storeFile(dataDir));
  const events = createEventStore(eventStoreFile(dataDir));
  const file = demoKeyFile(dataDir);
  if (store.isEmpty()) {
    const { demoKey } = seed(store);
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
