import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOGQL_LIMITS } from '../../src/contract/analytics-limits.ts';
import { compileHogql, hogqlTextOf } from '../../server/analytics/hogql/compile.ts';
import { HogqlError } from '../../server/analytics/hogql/errors.ts';
import { parseHogql } from '../../server/analytics/hogql/parser.ts';
import { SqlParams } from '../../server/analytics/query/properties.ts';
import { createHarness, type Harness } from './harness.ts';

/** The parser's trees and refusals (token and position), and what random text does to it. */

const error = (src: string, mode: 'value' | 'boolean' | 'aggregate' = 'value') => {
  try {
    compileHogql(parseHogql(src), mode, new SqlParams());
  } catch (e) {
    if (e instanceof HogqlError) return e.message;
    throw e;
  }
  return null;
};

describe('HogQL parser', () => {
  it('builds trees with the usual precedence', () => {
    expect(parseHogql("properties.$browser = 'Chrome' and not event in ('a', 'b') or 1 + 2 * 3 > -4")).toMatchObject({
      kind: 'logic',
      op: 'or',
      left: {
        kind: 'logic',
        op: 'and',
        left: { kind: 'compare', op: '=', left: { kind: 'property', source: 'event', path: ['$browser'] } },
        right: { kind: 'not', arg: { kind: 'in', negated: false, left: { kind: 'column', name: 'event' } } },
      },
      right: {
        kind: 'compare',
        op: '>',
        left: { kind: 'arith', op: '+', right: { kind: 'arith', op: '*' } },
        right: { kind: 'neg' },
      },
    });
    expect(parseHogql("person.properties['e.mail'].x")).toMatchObject({
      kind: 'property',
      source: 'person',
      path: ['e.mail', 'x'],
    });
    expect(parseHogql("'it\\'s' == 'it''s'")).toMatchObject({
      kind: 'compare',
      op: '=',
      left: { value: "it's" },
      right: { value: "it's" },
    });
    expect(parseHogql('MULTIIF(true, 1, 2)')).toMatchObject({ kind: 'call', name: 'multiIf' });
    expect(parseHogql('x NOT ILIKE y'.replace(/x|y/g, (m) => (m === 'x' ? 'event' : "'%a%'")))).toMatchObject({
      kind: 'compare',
      op: 'not ilike',
    });
  });

  it.each([
    ['sleep(1)', 'Unknown function "sleep" at position 0.'],
    ["event = 'a'; DROP TABLE events", '";" is not allowed: an expression is a single expression at position 11.'],
    ['(SELECT 1)', '"SELECT" is not allowed: subqueries and statements are not supported at position 1.'],
    ['foo + 1', 'Unknown column "foo" at position 0.'],
    ["'; DROP TABLE events; --", 'Unterminated string starting at position 0.'],
    ['1) OR (1=1', 'Unexpected ")" at position 1.'],
    ['event -- comment', 'Comments are not supported at position 6.'],
    ['properties', 'Expected a property name after "properties" at position 0.'],
    ['1 = 2 = 3', 'Comparisons cannot be chained: add parentheses before "=" at position 6.'],
    ['lower(event', 'Expected "," or ")" (opened at position 5) but found end of expression at position 11.'],
    ['"event"', "Quoted identifiers (\") are not supported: use properties['key'] at position 0."],
    ['event ∑ 1', 'Unexpected character U+2211 at position 6.'],
    ['sum(properties.price)', 'Aggregate function "sum" is only allowed in math_hogql at position 0.'],
    ['lower()', 'lower() takes 1 argument, not 0 at position 0.'],
    [
      "dateDiff('fortnight', timestamp, now())",
      "dateDiff() takes a unit in quotes: 'second', 'minute', 'hour', 'day', 'week', 'month', 'year' at position 9.",
    ],
    ['timestamp + 1', 'A date cannot be used as a number (use dateDiff) at position 0.'],
    ["timestamp > '2024-02-30'", "'2024-02-30' is not a date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS) at position 12."],
    ['substring(event, 0)', 'The offset of substring() must be a whole number from 1 to 1000000 at position 17.'],
  ])('refuses %s', (src, message) => {
    expect(error(src)).toBe(message);
  });

  it('refuses columns outside aggregates and nested aggregates in math', () => {
    expect(error('sum(properties.price) / count()', 'aggregate')).toBeNull();
    expect(error('properties.price + count()', 'aggregate')).toBe(
      'A column must be inside an aggregate function (count, sum, avg, min, max, uniq) in math at position 0.',
    );
    expect(error('sum(count())', 'aggregate')).toBe(
      'Aggregate function "count" cannot be inside another aggregate at position 4.',
    );
    expect(error("concat('a', count())", 'aggregate')).toBe('math_hogql must give a number at position 0.');
  });

  it('limits nesting and length', () => {
    const deep = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)}`;
    expect(error(deep(HOGQL_LIMITS.depth - 2))).toBeNull();
    expect(error(deep(HOGQL_LIMITS.depth * 4 + 5))).toMatch(
      /^Expression nested deeper than 32 levels at position \d+\.$/,
    );
    expect(error('- '.repeat(40) + '1')).toMatch(/nested deeper/);
    expect(error('lower('.repeat(40) + 'event' + ')'.repeat(40))).toMatch(/nested deeper/);
    expect(error(`1${' + 1'.repeat(HOGQL_LIMITS.depth - 2)}`)).toBeNull();
    expect(error(`1${' + 1'.repeat(40)}`)).toMatch(/nested deeper/);
    expect(error(`event in (${"'a', ".repeat(300)}'b')`)).toBeNull();
    expect(error(`1${' + 1'.repeat(500)}`)).toBe(
      `Expression longer than ${HOGQL_LIMITS.length} characters at position ${HOGQL_LIMITS.length}.`,
    );
  });
});

describe('HogQL fuzz', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const pieces = [
    'properties.$browser',
    "'; DROP TABLE events; --",
    '1) OR (1=1',
    '(',
    ')',
    ',',
    "'",
    '\\',
    ';',
    'select',
    'event',
    'and',
    'or',
    'not',
    'in',
    'like',
    '=',
    '+',
    '*',
    '-',
    '/',
    '%',
    'lower(',
    'if(',
    '1',
    '2.5e3',
    "'x'",
    'null',
    'true',
    '💥',
    'é',
    '\u0000',
    '[',
    ']',
    '.',
    'person',
    'properties',
    'count(',
    'sum(',
    'now()',
    'timestamp',
    '--',
    '/*',
    '$1',
    '?',
    '"',
    '`',
  ];
  // Well-formed expressions, so that the compiled-and-run half of the property is exercised by construction, not by luck.
  const { expr: arbExpr } = fc.letrec<{ expr: string; atom: string }>((tie) => ({
    atom: fc.constantFrom(
      'properties.$browser',
      'properties.price',
      'event',
      'timestamp',
      'person.properties.email',
      '1',
      '2.5',
      "'x'",
      'null',
      'true',
    ),
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('atom'),
      fc
        .tuple(tie('expr'), fc.constantFrom('+', '-', '*', '=', '!=', '<', 'and', 'or', 'like'), tie('expr'))
        .map(([a, op, b]) => `(${a}) ${op} (${b})`),
      fc
        .tuple(fc.constantFrom('lower', 'toInt', 'not', 'count', 'sum', 'max'), tie('expr'))
        .map(([f, a]) => `${f}(${a})`),
      fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([a, b, c]) => `if(${a}, ${b}, ${c})`),
      fc
        .tuple(tie('expr'), fc.array(tie('atom'), { minLength: 1, maxLength: 3 }))
        .map(([a, xs]) => `${a} in (${xs.join(', ')})`),
    ),
  }));
  const arbText = fc.oneof(
    { arbitrary: arbExpr, weight: 3 },
    fc.string({ maxLength: 60 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.array(fc.constantFrom(...pieces), { maxLength: 25 }).map((p) => p.join(' ')),
    fc.array(fc.constantFrom(...pieces), { maxLength: 25 }).map((p) => p.join('')),
  );

  it('random text is an expression or a HogqlError, and a compiled one runs', async () => {
    await h.load([
      {
        uuid: '00000000-0000-4000-8000-000000000001',
        event: 'e',
        distinct_id: 'd',
        person_id: 'p',
        timestamp: Date.UTC(2024, 2, 1),
        properties: { $browser: 'x' },
        person_properties: {},
      },
    ]);
    const before = await h.db.all<{ n: bigint }>('SELECT count(*) AS n FROM events');
    let valid = 0;
    await fc.assert(
      fc.asyncProperty(arbText, fc.constantFrom('value', 'boolean', 'aggregate' as const), async (src, mode) => {
        const params = new SqlParams();
        let sql: string;
        try {
          const node = parseHogql(src);
          sql = mode === 'value' ? hogqlTextOf(node, params).sql : compileHogql(node, mode, params).sql;
        } catch (e) {
          expect(e).toBeInstanceOf(HogqlError);
          expect((e as HogqlError).pos).toBeGreaterThanOrEqual(0);
          return;
        }
        valid += 1;
        const from = `FROM events e LEFT JOIN person_overrides ov ON false LEFT JOIN persons p ON false WHERE e.team_id = ${params.add(1)}`;
        await h.db.all(`SELECT ${sql} AS v ${from}`, params.values);
      }),
      { numRuns: 1500 },
    );
    expect(valid).toBeGreaterThan(100);
    // The deepest expressions allowed still run (DuckDB limits the depth of an SQL expression too).
    const d = HOGQL_LIMITS.depth - 1;
    for (const src of [
      `${'toInt('.repeat(d)}properties.x${')'.repeat(d)}`,
      `${'- '.repeat(d)}properties.x`,
      `properties.x${' + properties.x'.repeat(d)}`,
      `${'if(properties.x, '.repeat(d / 2)}1${', 2)'.repeat(d / 2)}`,
      `${'concat(lower('.repeat(d / 2)}event${'))'.repeat(d / 2)}`,
    ]) {
      const params = new SqlParams();
      const sql = hogqlTextOf(parseHogql(src), params).sql;
      await h.db.all(
        `SELECT ${sql} AS v FROM events e LEFT JOIN persons p ON false WHERE e.team_id = ${params.add(1)}`,
        params.values,
      );
    }
    expect(await h.db.all<{ n: bigint }>('SELECT count(*) AS n FROM events')).toEqual(before);
  });
});
