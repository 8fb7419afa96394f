import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathParamsSchema, type PathParamsInput, type PropertyGroup } from '../../src/contract/analytics.ts';
import { parseHogql } from '../../server/analytics/hogql/index.ts';
import { computePaths } from '../../server/analytics/engines/paths.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { ev, MIN, RANGE } from './funnels-cases.ts';
import { arbEvents, arbPropertyGroup, GENERATED_NOW, RANGE_END, RANGE_START, propertyRuns } from './generate.ts';
import { createHarness, type Harness } from './harness.ts';
import { matchesGroup, type RefGroup } from './reference/filters.ts';
import { valueText, type RefEnv } from './reference/hogql.ts';
import { referencePaths, type PathEventType } from './reference/paths.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const run = async (input: PathParamsInput) => computePaths(pathParamsSchema.parse({ ...RANGE, ...input }), h.ctx);
const pv = (person: string, url: string, offset: number) => ev(person, '$pageview', offset, { $current_url: url });
const edges = (r: { source: string; target: string; value: number }[]) =>
  r.map((e) => `${e.source}>${e.target}:${e.value}`);

describe('paths, hand-worked', () => {
  const events = [
    pv('a', '/home', 0),
    pv('a', '/home', MIN),
    pv('a', '/pricing', 2 * MIN),
    ev('a', 'signed up', 3 * MIN),
    pv('a', '/home', 40 * MIN), // a new session after a 37-minute gap
    pv('b', '/home', 0),
    ev('b', '$screen', MIN, { $screen_name: 'Settings' }),
    pv('b', '/pricing', 2 * MIN),
  ];
  it('items, sessions, collapsed repeats, edges with persons and mean milliseconds', async () => {
    await h.load(events);
    const r = await run({});
    expect(edges(r)).toEqual([
      '1_/home>2_/pricing:1',
      '1_/home>2_Settings:1',
      '2_/pricing>3_signed up:1',
      '2_Settings>3_/pricing:1',
    ]);
    expect(r[0]!.average_conversion_time).toBe(2 * MIN);
  });
  it('start point, end point, step limit, event types, cleaning', async () => {
    await h.load(events);
    expect(edges(await run({ start_point: '/pricing' }))).toEqual(['1_/pricing>2_signed up:1']);
    expect(edges(await run({ end_point: '/pricing', step_limit: 2 }))).toEqual([
      '1_/home>2_/pricing:1',
      '1_Settings>2_/pricing:1',
    ]);
    expect(edges(await run({ include_event_types: ['$pageview'] }))).toEqual(['1_/home>2_/pricing:2']);
    // The alias is literal text: no group references, no escapes.
    expect(
      edges(
        await run({
          local_path_cleaning_filters: [{ regex: '^/pri(.*)$', alias: '/p$1\\x' }],
          include_event_types: ['$pageview'],
        }),
      ),
    ).toEqual(['1_/home>2_/p$1\\x:2']);
  });

  it('HogQL items: every event, its item the expression (pages keep their URL when $pageview is listed too)', async () => {
    await h.load(events);
    expect(edges(await run({ include_event_types: ['hogql'], paths_hogql_expression: "concat(event, '!')" }))).toEqual([
      '1_$pageview!>2_$screen!:1',
      '1_$pageview!>2_signed up!:1',
      '2_$screen!>3_$pageview!:1',
    ]);
    expect(
      edges(
        await run({
          include_event_types: ['$pageview', 'hogql'],
          paths_hogql_expression: "if(event = 'signed up', 'joined', null)",
        }),
      ),
    ).toEqual(['1_/home>2_$screen:1', '1_/home>2_/pricing:1', '2_$screen>3_/pricing:1', '2_/pricing>3_joined:1']);
    await expect(run({ include_event_types: ['hogql'] })).rejects.toThrow(/paths_hogql_expression/);
    await expect(run({ include_event_types: ['hogql'], paths_hogql_expression: 'nope(event)' })).rejects.toMatchObject({
      attr: 'paths_hogql_expression',
    });
  });
});

const URLS = ['/home', '/pricing', '/blog/1', '/blog/22', '/b"log/\'x'];
const withUrls = (events: ReferenceEvent[]) =>
  events.map((e, i) =>
    e.event === '$pageview' && i % 4 !== 3
      ? { ...e, properties: { ...e.properties, $current_url: URLS[i % URLS.length] } }
      : e,
  );

// Path items made by HogQL: texts, numbers, a person property, and NULL (the event name then).
const PATH_HOGQL = [
  "concat('x-', event)",
  'lower(properties.$browser)',
  "if(event = 'sign up', 'joined', null)",
  'person.properties.plan',
  'length(event)',
];

const arbPaths = fc.record({
  types: fc.subarray<PathEventType>(['$pageview', '$screen', 'custom_event', 'hogql']),
  hogql: fc.constantFrom(...PATH_HOGQL),
  cleaning: fc.subarray([
    { regex: '[0-9]+', alias: ':id' },
    { regex: '/blog/.*', alias: '/blog' },
    { regex: 'sign', alias: '$&\\1' },
  ]),
  exclude: fc.subarray(['purchase', '/home']),
  start: fc.option(fc.constantFrom('/home', '/pricing', 'sign up', 'purchase'), { nil: undefined }),
  end: fc.option(fc.constantFrom('/pricing', 'purchase', '$pageview'), { nil: undefined }),
  stepLimit: fc.integer({ min: 2, max: 6 }),
  edgeLimit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  properties: fc.option(arbPropertyGroup, { nil: undefined, freq: 3 }),
});

const ENV: RefEnv = { timeZone: 'UTC', weekStart: 0, now: GENERATED_NOW.getTime() };

/** date_from in the middle of a day: the range starts at that day's midnight. */
const FROM = RANGE_START + 3 * 86_400_000 + 13 * 3_600_000;

describe('paths equal the reference', () => {
  it('edge by edge', async () => {
    await fc.assert(
      fc.asyncProperty(arbEvents.map(withUrls), arbPaths, async (events, a) => {
        await h.load(events);
        const result = await computePaths(
          pathParamsSchema.parse({
            include_event_types: a.types,
            paths_hogql_expression: a.types.includes('hogql') ? a.hogql : undefined,
            local_path_cleaning_filters: a.cleaning,
            exclude_events: a.exclude,
            start_point: a.start,
            end_point: a.end,
            step_limit: a.stepLimit,
            edge_limit: a.edgeLimit,
            properties: a.properties,
            date_from: new Date(FROM).toISOString(),
            date_to: new Date(RANGE_END).toISOString(),
          }),
          h.ctx,
        );
        const expected = referencePaths({
          events,
          from: FROM,
          to: RANGE_END,
          eventTypes: a.types,
          hogql: (e) => valueText(parseHogql(a.hogql), e, ENV),
          cleaning: a.cleaning,
          exclude: a.exclude,
          startPoint: a.start,
          endPoint: a.end,
          stepLimit: a.stepLimit,
          edgeLimit: a.edgeLimit,
          filter: (e) => matchesGroup(e, a.properties as PropertyGroup as RefGroup | undefined),
        });
        expect(result.map((e) => [e.source, e.target, e.value])).toEqual(
          expected.map((e) => [e.source, e.target, e.value]),
        );
        result.forEach((e, i) =>
          expect(e.average_conversion_time).toBeCloseTo(expected[i]!.average_conversion_time, 3),
        );
      }),
      { numRuns: propertyRuns(150) },
    );
  });
});
