/**
 * Words for what the pickers show: event names and property keys as people read them (the
 * insights' display names), compact counts, series letters. Pure functions, shared by every picker.
 */

export { eventLabel, propertyLabel } from '../../../lib/display-names';

const compactFormat = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** 12345 → "12.3K" style, but lower-case ("12.3k"), as the pickers show volumes. */
export function compactCount(n: number): string {
  return compactFormat.format(n).replace('K', 'k');
}

/** 0 → A, 1 → B, … 25 → Z, 26 → AA (the letters formulas use). */
export function seriesLetter(index: number): string {
  let n = index;
  let out = '';
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}

/** "Series A" → "series A" (inside a sentence; the letter stays a capital). */
export function lowerFirst(s: string): string {
  return s ? s[0]!.toLowerCase() + s.slice(1) : s;
}
