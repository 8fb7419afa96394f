import type { Store } from '../store/store.ts';
import { newChallenge } from '../store/domains.ts';
import { newUuid } from '../store/secrets.ts';

const hoursBefore = (now: Date, hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();

/** Seeded invites per organization (index into the seed's organizations): pending and expired ones. */
const INVITES = [
  {
    org: 0,
    email: 'nadia@hedgebox.example',
    first_name: 'Nadia',
    level: 1,
    hoursAgo: 20,
    message: 'Welcome to the analytics team!',
  },
  { org: 0, email: 'oliver@partner.example', first_name: 'Oliver', level: 8, hoursAgo: 2, message: null },
  { org: 0, email: 'old.hire@hedgebox.example', first_name: null, level: 1, hoursAgo: 24 * 5, message: null },
  { org: 1, email: 'ines@northwind.example', first_name: 'Inès', level: 1, hoursAgo: 30, message: null },
] as const;

/** Users with two-factor authentication or a social login (the members table shows badges). */
const TWO_FACTOR = ['demo@example.com', 'priya@hedgebox.example', 'amara@northwind.example'];
const SOCIAL = ['marcus@hedgebox.example', 'jonas@northwind.example'];

/**
 * Organization people beyond the memberships: 2FA and social-login flags, pending and
 * expired invites, and in the first organization one verified and one unverified domain.
 */
export function seedPeople(store: Store, organizationIds: string[], inviterId: number, now: Date): void {
  const flag = store.db.prepare('UPDATE users SET is_2fa_enabled = ?, has_social_auth = ? WHERE email = ?');
  for (const email of TWO_FACTOR) flag.run(1, 0, email);
  for (const email of SOCIAL) flag.run(0, 1, email);
  for (const invite of INVITES) {
    const organizationId = organizationIds[invite.org];
    if (!organizationId) continue;
    const row = store.invites.create({
      organization_id: organizationId,
      target_email: invite.email,
      first_name: invite.first_name,
      level: invite.level,
      message: invite.message,
      private_project_access: null,
      created_by: inviterId,
      created_at: hoursBefore(now, invite.hoursAgo),
    });
    store.invites.markEmailed(row.id);
  }
  const domain = (organizationId: string, name: string, verifiedHoursAgo: number | null, jit: boolean) =>
    store.domains.create({
      id: newUuid(),
      organization_id: organizationId,
      domain: name,
      verification_challenge: newChallenge(),
      verified_at: verifiedHoursAgo === null ? null : hoursBefore(now, verifiedHoursAgo),
      jit_provisioning_enabled: jit ? 1 : 0,
      sso_enforcement: '',
      saml_entity_id: null,
      saml_acs_url: null,
      saml_x509_cert: null,
      created_at: hoursBefore(now, (verifiedHoursAgo ?? 0) + 48),
    });
  if (organizationIds[0]) {
    domain(organizationIds[0], 'hedgebox.example', 24 * 10, true);
    domain(organizationIds[0], 'hedgebox-labs.example', null, false);
  }
}
