import { formatDateTime, formatRelative } from '@/lib/dates';
import { useClockTick } from '@/lib/clock';

/**
 * An instant as people say it ("3 minutes ago"), kept current while it is shown (src/lib/clock.ts),
 * with the exact date and time in its title and `dateTime`.
 */
export function RelativeTime({ value, className }: { value: string; className?: string }) {
  useClockTick();
  return (
    <time dateTime={value} title={formatDateTime(value)} className={className}>
      {formatRelative(value)}
    </time>
  );
}
