import fc from 'fast-check';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { arbEvents, EVENT_PROPERTY_KEYS, PERSON_PROPERTY_KEYS, STRING_VALUES } from './generate.ts';

/** fast-check arbitraries of HogQL expressions (as text) and of events with sessions. */

const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const prop = (source: 'properties' | 'person.properties', key: string) =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${source}.${key}` : `${source}[${quote(key)}]`;

const leaf = fc.oneof(
  fc.constantFrom('0', '1', '2', '10', '-3', '0.5', '2.5', '1e-5', '99.9', '3.0'),
  fc.constantFrom(...STRING_VALUES, '%o%', 'C_rome', 'true', '2024-03-01').map(quote),
  fc.constantFrom('true', 'false', 'null'),
  fc.constantFrom(...EVENT_PROPERTY_KEYS).map((k) => prop('properties', k)),
  fc.constantFrom(...PERSON_PROPERTY_KEYS).map((k) => prop('person.properties', k)),
  fc.constantFrom('event', 'distinct_id', 'person_id'),
);

const date = fc.constantFrom(
  'timestamp',
  'toStartOfDay(timestamp)',
  'toDate(timestamp)',
  'toStartOfWeek(timestamp)',
  'toStartOfMonth(timestamp)',
  'now()',
  "toDate('2024-03-10')",
);

const { expr: arbHogql } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leaf },
    fc
      .tuple(tie('expr'), fc.constantFrom('+', '-', '*', '/', '%'), tie('expr'))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc
      .tuple(tie('expr'), fc.constantFrom('=', '!=', '<', '>=', 'like', 'not ilike'), tie('expr'))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(tie('expr'), fc.constantFrom('and', 'or'), tie('expr')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie('expr').map((a) => `not ${a}`),
    tie('expr').map((a) => `-${a}`),
    fc
      .tuple(tie('expr'), fc.boolean(), fc.array(leaf, { minLength: 1, maxLength: 3 }))
      .map(([a, neg, l]) => `(${a} ${neg ? 'not in' : 'in'} (${l.join(', ')}))`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([c, a, b]) => `if(${c}, ${a}, ${b})`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr'), tie('expr'), tie('expr')).map((x) => `multiIf(${x.join(', ')})`),
    fc.array(tie('expr'), { minLength: 1, maxLength: 3 }).map((x) => `coalesce(${x.join(', ')})`),
    fc.array(tie('expr'), { minLength: 1, maxLength: 3 }).map((x) => `concat(${x.join(', ')})`),
    fc
      .tuple(
        fc.constantFrom(
          'lower',
          'upper',
          'length',
          'trim',
          'toString',
          'toInt',
          'toFloat',
          'floor',
          'ceil',
          'abs',
          'round',
        ),
        tie('expr'),
      )
      .map(([f, a]) => `${f}(${a})`),
    fc.tuple(tie('expr'), fc.integer({ min: 0, max: 3 })).map(([a, n]) => `round(${a}, ${n})`),
    fc
      .tuple(tie('expr'), fc.integer({ min: 1, max: 4 }), fc.option(fc.integer({ min: 0, max: 3 })))
      .map(([a, o, l]) => `substring(${a}, ${o}${l === null ? '' : `, ${l}`})`),
    fc
      .tuple(fc.constantFrom('second', 'minute', 'hour', 'day', 'week', 'month', 'year'), date, date)
      .map(([u, a, b]) => `dateDiff('${u}', ${a}, ${b})`),
    fc
      .tuple(
        date,
        fc.constantFrom('<', '=', '>='),
        fc.oneof(date, fc.constantFrom("'2024-03-10'", "'2024-03-10 05:00:00'")),
      )
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    date.map((d) => `toString(${d})`),
  ),
}));

export { arbHogql };

/** Aggregate expressions for `math_hogql`. */
export const arbMathHogql = fc.oneof(
  fc.constantFrom(
    'count()',
    'sum(properties.amount)',
    'avg(toFloat(properties.amount))',
    'uniq(distinct_id)',
    'uniq(person_id)',
    'max(length(event)) - min(properties.amount)',
    "count(properties['a.b']) * 2",
    'sum(properties.amount) / count()',
    "uniq(if(person.properties.plan = 'pro', distinct_id, null))",
    "round(avg(dateDiff('hour', toStartOfDay(timestamp), timestamp)), 2)",
  ),
  arbHogql.map((x) => `sum(${x})`),
  arbHogql.map((x) => `uniq(${x})`),
);

const URLS = ['https://a.example/', 'https://a.example/pricing', "https://b.example/?q=it's", null] as const;

/** Events whose `$session_id` comes from a few ids (or none) and which often have a `$current_url`. */
export const arbSessionEvents: fc.Arbitrary<ReferenceEvent[]> = arbEvents.chain((events) =>
  fc
    .tuple(
      fc.array(fc.constantFrom<string | number | null>('s1', 's2', 's3', 4, '', null), {
        minLength: events.length,
        maxLength: events.length,
      }),
      fc.array(fc.constantFrom(...URLS), { minLength: events.length, maxLength: events.length }),
    )
    .map(([sessions, urls]) =>
      events.map((e, i) => {
        const properties = { ...e.properties };
        delete properties.$session_id;
        if (sessions[i] !== null) properties.$session_id = sessions[i];
        if (urls[i] !== null) properties.$current_url = urls[i];
        return { ...e, properties };
      }),
    ),
);
