import type { MailMessage } from '../../../mail/outbox.ts';
import { INVITE_EXPIRY_DAYS, INVITE_TOKEN_PARAM } from '../../../../src/contract/index.ts';
import type { CreatedInvite } from '../../../store/invites.ts';

/**
 * The app's page where an invitee accepts, on the server's public origin, with the invite's
 * secret in the fragment: browsers never send a fragment to a server, so it stays out of logs.
 */
export const acceptLink = (origin: string, invite: CreatedInvite) =>
  `${origin}/invite/${encodeURIComponent(invite.id)}#${INVITE_TOKEN_PARAM}=${encodeURIComponent(invite.secret)}`;

/** The invite email: who invited whom to what, the accept link, and when it stops working. */
export function inviteEmail(
  row: CreatedInvite,
  organizationName: string,
  inviterName: string | null,
  origin: string,
): MailMessage {
  const greeting = row.first_name ? `Hi ${row.first_name},` : 'Hi,';
  const lines = [
    greeting,
    '',
    `${inviterName ?? 'Someone'} invited you to join ${organizationName} on the analytics dashboard.`,
    ...(row.message ? ['', row.message] : []),
    '',
    'Accept the invite:',
    acceptLink(origin, row),
    '',
    `The link works for ${INVITE_EXPIRY_DAYS} days.`,
  ];
  return { to: row.target_email, subject: `Join ${organizationName}`, text: lines.join('\n') };
}
