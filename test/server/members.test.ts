import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { memberSchema, pageSchema } from '../../src/contract/index.ts';
import type { Level } from '../../server/store/memberships.ts';
import { createTestServer, HEDGEBOX, NORTHWIND } from './helpers.ts';

const server = createTestServer();
afterAll(() => server.close());
const hedgebox = server.orgIds[HEDGEBOX]!;
const northwind = server.orgIds[NORTHWIND]!;
const base = `/api/organizations/${hedgebox}/members/`;

const EMAILS = {
  owner: 'demo@example.com',
  admin: 'priya@hedgebox.example',
  member: 'marcus@hedgebox.example',
  target: 'sofia@hedgebox.example',
};
const keys = {
  owner: server.makeKey({ scopes: ['*'], userEmail: EMAILS.owner }),
  admin: server.makeKey({ scopes: ['*'], userEmail: EMAILS.admin }),
  member: server.makeKey({ scopes: ['*'], userEmail: EMAILS.member }),
};
const uuidOf = (email: string) => server.store.users.getByEmail(email)!.uuid;
const setLevel = (email: string, level: Level) => {
  const row = server.store.members.byUserUuid(hedgebox, uuidOf(email))!;
  server.store.members.setLevel(row.id, level, new Date().toISOString());
};
const LEVELS = { member: 1, admin: 8, owner: 15 } as const;
type Name = keyof typeof LEVELS;

beforeEach(() => {
  setLevel(EMAILS.owner, 15);
  setLevel(EMAILS.admin, 8);
  setLevel(EMAILS.member, 1);
  setLevel(EMAILS.target, 1);
});

describe('members list', () => {
  it('lists members with their users in the contract shape, searchable by name or email', async () => {
    const res = await server.get(base);
    expect(res.status).toBe(200);
    const page = pageSchema(memberSchema).parse(res.body);
    expect(page.count).toBe(5);
    expect(page.results.map((m) => m.user.email)).toContain('priya@hedgebox.example');
    expect(page.results.find((m) => m.user.email === EMAILS.owner)).toMatchObject({ level: 15, is_2fa_enabled: true });
    const byName = await server.get(`${base}?search=raman`);
    expect(byName.body.results.map((m: { user: { email: string } }) => m.user.email)).toEqual([
      'priya@hedgebox.example',
    ]);
    const byFullName = await server.get(`${base}?search=${encodeURIComponent('Sofía García')}`);
    expect(byFullName.body.count).toBe(1);
    const wildcard = await server.get(`${base}?search=%25`);
    expect(wildcard.body.count).toBe(0);
  });
  it('needs organization_member:read and a reachable organization', async () => {
    const noScope = server.makeKey({ scopes: ['insight:read'] });
    expect((await server.get(base, { key: noScope })).status).toBe(403);
    const readOnly = server.makeKey({ scopes: ['organization_member:read'] });
    expect((await server.get(base, { key: readOnly })).status).toBe(200);
    const patch = await server.request('PATCH', `${base}${uuidOf(EMAILS.target)}/`, {
      key: readOnly,
      json: { level: 8 },
    });
    expect(patch.body.detail).toBe("API key missing required scope 'organization_member:write'");
    const scopedElsewhere = server.makeKey({ scopes: ['*'], organizations: [northwind] });
    expect((await server.get(base, { key: scopedElsewhere })).status).toBe(403);
    expect((await server.request('PATCH', `${base}not-a-member/`, { json: { level: 8 } })).status).toBe(404);
  });
});

