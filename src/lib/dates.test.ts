import { describe, expect, it } from 'vitest';
import { formatWallTime } from './dates';

// formatWallTime reads the wall time the API wrote in the project's zone; what a viewer in
// another zone sees must be the same day. The locale is the runtime's own, so the expectations
// are built with the same Intl options rather than spelled out.
const day = (y: number, m: number, d: number) =>
  new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' }).format(
    Date.UTC(y, m - 1, d),
  );

describe('formatWallTime', () => {
  it('reads the date as written, whatever the offset: a cohort of Nov 2 is Nov 2', () => {
    expect(formatWallTime('2026-11-02T00:00:00-05:00')).toBe(day(2026, 11, 2));
    expect(formatWallTime('2026-11-02T00:00:00+14:00')).toBe(day(2026, 11, 2));
    expect(formatWallTime('2026-11-02T00:00:00Z')).toBe(day(2026, 11, 2));
    expect(formatWallTime('2026-11-02')).toBe(day(2026, 11, 2));
  });

  it('adds the time when it is not midnight (hourly periods)', () => {
    const text = formatWallTime('2026-11-02T14:00:00+01:00')!;
    expect(text.startsWith(day(2026, 11, 2).replace(/,? \d{4}$/, ''))).toBe(true);
    expect(text).toMatch(/14[:.]00|2[:.]00\s?PM/);
  });

  it('with withTime, midnight keeps its time too (an hourly cohort at midnight is not a day)', () => {
    const text = formatWallTime('2026-11-02T00:00:00+01:00', true)!;
    expect(text.startsWith(day(2026, 11, 2).replace(/,? \d{4}$/, ''))).toBe(true);
    expect(text).toMatch(/00[:.]00|12[:.]00\s?AM/);
    expect(formatWallTime('2026-11-02T00:00:00+01:00')).toBe(day(2026, 11, 2));
  });

  it('is null for what is not a date', () => {
    expect(formatWallTime('Week 0')).toBeNull();
    expect(formatWallTime('2026-13-02')).toBeNull();
    expect(formatWallTime('2026-02-30')).toBeNull();
  });
});
