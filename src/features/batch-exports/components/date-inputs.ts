/**
 * Values of `<input type="datetime-local">`, in the viewer's time zone, and of `<input
 * type="date">`, which are days in UTC: a batch export's days and weeks start at midnight UTC
 * (src/contract/batch-exports.ts), so the day picked is the day exported, wherever the viewer is.
 */
const pad = (n: number) => String(n).padStart(2, '0');

export function toInputValue(date: Date, dateOnly: boolean): string {
  if (dateOnly) return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The picker's value as an instant (null when blank or not a date): a date is its midnight UTC. */
export function fromInputValue(value: string, dateOnly: boolean): Date | null {
  if (!value) return null;
  const date = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An API timestamp as a `datetime-local` value ('' for none). */
export function isoToInputValue(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : toInputValue(date, false);
}
