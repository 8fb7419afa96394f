import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openDataDir } from '../../server/data-dir.ts';
import { createTestServer, HEDGEBOX, makeTempDir } from './helpers.ts';

const server = createTestServer();
afterAll(() => server.close());
const hedgebox = server.orgIds[HEDGEBOX]!;

describe('what identifies an install', () => {
  it('gives each fresh data directory its own organization ids and project API tokens', () => {
    const dirs = [makeTempDir(), makeTempDir()];
    try {
      const installs = dirs.map((dir) => {
        const { store } = openDataDir(dir);
        const read = {
          organizations: store.db.prepare('SELECT id FROM organizations ORDER BY name').pluck().all() as string[],
          tokens: store.db.prepare('SELECT api_token FROM projects ORDER BY id').pluck().all() as string[],
          users: store.db.prepare('SELECT uuid FROM users ORDER BY email').pluck().all() as string[],
        };
        store.close();
        return read;
      });
      const [a, b] = installs as [(typeof installs)[0], (typeof installs)[0]];
      expect(a.organizations).toHaveLength(2);
      for (const [i, id] of a.organizations.entries()) expect(b.organizations[i]).not.toBe(id);
      for (const [i, token] of a.tokens.entries()) {
        expect(token).toMatch(/^phc_[A-Za-z0-9]{40}$/);
        expect(b.tokens[i]).not.toBe(token);
      }
      expect(new Set([...a.users, ...b.users]).size).toBe(a.users.length * 2);
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what organization:read shows of projects', () => {
  it('embeds project summaries without their API token; project:read reads the token', async () => {
    const orgReader = server.makeKey({ scopes: ['organization:read'] });
    for (const url of [`/api/organizations/${hedgebox}/`, '/api/organizations/']) {
      const res = await server.get(url, { key: orgReader });
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/phc_|api_token/);
    }
    const teams = (await server.get(`/api/organizations/${hedgebox}/`, { key: orgReader })).body.teams as {
      id: number;
      name: string;
    }[];
    expect(teams.length).toBeGreaterThan(0);
    expect(teams[0]).toHaveProperty('name');
    const projectReader = server.makeKey({ scopes: ['project:read'] });
    const project = await server.get(`/api/projects/${teams[0]!.id}/`, { key: projectReader });
    expect(project.body.api_token).toMatch(/^phc_/);
    expect((await server.get(`/api/projects/${teams[0]!.id}/`, { key: orgReader })).status).toBe(403);
  });
});
