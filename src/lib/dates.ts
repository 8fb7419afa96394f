/** Dates as people read them, in the viewer's locale and time zone (Intl: no date library in the bundle). */

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Made on first use: building an Intl formatter loads locale data, which the first paint need not wait for. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const dateFormat = lazy(() => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' }));
const dateTimeFormat = lazy(
  () => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
);
const relativeFormat = lazy(() => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));

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
    if (Math.abs(seconds) >= size || unit === 'second') return relativeFormat().format(Math.round(seconds / size), unit);
  }
  return relativeFormat().format(0, 'second');
}
