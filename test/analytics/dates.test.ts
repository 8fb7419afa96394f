import { describe, expect, it } from 'vitest';
import { bucketStarts, formatInstant, fromWall, parseDateParam, toWall } from '../../server/analytics/query/dates.ts';
import { evaluateFormula, parseFormula } from '../../server/analytics/engines/formula.ts';
import { jsonPointer } from '../../server/analytics/query/properties.ts';

/** Hand-worked date parsing (docs/api.md, "Dates") and the formula parser. */

const NOW = Date.parse('2024-03-13T15:45:30Z'); // a Wednesday
const at = (value: string, role: 'from' | 'to' = 'from', timeZone = 'UTC', weekStart: 0 | 1 = 0) => {
  const v = parseDateParam(value, { now: NOW, timeZone, weekStart, role });
  return typeof v === 'number' ? new Date(v).toISOString() : v;
};

describe('date_from / date_to', () => {
  it.each([
    ['-7d', 'from', '2024-03-06T15:45:30.000Z'],
    ['-7d', 'to', '2024-03-06T15:45:30.000Z'],
    ['-1dStart', 'from', '2024-03-12T00:00:00.000Z'],
    ['-1dEnd', 'to', '2024-03-12T23:59:59.999Z'],
    ['dStart', 'from', '2024-03-13T00:00:00.000Z'],
    ['mStart', 'from', '2024-03-01T00:00:00.000Z'],
    ['-1mStart', 'from', '2024-02-01T00:00:00.000Z'],
    ['-1mEnd', 'to', '2024-02-29T23:59:59.999Z'],
    ['yStart', 'from', '2024-01-01T00:00:00.000Z'],
    ['-1y', 'from', '2023-03-13T15:45:30.000Z'],
    ['-24h', 'from', '2024-03-12T15:45:30.000Z'],
    ['-2w', 'from', '2024-02-28T15:45:30.000Z'],
    ['wStart', 'from', '2024-03-10T00:00:00.000Z'],
    ['-1q', 'from', '2023-12-13T15:45:30.000Z'],
    ['-1m', 'to', '2024-02-13T15:45:30.000Z'],
    ['d', 'to', '2024-03-13T15:45:30.000Z'],
    ['qStart', 'from', '2024-01-01T00:00:00.000Z'],
    ['2024-02-29', 'from', '2024-02-29T00:00:00.000Z'],
    ['2024-02-29', 'to', '2024-02-29T23:59:59.999Z'],
    ['2024-02-29T10:20:30', 'from', '2024-02-29T10:20:30.000Z'],
    ['2024-02-29T10:20:30+02:00', 'from', '2024-02-29T08:20:30.000Z'],
    ['2024-02-29 10:20', 'to', '2024-02-29T10:20:00.000Z'],
    ['2020-6-1', 'from', '2020-06-01T00:00:00.000Z'],
    ['2020-6-1', 'to', '2020-06-01T23:59:59.999Z'],
    ['2024-2-9T10:20:30Z', 'from', '2024-02-09T10:20:30.000Z'],
    ['2024-12-1', 'from', '2024-12-01T00:00:00.000Z'],
  ] as const)('%s as %s → %s (UTC)', (value, role, expected) => {
    expect(at(value, role)).toBe(expected);
  });

  it('relative values are exact instants: days move on the local calendar, hours in real time', () => {
    // 11:45:30 EDT on 13 March; 7 days earlier is 11:45:30 EST (before the DST change).
    expect(at('-7d', 'from', 'America/New_York')).toBe('2024-03-06T16:45:30.000Z');
    expect(at('-24h', 'from', 'America/New_York')).toBe('2024-03-12T15:45:30.000Z');
    expect(at('-1dStart', 'from', 'America/New_York')).toBe('2024-03-12T04:00:00.000Z');
  });

  it('weeks may start on Monday', () => {
    expect(at('wStart', 'from', 'UTC', 1)).toBe('2024-03-11T00:00:00.000Z');
  });

  it('dates without a zone are in the project zone', () => {
    expect(at('2024-03-10', 'from', 'America/New_York')).toBe('2024-03-10T05:00:00.000Z');
    expect(at('2024-03-10', 'to', 'America/New_York')).toBe('2024-03-11T03:59:59.999Z');
    expect(at('dStart', 'from', 'Asia/Tokyo')).toBe('2024-03-13T15:00:00.000Z');
  });

  it('all is resolved by the caller; nonsense is undefined', () => {
    expect(at('all')).toBeNull();
    expect(at('2024-02-30')).toBeUndefined();
    expect(at('2024-2-30')).toBeUndefined();
    expect(at('2024-13-1')).toBeUndefined();
    expect(at('2024-1-001')).toBeUndefined();
    expect(at('-99999999999d')).toBeUndefined();
    expect(at('0500-01-01')).toBeUndefined();
  });

  it('wall times in a DST gap land after it; repeated ones on their first occurrence', () => {
    const tz = 'America/New_York';
    expect(new Date(fromWall(Date.UTC(2024, 2, 10, 2, 30), tz)).toISOString()).toBe('2024-03-10T07:30:00.000Z');
    expect(new Date(fromWall(Date.UTC(2024, 10, 3, 1, 30), tz)).toISOString()).toBe('2024-11-03T05:30:00.000Z');
    expect(toWall(Date.parse('2024-11-03T06:30:00Z'), tz)).toBe(Date.UTC(2024, 10, 3, 1, 30));
    expect(formatInstant(Date.parse('2024-03-10T07:30:00Z'), tz)).toBe('2024-03-10T03:30:00-04:00');
  });

  it('buckets cover the range from its first to its last bucket', () => {
    expect(
      bucketStarts(Date.UTC(2024, 0, 31, 5), Date.UTC(2024, 2, 1), 'month').map((b) =>
        new Date(b).toISOString().slice(0, 10),
      ),
    ).toEqual(['2024-01-01', '2024-02-01', '2024-03-01']);
  });
});

describe('formula', () => {
  it('computes with precedence, unary minus and zero division', () => {
    const f = (text: string, values: number[]) => evaluateFormula(parseFormula(text, values.length), values);
    expect(f('A + B * 2', [1, 3])).toBe(7);
    expect(f('(A + B) * 2', [1, 3])).toBe(8);
    expect(f('-A - -B', [1, 3])).toBe(2);
    expect(f('A / B', [1, 0])).toBe(0);
    expect(f('A % B', [7, 0])).toBe(0);
    expect(f('a % b', [7, 4])).toBe(3);
    expect(f('1.5 * A', [2])).toBe(3);
  });

  it.each([
    '',
    'A +',
    'A B',
    '(A',
    'A)',
    'C',
    'AB',
    '2A',
    'A ^ 2',
    'constructor',
    '('.repeat(100) + 'A' + ')'.repeat(100),
  ])('%j is rejected', (text) => {
    expect(() => parseFormula(text, 2)).toThrow();
  });
});

describe('property keys', () => {
  it('become JSON pointers, escaping ~ and /', () => {
    expect(jsonPointer('a.b')).toBe('/a.b');
    expect(jsonPointer('we"ird/~key')).toBe('/we"ird~1~0key');
  });
});
