import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openDataDir } from '../../server/data-dir.ts';
import { hashKey } from '../../server/store/secrets.ts';
import { openStore, storeFile } from '../../server/store/store.ts';
import { makeTempDir } from './helpers.ts';

// The server memoises hot reads; what another process writes (the `key` CLI, a second server)
// must still be seen on the very next request: a request is handled in a later turn of the event
// loop than the commit it follows (nextRequest), and what this connection writes is seen at once.
const nextRequest = () => new Promise<void>((resolve) => setImmediate(resolve));
const dir = makeTempDir();
const { store: server, demoKey } = openDataDir(dir);
const cli = openStore(storeFile(dir));
afterAll(() => {
  server.close();
  cli.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('read cache', () => {
  it('sees a key revoked by another connection on the next request', async () => {
    const { row, key } = cli.apiKeys.create(
      { user_id: 1, label: 'to revoke', scopes: ['*'] },
      new Date().toISOString(),
    );
    await nextRequest();
    expect(server.apiKeys.findByHash(hashKey(key))?.id).toBe(row.id);
    expect(server.apiKeys.findByHash(hashKey(key))?.id).toBe(row.id); // now served from the cache
    await nextRequest();
    expect(server.apiKeys.findByHash(hashKey(key))?.id).toBe(row.id); // a later request, served from the cache
    cli.apiKeys.revoke(row.id);
    await nextRequest();
    expect(server.apiKeys.findByHash(hashKey(key))).toBeUndefined();
    expect(server.apiKeys.findByHash(hashKey(demoKey ?? ''))).toBeDefined();
  });

  it('sees organizations written by this connection at once and by another one on the next request', async () => {
    const user = 1;
    const before = server.organizations.countForUser(user, null);
    const at = new Date().toISOString();
    const mine = server.organizations.create({ name: 'Written here' }, at);
    server.memberships.add(mine.id, user, 15, at);
    expect(server.organizations.countForUser(user, null)).toBe(before + 1);

    const theirs = cli.organizations.create({ name: 'Written elsewhere' }, at);
    cli.memberships.add(theirs.id, user, 15, at);
    await nextRequest();
    expect(server.organizations.countForUser(user, null)).toBe(before + 2);
    const names = server.organizations.listForUser(user, null, 1000, 0).map((o) => o.name);
    expect(names).toEqual(expect.arrayContaining(['Written here', 'Written elsewhere']));

    cli.organizations.update(theirs.id, { name: 'Renamed elsewhere' }, at);
    await nextRequest();
    expect(server.organizations.listForUser(user, null, 1000, 0).map((o) => o.name)).toContain('Renamed elsewhere');
  });
});
