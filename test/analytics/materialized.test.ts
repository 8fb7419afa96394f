import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trendParamsSchema } from '../../src/contract/analytics.ts';
import { computeTrends } from '../../server/analytics/engines/trends.ts';
import { eventStoreMigrations, MATERIALIZED_PROPERTIES, UUID_COLUMNS } from '../../server/analytics/store/schema.ts';
import { arbEvents, arbPropertyGroup, GENERATED_NOW, propertyRuns } from './generate.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Materialized property columns are an optimisation only: the same events give the same trend
 * whether their hot properties are read from the JSON (rows written without the columns, as
 * the harness writes them; proven equal to the reference elsewhere) or from the columns.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness({}, GENERATED_NOW);
});
afterAll(() => h.close());

/** Fills the columns of every row, as the migration of an older file does. */
async function fill(): Promise<void> {
  const existing = [
    ...[...MATERIALIZED_PROPERTIES.map((m) => m.column), 'mp_filled'].map((column) => ({
      table: 'events',
      column,
      type: 'VARCHAR',
    })),
    ...UUID_COLUMNS.map((c) => ({ ...c, type: 'UUID' })),
    { table: 'events', column: 'person_id', type: 'UUID' },
  ];
  for (const step of eventStoreMigrations(existing)) await h.db.run(step.sql, step.params);
}

const arbParams = fc
  .record({
    breakdown: fc.constantFrom('$browser', '$session_id', 'a.b'),
    math: fc.constantFrom('total', 'dau', 'unique_session'),
    properties: fc.option(arbPropertyGroup, { nil: undefined }),
    interval: fc.constantFrom('day', 'week'),
  })
  .map((r) =>
    trendParamsSchema.parse({
      events: [
        { id: '$pageview', type: 'events', math: r.math },
        { id: null, type: 'events', math: 'total' },
      ],
      date_from: '2024-02-25',
      date_to: '2024-03-23',
      interval: r.interval,
      breakdown: r.breakdown,
      breakdown_type: 'event',
      properties: r.properties,
    }),
  );

describe('materialized property columns', () => {
  it('give the same trends as the JSON they were filled from', async () => {
    await fc.assert(
      fc.asyncProperty(arbEvents, arbParams, async (events, params) => {
        await h.load(events);
        const [{ n }] = (await h.db.all<{ n: number }>(
          'SELECT count(*) FILTER (WHERE mp_filled)::INTEGER AS n FROM events',
        )) as [{ n: number }];
        expect(n).toBe(0);
        const fromJson = await computeTrends(params, h.ctx);
        await fill();
        const [{ left }] = (await h.db.all<{ left: number }>(
          'SELECT count(*) FILTER (WHERE mp_filled IS NOT TRUE)::INTEGER AS left FROM events',
        )) as [{ left: number }];
        expect(left).toBe(0);
        expect(await computeTrends(params, h.ctx)).toEqual(fromJson);
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
