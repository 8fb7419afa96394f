import { afterAll, describe, expect, it } from 'vitest';
import { organizationSchema, pageSchema } from '../../src/contract/index.ts';
import { parseCapturePayload } from '../../server/analytics/store/ingest-parse.ts';
import { createTestServer, HEDGEBOX, NORTHWIND } from './helpers.ts';

const server = createTestServer();
afterAll(() => server.close());
const hedgebox = server.orgIds[HEDGEBOX]!;
const northwind = server.orgIds[NORTHWIND]!;

async function createOrg(json: unknown, key?: string) {
  const res = await server.request('POST', '/api/organizations/', { json, ...(key ? { key } : {}) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('GET /api/organizations/', () => {
  it('lists the organizations of the key user, in the contract shape', async () => {
    const res = await server.get('/api/organizations/');
    expect(res.status).toBe(200);
    const page = pageSchema(organizationSchema).parse(res.body);
    expect(page.results.map((o) => o.name)).toEqual([HEDGEBOX, NORTHWIND]);
    const [hb, nw] = page.results;
    expect(hb).toMatchObject({ slug: 'hedgebox', membership_level: 15, member_count: 5 });
    expect(nw).toMatchObject({ slug: 'northwind-analytics', membership_level: 8, member_count: 4 });
    expect(hb!.teams.map((t) => t.name)).toEqual(['Hedgebox Web', 'Hedgebox Mobile']);
    expect(nw!.teams).toHaveLength(1);
  });

  it('lists only organizations the user is a member of', async () => {
    const key = server.makeKey({ scopes: ['organization:read'], userEmail: 'jonas@northwind.example' });
    const res = await server.get('/api/organizations/', { key });
    expect(res.body.results.map((o: { name: string }) => o.name)).toEqual([NORTHWIND]);
    expect((await server.get(`/api/organizations/${hedgebox}/`, { key })).status).toBe(403);
  });
});

describe('POST /api/organizations/', () => {
  it('creates an organization owned by the caller, with a Default project', async () => {
    const org = await createOrg({ name: 'Acme Rockets', enforce_2fa: true });
    expect(organizationSchema.parse(org)).toMatchObject({
      name: 'Acme Rockets',
      slug: 'acme-rockets',
      membership_level: 15,
      member_count: 1,
      enforce_2fa: true,
      is_member_join_email_enabled: true,
    });
    expect(org.teams).toHaveLength(1);
    expect(org.teams[0]).toMatchObject({ name: 'Default project' });
    const project = await server.get(`/api/projects/${org.teams[0].id}/`);
    expect(project.body).toMatchObject({ organization: org.id, timezone: 'UTC', name: 'Default project' });
    expect(project.body.api_token).toMatch(/^phc_[A-Za-z0-9]+$/);
    expect((await server.get(`/api/organizations/${org.id}/`)).body).toEqual(org);
  });

  it('derives a unique slug from the name', async () => {
    const a = await createOrg({ name: 'Ünïcode & Co!' });
    const b = await createOrg({ name: 'Unicode & Co' });
    expect(a.slug).toBe('unicode-co');
    expect(b.slug).toBe('unicode-co-2');
  });

  it('ignores read-only and unknown fields', async () => {
    const org = await createOrg({
      name: 'Sneaky',
      id: '11111111-1111-4111-8111-111111111111',
      slug: 'chosen',
      created_at: '2000-01-01T00:00:00Z',
      membership_level: 1,
      member_count: 99,
      teams: [],
      is_admin: true,
    });
    expect(org.id).not.toBe('11111111-1111-4111-8111-111111111111');
    expect(org).toMatchObject({ slug: 'sneaky', membership_level: 15, member_count: 1 });
    expect(org.created_at).not.toBe('2000-01-01T00:00:00Z');
  });

  it.each([
    [{}, 'required', 'name', 'This field is required.'],
    [{ name: '   ' }, 'blank', 'name', 'This field may not be blank.'],
    [{ name: 'x'.repeat(65) }, 'max_length', 'name', 'Ensure this field has no more than 64 characters.'],
    [{ name: 42 }, 'invalid_input', 'name', 'Not a valid string.'],
    [{ name: 'ok', enforce_2fa: 'yes' }, 'invalid_input', 'enforce_2fa', 'Must be a valid boolean.'],
    [{ name: null }, 'null', 'name', 'This field may not be null.'],
  ])('400 for %j', async (json, code, attr, detail) => {
    const res = await server.request('POST', '/api/organizations/', { json });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ type: 'validation_error', code, attr, detail });
  });
});

describe('PATCH /api/organizations/:id/', () => {
  it('updates writable fields only, as an owner', async () => {
    const org = await createOrg({ name: 'Patch Me' });
    const res = await server.request('PATCH', `/api/organizations/${org.id}/`, {
      json: { name: 'Patched', is_member_join_email_enabled: false, slug: 'x', id: 'y', membership_level: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: org.id,
      name: 'Patched',
      slug: 'patch-me',
      is_member_join_email_enabled: false,
      membership_level: 15,
    });
    expect(res.body.enforce_2fa).toBeNull();
  });

  it('an admin may patch; a plain member may not', async () => {
    expect(
      (await server.request('PATCH', `/api/organizations/${northwind}/`, { json: { enforce_2fa: false } })).body
        .enforce_2fa,
    ).toBe(false);
    const member = server.makeKey({ scopes: ['organization:write'], userEmail: 'marcus@hedgebox.example' });
    const res = await server.request('PATCH', `/api/organizations/${hedgebox}/`, {
      key: member,
      json: { name: 'Mine now' },
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('You do not have permission to perform this action.');
  });

  it('400 with attr for a bad field; 404 for an unknown id', async () => {
    const bad = await server.request('PATCH', `/api/organizations/${hedgebox}/`, { json: { name: '' } });
    expect(bad.body).toMatchObject({ code: 'blank', attr: 'name' });
    const missing = await server.request('PATCH', '/api/organizations/00000000-0000-4000-8000-000000000000/', {
      json: { name: 'x' },
    });
    expect(missing.status).toBe(404);
  });
});

describe('DELETE /api/organizations/:id/', () => {
  it('only an owner may delete; an admin gets 403', async () => {
    const res = await server.request('DELETE', `/api/organizations/${northwind}/`);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('You do not have permission to perform this action.');
  });

  it('204 with an empty body; the organization, its projects and memberships are gone', async () => {
    const org = await createOrg({ name: 'Doomed' });
    const projectId = org.teams[0].id;
    const res = await server.request('DELETE', `/api/organizations/${org.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await server.get(`/api/organizations/${org.id}/`)).status).toBe(404);
    expect((await server.get(`/api/projects/${projectId}/`)).status).toBe(404);
    expect(server.store.memberships.count(org.id)).toBe(0);
  });

  it("removes the deleted projects' events and persons, and nobody else's", async () => {
    const org = await createOrg({ name: 'Ephemeral' });
    const doomed = org.teams[0].id as number;
    const kept = server.store.projects.idsOf(hedgebox)[0]!;
    const batch = (distinctId: string) =>
      parseCapturePayload(
        {
          api_key: 't',
          batch: [
            { event: 'x', distinct_id: distinctId },
            { event: '$identify', distinct_id: distinctId, properties: { $anon_distinct_id: `${distinctId}-anon` } },
          ],
        },
        new Date(),
      ).events;
    await server.events.append(doomed, batch('gone'));
    await server.events.append(kept, batch('stays'));
    const counts = async (team: number) =>
      Promise.all(
        ['events', 'persons', 'person_distinct_ids'].map(async (table) =>
          Number(
            (
              await server.events.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table} WHERE team_id = $1`, [
                team,
              ])
            )[0]!.n,
          ),
        ),
      );
    expect((await counts(doomed)).every((n) => n > 0)).toBe(true);
    const before = await counts(kept);
    expect((await server.request('DELETE', `/api/organizations/${org.id}/`)).status).toBe(204);
    expect(await counts(doomed)).toEqual([0, 0, 0]);
    expect(await counts(kept)).toEqual(before);
  });
});

describe('trailing slash', () => {
  it('is optional on every route, with no redirect', async () => {
    for (const path of [
      '/api/organizations',
      `/api/organizations/${hedgebox}`,
      '/api/projects',
      '/api/projects/1',
      '/api/personal_api_keys/@current',
      '/api/schema',
    ]) {
      const res = await server.get(path);
      expect(res.status, path).toBe(200);
    }
  });
});
