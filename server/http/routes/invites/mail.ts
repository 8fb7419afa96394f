import { INVITE_EXPIRY_DAYS } from '../../../../src/contract/index.ts';
import type { MailMessage } from '../../../mail/outbox.ts';
import type { InviteRow } from '../../../store/invites.ts';

/** The app's page where an invitee accepts: `/invite/<id>` on the origin the invite was made through. */
export const acceptLink = (origin: string, inviteId: string) => `${origin}/invite/${encodeURIComponent(inviteId)}`;

/** The invite email: who invited whom to what, the accept link, and when it stops working. */
export function inviteEmail(row: InviteRow, organizationName: string, inviterName: string | null, origin: string): MailMessage {
  const greeting = row.first_name ? `Hi ${row.first_name},` : 'Hi,';
  const lines = [
    greeting,
    '',
    `${inviterName ?? 'Someone'} invited you to join ${organizationName} on the analytics dashboard.`,
    ...(row.message ? ['', row.message] : []),
    '',
    'Accept the invite:',
    acceptLink(origin, row.id),
    '',
    `The link works for ${INVITE_EXPIRY_DAYS} days.`,
  ];
  return { to: row.target_email, subject: `Join ${organizationName}`, text: lines.join('\n') };
}
