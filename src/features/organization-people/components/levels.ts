import type { Invite } from '@/contract/invites';
import { INVITE_EXPIRY_DAYS } from '@/contract/invites';

export const LEVELS = [
  { value: 1, label: 'Member' },
  { value: 8, label: 'Admin' },
  { value: 15, label: 'Owner' },
] as const;
export type LevelValue = (typeof LEVELS)[number]['value'];

export const levelLabel = (level: number) => LEVELS.find((l) => l.value === level)?.label ?? `Level ${level}`;

const DAY_MS = 86_400_000;

/** "Expires in 2 days", "Expires in 5 hours", or "Expired": an invite lives 3 days from created_at. */
export function inviteExpiry(
  invite: Pick<Invite, 'created_at' | 'is_expired'>,
  now: Date = new Date(),
): { expired: boolean; text: string } {
  const left = Date.parse(invite.created_at) + INVITE_EXPIRY_DAYS * DAY_MS - now.getTime();
  if (invite.is_expired || left <= 0) return { expired: true, text: 'Expired' };
  if (left >= DAY_MS) {
    const days = Math.round(left / DAY_MS);
    return { expired: false, text: `Expires in ${days} day${days === 1 ? '' : 's'}` };
  }
  const hours = Math.max(1, Math.floor(left / 3_600_000));
  return { expired: false, text: `Expires in ${hours} hour${hours === 1 ? '' : 's'}` };
}
