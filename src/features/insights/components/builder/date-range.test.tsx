import { describe, expect, it } from 'vitest';
import { bucketCount, intervalRefusal, presetOf, rangeLabel, relativeOption } from './date-range';

const now = new Date(2026, 10, 24, 13, 5);

describe('date ranges', () => {
  it('names presets, other relative starts and custom ranges', () => {
    expect(presetOf({ date_from: '-30d' })?.label).toBe('Last 30 days');
    expect(presetOf({})?.label).toBe('Last 7 days');
    expect(relativeOption({ date_from: '-60d' })).toEqual({ value: '-60d', label: 'Last 60 days' });
    expect(relativeOption({ date_from: '-1y' })).toEqual({ value: '-1y', label: 'Last year' });
    expect(relativeOption({ date_from: '-30d' })).toBeNull();
    expect(rangeLabel({ date_from: '2026-01-01', date_to: '2026-01-31' })).toBe('Jan 1, 2026 – Jan 31, 2026');
  });

  it('counts the points of a chart, and refuses an interval past 1,000 of them', () => {
    expect(bucketCount('day', { date_from: '-7d' }, now)).toBe(8);
    expect(bucketCount('hour', { date_from: '-24h' }, now)).toBe(25);
    expect(bucketCount('hour', { date_from: '-90d' }, now)).toBe(2161);
    expect(bucketCount('day', { date_from: 'all' }, now)).toBeNull();
    expect(bucketCount('day', { date_from: '2026-01-01', date_to: '2026-01-31' }, now)).toBe(31);
    expect(intervalRefusal('hour', { date_from: '-30d' }, now)).toBeNull();
    expect(intervalRefusal('hour', { date_from: '-90d' }, now)).toBe(
      'Hourly would make 2,161 points; a chart holds at most 1,000.',
    );
    expect(intervalRefusal('day', { date_from: '2020-01-01', date_to: '2026-01-01' }, now)).toMatch(
      /^Daily would make 2,193 points/,
    );
    expect(intervalRefusal('week', { date_from: 'all' }, now)).toBeNull();
  });
});
