import bindings from '@duckdb/node-bindings';

/**
 * A read remembers at most this many distinct short values; if by then fewer cells than that
 * were found again (a column of ids, say), it stops looking and decodes every cell.
 */
const MAX_REMEMBERED = 4096;

/**
 * Reads a VARCHAR vector's cells as strings, decoding each distinct short value once per read.
 * A VARCHAR vector is an array of 16-byte string headers: the length, then the bytes themselves
 * when they fit in 12, else a 4-byte prefix and a pointer to them. Columns read this way are
 * breakdown values and the like, a few distinct texts over hundreds of thousands of rows, where
 * decoding every cell (node-api's reader: a TextDecoder call per cell) took most of a read.
 * - A short value's header holds the whole value: equal headers are equal texts, found again by
 *   the header's four words without touching any bytes.
 * - A long value is copied out (one native call) and decoded, as before: remembering long
 *   values would need a hash of all their bytes, which costs what the decoding does.
 */
export class TextCells {
  private readonly short = new Map<number, { w: [number, number, number, number]; text: string }[]>();
  private remembered = 0;
  private hits = 0;
  private lookUp = true;
  private readonly decoder = new TextDecoder();

  /** Fills target[at …] with the `size` cells of `vector` (null for NULL). */
  read(vector: bindings.Vector, size: number, target: (string | null)[], at: number): void {
    // A copy of the headers (node-bindings copies a vector's data): aligned, and ours to keep.
    const data = bindings.vector_get_data(vector, size * 16);
    const words = new Uint32Array(data.buffer as ArrayBuffer, data.byteOffset, size * 4);
    const validity = bindings.vector_get_validity(vector, Math.ceil(size / 64) * 8);
    for (let r = 0; r < size; r++) {
      if (validity && !(validity[r >> 3]! & (1 << (r & 7)))) {
        target[at + r] = null;
        continue;
      }
      const o = r * 4;
      const len = words[o]!;
      target[at + r] =
        len <= 12
          ? this.shortText(len, words[o + 1]!, words[o + 2]!, words[o + 3]!, data, r * 16 + 4)
          : this.decoder.decode(
              bindings.get_data_from_pointer(data.buffer as ArrayBuffer, data.byteOffset + r * 16 + 8, len),
            );
    }
  }

  private shortText(len: number, a: number, b: number, c: number, data: Uint8Array, offset: number): string {
    if (!this.lookUp) return this.decoder.decode(data.subarray(offset, offset + len));
    // Two headers with equal words hold equal bytes, so equal texts (bytes past the length, if
    // DuckDB left any non-zero, only make a value miss and be decoded again).
    const key = (Math.imul(len ^ a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) >>> 0;
    const seen = this.short.get(key);
    if (seen) {
      for (const s of seen) {
        if (s.w[0] === len && s.w[1] === a && s.w[2] === b && s.w[3] === c) {
          this.hits += 1;
          return s.text;
        }
      }
    }
    const text = this.decoder.decode(data.subarray(offset, offset + len));
    if (this.remembered === MAX_REMEMBERED) this.lookUp = this.hits >= MAX_REMEMBERED;
    else {
      this.remembered += 1;
      const entry = { w: [len, a, b, c] as [number, number, number, number], text };
      if (seen) seen.push(entry);
      else this.short.set(key, [entry]);
    }
    return text;
  }
}
