import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer, HEDGEBOX } from './helpers.ts';

let clock = new Date('2025-03-01T12:00:00.000Z');
const server = createTestServer({ now: () => clock });
afterAll(() => server.close());

describe('authentication', () => {
  it('401 not_authenticated without an Authorization header, with WWW-Authenticate', async () => {
    const res = await server.get('/api/organizations/', { key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toEqual({
      type: 'authentication_error',
      code: 'not_authenticated',
      detail: 'Authentication credentials were not provided.',
      attr: null,
    });
  });

  it.each([
    ['an unknown key', 'Bearer phx_doesnotexist0000000000000000000000'],
    ['a malformed key', 'Bearer not-a-key'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bare Bearer', 'Bearer'],
  ])('401 authentication_failed for %s', async (_name, header) => {
    const res = await server.get('/api/organizations/', { key: null, headers: { Authorization: header } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toEqual({
      type: 'authentication_error',
      code: 'authentication_failed',
      detail: 'Personal API key found in request Authorization header is invalid.',
      attr: null,
    });
  });

  it('accepts the demo key (scope *)', async () => {
    expect((await server.get('/api/organizations/')).status).toBe(200);
  });

  it('403 naming the missing scope', async () => {
    const key = server.makeKey({ scopes: ['insight:read'] });
    const res = await server.get('/api/organizations/', { key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      type: 'authentication_error',
      code: 'permission_denied',
      detail: "API key missing required scope 'organization:read'",
      attr: null,
    });
  });

  it('write implies read, read does not imply write', async () => {
    const writer = server.makeKey({ scopes: ['organization:write'] });
    expect((await server.get('/api/organizations/', { key: writer })).status).toBe(200);
    const reader = server.makeKey({ scopes: ['organization:read'] });
    const res = await server.request('POST', '/api/organizations/', { key: reader, json: { name: 'Nope' } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("API key missing required scope 'organization:write'");
  });

  it("'authenticated' endpoints take any valid key, whatever its scopes", async () => {
    const key = server.makeKey({ scopes: ['insight:read'] });
    expect((await server.get('/api/personal_api_keys/@current/', { key })).status).toBe(200);
  });

  it('projects need project:read, granted by * and by project:write, insight:write or sharing_configuration:write', async () => {
    for (const scopes of [['activity_log:read'], ['insight:read'], ['organization:write']]) {
      const res = await server.get('/api/projects/', { key: server.makeKey({ scopes }) });
      expect(res.status, scopes.join()).toBe(403);
      expect(res.body.detail).toBe("API key missing required scope 'project:read'");
      expect(res.text).not.toContain('phc_');
    }
    for (const scopes of [
      ['project:read'],
      ['project:write'],
      ['insight:write'],
      ['sharing_configuration:write'],
      ['*'],
    ]) {
      const key = server.makeKey({ scopes });
      const list = await server.get('/api/projects/', { key });
      expect(list.status, scopes.join()).toBe(200);
      expect(list.body.results[0].api_token).toMatch(/^phc_/);
      expect((await server.get(`/api/projects/${list.body.results[0].id}/`, { key })).status).toBe(200);
    }
  });

  it('GET personal_api_keys/@current/ describes the calling key, never its secret', async () => {
    const orgId = server.orgIds[HEDGEBOX]!;
    const key = server.makeKey({ scopes: ['organization:read', 'plugin:write'], organizations: [orgId], label: 'ci' });
    const res = await server.get('/api/personal_api_keys/@current/', { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      label: 'ci',
      scopes: ['organization:read', 'plugin:write'],
      scoped_organizations: [orgId],
      scoped_teams: null,
      mask_value: `phx_…${key.slice(-4)}`,
      last_used_at: clock.toISOString(),
    });
    expect(res.text).not.toContain(key);
  });

  it('updates last_used_at at most once a minute', async () => {
    const key = server.makeKey({ scopes: ['*'] });
    const first = clock.toISOString();
    await server.get('/api/personal_api_keys/@current/', { key });
    clock = new Date(clock.getTime() + 30_000);
    let res = await server.get('/api/personal_api_keys/@current/', { key });
    expect(res.body.last_used_at).toBe(first);
    clock = new Date(clock.getTime() + 31_000);
    res = await server.get('/api/personal_api_keys/@current/', { key });
    expect(res.body.last_used_at).toBe(clock.toISOString());
  });

  it('stores keys only as SHA-256 hashes', () => {
    const key = server.makeKey({ scopes: ['*'] });
    const dump = JSON.stringify(server.store.db.prepare('SELECT * FROM personal_api_keys').all());
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(server.demoKey);
  });

  it('a revoked key gets 401', async () => {
    const key = server.makeKey({ scopes: ['*'], label: 'to revoke' });
    expect((await server.get('/api/organizations/', { key })).status).toBe(200);
    const row = server.store.apiKeys.list().find((k) => k.label === 'to revoke')!;
    server.store.apiKeys.revoke(row.id);
    expect((await server.get('/api/organizations/', { key })).status).toBe(401);
  });
});
