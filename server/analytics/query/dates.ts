import type { Interval } from '../../../src/contract/analytics.ts';
import { ANALYTICS_LIMITS, RELATIVE_DATE_PATTERN } from '../../../src/contract/analytics.ts';
import { AnalyticsParamError } from '../errors.ts';
import type { QueryContext } from '../types.ts';

/**
 * Dates of the analysis endpoints (docs/api.md, "Dates").
 *
 * Two kinds of numbers are used throughout:
 * - an *instant*: milliseconds since the epoch (UTC), what events are stamped with;
 * - a *wall time*: the project's local calendar/clock reading, encoded as the milliseconds a UTC
 *   clock would show at that reading (`Date.UTC(y, m, d, h, …)`). Buckets live in wall time, so
 *   day/week/month buckets follow the local calendar across DST changes. Hourly buckets are
 *   local clock hours too: on a spring-forward day the skipped hour is a zero bucket; on a
 *   fall-back day the repeated hour is one bucket holding both real hours.
 *
 * In SQL the same wall time is `timezone(<tz>, timestamp)` (a naive TIMESTAMP), and
 * `epoch_ms(naive)` is the wall-time number used here (bucket-sql.ts builds it for buckets).
 */

export type Instant = number;
export type WallTime = number;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall time in `timeZone` at `instant`. */
export function toWall(instant: Instant, timeZone: string): WallTime {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return instant;
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const ms = ((instant % 1000) + 1000) % 1000;
  const year = parts.year ?? 1970;
  const wall = Date.UTC(
    year,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
    ms,
  );
  // Date.UTC maps years 0–99 to 1900–1999.
  return year < 100 ? new Date(wall).setUTCFullYear(year) : wall;
}

/**
 * The instant whose wall time in `timeZone` is `wall`. A wall time skipped by a DST change maps
 * to the instant just after the gap; a repeated one to its first (earlier) occurrence.
 */
export function fromWall(wall: WallTime, timeZone: string): Instant {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return wall;
  const offsetAt = (instant: Instant) => toWall(instant, timeZone) - instant;
  const before = offsetAt(wall - DAY_MS);
  const offsets = [...new Set([before, offsetAt(wall), offsetAt(wall + DAY_MS)])];
  const matches = offsets.map((o) => wall - o).filter((i) => toWall(i, timeZone) === wall);
  // In a gap no instant matches: the offset before the gap lands just after it.
  return matches.length > 0 ? Math.min(...matches) : wall - before;
}

const wallParts = (w: WallTime) => {
  const d = new Date(w);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth(), d: d.getUTCDate(), h: d.getUTCHours(), dow: d.getUTCDay() };
};
const ymd = (y: number, m: number, d: number, h = 0) => {
  const t = new Date(Date.UTC(2000, 0, 1, h));
  t.setUTCFullYear(y, m, d);
  return t.getTime();
};

/** The start of the bucket holding `wall`. Weeks start on Sunday (0) or Monday (1). */
export function truncWall(wall: WallTime, interval: Interval, weekStart: 0 | 1 = 0): WallTime {
  const p = wallParts(wall);
  switch (interval) {
    case 'hour':
      return ymd(p.y, p.m, p.d, p.h);
    case 'day':
      return ymd(p.y, p.m, p.d);
    case 'week':
      return ymd(p.y, p.m, p.d - ((p.dow - weekStart + 7) % 7));
    case 'month':
      return ymd(p.y, p.m, 1);
  }
}

/** `wall` moved by `n` intervals on the calendar (months clamp the day: Jan 31 + 1 month = Feb 28/29). */
export function addWall(wall: WallTime, interval: Interval | 'year' | 'quarter', n: number): WallTime {
  const d = new Date(wall);
  switch (interval) {
    case 'hour':
      return wall + n * HOUR_MS;
    case 'day':
      return wall + n * DAY_MS;
    case 'week':
      return wall + 7 * n * DAY_MS;
    case 'quarter':
      return wall + 13 * 7 * n * DAY_MS;
    case 'month':
    case 'year': {
      const months = interval === 'year' ? 12 * n : n;
      const day = d.getUTCDate();
      const target = new Date(wall);
      target.setUTCDate(1);
      target.setUTCMonth(target.getUTCMonth() + months);
      const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
      target.setUTCDate(Math.min(day, lastDay));
      return target.getTime();
    }
  }
}

/**
 * Every bucket start from the bucket of `fromWall` to the bucket of `toWall`, inclusive. More
 * than ANALYTICS_LIMITS.buckets is a 400 on `interval` (hourly since 2000 would be 230,000).
 */
