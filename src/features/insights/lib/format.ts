/** Number, percent and duration text of the insight charts, their axes and their tables. */

const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const compactFormat = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

/** A ratio (0.125) as "12.5%". */
export const formatPercent = (ratio: number) => percentFormat.format(ratio);
export const formatNumber = (value: number) => numberFormat.format(value);
/** 1200 → "1.2K": for axes. */
export const formatCompact = (value: number) => compactFormat.format(value);

/** Seconds as "45s", "3m 20s", "2h 5m", "3d 4h" (two units at most). */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '';
  const sign = seconds < 0 ? '-' : '';
  let s = Math.abs(seconds);
  if (s < 1) return `${sign}${formatNumber(Math.round(s * 100) / 100)}s`;
  s = Math.round(s);
  const units: Array<[string, number]> = [['d', 86_400], ['h', 3_600], ['m', 60], ['s', 1]];
  const first = units.findIndex(([, size]) => s >= size);
  const parts: string[] = [];
  for (const [unit, size] of units.slice(first, first + 2)) {
    const amount = Math.floor(s / size);
    if (amount > 0) parts.push(`${amount}${unit}`);
    s -= amount * size;
  }
  return sign + (parts.join(' ') || '0s');
}

/** What a value of a chart means: a count, a ratio shown in %, a percentage (0-100), or seconds. */
export type ValueUnit = 'number' | 'ratio' | 'percent' | 'duration';

/** A value in full, for tooltips and tables. */
export function formatValue(value: number, unit: ValueUnit): string {
  switch (unit) {
    case 'ratio':
      return formatPercent(value);
    case 'percent':
      return formatPercent(value / 100);
    case 'duration':
      return formatDuration(value);
    default:
      return formatNumber(value);
  }
}

/** A value on an axis: compact numbers. */
export function formatTick(value: number, unit: ValueUnit): string {
  return unit === 'number' ? formatCompact(value) : formatValue(value, unit);
}

/** The change from `previous` to `current` as "+12.5%", null when there was nothing before. */
export function formatChange(current: number, previous: number): string | null {
  if (previous === 0) return null;
  const change = (current - previous) / Math.abs(previous);
  return `${change > 0 ? '+' : ''}${formatPercent(change)}`;
}
