import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareUuidWords } from '../../server/analytics/store/columnar-read.ts';
import {
  bytesOf,
  duckdbThreads,
  keptBlockBytes,
  memoryCapBytes,
  perfectHashBits,
  QueryTimeoutError,
} from '../../server/analytics/store/duckdb.ts';
import {
  countAttempts,
  deadlineMs,
  type FunnelPassOptions,
  type FunnelRows,
} from '../../server/analytics/engines/funnel-pass.ts';
import { deadlineSql } from '../../server/analytics/engines/funnels-sql.ts';
import { SqlParams } from '../../server/analytics/query/properties.ts';
import type { ReferenceEvent } from '../../server/analytics/types.ts';
import { createHarness, type Harness } from './harness.ts';
import { ev, MIN, runFunnel, steps } from './funnels-cases.ts';
import { attemptsOf, bestAttempt, byTime, deadline, isExcluded, type RefFunnelInput } from './reference/funnels.ts';

/**
 * The funnel's per-person pass on its own, against the reference's attempts (the whole engine
 * against the reference is funnels.property.test.ts), and the columnar read it is fed by.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

interface Row {
  person: number;
  at: number;
  steps: number;
  excl: boolean;
  uuid: string;
}

/** A few persons' events: bits of 3 steps and 1 exclusion, minutes apart, some at one instant. */
const arbRows = fc.uniqueArray(
  fc.record({
    person: fc.integer({ min: 1, max: 5 }),
    at: fc.integer({ min: 0, max: 40 }).map((m) => m * 20 * MIN),
    steps: fc.integer({ min: 0, max: 7 }),
    excl: fc.boolean(),
    uuid: fc.uuid(),
  }),
  { minLength: 1, maxLength: 60, selector: (r) => r.uuid },
);

const arbOptions = fc.record({
  order: fc.constantFrom<FunnelPassOptions['order']>('ordered', 'strict', 'unordered'),
  window: fc.record({
    interval: fc.integer({ min: 1, max: 3 }),
    unit: fc.constantFrom<FunnelPassOptions['window']['unit']>('hour', 'day', 'month'),
  }),
  exclusion: fc.boolean(),
});

/**
 * The rows as the SQL hands them over: sorted by person, each person's events in the given
 * order, and (with the exclusion) every exclusion event once more as an exclusion-only row.
 */
function rowsOf(list: Row[], exclusions: boolean): FunnelRows {
  const attempts = list.map((r) => ({ ...r, role: 0 }));
  const only = exclusions ? list.filter((r) => r.excl).map((r) => ({ ...r, steps: 0, role: 1 })) : [];
  const byPerson = [...attempts, ...only].sort((a, b) => a.person - b.person);
  const uuid = new Uint32Array(byPerson.length * 4);
  byPerson.forEach((r, i) => {
    // DuckDB's layout (duckdb.ts): low half first, the top bit flipped.
    const hex = r.uuid.replaceAll('-', '');
    for (let w = 0; w < 4; w++)
      uuid[i * 4 + w] = parseInt(hex.slice(24 - w * 8, 32 - w * 8), 16) ^ (w === 3 ? 0x8000_0000 : 0);
  });
  return {
    rows: byPerson.length,
    person: Int32Array.from(byPerson, (r) => r.person),
    ts: Float64Array.from(byPerson, (r) => r.at),
    steps: Int32Array.from(byPerson, (r) => r.steps),
    uuid,
    excl: exclusions ? Int32Array.from(byPerson, (r) => (r.excl ? 1 : 0)) : null,
    role: exclusions ? Int32Array.from(byPerson, (r) => r.role) : null,
    bd: byPerson.map((r) => r.uuid.slice(0, 1)),
    bucket: null,
  };
}

async function counted(rows: FunnelRows, o: FunnelPassOptions) {
  const c = await countAttempts(rows, o);
  return Array.from({ length: c.count }, (_, i) => ({
    person: c.person[i]!,
    bd: c.bd![i],
    times: Array.from(c.times.subarray(i * c.steps, i * c.steps + c.reached[i]!)),
  })).sort((a, b) => a.person - b.person);
}

/** The reference's counted attempts for the same rows (steps and the exclusion read from properties). */
function referenceCounted(list: Row[], o: FunnelPassOptions) {
  const events: ReferenceEvent[] = list.map((r) => ({
    uuid: r.uuid,
    event: 'e',
    distinct_id: String(r.person),
    person_id: String(r.person),
    timestamp: r.at,
    properties: { m: r.steps, x: r.excl },
    person_properties: {},
  }));
  const stepOf = (k: number) => (e: ReferenceEvent) => ((e.properties.m as number) & (1 << k)) !== 0;
  const input: RefFunnelInput = {
    events,
    steps: [stepOf(0), stepOf(1), stepOf(2)],
    from: 0,
    to: Infinity,
    window: o.window,
    order: o.order,
    exclusions: o.exclusions.map((x) => ({ match: (e) => e.properties.x === true, from: x.from, to: x.to })),
  };
  const out: { person: number; bd: string; times: number[] }[] = [];
  for (const person of [...new Set(list.map((r) => r.person))].sort((a, b) => a - b)) {
    const evs = events.filter((e) => e.person_id === String(person)).sort(byTime(input.steps));
    const best = bestAttempt(attemptsOf(String(person), evs, input));
    if (best && !isExcluded(best, evs, input)) out.push({ person, bd: best.start.uuid.slice(0, 1), times: best.times });
  }
  return out;
}

