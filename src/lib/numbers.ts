/** Counts as every screen writes them: thousands grouped in the reader's locale ("3,118"). */

let countFormat: Intl.NumberFormat | undefined;

/** A count as text; null (not known) as "—". The formatter is made on first use, not while the app starts. */
export function formatCount(value: number | null): string {
  if (value === null) return '—';
  countFormat ??= new Intl.NumberFormat();
  return countFormat.format(value);
}
