import { describe, expect, it } from 'vitest';
import {
  domainCreateSchema,
  domainSchema,
  domainUpdateSchema,
  inviteBulkCreateSchema,
  inviteCreateSchema,
  inviteSchema,
  isInviteExpired,
  memberSchema,
  memberUpdateSchema,
  userDisplayName,
  userSchema,
} from './index';

const user = {
  id: 1,
  uuid: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  distinct_id: 'abc',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  is_email_verified: true,
  hedgehog_config: null,
};
const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.error?.issues.map((i) => i.path) ?? [];
const messages = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];

describe('members', () => {
  it('parses a member and keeps extra fields', () => {
    const m = memberSchema.parse({
      id: 'm1',
      user: { ...user, extra_user_field: 1 },
      level: 8,
      joined_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
      is_2fa_enabled: false,
      has_social_auth: false,
      something_new: 'x',
    });
    expect(m).toMatchObject({ level: 8, something_new: 'x', user: { extra_user_field: 1 } });
  });
  it('accepts only levels 1, 8 and 15, with production messages', () => {
    expect(memberUpdateSchema.parse({ level: 15 })).toEqual({ level: 15 });
    const bad = memberUpdateSchema.safeParse({ level: 5 });
    expect(paths(bad)).toEqual([['level']]);
    expect(messages(bad)).toEqual(['"5" is not a valid choice.']);
    expect(messages(memberUpdateSchema.safeParse({}))).toEqual(['This field is required.']);
  });
  it('strips read-only fields from the update body', () => {
    expect(memberUpdateSchema.parse({ level: 1, joined_at: 'x', user: {} })).toEqual({ level: 1 });
  });
});

describe('users', () => {
  it('parses the embedded user and names it', () => {
    expect(userSchema.parse(user).email).toBe('ada@example.com');
    expect(userDisplayName(user)).toBe('Ada Lovelace');
    expect(userDisplayName({ first_name: '', last_name: null, email: 'x@y.io' })).toBe('x@y.io');
  });
});

describe('invites', () => {
  const invite = {
    id: 'i1',
    target_email: 'a@b.co',
    first_name: 'A',
    emailing_attempt_made: true,
    level: 1,
    is_expired: false,
    created_by: user,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    message: null,
    private_project_access: [{ id: 2, level: 8 }],
    new_field: true,
  };
  it('parses an invite with extra fields', () => {
    expect(inviteSchema.parse(invite)).toMatchObject({ new_field: true, created_by: { id: 1 } });
    expect(inviteSchema.parse({ ...invite, created_by: null }).created_by).toBeNull();
  });
  it('requires a valid email and defaults the level to member', () => {
    expect(inviteCreateSchema.parse({ target_email: 'x@example.com' })).toEqual({
      target_email: 'x@example.com',
      level: 1,
    });
    const bad = inviteCreateSchema.safeParse({ target_email: 'not-an-email', level: 3 });
    expect(paths(bad)).toEqual([['target_email'], ['level']]);
    expect(messages(bad)[0]).toBe('Enter a valid email address.');
    expect(messages(inviteCreateSchema.safeParse({}))).toEqual(['This field is required.']);
  });
  it('validates private project access entries', () => {
    const bad = inviteCreateSchema.safeParse({
      target_email: 'x@example.com',
      private_project_access: [{ id: 1, level: 15 }],
    });
    expect(paths(bad)).toEqual([['private_project_access', 0, 'level']]);
  });
  it('bulk takes 1 to 20 invites and reports the failing item', () => {
    const one = { target_email: 'x@example.com' };
    expect(inviteBulkCreateSchema.safeParse(Array.from({ length: 20 }, () => one)).success).toBe(true);
    const tooMany = inviteBulkCreateSchema.safeParse(Array.from({ length: 21 }, () => one));
    expect(messages(tooMany)).toEqual(['Ensure this field has no more than 20 elements.']);
    expect(inviteBulkCreateSchema.safeParse([]).success).toBe(false);
    expect(paths(inviteBulkCreateSchema.safeParse([one, { target_email: 'bad' }]))).toEqual([[1, 'target_email']]);
    expect(messages(inviteBulkCreateSchema.safeParse(one))).toEqual(['Expected a list of items but got type "dict".']);
  });
  it('expires after three days', () => {
    const created = '2024-01-01T00:00:00Z';
    expect(isInviteExpired(created, new Date('2024-01-03T23:59:59Z'))).toBe(false);
    expect(isInviteExpired(created, new Date('2024-01-04T00:00:01Z'))).toBe(true);
  });
});

describe('domains', () => {
  it('parses a domain with extra fields', () => {
    const d = domainSchema.parse({
      id: 'd',
      domain: 'example.com',
      is_verified: false,
      verified_at: null,
      verification_challenge: 'c'.repeat(32),
      jit_provisioning_enabled: false,
      sso_enforcement: '',
      has_saml: false,
      saml_entity_id: null,
      saml_acs_url: null,
      saml_x509_cert: null,
      extra: 1,
    });
    expect(d.extra).toBe(1);
  });
  it.each(['example.com', 'my-site.co.uk', 'a1.io'])('accepts %s', (domain) => {
    expect(domainCreateSchema.safeParse({ domain }).success).toBe(true);
  });
  it.each(['Example.com', 'foo', 'https://example.com', 'example.com/path', '-a.com', 'a..com'])(
    'rejects %s on domain',
    (domain) => {
      const r = domainCreateSchema.safeParse({ domain });
      expect(paths(r)).toEqual([['domain']]);
      expect(messages(r)[0]).toMatch(/lower case/);
    },
  );
  it('cannot change the domain after create', () => {
    expect(domainUpdateSchema.parse({ domain: 'other.com', jit_provisioning_enabled: true })).toEqual({
      jit_provisioning_enabled: true,
    });
  });
  it('rejects an unknown SSO provider', () => {
    expect(messages(domainUpdateSchema.safeParse({ sso_enforcement: 'myspace' }))).toEqual([
      '"myspace" is not a valid choice.',
    ]);
  });
});
