import { afterAll, describe, expect, it } from 'vitest';
import { domainSchema, pageSchema } from '../../src/contract/index.ts';
import { txtRecordsForThisFile } from '../testing/dns-server.ts';
import { createTestServer, HEDGEBOX, NORTHWIND } from './helpers.ts';

const server = createTestServer();
const hedgebox = server.orgIds[HEDGEBOX]!;
const northwind = server.orgIds[NORTHWIND]!;
const base = `/api/organizations/${hedgebox}/domains/`;
const txt = txtRecordsForThisFile();
afterAll(() => server.close());

const create = async (domain: string) => {
  const res = await server.request('POST', base, { json: { domain } });
  expect(res.status, res.text).toBe(201);
  return domainSchema.parse(res.body);
};

describe('domains', () => {
  it('lists the seeded verified and unverified domains', async () => {
    const page = pageSchema(domainSchema).parse((await server.get(base)).body);
    expect(page.results.map((d) => [d.domain, d.is_verified])).toEqual([
      ['hedgebox.example', true],
      ['hedgebox-labs.example', false],
    ]);
  });

  it('creates a domain with a 32-character challenge; validates and keeps names unique', async () => {
    const d = await create('acme.example');
    expect(d).toMatchObject({
      is_verified: false,
      verified_at: null,
      jit_provisioning_enabled: false,
      sso_enforcement: '',
      has_saml: false,
    });
    expect(d.verification_challenge).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await server.get(`${base}${d.id}/`)).body.domain).toBe('acme.example');
    const upper = await server.request('POST', base, { json: { domain: 'Acme.example' } });
    expect(upper.body).toMatchObject({ attr: 'domain', code: 'invalid_input' });
    const dup = await server.request('POST', `/api/organizations/${northwind}/domains/`, {
      json: { domain: 'acme.example' },
    });
    expect(dup.body).toMatchObject({ attr: 'domain', code: 'unique' });
    const early = await server.request('POST', base, {
      json: { domain: 'early.example', jit_provisioning_enabled: true },
    });
    expect(early.body).toMatchObject({ code: 'verification_required', attr: 'jit_provisioning_enabled' });
  });

  it('refuses JIT and SSO enforcement before verification; SAML fields set has_saml', async () => {
    const d = await create('saml.example');
    const jit = await server.request('PATCH', `${base}${d.id}/`, { json: { jit_provisioning_enabled: true } });
    expect(jit.status).toBe(400);
    expect(jit.body.code).toBe('verification_required');
    const sso = await server.request('PATCH', `${base}${d.id}/`, { json: { sso_enforcement: 'saml' } });
    expect(sso.body).toMatchObject({ code: 'verification_required', attr: 'sso_enforcement' });
    const saml = await server.request('PATCH', `${base}${d.id}/`, {
      json: {
        saml_entity_id: 'https://idp.example/e',
        saml_acs_url: 'https://idp.example/acs',
        saml_x509_cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
        domain: 'changed.example',
      },
    });
    expect(saml.status).toBe(200);
    expect(saml.body).toMatchObject({ has_saml: true, domain: 'saml.example' });
  });

  it('verifies through a real DNS TXT lookup: no record, wrong value, then the challenge', async () => {
    const d = await create('verify-me.example');
    const verify = () => server.request('POST', `${base}${d.id}/verify/`);
    const none = await verify();
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ is_verified: false, verified_at: null });
    txt.set('_posthog-challenge.verify-me.example', ['not-the-challenge']);
    expect((await verify()).body.is_verified).toBe(false);
    txt.set('_posthog-challenge.verify-me.example', ['v=spf1 -all', d.verification_challenge]);
    const ok = await verify();
    expect(ok.body.is_verified).toBe(true);
    expect(Date.parse(ok.body.verified_at)).toBeGreaterThan(Date.now() - 60_000);
    const again = await verify();
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('already_verified');
    const jit = await server.request('PATCH', `${base}${d.id}/`, {
      json: { jit_provisioning_enabled: true, sso_enforcement: 'google-oauth2' },
    });
    expect(jit.body).toMatchObject({ jit_provisioning_enabled: true, sso_enforcement: 'google-oauth2' });
    const entry = server.store.activityLog
      .list({ scope: 'OrganizationDomain', item_id: d.id }, 2, 0)
      .map((e) => e.activity);
    expect(entry).toEqual(['updated', 'verified']);
  });

  it('verify needs organization:write; other organizations see 404; delete', async () => {
    const d = await create('scoped.example');
    const read = server.makeKey({ scopes: ['organization:read'] });
    expect((await server.get(base, { key: read })).status).toBe(200);
    const denied = await server.request('POST', `${base}${d.id}/verify/`, { key: read });
    expect(denied.body.detail).toBe("API key missing required scope 'organization:write'");
    expect((await server.get(`/api/organizations/${northwind}/domains/${d.id}/`)).status).toBe(404);
    expect((await server.request('DELETE', `${base}${d.id}/`)).status).toBe(204);
    expect((await server.get(`${base}${d.id}/`)).status).toBe(404);
  });

  it('refuses a label longer than DNS allows (63 characters) on the field', async () => {
    const long = await server.request('POST', base, { json: { domain: `${'a'.repeat(64)}.example` } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ attr: 'domain', detail: expect.stringMatching(/at most 63 characters/) });
    await create(`${'b'.repeat(63)}.example`);
  });

  it('lets only admins and owners add, verify, change and delete domains; members still read them', async () => {
    const member = server.makeKey({ scopes: ['*'], userEmail: 'marcus@hedgebox.example' }); // level 1
    const admin = server.makeKey({ scopes: ['*'], userEmail: 'priya@hedgebox.example' }); // level 8
    const d = await create('levels.example');
    const attempts = [
      ['POST', base, { domain: 'member.example' }],
      ['PATCH', `${base}${d.id}/`, { saml_entity_id: 'x' }],
      ['POST', `${base}${d.id}/verify/`, undefined],
      ['DELETE', `${base}${d.id}/`, undefined],
    ] as const;
    for (const [method, url, json] of attempts) {
      const res = await server.request(method, url, { key: member, ...(json ? { json } : {}) });
      expect([method, url, res.status]).toEqual([method, url, 403]);
      expect(res.body).toMatchObject({
        code: 'permission_denied',
        detail: expect.stringMatching(/Only admins and owners/),
      });
    }
    expect((await server.get(base, { key: member })).status).toBe(200);
    expect((await server.get(`${base}${d.id}/`, { key: member })).body.saml_entity_id).toBeNull();
    expect(
      (await server.request('PATCH', `${base}${d.id}/`, { key: admin, json: { saml_entity_id: 'by-admin' } })).status,
    ).toBe(200);
    expect((await server.request('DELETE', `${base}${d.id}/`, { key: admin })).status).toBe(204);
  });
});