describe('the funnel pass', () => {
  it('counts the attempts the reference counts, in every order type, with ties at one instant and an exclusion', async () => {
    await fc.assert(
      fc.asyncProperty(arbRows, arbOptions, async (list, a) => {
        const o: FunnelPassOptions = {
          steps: 3,
          order: a.order,
          window: a.window,
          exclusions: a.exclusion ? [{ from: 0, to: 1 }] : [],
        };
        const expected = referenceCounted(list, o);
        expect(await counted(rowsOf(list, a.exclusion), o)).toEqual(expected);
        // A person's events in any order (the SQL sorts by time only): the same attempts.
        expect(await counted(rowsOf([...list].reverse(), a.exclusion), o)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('sizes the per-person hash tables and the memory kept between queries from the memory cap, as DuckDB reads the cap', async () => {
    expect(bytesOf('640MB')).toBe(640e6);
    expect(bytesOf('1.5 GiB')).toBe(1.5 * 2 ** 30);
    expect(bytesOf('plenty')).toBeNull();
    // 2^19 slots of 128 bytes on 2 threads is a fifth of 640 MB; on 8 threads, 2^17.
    expect(perfectHashBits(640e6, 2)).toBe(19);
    expect(perfectHashBits(640e6, 8)).toBe(17);
    expect(perfectHashBits(1e6, 2)).toBe(12);
    const [row] = await h.db.all<{ bits: string }>("SELECT current_setting('perfect_ht_threshold')::VARCHAR AS bits");
    expect(Number(row!.bits)).toBe(perfectHashBits(memoryCapBytes(), duckdbThreads()));
    // A fifth of the cap stays with the process between queries (128 MB of 640 MB).
    expect(keptBlockBytes(640e6)).toBe(128e6);
    const [kept] = await h.db.all<{ size: string }>(
      "SELECT current_setting('block_allocator_memory')::VARCHAR AS size",
    );
    // (DuckDB writes it back in MiB or GiB, rounded: within a tenth.)
    expect(Math.abs(bytesOf(kept!.size)! / keptBlockBytes(memoryCapBytes()) - 1)).toBeLessThan(0.1);
  });

  it('refuses rows not grouped by person', async () => {
    const rows = rowsOf(
      [
        { person: 1, at: 0, steps: 1, excl: false, uuid: randomUUID() },
        { person: 2, at: 0, steps: 1, excl: false, uuid: randomUUID() },
      ],
      false,
    );
    rows.person.reverse();
    await expect(
      countAttempts(rows, { steps: 3, order: 'ordered', window: { interval: 1, unit: 'day' }, exclusions: [] }),
    ).rejects.toThrow(/sorted by person/);
  });

  it("stops a long walk at the request's budget: the checkpoint it calls where it yields ends it", async () => {
    // 300,000 persons of one step-1 event each: a walk of many milliseconds, which yields often.
    const n = 300_000;
    const rows: FunnelRows = {
      rows: n,
      person: Int32Array.from({ length: n }, (_, i) => i),
      ts: new Float64Array(n),
      steps: new Int32Array(n).fill(1),
      uuid: new Uint32Array(n * 4),
      excl: null,
      role: null,
      bd: null,
      bucket: null,
    };
    const o: FunnelPassOptions = { steps: 2, order: 'ordered', window: { interval: 1, unit: 'day' }, exclusions: [] };
    let calls = 0;
    const whole = await countAttempts(rows, o, () => {
      calls += 1;
    });
    expect(whole.count).toBe(n);
    expect(calls).toBeGreaterThan(0);
    let allowed = 1;
    await expect(
      countAttempts(rows, o, () => {
        if (allowed-- <= 0) throw new QueryTimeoutError();
      }),
    ).rejects.toBeInstanceOf(QueryTimeoutError);
  });

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

  it('ends every window where the SQL cut (deadlineSql) and the reference end it', async () => {
    const arb = fc.record({
      t: fc.integer({ min: Date.UTC(2023, 0, 1), max: Date.UTC(2026, 0, 1) }),
      window: fc.record({
        interval: fc.integer({ min: 1, max: 14 }),
        unit: fc.constantFrom<FunnelPassOptions['window']['unit']>('second', 'minute', 'hour', 'day', 'week', 'month'),
      }),
    });
    const cases = fc.sample(arb, 200);
    // Month ends and leap days, where the arithmetic differs most.
    for (const iso of [
      '2024-01-31T23:59:59.999Z',
      '2024-02-29T12:00:00Z',
      '2023-12-31T00:00:00Z',
      '2024-08-31T06:00:00Z',
    ]) {
      for (const interval of [1, 2, 6, 12, 13]) cases.push({ t: Date.parse(iso), window: { interval, unit: 'month' } });
    }
    const params = new SqlParams();
    const sql = cases.map((c) => deadlineSql(`${params.add(c.t)}::BIGINT`, c.window, params)).join(', ');
    const [row] = await h.db.all<Record<string, unknown>>(`SELECT [${sql}]::BIGINT[] AS d`, params.values);
    const fromSql = (row!.d as unknown[]).map(Number);
    expect(cases.map((c) => deadlineMs(c.t, c.window))).toEqual(fromSql);
    expect(cases.map((c) => deadline(c.t, c.window))).toEqual(fromSql);
  });

  it('orders UUID words as DuckDB orders the UUIDs', async () => {
    const ids = Array.from({ length: 200 }, () => randomUUID());
    // Ids that differ only in the top bit or in the low half, beside random ones.
    ids.push(
      '80000000-0000-4000-8000-000000000000',
      '7fffffff-ffff-4fff-bfff-ffffffffffff',
      '00000000-0000-4000-8000-000000000001',
      '00000000-0000-4000-8000-000000000002',
    );
    const {
      columns: [words],
    } = await h.db.columns(`SELECT unnest(from_json($1::JSON, '["UUID"]')) AS u`, [JSON.stringify(ids)], [
      'uuid',
    ] as const);
    const order = ids.map((_, i) => i).sort((a, b) => compareUuidWords(words, a, words, b));
    const rows = await h.db.all<{ u: string }>(
      `SELECT u::VARCHAR AS u FROM (SELECT unnest(from_json($1::JSON, '["UUID"]')) AS u) ORDER BY u`,
      [JSON.stringify(ids)],
    );
    expect(order.map((i) => ids[i])).toEqual(rows.map((r) => r.u));
  });

  it('reads text columns as DuckDB writes them: short, long, multi-byte, empty and NULL, the same value in many chunks', async () => {
    // 12 bytes fit in a header, 13 do not; 'é' is two bytes; values alike in length and first
    // four bytes differ further on; 10,000 rows span several chunks, each value in all of them.
    const values = [
      '',
      'a',
      'Safari',
      '123456789012',
      '1234567890123',
      'éééééé',
      'ééééééé',
      'Microsoft Edge',
      'Microsoft Edgy',
      'Microsoft Edge',
      null,
      '🙂 emoji, then a long tail of text',
    ];
    const rows = Array.from({ length: 10_000 }, (_, i) => values[(i * 7) % values.length]!);
    const {
      rows: n,
      columns: [text, at],
    } = await h.db.columns(
      `SELECT v, i::INTEGER FROM (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')) AS v, generate_subscripts(from_json($1::JSON, '["VARCHAR"]'), 1) AS i) ORDER BY i`,
      [JSON.stringify(rows)],
      ['text', 'int32'] as const,
    );
    expect(n).toBe(rows.length);
    expect(at[9_999]).toBe(10_000);
    expect(text).toEqual(rows);
    // Chunks without a NULL (no validity mask), and a column of 6,000 distinct ids, more than the
    // reader remembers (it then decodes every cell).
    const ids = await h.db.columns(
      `SELECT 'id-' || (i % 6000)::VARCHAR AS v, i::INTEGER FROM range(12000) t(i) ORDER BY i`,
      [],
      ['text', 'int32'] as const,
    );
    expect(ids.columns[0]).toEqual(Array.from({ length: 12_000 }, (_, i) => `id-${i % 6000}`));
  });

  it('reads vectors with the native bindings node-api itself uses (one version of each)', () => {
    const require = createRequire(import.meta.url);
    const api = require('@duckdb/node-api/package.json') as { dependencies: Record<string, string> };
    const bindings = require('@duckdb/node-bindings/package.json') as { version: string };
    expect(api.dependencies['@duckdb/node-bindings']).toBe(bindings.version);
  });

  it('refuses an event without a person key instead of counting it as somebody else', async () => {
    await h.load([ev('a', 'A', 0), ev('a', 'B', 60_000), ev('b', 'A', 0)]);
    expect(((await runFunnel(h.ctx, { events: steps('A', 'B') })) as { count: number }[]).map((s) => s.count)).toEqual([
      2, 1,
    ]);
    await h.db.run(
      "INSERT INTO events (uuid, team_id, event, distinct_id, timestamp) VALUES ('00000000-0000-4000-8000-0000000000ff', 1, 'A', 'c', '2024-03-01T12:00:00Z')",
    );
    await expect(runFunnel(h.ctx, { events: steps('A', 'B') })).rejects.toThrow(/holds NULL/);
  });
});
