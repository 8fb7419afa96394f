import fs from 'node:fs';
import path from 'node:path';
import { seed } from './seed/seed.ts';
import { openStore, storeFile, type Store } from './store/store.ts';

export const demoKeyFile = (dataDir: string) => path.join(dataDir, 'demo-key');

/**
 * Opens `<dataDir>/store.sqlite`, creating the directory and seeding the demo data on first
 * use; the demo key's plaintext is kept in `<dataDir>/demo-key` (mode 0600) so every start
 * can print the sign-in link. Returns the key, or null when the file is gone.
 */
export function openDataDir(dataDir: string): { store: Store; demoKey: string | null; seeded: boolean } {
  fs.mkdirSync(dataDir, { recursive: true });
  const store = openStore(storeFile(dataDir));
  const file = demoKeyFile(dataDir);
  if (store.isEmpty()) {
    const { demoKey } = seed(store);
    fs.writeFileSync(file, `${demoKey}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    return { store, demoKey, seeded: true };
  }
  let demoKey: string | null = null;
  try {
    demoKey = fs.readFileSync(file, 'utf8').trim() || null;
  } catch {
    demoKey = null;
  }
  return { store, demoKey, seeded: false };
}
