import { compressBytes, type Encoding } from './compression.ts';

/**
 * JSON text known to encode a `T`: a response body rendered ahead of time (the batch-export list
 * keeps its rendered page in the read cache, the insight list whole answers). A handler may
 * return one where it would return the `T` itself; the router sends its bytes as they are.
 * A JsonText kept in a cache is sent many times: its bytes and each compressed variant are made
 * once, on first use, and reused.
 */
export class JsonText<T> {
  /** Phantom: ties the text to the type it encodes (never set). */
  declare private readonly encodes: T;
  #bytes: Uint8Array<ArrayBuffer> | undefined;
  readonly #encoded = new Map<Encoding, Promise<Uint8Array<ArrayBuffer>>>();
  private constructor(readonly text: string) {}

  /** `value` rendered with JSON.stringify. */
  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(JSON.stringify(value));
  }

  /** Text assembled from parts that are JSON text of the right shape (see pageJson). */
  static assembled<T>(text: string): JsonText<T> {
    return new JsonText<T>(text);
  }

  /** The UTF-8 bytes of the text (made once). */
  get bytes(): Uint8Array<ArrayBuffer> {
    this.#bytes ??= new TextEncoder().encode(this.text);
    return this.#bytes;
  }

  /** The bytes compressed with `encoding` (made once, on the thread pool; a failure is not kept). */
  encoded(encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
    let variant = this.#encoded.get(encoding);
    if (!variant) {
      variant = compressBytes(this.bytes, encoding).then((compressed) => new Uint8Array(compressed));
      this.#encoded.set(encoding, variant);
      variant.catch(() => this.#encoded.delete(encoding));
    }
    return variant;
  }
}