describe('level rules (caller, target, new level) → outcome', () => {
  const table: [Name, Name, Name, number][] = [
    ['owner', 'member', 'admin', 200],
    ['owner', 'member', 'owner', 200],
    ['owner', 'admin', 'member', 200],
    ['owner', 'owner', 'member', 200],
    ['admin', 'member', 'admin', 200],
    ['admin', 'admin', 'member', 200],
    ['admin', 'member', 'owner', 403],
    ['admin', 'owner', 'member', 403],
    ['admin', 'owner', 'admin', 403],
    ['member', 'member', 'admin', 403],
    ['member', 'admin', 'member', 403],
    ['member', 'member', 'member', 403],
  ];
  it.each(table)('%s changing a %s to %s → %i', async (caller, target, next, status) => {
    setLevel(EMAILS.target, LEVELS[target]);
    const res = await server.request('PATCH', `${base}${uuidOf(EMAILS.target)}/`, {
      key: keys[caller],
      json: { level: LEVELS[next] },
    });
    expect(res.status, res.text).toBe(status);
    const stored = server.store.members.byUserUuid(hedgebox, uuidOf(EMAILS.target))!.level;
    expect(stored).toBe(status === 200 ? LEVELS[next] : LEVELS[target]);
    if (status === 200) expect(memberSchema.parse(res.body).level).toBe(LEVELS[next]);
  });
  it.each(['owner', 'admin', 'member'] as const)('nobody changes their own level (%s)', async (caller) => {
    const res = await server.request('PATCH', `${base}${uuidOf(EMAILS[caller])}/`, {
      key: keys[caller],
      json: { level: 1 },
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("You can't change your own access level.");
  });
  it('rejects levels outside 1, 8, 15 naming level', async () => {
    const res = await server.request('PATCH', `${base}${uuidOf(EMAILS.target)}/`, { json: { level: 5 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ attr: 'level', detail: '"5" is not a valid choice.' });
  });
  it('logs a level change', async () => {
    await server.request('PATCH', `${base}${uuidOf(EMAILS.target)}/`, { json: { level: 8 } });
    const entry = server.store.activityLog.list(
      { scope: 'OrganizationMembership', organization_id: hedgebox },
      1,
      0,
    )[0]!;
    expect(entry.activity).toBe('updated');
    expect(JSON.parse(entry.detail)).toMatchObject({
      name: 'Sofía García',
      changes: [{ field: 'level', before: 1, after: 8 }],
    });
  });
});

describe('removing members', () => {
  const countOf = async (org: string) => (await server.get(`/api/organizations/${org}/`)).body.member_count as number;
  it('refuses members removing others and admins removing owners', async () => {
    expect((await server.request('DELETE', `${base}${uuidOf(EMAILS.target)}/`, { key: keys.member })).status).toBe(403);
    setLevel(EMAILS.target, 15);
    expect((await server.request('DELETE', `${base}${uuidOf(EMAILS.target)}/`, { key: keys.admin })).status).toBe(403);
  });
  it('the last owner cannot leave (400 naming level)', async () => {
    const res = await server.request('DELETE', `${base}${uuidOf(EMAILS.owner)}/`, { key: keys.owner });
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe('level');
  });
  it("an admin removes a member: the count drops, the removal is logged and the member's keys stop at once", async () => {
    const before = await countOf(hedgebox);
    const targetKey = server.makeKey({ scopes: ['*'], userEmail: EMAILS.target });
    expect((await server.get(`/api/organizations/${hedgebox}/`, { key: targetKey })).status).toBe(200);
    const res = await server.request('DELETE', `${base}${uuidOf(EMAILS.target)}/`, { key: keys.admin });
    expect(res.status).toBe(204);
    expect(await countOf(hedgebox)).toBe(before - 1);
    expect((await server.get(`/api/organizations/${hedgebox}/`, { key: targetKey })).status).toBe(403);
    expect((await server.get(`/api/organizations/${hedgebox}/batch_exports/`, { key: targetKey })).status).toBe(403);
    const entry = server.store.activityLog.list(
      { scope: 'OrganizationMembership', organization_id: hedgebox },
      1,
      0,
    )[0]!;
    expect(entry.activity).toBe('deleted');
    // Re-add for the other tests.
    server.store.memberships.add(
      hedgebox,
      server.store.users.getByEmail(EMAILS.target)!.id,
      1,
      new Date().toISOString(),
    );
  });
  it('a member may leave', async () => {
    const liam = server.makeKey({ scopes: ['*'], userEmail: 'liam@contractor.example' });
    expect((await server.request('DELETE', `${base}${uuidOf('liam@contractor.example')}/`, { key: liam })).status).toBe(
      204,
    );
    expect((await server.get(base, { key: liam })).status).toBe(403);
  });
});
