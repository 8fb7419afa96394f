import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareUuidWords } from '../../server/analytics/duckdb.ts';
import { countAttempts, deadlineMs, type FunnelPassOptions, type FunnelRows } from '../../server/analytics/funnel-pass.ts';
import { createHarness, type Harness } from './harness.ts';
import { DAY, ev, runFunnel, steps } from './funnels-cases.ts';

/**
 * The funnel's per-person pass on its own (the engine's results against the reference are in
 * funnels.property.test.ts): what it must not depend on, and the columnar read it is fed by.
 */

let h: Harness;
beforeAll(async () => { h = await createHarness(); });
afterAll(() => h.close());

const OPTIONS: FunnelPassOptions = { steps: 3, order: 'ordered', window: { interval: 2, unit: 'day' }, exclusions: [{ from: 0, to: 1 }] };

/** Rows of random persons' events (bits of 3 steps and 1 exclusion), in the order given. */
const arbRows = fc.uniqueArray(fc.record({
  person: fc.integer({ min: 1, max: 6 }),
  day: fc.integer({ min: 0, max: 6 }),
  steps: fc.integer({ min: 0, max: 7 }),
  excl: fc.boolean(),
  uuid: fc.uuid(),
}), { minLength: 1, maxLength: 60, selector: (r) => r.uuid });

function rowsOf(list: { person: number; day: number; steps: number; excl: boolean; uuid: string }[], keyScale = 1): FunnelRows {
  const uuid = new Uint32Array(list.length * 4);
  list.forEach((r, i) => {
    // The same layout DuckDB hands over (duckdb.ts): low half first, top bit flipped.
    const hex = r.uuid.replaceAll('-', '');
    for (let w = 0; w < 4; w++) uuid[i * 4 + w] = parseInt(hex.slice(24 - w * 8, 32 - w * 8), 16) ^ (w === 3 ? 0x8000_0000 : 0);
  });
  return {
    rows: list.length,
    person: Int32Array.from(list, (r) => r.person * keyScale),
    ts: Float64Array.from(list, (r) => r.day * DAY),
    steps: Int32Array.from(list, (r) => r.steps),
    uuid,
    excl: Int32Array.from(list, (r) => (r.excl ? 1 : 0)),
    role: Int32Array.from(list, (r) => (r.excl && r.steps === 0 ? 1 : 0)),
    bd: list.map((r) => r.uuid.slice(0, 2)),
    bucket: null,
  };
}

/** The counted attempts as comparable records, by person. */
async function counted(rows: FunnelRows, o: FunnelPassOptions) {
  const c = await countAttempts(rows, o);
  return Array.from({ length: c.count }, (_, i) => ({
    person: c.person[i]!, bd: c.bd![i], times: c.times.slice(i * c.steps, i * c.steps + c.reached[i]!),
  })).sort((a, b) => a.person - b.person);
}

describe('the funnel pass', () => {
  it('ends a window of months on the same day and time of a later calendar month, clamped to its last day', () => {
    const at = (iso: string) => Date.parse(iso);
    const month = (n: number) => ({ interval: n, unit: 'month' as const });
    expect(deadlineMs(at('2024-01-31T10:30:00Z'), month(1))).toBe(at('2024-02-29T10:30:00Z'));
    expect(deadlineMs(at('2023-01-31T10:30:00Z'), month(1))).toBe(at('2023-02-28T10:30:00Z'));
    expect(deadlineMs(at('2024-03-31T00:00:00Z'), month(1))).toBe(at('2024-04-30T00:00:00Z'));
    expect(deadlineMs(at('2024-12-15T23:59:59.999Z'), month(2))).toBe(at('2025-02-15T23:59:59.999Z'));
    expect(deadlineMs(at('2024-02-29T08:00:00Z'), month(12))).toBe(at('2025-02-28T08:00:00Z'));
    expect(deadlineMs(at('2024-05-01T00:00:00Z'), { interval: 3, unit: 'week' })).toBe(at('2024-05-22T00:00:00Z'));
  });

  it('counts the same attempts whatever order the rows come in, and however sparse the person keys', async () => {
    await fc.assert(fc.asyncProperty(arbRows, fc.constantFrom<FunnelPassOptions['order']>('ordered', 'strict', 'unordered'), async (list, order) => {
      const o = { ...OPTIONS, order };
      const sorted = await counted(rowsOf([...list].sort((a, b) => a.person - b.person || a.day - b.day)), o);
      expect(await counted(rowsOf(list), o)).toEqual(sorted);
      // Keys far beyond the row count go through the map in front of the counting sort.
      expect((await counted(rowsOf(list, 1_000_003), o)).map((c) => ({ ...c, person: c.person / 1_000_003 }))).toEqual(sorted);
    }), { numRuns: 300 });
  });

  it('orders UUID words as DuckDB orders the UUIDs', async () => {
    const ids = Array.from({ length: 200 }, () => randomUUID());
    // Prefixes that differ only in the top bit, the low half, or not at all, as well as random ones.
    ids.push('80000000-0000-4000-8000-000000000000', '7fffffff-ffff-4fff-bfff-ffffffffffff', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002');
    const { columns: [words] } = await h.db.columns(`SELECT unnest(from_json($1::JSON, '["UUID"]')) AS u`, [JSON.stringify(ids)], ['uuid'] as const);
    const order = ids.map((_, i) => i).sort((a, b) => compareUuidWords(words, a, words, b));
    const rows = await h.db.all<{ u: string }>(`SELECT u::VARCHAR AS u FROM (SELECT unnest(from_json($1::JSON, '["UUID"]')) AS u) ORDER BY u`, [JSON.stringify(ids)]);
    expect(order.map((i) => ids[i])).toEqual(rows.map((r) => r.u));
  });

  it('refuses an event without a person key instead of counting it as somebody else', async () => {
    await h.load([ev('a', 'A', 0), ev('a', 'B', 60_000), ev('b', 'A', 0)]);
    expect((await runFunnel(h.ctx, { events: steps('A', 'B') }) as { count: number }[]).map((s) => s.count)).toEqual([2, 1]);
    await h.db.run("INSERT INTO events (uuid, team_id, event, distinct_id, timestamp) VALUES ('00000000-0000-4000-8000-0000000000ff', 1, 'A', 'c', '2024-03-01T12:00:00Z')");
    await expect(runFunnel(h.ctx, { events: steps('A', 'B') })).rejects.toThrow(/holds NULL/);
  });
});
