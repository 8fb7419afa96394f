import {
  endpoints,
  inviteAcceptEndpoint,
  isInviteExpired,
  MEMBERSHIP_LEVELS,
  userDisplayName,
  type InviteCreate,
} from '../../../../src/contract/index.ts';
import { createMailer, outboxDirOf, type Mailer } from '../../../mail/outbox.ts';
import type { CreatedInvite } from '../../../store/invites.ts';
import type { Level } from '../../../store/memberships.ts';
import { generatePersonalApiKey, newUuid, randomBase62 } from '../../../store/secrets.ts';
import { reachableOrganization } from '../../access.ts';
import { notFound, permissionDenied, validationError } from '../../errors.ts';
import { clientAddress } from '../../raw-request.ts';
import type { Authenticate } from '../../auth.ts';
import { paginate } from '../../pagination.ts';
import type { Router } from '../../router.ts';
import type { Deps } from '../../types.ts';
import { membershipActivity } from '../members/routes.ts';
import { bulkEnvelopeSchema, firstError, inviteProblem, parseBulk } from './input.ts';
import { acceptLink, inviteEmail } from './mail.ts';
import { inviteResponse } from './serializers.ts';

export const INVITE_SCOPE = 'OrganizationInvite';

/**
 * `{ORG}/invites/` and the public accept endpoint. Invite emails go to the data dir's `mail/`
 * outbox (or SMTP when `SMTP_URL` is set); `emailing_attempt_made` records whether that worked.
 */
