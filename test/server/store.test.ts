import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoKeyFile, openDataDir } from '../../server/data-dir.ts';
import { migrate, migrations } from '../../server/store/migrations.ts';
import { openStore, storeFile } from '../../server/store/store.ts';
import { makeTempDir } from './helpers.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = makeTempDir();
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('store', () => {
  it('uses WAL, synchronous=FULL and foreign keys', () => {
    const store = openStore(storeFile(tempDir()));
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    store.close();
  });

  it('applies each migration once and records it', () => {
    const file = storeFile(tempDir());
    const store = openStore(file);
    const versions = store.db.prepare('SELECT version FROM schema_migrations').pluck().all();
    expect(versions).toEqual(migrations.map((m) => m.version));
    expect(migrate(store.db)).toEqual([]);
    store.close();
    const again = openStore(file);
    expect(again.db.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get()).toBe(migrations.length);
    again.close();
  });

  it("gives plugin activity written before version 8 its plugin's group", () => {
    const dir = tempDir();
    const { store } = openDataDir(dir);
    const plugins = store.db.prepare('SELECT id, grp FROM plugins ORDER BY id').all() as { id: number; grp: string }[];
    expect(new Set(plugins.map((p) => p.grp)).size).toBe(3);
    // as a data dir from before version 8 has them: no type, and 8 not applied
    store.db.exec("UPDATE activity_log SET detail = json_remove(detail, '$.type') WHERE scope = 'Plugin'");
    store.db
      .prepare(
        'INSERT INTO activity_log (id, organization_id, project_id, scope, item_id, activity, detail, user_id, created_at) VALUES (?, ?, NULL, ?, ?, ?, ?, NULL, ?)',
      )
      .run(
        'gone-1',
        store.db.prepare('SELECT id FROM organizations LIMIT 1').pluck().get(),
        'Plugin',
        '99999',
        'uninstalled',
        JSON.stringify({ name: 'Gone', changes: null }),
        new Date().toISOString(),
      );
    store.db.exec('DELETE FROM schema_migrations WHERE version = 8');
    expect(migrate(store.db)).toEqual([8]);
    const typed = store.db
      .prepare("SELECT item_id, json_extract(detail, '$.type') AS type FROM activity_log WHERE scope = 'Plugin'")
      .all() as { item_id: string; type: string | null }[];
    const groupOf = new Map(plugins.map((p) => [String(p.id), p.grp]));
    for (const row of typed) expect(row.type, row.item_id).toBe(groupOf.get(row.item_id) ?? null);
    expect(typed.filter((r) => r.type !== null)).toHaveLength(plugins.length);
    store.close();
  });

  it('runs a new migration on an existing store, once', () => {
    const store = openStore(storeFile(tempDir()));
    const extra = [
      ...migrations,
      { version: 999, name: 'test', sql: 'CREATE TABLE later_thing (id INTEGER PRIMARY KEY)' },
    ];
    expect(migrate(store.db, extra)).toEqual([999]);
    expect(migrate(store.db, extra)).toEqual([]);
    store.close();
  });
});

describe('seed', () => {
  it('is deterministic apart from what identifies or authorises, and writes the key with mode 0600', () => {
    // Ids, user uuids and project tokens are random per data directory (test/server/install-identity.test.ts).
    const RANDOM = new Set(['id', 'uuid', 'distinct_id', 'api_token', 'organization_id']);
    // One clock for both: seeded dates are whole minutes before `now`, and two seeds either side of a minute differ.
    const now = new Date();
    const snapshot = (dir: string) => {
      const { store, demoKey, seeded } = openDataDir(dir, { now });
      expect(seeded).toBe(true);
      const data = [
        ['users', 'email'],
        ['organizations', 'name'],
        ['memberships', 'user_id, level, joined_at'],
        ['projects', 'name'],
      ].map(([t, order]) =>
        (store.db.prepare(`SELECT * FROM ${t!} ORDER BY ${order!}`).all() as Record<string, unknown>[]).map((row) =>
          Object.fromEntries(Object.entries(row).filter(([k]) => !(RANDOM.has(k) && typeof row[k] === 'string'))),
        ),
      );
      store.close();
      return { data, demoKey };
    };
    const a = tempDir();
    const b = tempDir();
    const first = snapshot(a);
    const second = snapshot(b);
    expect(first.data).toEqual(second.data);
    expect(first.demoKey).not.toEqual(second.demoKey);
    expect(first.demoKey).toMatch(/^phx_[A-Za-z0-9]{40}$/);
    expect(fs.readFileSync(demoKeyFile(a), 'utf8').trim()).toBe(first.demoKey);
    expect(fs.statSync(demoKeyFile(a)).mode & 0o777).toBe(0o600);
    const [users, organizations] = first.data;
    expect(users!.length).toBeGreaterThanOrEqual(7);
    expect(organizations).toHaveLength(2);
  });

  it('does not seed a store that holds data', () => {
    const dir = tempDir();
    openDataDir(dir).store.close();
    const again = openDataDir(dir);
    expect(again.seeded).toBe(false);
    expect(again.demoKey).toMatch(/^phx_/);
    expect(again.store.db.prepare('SELECT COUNT(*) FROM organizations').pluck().get()).toBe(2);
    again.store.close();
    expect(fs.existsSync(path.join(dir, 'store.sqlite'))).toBe(true);
  });
});
