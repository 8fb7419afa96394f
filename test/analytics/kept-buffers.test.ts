import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptColumnBytes } from '../../server/analytics/store/duckdb.ts';
import { KeptBuffers } from '../../server/analytics/store/kept-buffers.ts';
import { createHarness, type Harness } from './harness.ts';

const KB = 1024;

describe('kept buffers', () => {
  it('hands a buffer given back to the next take of about its size, and never to a much smaller one', () => {
    const kept = new KeptBuffers(1024 * KB);
    const first = kept.take(100 * KB);
    expect(first.byteLength).toBe(100 * KB);
    kept.give(first);
    expect(kept.keptBytes).toBe(100 * KB);
    // Half its size or less: a new buffer (a small column does not hold on to a large one's memory).
    expect(kept.take(50 * KB - 1)).not.toBe(first);
    expect(kept.take(80 * KB)).toBe(first);
    expect(kept.keptBytes).toBe(0);
    // Taken, it is nobody else's: the next take gets a new one.
    expect(kept.take(80 * KB)).not.toBe(first);
    // Larger than any kept: new.
    kept.give(first);
    expect(kept.take(101 * KB)).not.toBe(first);
  });

  it('keeps at most its cap, making room by dropping the smallest, and neither small buffers nor one twice', () => {
    const kept = new KeptBuffers(300 * KB);
    const [a, b, c] = [100, 150, 120].map((k) => new ArrayBuffer(k * KB));
    kept.give(a!);
    kept.give(b!);
    expect(kept.keptBytes).toBe(250 * KB);
    kept.give(b!);
    expect(kept.keptBytes).toBe(250 * KB);
    // 120 KB more: the 100 KB one goes.
    kept.give(c!);
    expect(kept.keptBytes).toBe(270 * KB);
    expect(kept.take(100 * KB)).toBe(c);
    expect(kept.take(150 * KB)).toBe(b);
    expect(kept.keptBytes).toBe(0);
    // Larger than the cap, or smaller than worth keeping: not kept.
    kept.give(new ArrayBuffer(400 * KB));
    kept.give(new ArrayBuffer(KeptBuffers.SMALLEST - 1));
    expect(kept.keptBytes).toBe(0);
    // No room made by dropping larger ones.
    const big = new ArrayBuffer(250 * KB);
    kept.give(big);
    kept.give(new ArrayBuffer(200 * KB));
    expect(kept.keptBytes).toBe(250 * KB);
  });

  it('serves a set of columns largest first: each kept buffer goes back to the column it was kept for', () => {
    // A strict funnel's columns in their order (persons, times, steps, uuids), more than the cap.
    const kept = new KeptBuffers(640 * KB);
    const sizes = [100 * KB, 200 * KB, 100 * KB, 400 * KB];
    const first = kept.takeAll(sizes);
    expect(first.map((b) => b.byteLength)).toEqual(sizes);
    kept.giveAll(first);
    // The largest that fit: uuids and times (600 KB).
    expect(kept.keptBytes).toBe(600 * KB);
    const second = kept.takeAll(sizes);
    expect(second[3]).toBe(first[3]);
    expect(second[1]).toBe(first[1]);
    expect(second[0]).not.toBe(first[1]);
    expect(kept.keptBytes).toBe(0);
    // Sizes under SMALLEST: new buffers, never kept.
    const small = kept.takeAll([KB, 200 * KB]);
    expect(small[0]!.byteLength).toBe(KB);
    expect(small[1]).not.toBe(first[1]);
    kept.giveAll(small);
    expect(kept.keptBytes).toBe(200 * KB);
  });

  it("keeps a tenth of DuckDB's cap: a 10M-event ordered funnel's columns", () => {
    expect(keptColumnBytes(640e6)).toBe(64e6);
  });
});

describe('columnar reads in kept memory', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("a read after a released one reuses its memory and holds its own values; an unreleased read's memory is not shared", async () => {
    // 50,000 rows: 200 kB of INTEGER, 400 kB of DOUBLE.
    const read = (offset: number) =>
      h.db.columns(
        `SELECT (i + ${offset})::INTEGER, (i * 0.5 + ${offset})::DOUBLE FROM range(50000) t(i) ORDER BY i`,
        [],
        ['int32', 'double'] as const,
      );
    const first = await read(0);
    const held = await read(7);
    expect(held.columns[0].buffer).not.toBe(first.columns[0].buffer);
    const firstBuffers = first.columns.map((c) => c.buffer);
    first.release();
    first.release();
    const second = await read(1_000_000);
    second.columns.forEach((column, i) => expect(column.buffer).toBe(firstBuffers[i]));
    expect(second.rows).toBe(50_000);
    expect(second.columns[0][0]).toBe(1_000_000);
    expect(second.columns[0][49_999]).toBe(1_049_999);
    expect(second.columns[1][49_999]).toBe(49_999 * 0.5 + 1_000_000);
    // The read not released kept its values throughout.
    expect(held.columns[0][49_999]).toBe(50_006);
    expect(held.columns[1][1]).toBe(7.5);
    // A smaller read after the release: a view of its own length on kept memory.
    second.release();
    const small = await h.db.columns('SELECT (i * 3)::INTEGER FROM range(30000) t(i) ORDER BY i', [], [
      'int32',
    ] as const);
    expect(small.columns[0].length).toBe(30_000);
    expect(small.columns[0][29_999]).toBe(89_997);
  });
});
