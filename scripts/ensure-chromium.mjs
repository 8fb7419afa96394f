// Browser tests use Debian's Chromium, never a downloaded browser. Installs it when missing
// and running as root; otherwise fails with the command to run.
import { existsSync } from 'node:fs';
import { run } from './lib.mjs';

export const CHROMIUM = '/usr/bin/chromium';

export async function ensureChromium() {
  if (existsSync(CHROMIUM)) return 0;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium is missing at ${CHROMIUM}. Install Debian's package, then run the tests again:\n  sudo apt-get update && sudo apt-get install -y chromium`,
    );
    return 1;
  }
  console.log(`Chromium is missing at ${CHROMIUM}: installing Debian's chromium package…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const updated = await run('apt-get', ['update', '-qq'], { env });
  if (updated !== 0) return updated;
  return run('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-liberation'], { env });
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await ensureChromium());
