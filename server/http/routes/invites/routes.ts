import {
  endpoints, inviteAcceptEndpoint, isInviteExpired, userDisplayName, type InviteCreate,
} from '../../../../src/contract/index.ts';
import { createMailer, outboxDirOf, type Mailer } from '../../../mail/outbox.ts';
import type { InviteRow } from '../../../store/invites.ts';
import type { Level } from '../../../store/memberships.ts';
import { generatePersonalApiKey, newUuid, randomBase62 } from '../../../store/secrets.ts';
import { reachableOrganization } from '../../access.ts';
import { notFound, validationError } from '../../errors.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { membershipActivity } from '../members/routes.ts';
import { bulkEnvelopeSchema, firstError, inviteProblem, parseBulk } from './input.ts';
import { inviteEmail } from './mail.ts';
import { inviteResponse } from './serializers.ts';

export const INVITE_SCOPE = 'OrganizationInvite';

/**
 * `{ORG}/invites/` and the public accept endpoint. Invite emails go to the data dir's `mail/`
 * outbox (or SMTP when `SMTP_URL` is set); `emailing_attempt_made` records whether that worked.
 */
export function registerInviteRoutes(router: Router, { store, now }: Deps, mailer?: Mailer): void {
  const e = endpoints.invites;
  const mail = mailer ?? createMailer({ outboxDir: outboxDirOf(store.db.name), smtpUrl: process.env.SMTP_URL || undefined, now });

  const create = (organizationId: string, userId: number, invites: InviteCreate[]): InviteRow[] => {
    const at = now().toISOString();
    return store.transaction(() => invites.map((invite) => {
      const row = store.invites.create({
        organization_id: organizationId, target_email: invite.target_email, first_name: invite.first_name || null,
        level: invite.level as Level, message: invite.message || null,
        private_project_access: invite.private_project_access ? JSON.stringify(invite.private_project_access) : null,
        created_by: userId, created_at: at,
      });
      store.activityLog.add({
        organization_id: organizationId, project_id: null, scope: INVITE_SCOPE, item_id: row.id, activity: 'invited',
        detail: { name: row.target_email, changes: [{ type: INVITE_SCOPE, action: 'created', field: 'level', before: null, after: row.level }] },
        user_id: userId,
      }, at);
      return row;
    }));
  };
  const send = async (rows: InviteRow[], organizationId: string, userId: number, url: string) => {
    const organization = store.organizations.get(organizationId)!;
    const inviter = store.users.get(userId);
    const origin = new URL(url).origin;
    for (const row of rows) {
      if (await mail.send(inviteEmail(row, organization.name, inviter ? userDisplayName(inviter) : null, origin))) {
        store.invites.markEmailed(row.id);
        row.emailing_attempt_made = 1;
      }
    }
    return rows.map((row) => inviteResponse(store, row, now()));
  };

  router.route({ ...e.bulk, body: bulkEnvelopeSchema } as unknown as typeof e.bulk, async ({ auth, params, body, url }) => {
    const { level } = reachableOrganization(store, auth, params.organization_id);
    const invites = parseBulk(store, params.organization_id, level, body as unknown[]);
    return send(create(params.organization_id, auth.userId, invites), params.organization_id, auth.userId, url);
  });

  router.route(e.list, ({ auth, params, query, url }) => {
    reachableOrganization(store, auth, params.organization_id);
    const at = now();
    return paginate(url, query,
      () => store.invites.count(params.organization_id),
      ({ limit, offset }) => store.invites.list(params.organization_id, limit, offset).map((row) => inviteResponse(store, row, at)));
  });

  router.route(e.create, async ({ auth, params, body, url }) => {
    const { level } = reachableOrganization(store, auth, params.organization_id);
    const problem = inviteProblem(store, params.organization_id, level, body);
    if (problem) throw firstError(problem);
    const [created] = await send(create(params.organization_id, auth.userId, [body]), params.organization_id, auth.userId, url);
    return created!;
  });

  router.route(e.destroy, ({ auth, params }) => {
    reachableOrganization(store, auth, params.organization_id);
    const row = store.invites.get(params.id);
    if (!row || row.organization_id !== params.organization_id) throw notFound();
    const at = now().toISOString();
    store.transaction(() => {
      store.invites.remove(row.id);
      store.activityLog.add({
        organization_id: row.organization_id, project_id: null, scope: INVITE_SCOPE, item_id: row.id, activity: 'deleted',
        detail: { name: row.target_email, changes: null }, user_id: auth.userId,
      }, at);
    });
  });

  // Public: the invite's id (a random UUID, sent only to the invitee) is the credential. A new
  // user gets a key limited to this organization, shown once; an existing user keeps their own.
  router.publicRoute(inviteAcceptEndpoint, ({ params, body }) => {
    const row = store.invites.get(params.id);
    if (!row) throw notFound();
    if (isInviteExpired(row.created_at, now())) throw validationError('expired', 'This invite has expired: ask for a new one.', null);
    if (row.target_email.toLowerCase() !== body.email.toLowerCase()) {
      throw validationError('invalid_input', 'This invite was sent to another email address.', 'email');
    }
    const organization = store.organizations.get(row.organization_id)!;
    const at = now().toISOString();
    return store.transaction(() => {
      let key: string | null = null;
      let user = store.users.getByEmail(row.target_email);
      if (!user) {
        user = store.users.create({
          uuid: newUuid(), distinct_id: randomBase62(32), first_name: body.first_name, last_name: body.last_name ?? '',
          email: row.target_email, is_email_verified: 1, created_at: at,
        });
        key = generatePersonalApiKey();
        store.apiKeys.create({ user_id: user.id, label: `Invite to ${organization.name}`, scopes: ['*'], scoped_organizations: [organization.id], key }, at);
      }
      let level = store.memberships.level(organization.id, user.id);
      if (level === undefined) {
        const membership = store.memberships.add(organization.id, user.id, row.level, at);
        level = row.level;
        store.activityLog.add(membershipActivity({ ...user, id: membership.id, organization_id: organization.id }, 'created', user.id, [
          { type: 'OrganizationMembership', action: 'created', field: 'level', before: null, after: row.level },
        ]), at);
      }
      store.invites.remove(row.id);
      return { organization: { id: organization.id, name: organization.name }, level, personal_api_key: key };
    });
  });
}
