import fc from 'fast-check';
import type { ReferenceEvent } from '../../server/analytics/types.ts';

/**
 * fast-check arbitraries of small, awkward event sets (shared by the trends and funnels tests):
 * a few event names, persons with several distinct ids, properties whose names and values
 * contain quotes, dots, slashes, unicode, numbers-as-text, and are often missing; timestamps
 * spread over four weeks around the US spring DST change (2024-03-10, America/New_York).
 */

export const EVENT_NAMES = ['$pageview', 'sign up', 'it\'s "quoted"', 'purchase'] as const;

/** Event property keys: awkward on purpose. */
export const EVENT_PROPERTY_KEYS = [
  '$browser',
  'a.b',
  'we"ird/~key',
  'ünï 名前',
  "it's",
  'amount',
  '$session_id',
] as const;
export const PERSON_PROPERTY_KEYS = ['plan', 'e.mail', 'ünï 名前'] as const;

export const STRING_VALUES = [
  'Chrome',
  'Firefox',
  'safari',
  'x"y',
  "O'Brien",
  '日本',
  '',
  '10',
  '2.5',
  "'; DROP TABLE events; --",
] as const;

/**
 * How many cases a property test tries: `full` scaled by PROPERTY_RUNS (default 0.5, which keeps
 * `npm test` near ten minutes on two cores; seeds differ run by run, so coverage adds up over runs).
 * `PROPERTY_RUNS=1 npx vitest run test/analytics` runs every test at its full count, or more.
 */
export function propertyRuns(full: number): number {
  const scale = Number(process.env.PROPERTY_RUNS) || 0.5;
  return Math.max(10, Math.round(full * scale));
}

/** The generated timestamps lie in [RANGE_START, RANGE_END). */
export const RANGE_START = Date.UTC(2024, 1, 25); // Sun 25 Feb 2024
export const RANGE_END = Date.UTC(2024, 2, 24); // Sun 24 Mar 2024
/** A clock after every generated event. */
export const GENERATED_NOW = new Date(Date.UTC(2024, 2, 26, 15, 30));

export const arbPropertyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...STRING_VALUES),
  fc.integer({ min: -5, max: 20 }),
  fc.constantFrom(0.5, 1.25, 99.9),
  fc.boolean(),
  fc.constant(null),
);

/** Properties: each key present with probability ~1/2. */
const arbProperties = (keys: readonly string[]) =>
  fc.record(Object.fromEntries(keys.map((k) => [k, arbPropertyValue])), { requiredKeys: [] }) as fc.Arbitrary<
    Record<string, unknown>
  >;

export const arbEventProperties = arbProperties(EVENT_PROPERTY_KEYS);
export const arbPersonProperties = arbProperties(PERSON_PROPERTY_KEYS);

/** A timestamp: anywhere in the range, often near local midnights and the DST change. */
export const arbTimestamp: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: RANGE_START, max: RANGE_END - 1 }),
  // Near the DST change (2024-03-10 07:00Z) and local/UTC midnights.
  fc
    .tuple(fc.integer({ min: 0, max: 27 }), fc.constantFrom(0, 4, 5, 23), fc.integer({ min: -2, max: 2 }))
    .map(([day, hour, minute]) =>
      Math.min(
        RANGE_END - 1,
        Math.max(RANGE_START, RANGE_START + day * 86_400_000 + hour * 3_600_000 + minute * 60_000),
      ),
    ),
);

export interface GeneratedPerson {
  id: string;
  distinctIds: string[];
  properties: Record<string, unknown>;
}

export const arbPersons: fc.Arbitrary<GeneratedPerson[]> = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 3 }), arbPersonProperties), { minLength: 1, maxLength: 6 })
  .map((list) =>
    list.map(([n, properties], i) => ({
      id: `person-${i}`,
      distinctIds: Array.from({ length: n }, (_, j) => (j === 0 ? `user'${i}` : `anon-${i}-${j}`)),
      properties,
    })),
  );

/** A small event set: 0–60 events of 1–6 persons. */
export const arbEvents: fc.Arbitrary<ReferenceEvent[]> = arbPersons.chain((persons) =>
  fc
    .array(
      fc.record({
        event: fc.constantFrom(...EVENT_NAMES),
        person: fc.nat({ max: persons.length - 1 }),
        distinct: fc.nat({ max: 2 }),
        timestamp: arbTimestamp,
        properties: arbEventProperties,
      }),
      { maxLength: 60 },
    )
    .map((raw) =>
      raw.map((r, i): ReferenceEvent => {
        const person = persons[r.person]!;
        return {
          uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          event: r.event,
          distinct_id: person.distinctIds[r.distinct % person.distinctIds.length]!,
          person_id: person.id,
          timestamp: r.timestamp,
          properties: r.properties,
          person_properties: person.properties,
        };
      }),
    ),
);

const arbKeyFor = (type: 'event' | 'person') =>
  fc.constantFrom<string>(...(type === 'event' ? EVENT_PROPERTY_KEYS : PERSON_PROPERTY_KEYS));

/** One property filter of the contract's shape, over the generated keys and values. */
export const arbPropertyFilter = fc.constantFrom('event' as const, 'person' as const).chain((type) =>
  fc.oneof(
    fc.record({
      key: arbKeyFor(type),
      type: fc.constant(type),
      operator: fc.constantFrom('exact' as const, 'is_not' as const),
      value: fc.oneof(
        fc.constantFrom<string | number | boolean>(...STRING_VALUES, 10, true),
        fc.array(fc.constantFrom(...STRING_VALUES), { minLength: 1, maxLength: 3 }),
      ),
    }),
    fc.record({
      key: arbKeyFor(type),
      type: fc.constant(type),
      operator: fc.constantFrom('icontains' as const, 'not_icontains' as const),
      value: fc.constantFrom('chr', "O'b", '"', 'fox', '日'),
    }),
    fc.record({
      key: arbKeyFor(type),
      type: fc.constant(type),
      operator: fc.constantFrom('regex' as const, 'not_regex' as const),
      value: fc.constantFrom('^C', 'i$', '[0-9]', 'fire|saf', '\\.'),
    }),
    fc.record({
      key: arbKeyFor(type),
      type: fc.constant(type),
      operator: fc.constantFrom('gt' as const, 'lt' as const),
      value: fc.constantFrom(0, 2, 10, 1.5, '5'),
    }),
    fc.record({
      key: arbKeyFor(type),
      type: fc.constant(type),
      operator: fc.constantFrom('is_set' as const, 'is_not_set' as const),
    }),
  ),
);

export type GeneratedFilter = ReturnType<typeof arbPropertyFilter extends fc.Arbitrary<infer T> ? () => T : never>;

/** A property group: AND/OR of filters and (one level) nested groups. */
export const arbPropertyGroup = fc.record({
  type: fc.constantFrom('AND' as const, 'OR' as const),
  values: fc.array(
    fc.oneof(
      { weight: 3, arbitrary: arbPropertyFilter },
      {
        weight: 1,
        arbitrary: fc.record({
          type: fc.constantFrom('AND' as const, 'OR' as const),
          values: fc.array(arbPropertyFilter, { maxLength: 3 }),
        }),
      },
    ),
    { maxLength: 3 },
  ),
});
