/** Dates as people read them, in the viewer's locale and time zone (Intl: no date library in the bundle). */
function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Made on first use (the locale's data is loaded off the main thread at start: see src/warm-up.ts). */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const DATE_TIME: Intl.DateTimeFormatOptions = { ...DATE, hour: '2-digit', minute: '2-digit' };
const dateFormat = lazy(() => new Intl.DateTimeFormat(undefined, DATE));
const dateTimeFormat = lazy(() => new Intl.DateTimeFormat(undefined, DATE_TIME));
// Wall times (formatWallTime) are built as UTC instants and read back in UTC: no zone moves them.
const wallDateFormat = lazy(() => new Intl.DateTimeFormat(undefined, { ...DATE, timeZone: 'UTC' }));
const wallDateTimeFormat = lazy(() => new Intl.DateTimeFormat(undefined, { ...DATE_TIME, timeZone: 'UTC' }));
const relativeFormat = lazy(() => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));

/** An instant the start-up steps parse and format once. */
const SAMPLE = '2026-01-02T03:04:05.678Z';

/**
 * Makes the formatters most pages draw with and uses each once, each a step of its own: the entry
 * runs them in tasks of their own while the first page's data is on the wire (src/main.tsx), so
 * that the first list's render does not make them. A first formatter costs 5–10 ms on a desktop
 * when the warm-up worker has not yet loaded the locale's data (src/warm-up.ts), four times
 * that on a phone; the first date parsed and formatted (the time zone's rules) about 1 ms more.
 */
export const formatterSteps: ReadonlyArray<() => void> = [
  () => relativeFormat().format(-1, 'day'),
  () => dateTimeFormat().format(parse(SAMPLE)!),
  () => dateFormat().format(parse(SAMPLE)!),
];

/** `Mar 5, 2024` */
export function formatDate(value: string | null | undefined): string {
  const date = parse(value);
  return date ? dateFormat().format(date) : '—';
}

/** `Mar 5, 2024, 14:03` */
export function formatDateTime(value: string | null | undefined): string {
  const date = parse(value);
  return date ? dateTimeFormat().format(date) : '—';
}

/**
 * A time the API wrote as a wall time in the project's zone (`2026-11-02T00:00:00-05:00`), read
 * as written: `Nov 2, 2026`, with the time when it is not midnight (or always, `withTime`: an
 * hourly bucket at midnight is not a day). The viewer's own zone plays no part (a bucket of the
 * project's day must not show as the day before). Null when it is not such a text.
 */
export function formatWallTime(value: string, withTime = false): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute));
  // 2026-02-30 is no date: Date.UTC would roll it over to March 2.
  if (wall.getUTCMonth() !== month - 1 || wall.getUTCDate() !== day) return null;
  return (hour === 0 && minute === 0 && !withTime ? wallDateFormat() : wallDateTimeFormat()).format(wall);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** `3 days ago`, `in 2 hours` */
export function formatRelative(value: string | null | undefined, now: Date = new Date()): string {
  const date = parse(value);
  if (!date) return '—';
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second')
      return relativeFormat().format(Math.round(seconds / size), unit);
  }
  return relativeFormat().format(0, 'second');
}
