/**
 * Memory for the columns of columnar reads (columnar-read.ts), kept between queries instead of handed
 * back to the system. Pages the system hands out afresh are faulted in one by one, which is dear
 * on a virtual machine (bench/README.md: 12 µs a page on the one the benches run on): the columns
 * of a 10M-event strict funnel are 3.2 million rows, about 100 MB, some 25,000 pages every time
 * it ran. DuckDB keeps its own blocks for the same reason (duckdb.ts, keptBlockBytes).
 *
 * A buffer taken is the caller's alone until it gives it back; its bytes are whatever the last
 * user left (a read overwrites every row it reads).
 */
export class KeptBuffers {
  private readonly free: ArrayBuffer[] = [];
  private kept = 0;

  /** `cap`: the most bytes kept while unused. */
  constructor(private readonly cap: number) {}

  /** Buffers smaller than this are not worth keeping: the allocator reuses such sizes itself. */
  static readonly SMALLEST = 64 * 1024;

  /**
   * A buffer of at least `bytes`: the smallest kept one that is no more than twice as large
   * (a column of a small result does not hold on to a large one's memory), else a new one.
   */
  take(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i]!.byteLength;
      if (size >= bytes && size <= 2 * bytes && (best < 0 || size < this.free[best]!.byteLength)) best = i;
    }
    if (best < 0) return new ArrayBuffer(bytes);
    const [buffer] = this.free.splice(best, 1);
    this.kept -= buffer!.byteLength;
    return buffer!;
  }

  /**
   * Keeps `buffer` for a later take. Past the cap, the smallest kept buffers make room for it
   * (the large ones cost the most pages to fault in again), or it is left to the garbage
   * collector when they cannot.
   */
  give(buffer: ArrayBuffer): void {
    const size = buffer.byteLength;
    if (size < KeptBuffers.SMALLEST || size > this.cap || this.free.includes(buffer)) return;
    this.free.sort((a, b) => a.byteLength - b.byteLength);
    let room = this.cap - this.kept;
    let drop = 0;
    while (room < size && drop < this.free.length && this.free[drop]!.byteLength < size)
      room += this.free[drop++]!.byteLength;
    if (room < size) return;
    for (const dropped of this.free.splice(0, drop)) this.kept -= dropped.byteLength;
    this.free.push(buffer);
    this.kept += size;
  }

  /**
   * Buffers of the given sizes (bytes), in that order, for one user (a read's columns): the
   * largest are taken first, so that a smaller one never takes a buffer kept for a larger one of
   * the set (with buffers up to twice its size allowed, a strict funnel's times would take its
   * uuids'). Sizes under SMALLEST get new buffers.
   */
  takeAll(sizes: readonly number[]): ArrayBuffer[] {
    const out = new Array<ArrayBuffer>(sizes.length);
    for (const i of largestFirst(sizes))
      out[i] = sizes[i]! < KeptBuffers.SMALLEST ? new ArrayBuffer(sizes[i]!) : this.take(sizes[i]!);
    return out;
  }

  /** Gives back a set taken with takeAll, largest first: under the cap the largest stay. */
  giveAll(buffers: readonly ArrayBuffer[]): void {
    for (const i of largestFirst(buffers.map((b) => b.byteLength))) this.give(buffers[i]!);
  }

  /** Bytes kept while unused. */
  get keptBytes(): number {
    return this.kept;
  }
}

/** The indices of `sizes`, largest first. */
const largestFirst = (sizes: readonly number[]) => [...sizes.keys()].sort((a, b) => sizes[b]! - sizes[a]!);
