import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIfStale, startServer } from '../scripts/lib.mjs';
// What the browser benchmarks share: Chromium's flags (those of playwright.config.ts), a JSON
// client of the API with the bench's key, and the summary of a series of timings.

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** `api(path, init)` → the JSON answer of the server at `url`, as `key`; throws on a non-2xx. */
export function apiClient(url, key) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return async (path, init = {}) => {
    const response = await fetch(`${url}${path}`, { ...init, headers });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
}

export const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { median: at(50), p95: at(95), max: sorted[sorted.length - 1] };
};

export const fmt = ({ median, p95, max }) =>
  `median ${median.toFixed(1)}  p95 ${p95.toFixed(1)}  max ${max.toFixed(1)} ms`;

/**
 * A fresh data dir for a bench's server: empty (the server seeds it), or a copy of `from`, a
 * data dir seeded earlier (`--from`: the 1M seed takes minutes; the copy keeps `from` pristine).
 */
export function benchDataDir(prefix, from) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (from) cpSync(from, dir, { recursive: true });
  return dir;
}

/**
 * A reference server on a free port with `dataDir`, serving the app of `dist` (`--dist`: another
 * build, as is) or else dist/, built first when its sources are newer. `env` adds to the process's.
 */
export async function startAppServer({ dist, dataDir, env = {} }) {
  if (!dist && (await buildIfStale()) !== 0) process.exit(1);
  return startServer(['--port', '0', '--data-dir', dataDir, ...(dist ? ['--static-dir', dist] : [])], {
    env: { ...process.env, LOG_REQUESTS: '0', ...env },
    quiet: true,
  });
}