export function bucketStarts(from: WallTime, to: WallTime, interval: Interval, weekStart: 0 | 1 = 0): WallTime[] {
  const out: WallTime[] = [];
  const last = truncWall(to, interval, weekStart);
  for (let b = truncWall(from, interval, weekStart); b <= last; b = addWall(b, interval, 1)) {
    if (out.length === ANALYTICS_LIMITS.buckets) {
      throw new AnalyticsParamError(
        'interval',
        `This date range has more than ${ANALYTICS_LIMITS.buckets} ${interval}s: choose a longer interval or a shorter date range.`,
      );
    }
    out.push(b);
  }
  return out;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `days` entry: `YYYY-MM-DD`, hourly `YYYY-MM-DD HH:MM:SS`. */
export function formatDay(wall: WallTime, interval: Interval): string {
  const d = new Date(wall);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return interval === 'hour' ? `${date} ${pad(d.getUTCHours())}:00:00` : date;
}

/** `labels` entry: `1-Jan-2020`, hourly `1-Jan-2020 13:00`. */
export function formatLabel(wall: WallTime, interval: Interval): string {
  const d = new Date(wall);
  const date = `${d.getUTCDate()}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()}`;
  return interval === 'hour' ? `${date} ${pad(d.getUTCHours())}:00` : date;
}

/** An instant as ISO 8601 with its offset in `timeZone`: `2024-03-10T00:00:00-05:00`. */
export function formatInstant(instant: Instant, timeZone: string): string {
  const wall = toWall(instant, timeZone);
  const offsetMin = Math.round((wall - instant) / 60_000);
  const iso = new Date(wall - (((wall % 1000) + 1000) % 1000)).toISOString().slice(0, 19);
  if (offsetMin === 0) return `${iso}Z`;
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${iso}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// ---------------------------------------------------------------------------------------------
// Parsing date_from / date_to
// ---------------------------------------------------------------------------------------------

const RELATIVE = /^-?(\d*)([hdwmqy])(Start|End)?$/;
const ABSOLUTE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** Largest relative count accepted (about 10,000 years of days). */
const MAX_RELATIVE = 3_650_000;

export type DateRole = 'from' | 'to';
export interface DateParseOptions {
  now: Instant;
  timeZone: string;
  weekStart: 0 | 1;
  role: DateRole;
}

/** Start of the unit (`h d w m q y`) holding `wall`; quarters are calendar quarters. */
function unitStart(wall: WallTime, unit: string, weekStart: 0 | 1): WallTime {
  switch (unit) {
    case 'h':
      return truncWall(wall, 'hour');
    case 'd':
      return truncWall(wall, 'day');
    case 'w':
      return truncWall(wall, 'week', weekStart);
    case 'm':
      return truncWall(wall, 'month');
    case 'q': {
      const p = wallParts(wall);
      return ymd(p.y, p.m - (p.m % 3), 1);
    }
    default: {
      const p = wallParts(wall);
      return ymd(p.y, 0, 1);
    }
  }
}
function unitNext(start: WallTime, unit: string): WallTime {
  switch (unit) {
    case 'h':
      return start + HOUR_MS;
    case 'd':
      return addWall(start, 'day', 1);
    case 'w':
      return addWall(start, 'week', 1);
    case 'm':
      return addWall(start, 'month', 1);
    case 'q':
      return addWall(start, 'month', 3);
    default:
      return addWall(start, 'year', 1);
  }
}
const UNIT_STEP: Record<string, Interval | 'year' | 'quarter'> = {
  h: 'hour',
  d: 'day',
  w: 'week',
  m: 'month',
  q: 'quarter',
  y: 'year',
};

/**
 * One `date_from`/`date_to` value → an instant, or null for `all` (the caller resolves it).
 * - `YYYY-MM-DD` (zero padding optional: `2020-6-1`): local midnight as `from`, the day's last
 *   millisecond as `to`.
 * - ISO datetime: as given; without a zone it is a local wall time.
 * - `-<n><unit>`: an exact instant, n units before now (`-7d` = now minus 7 days, same time of
 *   day; d/w/m/q/y move on the project's local calendar, h by real hours). `Start`/`End` snap it
 *   to the start/end of its unit (`-1mStart` = first day of last month, `mStart` = this month).
 *   `q` is 13 weeks; `qStart`/`qEnd` are calendar quarters. The range's bucket snapping
 *   (a range starts at the start of date_from's bucket) is {@link resolveDateRange}'s.
 * Returns undefined when the value cannot be read (the params schema normally rejects it first).
 */
export function parseDateParam(value: string, o: DateParseOptions): Instant | null | undefined {
  const v = value.trim();
  if (v === 'all') return null;
  const rel = RELATIVE.exec(v);
  if (rel && RELATIVE_DATE_PATTERN.test(v)) {
    const n = rel[1] ? Number(rel[1]) : 0;
    if (n > MAX_RELATIVE) return undefined;
    const unit = rel[2] ?? 'd';
    const position = rel[3];
    if (!position && unit === 'h') {
      const exact = o.now - n * HOUR_MS;
      return exact >= MIN_INSTANT ? exact : undefined;
    }
    const moved = addWall(toWall(o.now, o.timeZone), UNIT_STEP[unit] ?? 'day', -n);
    if (!(moved >= MIN_INSTANT)) return undefined;
    if (!position) return fromWall(moved, o.timeZone);
    const start = unitStart(moved, unit, o.weekStart);
    return fromWall(position === 'Start' ? start : unitNext(start, unit) - 1, o.timeZone);
  }
  const abs = ABSOLUTE.exec(v);
  if (!abs) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = abs;
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  const wall =
    ymd(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0)) + Number(mi ?? 0) * 60_000 + Number(s ?? 0) * 1000 + ms;
  const check = new Date(wall);
  if (
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    Number(h ?? 0) > 23 ||
    Number(mi ?? 0) > 59 ||
    Number(s ?? 0) > 59
  ) {
    return undefined;
  }
  if (wall < MIN_INSTANT || wall > MAX_INSTANT) return undefined;
  if (h === undefined) return fromWall(o.role === 'from' ? wall : addWall(wall, 'day', 1) - 1, o.timeZone);
  if (!zone) return fromWall(wall, o.timeZone);
  if (zone === 'Z') return wall;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return wall - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

export interface DateRange {
  /** First instant included: the start of the bucket holding date_from. */
  from: Instant;
  /** date_from itself (the exact instant it denotes, before the bucket snap). */
  exactFrom: Instant;
  /** Last instant included. */
  to: Instant;
  timeZone: string;
  weekStart: 0 | 1;
}

/** A 400 on `date_from` / `date_to`. */
export class DateParamError extends AnalyticsParamError {}

/** Instants outside years 1000–9999 are refused (calendar arithmetic stays exact inside). */
export const MIN_INSTANT = Date.UTC(1000, 0, 1);
export const MAX_INSTANT = Date.UTC(9999, 11, 31);

/** Earliest event time of the project (for `all`), or null when it has none. */
export async function firstEventTime(ctx: QueryContext): Promise<Instant | null> {
  const rows = await ctx.db.all<{ t: number | bigint | null }>(
    'SELECT epoch_ms(min(timestamp)) AS t FROM events WHERE team_id = $1',
    [ctx.project.id],
  );
  const t = rows[0]?.t;
  return t === null || t === undefined ? null : Number(t);
}

/**
 * Where compare's previous period begins: `from − (to − from)`. Days, weeks and months measure
 * the span on the local calendar (1 … 7 Nov is seven days in New York though clocks went back
 * on the 3rd); hours measure it in real time, so the previous hours end where the current begin.
 */
export function previousAnchor(from: Instant, to: Instant, interval: Interval, timeZone: string): Instant {
  if (interval === 'hour') return from - (to - from);
  const wallFrom = toWall(from, timeZone);
  return fromWall(wallFrom - (toWall(to, timeZone) - wallFrom), timeZone);
}

/** The first instant of the `interval` bucket (project zone and week start) holding `instant`. */
export function bucketStartInstant(instant: Instant, interval: Interval, timeZone: string, weekStart: 0 | 1): Instant {
  return fromWall(truncWall(toWall(instant, timeZone), interval, weekStart), timeZone);
}

/**
 * `date_from`/`date_to` → the range they denote. Missing `date_from` = `-7d` (now minus 7
 * days); missing `date_to` = now; `all` = the first event (now when there is none). The range
 * starts at the start of the `interval` bucket holding date_from (docs/api.md, "Buckets":
 * hourly `-1d` at 13:05 starts at yesterday's 13:00) and ends at date_to.
 * Throws DateParamError (→ 400 naming the parameter) for an unreadable value or `from > to`.
 */
export async function resolveDateRange(
  params: { date_from?: string | null; date_to?: string | null },
  ctx: QueryContext,
  interval: Interval = 'day',
): Promise<DateRange> {
  const timeZone = ctx.project.timezone;
  const weekStart = ctx.project.week_start_day;
  const now = ctx.now.getTime();
  const read = async (value: string | null | undefined, role: DateRole, fallback: string | null): Promise<Instant> => {
    const attr = role === 'from' ? 'date_from' : 'date_to';
    const raw = value ?? fallback;
    if (raw === null) return now;
    const parsed = parseDateParam(raw, { now, timeZone, weekStart, role });
    if (parsed === undefined || (parsed !== null && (parsed < MIN_INSTANT || parsed > MAX_INSTANT))) {
      throw new DateParamError(attr, 'Enter a valid date.');
    }
    if (parsed === null) return role === 'to' ? now : ((await firstEventTime(ctx)) ?? now);
    return parsed;
  };
  const from = await read(params.date_from, 'from', '-7d');
  const to = await read(params.date_to, 'to', null);
  if (from > to) throw new DateParamError('date_from', 'date_from must not be after date_to.');
  const start = bucketStartInstant(from, interval, timeZone, weekStart);
  if (start < MIN_INSTANT) throw new DateParamError('date_from', 'Enter a valid date.');
  return { from: start, exactFrom: from, to, timeZone, weekStart };
}
