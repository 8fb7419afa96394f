import { MEMBERSHIP_LEVELS } from '@/contract/organizations';

/** 1 → Member, 8 → Admin, 15 → Owner (docs/api.md). */
export function membershipLevelLabel(level: number | null | undefined): string {
  switch (level) {
    case MEMBERSHIP_LEVELS.member:
      return 'Member';
    case MEMBERSHIP_LEVELS.admin:
      return 'Admin';
    case MEMBERSHIP_LEVELS.owner:
      return 'Owner';
    case null:
    case undefined:
      return '—';
    default:
      return `Level ${level}`;
  }
}

/** The production service's plugin access levels. */
export function pluginsAccessLabel(level: number): string {
  const labels: Record<number, string> = { 0: 'None', 3: 'Configure', 6: 'Install', 9: 'Root' };
  return `${labels[level] ?? 'Level'} (${level})`;
}
