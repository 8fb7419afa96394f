import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileHogql, hogqlTextOf } from '../../server/analytics/hogql/compile.ts';
import { HogqlError } from '../../server/analytics/hogql/errors.ts';
import { parseHogql } from '../../server/analytics/hogql/parser.ts';
import { envOf, SqlParams } from '../../server/analytics/query/properties.ts';
import { PERSON_JOIN_SQL, PERSON_KEY_SQL } from '../../server/analytics/store/schema.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { arbEvents, GENERATED_NOW, propertyRuns } from './generate.ts';
import { arbHogql } from './hogql-arbitraries.ts';
import { createHarness, type Harness } from './harness.ts';
import { evaluate, holds, toText, type RefEnv } from './reference/hogql.ts';

/**
 * Random HogQL expressions over random events: the text DuckDB computes for each event equals
 * the reference evaluator's (test/analytics/reference/hogql.ts), and so does a condition.
 */

async function engineValues(
  h: Harness,
  src: string,
  mode: 'text' | 'boolean',
): Promise<Map<string, string | boolean | null> | null> {
  const params = new SqlParams();
  params.env = envOf(h.ctx);
  let sql: string;
  try {
    const node = parseHogql(src);
    sql = mode === 'boolean' ? compileHogql(node, 'boolean', params).sql : hogqlTextOf(node, params).sql;
  } catch (error) {
    if (error instanceof HogqlError) return null;
    throw error;
  }
  const team = params.add(h.ctx.project.id);
  const rows = await h.db.all<{ id: string; v: string | boolean | null }>(
    `SELECT e.uuid::VARCHAR AS id, ${sql} AS v, ${PERSON_KEY_SQL} AS pk FROM events e ${PERSON_JOIN_SQL}
     LEFT JOIN persons p ON p.team_id = e.team_id AND p.id = ${PERSON_KEY_SQL} WHERE e.team_id = ${team}`,
    params.values,
  );
  return new Map(rows.map((r) => [r.id, r.v]));
}

for (const timezone of ['UTC', 'America/New_York'] as const) {
  describe(`HogQL expressions equal the reference (${timezone})`, () => {
    let h: Harness;
    let env: RefEnv;
    beforeAll(async () => {
      h = await createHarness({ timezone, week_start_day: timezone === 'UTC' ? 0 : 1 }, GENERATED_NOW);
      env = { timeZone: timezone, weekStart: h.ctx.project.week_start_day, now: GENERATED_NOW.getTime() };
    });
    afterAll(async () => {
      await h.close();
    });

    it('value by value, and as conditions', async () => {
      let compiled = 0;
      const runs = propertyRuns(80);
      await fc.assert(
        fc.asyncProperty(
          arbEvents,
          fc.array(arbHogql, { minLength: 1, maxLength: 6 }),
          async (events: ReferenceEvent[], exprs: string[]) => {
            await h.load(events);
            for (const src of exprs) {
              const text = await engineValues(h, src, 'text');
              if (text === null) continue;
              compiled += 1;
              const cond = await engineValues(h, src, 'boolean');
              const node = parseHogql(src);
              for (const e of events) {
                expect({ src, uuid: e.uuid, v: text.get(e.uuid) }).toEqual({
                  src,
                  uuid: e.uuid,
                  v: toText(evaluate(node, e, env)),
                });
                expect({ src, uuid: e.uuid, v: cond?.get(e.uuid) }).toEqual({
                  src,
                  uuid: e.uuid,
                  v: holds(node, e, env),
                });
              }
            }
          },
        ),
        { numRuns: runs },
      );
      // Most generated expressions are valid: the test compares values, not only refusals.
      expect(compiled).toBeGreaterThan(runs * 0.75);
    });
  });
}
