import { useEffect, useRef } from 'react';
import { formatDateTime, formatRelative } from '@/lib/dates';
import { useClockTick } from '@/lib/clock';

/**
 * An instant as people say it ("3 minutes ago"), kept current while it is shown (src/lib/clock.ts),
 * with the exact date and time in its title and `dateTime`.
 *
 * The title is written a task after the render (an effect): parsing and formatting an exact date
 * for every row is work the first list's render does not need (it adds to the page's blocking time), and
 * the title is only read on hover.
 */
export function RelativeTime({ value, className }: { value: string; className?: string }) {
  useClockTick();
  const ref = useRef<HTMLTimeElement>(null);
  useEffect(() => {
    ref.current?.setAttribute('title', formatDateTime(value));
  }, [value]);
  return (
    <time ref={ref} dateTime={value} className={className}>
      {formatRelative(value)}
    </time>
  );
}
