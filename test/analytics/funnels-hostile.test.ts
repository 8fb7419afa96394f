import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelParamsSchema, pathParamsSchema, retentionParamsSchema } from '../../src/contract/analytics.ts';
import { AnalyticsParamError } from '../../server/analytics/errors.ts';
import { computeFunnel } from '../../server/analytics/engines/funnels.ts';
import { computePaths } from '../../server/analytics/engines/paths.ts';
import { computeRetention } from '../../server/analytics/engines/retention.ts';
import { ev, MIN, RANGE } from './funnels-cases.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Hostile input reaches the engines only as bound values: quotes, SQL fragments and huge
 * strings give a correct (often empty) result; what the engine cannot use is an
 * AnalyticsParamError naming the parameter (→ 400), never a failed query (→ 500).
 */

const NASTY = [
  "'; DROP TABLE events; --",
  '"); SELECT 1; --',
  '\\',
  '$1',
  '$.a[0]',
  '/~0~1',
  'x'.repeat(400),
  '日本\u0000語',
  '%_%',
];

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.load([
    ev('a', 'A', 0, { "it's": 'x' }),
    ev('a', NASTY[0]!, MIN, { [NASTY[1]!]: NASTY[0] }),
    ev('a', '$pageview', 2 * MIN, { $current_url: NASTY[1] }),
    ev('a', '$pageview', 3 * MIN, { $current_url: '/ok' }),
  ]);
});
afterAll(() => h.close());

async function attrOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (error) {
    if (error instanceof AnalyticsParamError) return error.attr;
    throw error;
  }
  throw new Error('expected an AnalyticsParamError');
}

describe('funnels', () => {
  it('hostile names, keys, values and breakdowns are bound values', async () => {
    for (const s of NASTY) {
      const p = funnelParamsSchema.parse({
        ...RANGE,
        events: [
          { id: 'A' },
          { id: s, properties: [{ key: s.slice(0, 400), value: s, operator: 'icontains', type: 'person' }] },
        ],
        properties: [{ key: s.slice(0, 400), value: s, operator: 'is_not', type: 'event' }],
        breakdown: s.slice(0, 400),
        breakdown_type: 'person',
        exclusions: [{ id: `${s.slice(0, 399)}!`, funnel_from_step: 0, funnel_to_step: 1 }],
      });
      const r = (await computeFunnel(p, h.ctx)) as { count: number; breakdown_value: string }[][];
      expect(r.map((list) => list.map((step) => step.count))).toEqual([[1, 0]]);
      expect(r[0]![0]!.breakdown_value).toBe('None');
    }
    const hit = funnelParamsSchema.parse({ ...RANGE, events: [{ id: 'A' }, { id: NASTY[0] }], breakdown: NASTY[1] });
    const r = (await computeFunnel(hit, h.ctx)) as { count: number; breakdown_value: string }[][];
    expect(r[0]!.map((s) => [s.breakdown_value, s.count])).toEqual([
      ['None', 1],
      ['None', 1],
    ]);
  });
  it('unsupported pieces are a 400 on their parameter', async () => {
    const base = { ...RANGE, events: [{ id: 'A' }, { id: 'B' }] };
    expect(await attrOf(computeFunnel(funnelParamsSchema.parse({ ...base, actions: [{ id: 7 }] }), h.ctx))).toBe(
      'actions',
    );
    expect(
      await attrOf(
        computeFunnel(
          funnelParamsSchema.parse({
            ...base,
            exclusions: [{ id: 3, type: 'actions', funnel_from_step: 0, funnel_to_step: 1 }],
          }),
          h.ctx,
        ),
      ),
    ).toBe('exclusions__0__id');
    expect(
      await attrOf(
        computeFunnel(funnelParamsSchema.parse({ ...base, breakdown: 'x', breakdown_type: 'group' }), h.ctx),
      ),
    ).toBe('breakdown_group_type_index');
    expect(
      await attrOf(
        computeFunnel(
          funnelParamsSchema.parse({ ...base, properties: [{ key: 'k', value: '(?=x)', operator: 'regex' }] }),
          h.ctx,
        ),
      ),
    ).toBe('properties__values__0__value');
    expect(
      await attrOf(
        computeFunnel(
          funnelParamsSchema.parse({ ...base, funnel_viz_type: 'trends', interval: 'hour', date_from: '1990-01-01' }),
          h.ctx,
        ),
      ),
    ).toBe('interval');
  });
  it('the params schema rejects names longer than any stored event can have', () => {
    const long = funnelParamsSchema.safeParse({ events: [{ id: 'A' }, { id: 'x'.repeat(401) }] });
    expect(long.error?.issues[0]?.path).toEqual(['events', 1, 'id']);
    const target = retentionParamsSchema.safeParse({ target_entity: { id: 'x'.repeat(100_000) } });
    expect(target.error?.issues[0]?.path).toEqual(['target_entity', 'id']);
  });
  it('the params schema rejects bad exclusions and deep nesting', () => {
    const bad = funnelParamsSchema.safeParse({
      events: [{ id: 'A' }, { id: 'B' }],
      exclusions: [{ id: 'B', funnel_from_step: 0, funnel_to_step: 1 }],
    });
    expect(bad.success).toBe(false);
    const deep = funnelParamsSchema.safeParse({
      events: [{ id: 'A' }],
      properties: { type: 'AND', values: [{ type: 'OR', values: [{ type: 'AND', values: [] }] }] },
    });
    expect(deep.success).toBe(false);
  });
});

describe('retention and paths', () => {
  it('hostile entities and points give correct empty results', async () => {
    for (const s of NASTY) {
      const r = await computeRetention(
        retentionParamsSchema.parse({
          target_entity: { id: s },
          returning_entity: { id: s },
          date_to: '2024-03-02',
          total_intervals: 3,
        }),
        h.ctx,
      );
      // Only NASTY[0] names a real event (person a, 1 March).
      expect(r.flatMap((c) => c.values.map((v) => v.count))).toEqual(
        s === NASTY[0] ? [0, 0, 0, 1, 0, 0] : [0, 0, 0, 0, 0, 0],
      );
      const edges = await computePaths(
        pathParamsSchema.parse({ ...RANGE, start_point: s.slice(0, 2000), exclude_events: [s.slice(0, 400)] }),
        h.ctx,
      );
      expect(edges).toEqual([]);
    }
    const found = await computePaths(pathParamsSchema.parse({ ...RANGE, start_point: NASTY[1] }), h.ctx);
    expect(found.map((e) => `${e.source}>${e.target}`)).toEqual([`1_${NASTY[1]}>2_/ok`]);
  });
  it('a regex DuckDB cannot compile is a 400 on the rule; a HogQL item outside the subset is a 400 on its expression', async () => {
    const rule = pathParamsSchema.parse({ local_path_cleaning_filters: [{ regex: '(?<=a)b', alias: 'x' }] });
    expect(await attrOf(computePaths(rule, h.ctx))).toBe('local_path_cleaning_filters__0__regex');
    expect(
      await attrOf(
        computePaths(
          pathParamsSchema.parse({
            include_event_types: ['hogql'],
            paths_hogql_expression: 'event; DROP TABLE events',
          }),
          h.ctx,
        ),
      ),
    ).toBe('paths_hogql_expression');
    expect(
      await attrOf(computeRetention(retentionParamsSchema.parse({ target_entity: { id: 1, type: 'actions' } }), h.ctx)),
    ).toBe('target_entity__id');
  });
});
