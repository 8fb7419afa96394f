import { ANALYTICS_LIMITS } from '@/contract/analytics-limits';
import type { Interval } from '@/contract/analytics-params';

/** The date range presets, as the API's relative dates (docs/api.md, "Dates": `-7d`, `mStart`, `all`). */
export const DATE_PRESETS = [
  { value: '-24h', label: 'Last 24 hours' },
  { value: '-7d', label: 'Last 7 days' },
  { value: '-14d', label: 'Last 14 days' },
  { value: '-30d', label: 'Last 30 days' },
  { value: '-90d', label: 'Last 90 days' },
  { value: 'mStart', label: 'This month' },
  { value: 'yStart', label: 'This year' },
  { value: 'all', label: 'All time' },
] as const;

export interface DateRange {
  date_from?: string | null | undefined;
  date_to?: string | null | undefined;
}

const UNIT_WORDS: Record<string, string> = { h: 'hour', d: 'day', w: 'week', m: 'month', q: 'quarter', y: 'year' };

/** A relative start without an end that is not a preset (`-60d` → "Last 60 days"), else null. */
export function relativeOption(range: DateRange): { value: string; label: string } | null {
  if (range.date_to || !range.date_from || presetOf(range)) return null;
  const match = /^-(\d*)([hdwmqy])$/.exec(range.date_from);
  if (!match) return null;
  const n = Number(match[1] || 1);
  const unit = UNIT_WORDS[match[2]!]!;
  return { value: range.date_from, label: n === 1 ? `Last ${unit}` : `Last ${n} ${unit}s` };
}

/** The preset this range is (no date_to), else null (a custom range). Missing date_from is the API's -7d. */
export function presetOf(range: DateRange): (typeof DATE_PRESETS)[number] | null {
  if (range.date_to) return null;
  const from = range.date_from ?? '-7d';
  return DATE_PRESETS.find((p) => p.value === from) ?? null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNIT_MS: Record<string, number> = { h: HOUR, d: DAY, w: 7 * DAY, m: 30.44 * DAY, q: 91 * DAY, y: 365.25 * DAY };

/** `2026-01-31` → local midnight of that day (dates without a zone are the project's; close enough here). */
function parseAbsolute(value: string): number | null {
  const time = /^\d{4}-\d{1,2}-\d{1,2}$/.test(value) ? new Date(`${value}T00:00:00`).getTime() : Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** The instant a date parameter means (relative ones from `now`); null for `all` or what cannot be read. */
export function instantOf(value: string | null | undefined, now: Date, isEnd = false): number | null {
  if (value === null || value === undefined || value === '') return isEnd ? now.getTime() : now.getTime() - 7 * DAY;
  if (value === 'all') return null;
  const relative = /^(-?)(\d*)([hdwmqy])(Start|End)?$/.exec(value);
  if (relative) {
    const [, minus, digits, unit, snap] = relative;
    const n = minus ? Number(digits || 1) : 0;
    const at = new Date(now.getTime() - n * UNIT_MS[unit!]!);
    if (snap === 'Start') {
      if (unit === 'y') return new Date(at.getFullYear(), 0, 1).getTime();
      if (unit === 'm' || unit === 'q') return new Date(at.getFullYear(), at.getMonth(), 1).getTime();
      if (unit === 'd' || unit === 'w') return new Date(at.getFullYear(), at.getMonth(), at.getDate()).getTime();
    }
    return at.getTime();
  }
  const absolute = parseAbsolute(value);
  // A date as the end of a range means the whole of that day.
  return absolute !== null && isEnd && /^\d{4}-\d{1,2}-\d{1,2}$/.test(value) ? absolute + DAY - 1 : absolute;
}

const INTERVAL_MS: Record<Interval, number> = { hour: HOUR, day: DAY, week: 7 * DAY, month: 30.44 * DAY };

/** About how many points a trend over this range has at this interval; null when unknown (`all`). */
export function bucketCount(interval: Interval, range: DateRange, now = new Date()): number | null {
  const from = instantOf(range.date_from, now);
  const to = instantOf(range.date_to, now, true);
  if (from === null || to === null || to < from) return null;
  return Math.floor((to - from) / INTERVAL_MS[interval]) + 1;
}

const ADVERBS: Record<Interval, string> = { hour: 'Hourly', day: 'Daily', week: 'Weekly', month: 'Monthly' };

/** Why the interval cannot be used with this range (over ANALYTICS_LIMITS.buckets points), or null. */
export function intervalRefusal(interval: Interval, range: DateRange, now = new Date()): string | null {
  const n = bucketCount(interval, range, now);
  if (n === null || n <= ANALYTICS_LIMITS.buckets) return null;
  return `${ADVERBS[interval]} would make ${n.toLocaleString('en')} points; a chart holds at most ${ANALYTICS_LIMITS.buckets.toLocaleString('en')}.`;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A Date as the API's `YYYY-MM-DD` (local calendar day). */
export const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** `YYYY-MM-DD` → the local Date of that day, or undefined. */
export function dayOf(value: string | null | undefined): Date | undefined {
  if (!value || !/^\d{4}-\d{1,2}-\d{1,2}/.test(value)) return undefined;
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  return new Date(y!, m! - 1, d!);
}

const dayFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' });

/** The range in words: a preset's name, or "1 Jan 2026 – 31 Jan 2026". */
export function rangeLabel(range: DateRange): string {
  const preset = presetOf(range) ?? relativeOption(range);
  if (preset) return preset.label;
  const from = dayOf(range.date_from);
  const to = dayOf(range.date_to);
  const text = (d: Date | undefined, raw: string | null | undefined, fallback: string) =>
    d ? dayFormat.format(d) : raw || fallback;
  return `${text(from, range.date_from, 'Last 7 days')} – ${text(to, range.date_to, 'now')}`;
}
