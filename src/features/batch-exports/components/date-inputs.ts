/** Values of `<input type="date">` / `datetime-local`, in the viewer's time zone. */
const pad = (n: number) => String(n).padStart(2, '0');

export function toInputValue(date: Date, dateOnly: boolean): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return dateOnly ? day : `${day}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The picker's value as an instant (null when blank or not a date). */
export function fromInputValue(value: string, dateOnly: boolean): Date | null {
  if (!value) return null;
  const date = new Date(dateOnly ? `${value}T00:00` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An API timestamp as a `datetime-local` value ('' for none). */
export function isoToInputValue(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : toInputValue(date, false);
}
