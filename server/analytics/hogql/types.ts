/**
 * The value types of the HogQL subset and the conversions shared by the compiler and the
 * TypeScript reference (docs/hogql.md). Dates and datetimes are wall times in the project's zone.
 */
export type HogqlType = 'text' | 'number' | 'bool' | 'datetime' | 'date' | 'null';

/** Text that reads as a number (anything else converts to null). */
export const NUMERIC_TEXT = '^[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][-+]?[0-9]+)?$';
/** Text that reads as a date or a datetime. */
export const DATE_TEXT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}( ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9])?$';

/** The type several branches of `if`/`multiIf`/`coalesce` share. */
export function unifyTypes(types: readonly HogqlType[]): HogqlType {
  const known = [...new Set(types.filter((t) => t !== 'null'))];
  if (known.length === 0) return 'null';
  if (known.length === 1) return known[0]!;
  if (known.every((t) => t === 'number' || t === 'bool')) return 'number';
  if (known.every((t) => t === 'date' || t === 'datetime')) return 'datetime';
  return 'text';
}

const DATE_RE = new RegExp(DATE_TEXT);

/** The wall time (ms) of a date text, or null when it is not one or not on the calendar. */
export function parseDateText(text: string): number | null {
  if (!DATE_RE.test(text)) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = text.split(/[- :]/).map(Number) as number[];
  const wall = Date.UTC(y!, mo! - 1, d!, h, mi, s);
  const date = new Date(wall);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d) return null;
  // Years before 100 are shifted by Date.UTC; none of them is an event's date.
  return y! < 100 ? null : wall;
}

/** A wall time as DuckDB TIMESTAMP text. */
export function hogqlWallText(wall: number): string {
  return new Date(wall).toISOString().replace('T', ' ').replace('Z', '');
}
