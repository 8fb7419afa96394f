/** Number, percent and duration text of the insight charts, their axes and their tables. */

const percentFormats = new Map<number, Intl.NumberFormat>();
const percentWithDecimals = (digits: number) => {
  let format = percentFormats.get(digits);
  if (!format)
    percentFormats.set(
      digits,
      (format = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: digits })),
    );
  return format;
};
const smallPercentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumSignificantDigits: 2 });
const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const compactFormat = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

/**
 * A ratio (0.125) as "12.5%". A rate that is not 0 or 100% never reads as one: below 1% it keeps
 * two significant digits (0.0002 → "0.02%"), just under 100% as many decimals as it takes
 * (0.9996 → "99.96%").
 */
export function formatPercent(ratio: number): string {
  const percent = Math.abs(ratio) * 100;
  if (ratio !== 0 && percent < 1) return smallPercentFormat.format(ratio);
  if (percent > 99.9 && percent < 100)
    return percentWithDecimals(Math.min(6, Math.ceil(-Math.log10(100 - percent)) + 1)).format(ratio);
  return percentWithDecimals(1).format(ratio);
}
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
  const units: Array<[string, number]> = [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ];
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
