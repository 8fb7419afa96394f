import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inviteSchema, pageSchema } from '../../src/contract/index.ts';
import { createTestServer, HEDGEBOX, NORTHWIND } from './helpers.ts';

let clock = new Date();
const server = createTestServer({ now: () => clock });
afterAll(() => server.close());
const hedgebox = server.orgIds[HEDGEBOX]!;
const northwind = server.orgIds[NORTHWIND]!;
const base = `/api/organizations/${hedgebox}/invites/`;
const outbox = path.join(server.dir, 'mail');
const mails = () =>
  fs.existsSync(outbox) ? fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8')) : [];
const emailsOf = async () =>
  ((await server.get(base)).body.results as { target_email: string }[]).map((i) => i.target_email);

describe('invites', () => {
  it('lists the seeded invites, pending and expired', async () => {
    const res = await server.get(base);
    expect(res.status).toBe(200);
    const page = pageSchema(inviteSchema).parse(res.body);
    expect(page.results.find((i) => i.target_email === 'old.hire@hedgebox.example')?.is_expired).toBe(true);
    expect(page.results.find((i) => i.target_email === 'nadia@hedgebox.example')?.is_expired).toBe(false);
  });

  it('creates an invite, mails it to the outbox with the accept link, and logs it', async () => {
    const res = await server.request('POST', base, {
      json: { target_email: 'new.person@example.org', first_name: 'Nova', level: 8 },
    });
    expect(res.status, res.text).toBe(201);
    const invite = inviteSchema.parse(res.body);
    expect(invite).toMatchObject({
      target_email: 'new.person@example.org',
      level: 8,
      emailing_attempt_made: true,
      is_expired: false,
    });
    expect(invite.created_by?.email).toBe('demo@example.com');
    const mail = mails().find((m) => m.includes('To: new.person@example.org'))!;
    expect(mail).toMatch(new RegExp(`http://localhost/invite/${invite.id}#token=[A-Za-z0-9]{32}`));
    expect(mail).toContain('Hi Nova,');
    const entry = server.store.activityLog.list({ scope: 'OrganizationInvite', organization_id: hedgebox }, 1, 0)[0]!;
    expect(entry).toMatchObject({ activity: 'invited', item_id: invite.id });
  });

  it('replaces a pending invite to the same email', async () => {
    const first = await server.request('POST', base, { json: { target_email: 'twice@example.org' } });
    const second = await server.request('POST', base, { json: { target_email: 'TWICE@example.org', level: 8 } });
    expect(second.status).toBe(201);
    const list = (await server.get(base)).body.results as { id: string; target_email: string }[];
    const matching = list.filter((i) => i.target_email.toLowerCase() === 'twice@example.org');
    expect(matching.map((i) => i.id)).toEqual([second.body.id]);
    expect(matching[0]!.id).not.toBe(first.body.id);
  });

  it('refuses existing members, levels above the caller, other projects, bad emails', async () => {
    const member = await server.request('POST', base, { json: { target_email: 'Priya@hedgebox.example' } });
    expect(member.status).toBe(400);
    expect(member.body.attr).toBe('target_email');
    const admin = server.makeKey({ scopes: ['*'], userEmail: 'priya@hedgebox.example' });
    expect(
      (await server.request('POST', base, { key: admin, json: { target_email: 'x@example.org', level: 15 } })).status,
    ).toBe(403);
    const northwindProject = server.store.projects.idsOf(northwind)[0]!;
    const project = await server.request('POST', base, {
      json: { target_email: 'p@example.org', private_project_access: [{ id: northwindProject, level: 1 }] },
    });
    expect(project.status).toBe(400);
    expect(project.body.attr).toBe('private_project_access');
    const ownProject = server.store.projects.idsOf(hedgebox)[0]!;
    const ok = await server.request('POST', base, {
      json: { target_email: 'p@example.org', private_project_access: [{ id: ownProject, level: 8 }] },
    });
    expect(ok.body.private_project_access).toEqual([{ id: ownProject, level: 8 }]);
    const bad = await server.request('POST', base, { json: { target_email: 'not-an-email' } });
    expect(bad.body).toMatchObject({ attr: 'target_email', detail: 'Enter a valid email address.' });
  });

  it('bulk: all or nothing, with an error per item index', async () => {
    const before = await emailsOf();
    const res = await server.request('POST', `${base}bulk/`, {
      json: [
        { target_email: 'a@bulk.example' },
        { target_email: 'bad-email' },
        { target_email: 'marcus@hedgebox.example' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe('1__target_email');
    expect(res.body.errors).toEqual([
      { index: 1, attr: 'target_email', code: 'invalid_input', detail: 'Enter a valid email address.' },
      expect.objectContaining({ index: 2, attr: 'target_email' }),
    ]);
    expect(await emailsOf()).toEqual(before);
    const tooMany = await server.request('POST', `${base}bulk/`, {
      json: Array.from({ length: 21 }, (_, i) => ({ target_email: `n${i}@bulk.example` })),
    });
    expect(tooMany.status).toBe(400);
    const ok = await server.request('POST', `${base}bulk/`, {
      json: [
        { target_email: 'a@bulk.example', first_name: 'A' },
        { target_email: 'b@bulk.example', level: 8 },
        { target_email: 'c@bulk.example' },
      ],
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.map((i: { target_email: string }) => i.target_email)).toEqual([
      'a@bulk.example',
      'b@bulk.example',
      'c@bulk.example',
    ]);
    expect(await emailsOf()).toEqual(expect.arrayContaining(['a@bulk.example', 'b@bulk.example', 'c@bulk.example']));
  });

  it('deletes an invite; another organization cannot', async () => {
    const created = await server.request('POST', base, { json: { target_email: 'gone@example.org' } });
    const other = `/api/organizations/${northwind}/invites/${created.body.id}/`;
    expect((await server.request('DELETE', other)).status).toBe(404);
    expect((await server.request('DELETE', `${base}${created.body.id}/`)).status).toBe(204);
    expect((await server.request('DELETE', `${base}${created.body.id}/`)).status).toBe(404);
    expect(await emailsOf()).not.toContain('gone@example.org');
  });

  it('needs organization_member scopes', async () => {
    const read = server.makeKey({ scopes: ['organization_member:read'] });
    expect((await server.get(base, { key: read })).status).toBe(200);
    expect((await server.request('POST', base, { key: read, json: { target_email: 'z@example.org' } })).status).toBe(
      403,
    );
  });

  /** The accept path and secret of the invite mailed to `email`. */
  const linkOf = (email: string) => {
    const [, id, token] = /\/invite\/([\w-]+)#token=(\w+)/.exec(
      mails()
        .filter((m) => m.includes(`To: ${email}`))
        .at(-1)!,
    )!;
    return { accept: `/api/organizations/invites/${id!}/accept/`, token: token! };
  };

  it('accepting through the emailed link makes the invitee a member and removes the invite', async () => {
    const created = await server.request('POST', base, { json: { target_email: 'joiner@example.org', level: 8 } });
    const { accept, token } = linkOf('joiner@example.org');
    const countBefore = (await server.get(`/api/organizations/${hedgebox}/`)).body.member_count;
    const wrong = await server.request('POST', accept, {
      key: null,
      json: { first_name: 'Jo', email: 'other@example.org', token },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.attr).toBe('email');
    const res = await server.request('POST', accept, {
      key: null,
      json: { first_name: 'Jo', last_name: 'Iner', email: 'joiner@example.org', token },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ organization: { id: hedgebox, name: HEDGEBOX }, level: 8 });
    const key = res.body.personal_api_key as string;
    expect(
      (await server.get(`/api/organizations/${hedgebox}/members/?search=joiner`, { key })).body.results[0],
    ).toMatchObject({ level: 8, user: { first_name: 'Jo' } });
    expect((await server.get(`/api/organizations/${northwind}/`, { key })).status).toBe(403);
    expect((await server.get(`/api/organizations/${hedgebox}/`)).body.member_count).toBe(countBefore + 1);
    // Single use: the same link a second time is refused.
    const again = await server.request('POST', accept, {
      key: null,
      json: { first_name: 'Jo', email: 'joiner@example.org', token },
    });
    expect([again.status, again.body.attr]).toEqual([400, 'token']);
    expect(await emailsOf()).not.toContain(created.body.target_email);
  });

  it('a member who sees the invites list cannot take an admin invite: id and email are not enough', async () => {
    await server.request('POST', base, { json: { target_email: 'new.admin@example.org', level: 8 } });
    const marcus = server.makeKey({ scopes: ['*'], userEmail: 'marcus@hedgebox.example' }); // level 1
    const listed = ((await server.get(base, { key: marcus })).body.results as Record<string, unknown>[]).find(
      (i) => i.target_email === 'new.admin@example.org',
    )!;
    expect(listed).toBeDefined();
    expect(JSON.stringify(listed)).not.toMatch(/token|secret|accept_url/);
    const accept = `/api/organizations/invites/${String(listed.id)}/accept/`;
    const body = { first_name: 'Mallory', email: 'new.admin@example.org' };
    const withoutToken = await server.request('POST', accept, { key: null, json: body });
    expect([withoutToken.status, withoutToken.body.attr]).toEqual([400, 'token']);
    const guessed = await server.request('POST', accept, { key: null, json: { ...body, token: 'A'.repeat(32) } });
    expect([guessed.status, guessed.body.code]).toEqual([400, 'invalid_token']);
    const withKey = await server.request('POST', accept, { key: marcus, json: { ...body, token: listed.id } });
    expect(withKey.status).toBe(400);
    expect(server.store.users.getByEmail('new.admin@example.org')).toBeUndefined();
    // The invite is still there for its real addressee.
    const { token } = linkOf('new.admin@example.org');
    expect(
      (await server.request('POST', accept, { key: null, json: { ...body, first_name: 'Nia', token } })).status,
    ).toBe(200);
  });

  it("an invite to an existing user is accepted only with that user's own key", async () => {
    // Sofía has an account (a Hedgebox member) and is invited to Northwind.
    const northwindBase = `/api/organizations/${northwind}/invites/`;
    expect(
      (await server.request('POST', northwindBase, { json: { target_email: 'sofia@hedgebox.example', level: 8 } }))
        .status,
    ).toBe(201);
    const { accept, token } = linkOf('sofia@hedgebox.example');
    const body = { first_name: 'Sofía', email: 'sofia@hedgebox.example', token };
    const anonymous = await server.request('POST', accept, { key: null, json: body });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.detail).toMatch(/sign in with its API key/);
    const someoneElse = server.makeKey({ scopes: ['*'], userEmail: 'marcus@hedgebox.example' });
    expect((await server.request('POST', accept, { key: someoneElse, json: body })).status).toBe(403);
    expect(
      server.store.memberships.level(northwind, server.store.users.getByEmail('sofia@hedgebox.example')!.id),
    ).toBeUndefined();
    const own = server.makeKey({ scopes: ['organization:read'], userEmail: 'sofia@hedgebox.example' });
    const res = await server.request('POST', accept, { key: own, json: body });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ level: 8, personal_api_key: null });
  });

  it('gives the accept link in the answer to an admin who invites, never to a member, never in the list', async () => {
    const admin = await server.request('POST', base, { json: { target_email: 'linked@example.org' } });
    expect(admin.body.accept_url).toMatch(new RegExp(`^http://localhost/invite/${admin.body.id}#token=\\w{32}$`));
    const marcus = server.makeKey({ scopes: ['*'], userEmail: 'marcus@hedgebox.example' });
    const member = await server.request('POST', base, { key: marcus, json: { target_email: 'by.member@example.org' } });
    expect(member.status).toBe(201);
    expect(member.body.accept_url).toBeNull();
    const bulk = await server.request('POST', `${base}bulk/`, {
      key: marcus,
      json: [{ target_email: 'bulk.member@example.org' }],
    });
    expect(bulk.body[0].accept_url).toBeNull();
    for (const invite of (await server.get(base)).body.results as Record<string, unknown>[])
      expect(invite).not.toHaveProperty('accept_url');
  });

  it('an invite expires after 3 days: flagged in the list, refused on accept', async () => {
    const created = await server.request('POST', base, { json: { target_email: 'late@example.org' } });
    clock = new Date(clock.getTime() + 3 * 86_400_000 + 60_000);
    try {
      const listed = ((await server.get(base)).body.results as { id: string; is_expired: boolean }[]).find(
        (i) => i.id === created.body.id,
      );
      expect(listed?.is_expired).toBe(true);
      const { accept, token } = linkOf('late@example.org');
      const res = await server.request('POST', accept, {
        key: null,
        json: { first_name: 'L', email: 'late@example.org', token },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('expired');
    } finally {
      clock = new Date();
    }
  });
});
