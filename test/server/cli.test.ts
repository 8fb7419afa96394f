import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { openStore, storeFile } from '../../server/store/store.ts';
import { makeTempDir, type AnyJson } from './helpers.ts';
import { runCli } from './processes.ts';

const dir = makeTempDir('ref-cli-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  expect(runCli(['seed', '--data-dir', dir])).toMatchObject({ status: 0 });
});

/** Asks a fresh app on the data dir (as the running server would) what a key may do. */
async function call(key: string, path = '/api/organizations/') {
  const store = openStore(storeFile(dir));
  try {
    const res = await createApp({ store }).request(path, { headers: { Authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, AnyJson> };
  } finally {
    store.close();
  }
}

describe('key CLI', () => {
  let keyId = '';
  let key = '';

  it('key create prints the key alone on the only stdout line, and the key authenticates', async () => {
    const r = runCli([
      'key',
      'create',
      '--label',
      'ci bot',
      '--scopes',
      'organization:read,plugin:write',
      '--data-dir',
      dir,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    key = lines[0]!;
    expect(key).toMatch(/^phx_[A-Za-z0-9]{40}$/);
    const me = await call(key, '/api/personal_api_keys/@current/');
    expect(me.body).toMatchObject({
      label: 'ci bot',
      scopes: ['organization:read', 'plugin:write'],
      scoped_organizations: null,
    });
    keyId = me.body.id as string;
    expect((await call(key)).status).toBe(200);
  });

  it('--organization limits the key', async () => {
    const orgs = (await call(key)).body.results as { id: string; name: string }[];
    const hedgebox = orgs.find((o) => o.name === 'Hedgebox')!;
    const r = runCli([
      'key',
      'create',
      '--label',
      'scoped',
      '--scopes',
      '*',
      '--organization',
      hedgebox.id,
      '--data-dir',
      dir,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const scoped = await call(r.stdout.trim());
    expect(scoped.body.results.map((o: { id: string }) => o.id)).toEqual([hedgebox.id]);
  });

  it('key list shows id, label, mask and scopes, never a key', () => {
    const r = runCli(['key', 'list', '--data-dir', dir]);
    expect(r.status).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith(keyId))!;
    expect(row).toContain('ci bot');
    expect(row).toContain(`phx_…${key.slice(-4)}`);
    expect(row).toContain('organization:read,plugin:write');
    expect(r.stdout).not.toContain(key);
  });

  it('key revoke makes the key 401', async () => {
    const r = runCli(['key', 'revoke', keyId, '--data-dir', dir]);
    expect(r.status, r.stderr).toBe(0);
    const res = await call(key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('authentication_failed');
  });

  it('bad scopes, unknown keys and unknown organizations fail with a clear message', () => {
    const bad = runCli([
      'key',
      'create',
      '--label',
      'x',
      '--scopes',
      'organization:read,everything:write',
      '--data-dir',
      dir,
    ]);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain("unknown scope 'everything:write'");
    expect(runCli(['key', 'revoke', 'nope', '--data-dir', dir]).stderr).toContain("no key with id 'nope'");
    const org = runCli([
      'key',
      'create',
      '--label',
      'x',
      '--scopes',
      '*',
      '--organization',
      'missing',
      '--data-dir',
      dir,
    ]);
    expect(org.status).not.toBe(0);
    expect(org.stderr).toContain("no organization with id 'missing'");
  });
});

describe('seed progress', () => {
  it('a first seed says how far it has come: events written of all, and the time left, then the total', () => {
    const fresh = makeTempDir('ref-cli-seed-');
    try {
      // Not a terminal (a pipe): one line per step here, as the interval is 0.
      const r = runCli(['seed', '--data-dir', fresh], { SEED_EVENTS: '20000', SEED_PROGRESS_EVERY_MS: '0' });
      expect(r.status, r.stderr).toBe(0);
      const steps = [
        ...r.stderr.matchAll(/^seeding demo events: ([\d,]+) of ([\d,]+) written \((\d+)%\), (.+)$/gm),
      ].map((m) => ({
        written: Number(m[1]!.replaceAll(',', '')),
        total: Number(m[2]!.replaceAll(',', '')),
        left: m[4]!,
      }));
      expect(steps.length).toBeGreaterThan(3);
      expect(steps[0]).toMatchObject({ written: 0, left: 'estimating the time left' });
      expect(steps.some((s) => /^about \d+ s left$/.test(s.left))).toBe(true);
      const written = steps.map((s) => s.written);
      expect(written).toEqual([...written].sort((a, b) => a - b));
      const total = steps[0]!.total;
      expect(steps.at(-1)).toMatchObject({ written: total, left: 'finishing' });
      expect(r.stderr).toMatch(new RegExp(`^seeded ${total} demo events for \\d+ persons in [\\d.]+ s$`, 'm'));
      // No terminal control characters in a log.
      expect(r.stderr).not.toContain('\r');
      expect(r.stderr).not.toContain('\x1b');
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});