export function registerInviteRoutes(
  router: Router,
  { store, now, publicUrl }: Deps,
  authenticate: Authenticate,
  mailer?: Mailer,
): void {
  const e = endpoints.invites;
  const mail =
    mailer ?? createMailer({ outboxDir: outboxDirOf(store.db.name), smtpUrl: process.env.SMTP_URL || undefined, now });

  const create = (organizationId: string, userId: number, invites: InviteCreate[]): CreatedInvite[] => {
    const at = now().toISOString();
    return store.transaction(() =>
      invites.map((invite) => {
        const row = store.invites.create({
          organization_id: organizationId,
          target_email: invite.target_email,
          first_name: invite.first_name || null,
          level: invite.level as Level,
          message: invite.message || null,
          private_project_access: invite.private_project_access ? JSON.stringify(invite.private_project_access) : null,
          created_by: userId,
          created_at: at,
        });
        store.activityLog.add(
          {
            organization_id: organizationId,
            project_id: null,
            scope: INVITE_SCOPE,
            item_id: row.id,
            activity: 'invited',
            detail: {
              name: row.target_email,
              changes: [{ type: INVITE_SCOPE, action: 'created', field: 'level', before: null, after: row.level }],
            },
            user_id: userId,
          },
          at,
        );
        return row;
      }),
    );
  };
  // An admin or owner gets each new invite's accept link in the answer, to pass on by hand when
  // the email does not arrive; a member who may invite gets none (it would let them accept it).
  const send = async (rows: CreatedInvite[], organizationId: string, userId: number, callerLevel: Level) => {
    const organization = store.organizations.get(organizationId)!;
    const inviter = store.users.get(userId);
    for (const row of rows) {
      if (
        await mail.send(
          inviteEmail(row, organization.name, inviter ? userDisplayName(inviter) : null, publicUrl.origin),
        )
      ) {
        store.invites.markEmailed(row.id);
        row.emailing_attempt_made = 1;
      }
    }
    return rows.map((row) => ({
      ...inviteResponse(store, row, now()),
      accept_url: callerLevel >= MEMBERSHIP_LEVELS.admin ? acceptLink(publicUrl.origin, row) : null,
    }));
  };

  router.route({ ...e.bulk, body: bulkEnvelopeSchema } as unknown as typeof e.bulk, async ({ auth, params, body }) => {
    const { level } = reachableOrganization(store, auth, params.organization_id);
    const invites = parseBulk(store, params.organization_id, level, body as unknown[]);
    return send(create(params.organization_id, auth.userId, invites), params.organization_id, auth.userId, level);
  });

  router.route(e.list, ({ auth, params, query, url }) => {
    reachableOrganization(store, auth, params.organization_id);
    const at = now();
    return paginate(
      url,
      query,
      () => store.invites.count(params.organization_id),
      ({ limit, offset }) =>
        store.invites.list(params.organization_id, limit, offset).map((row) => inviteResponse(store, row, at)),
    );
  });

  router.route(e.create, async ({ auth, params, body }) => {
    const { level } = reachableOrganization(store, auth, params.organization_id);
    const problem = inviteProblem(store, params.organization_id, level, body);
    if (problem) throw firstError(problem);
    const [created] = await send(
      create(params.organization_id, auth.userId, [body]),
      params.organization_id,
      auth.userId,
      level,
    );
    return created!;
  });

  router.route(e.destroy, ({ auth, params }) => {
    reachableOrganization(store, auth, params.organization_id);
    const row = store.invites.get(params.id);
    if (!row || row.organization_id !== params.organization_id) throw notFound();
    const at = now().toISOString();
    store.transaction(() => {
      store.invites.remove(row.id);
      store.activityLog.add(
        {
          organization_id: row.organization_id,
          project_id: null,
          scope: INVITE_SCOPE,
          item_id: row.id,
          activity: 'deleted',
          detail: { name: row.target_email, changes: null },
          user_id: auth.userId,
        },
        at,
      );
    });
  });

  // Public, but not open: `token` is the secret of the emailed link (proof the caller reads that
  // mailbox), and an address that already has a user is accepted only with that user's own key.
  // Unknown id and wrong secret answer alike, so neither confirms that an invite exists.
  router.publicRoute(inviteAcceptEndpoint, ({ params, body, c }) => {
    const row = store.invites.get(params.id);
    if (!row || !store.invites.secretMatches(row, body.token)) {
      throw validationError(
        'invalid_token',
        'This invite link is not valid: it was accepted, revoked or replaced by a newer invite, or the link is incomplete.',
        'token',
      );
    }
    if (isInviteExpired(row.created_at, now()))
      throw validationError('expired', 'This invite has expired: ask for a new one.', null);
    if (row.target_email.toLowerCase() !== body.email.toLowerCase()) {
      throw validationError('invalid_input', 'This invite was sent to another email address.', 'email');
    }
    const existing = store.users.getByEmail(row.target_email);
    if (existing) {
      const header = c.req.header('authorization');
      if (!header)
        throw permissionDenied(
          'An account with this email address exists: sign in with its API key to accept this invite.',
        );
      const caller = authenticate(header, clientAddress(c));
      if (caller.userId !== existing.id)
        throw permissionDenied("This invite was sent to another account: sign in with the invited account's API key.");
    }
    const organization = store.organizations.get(row.organization_id)!;
    const at = now().toISOString();
    return store.transaction(() => {
      let key: string | null = null;
      let user = store.users.getByEmail(row.target_email);
      if (!user) {
        user = store.users.create({
          uuid: newUuid(),
          distinct_id: randomBase62(32),
          first_name: body.first_name,
          last_name: body.last_name ?? '',
          email: row.target_email,
          is_email_verified: 1,
          created_at: at,
        });
        key = generatePersonalApiKey();
        store.apiKeys.create(
          {
            user_id: user.id,
            label: `Invite to ${organization.name}`,
            scopes: ['*'],
            scoped_organizations: [organization.id],
            key,
          },
          at,
        );
      }
      let level = store.memberships.level(organization.id, user.id);
      if (level === undefined) {
        const membership = store.memberships.add(organization.id, user.id, row.level, at);
        level = row.level;
        store.activityLog.add(
          membershipActivity({ ...user, id: membership.id, organization_id: organization.id }, 'created', user.id, [
            { type: 'OrganizationMembership', action: 'created', field: 'level', before: null, after: row.level },
          ]),
          at,
        );
      }
      store.invites.remove(row.id);
      return { organization: { id: organization.id, name: organization.name }, level, personal_api_key: key };
    });
  });
}
