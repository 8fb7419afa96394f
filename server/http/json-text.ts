/**
 * JSON text known to encode a `T`: a response body rendered ahead of time (the batch-export list
 * keeps its rendered page in the read cache). A handler may return one where it would return
 * the `T` itself; the router sends the text as it is.
 */
export class JsonText<T> {
  /** Phantom: ties the text to the type it encodes (never set). */
  declare private readonly encodes: T;
  private constructor(readonly text: string) {}

  /** `value` rendered with JSON.stringify. */
  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(JSON.stringify(value));
  }

  /** Text assembled from parts that are JSON text of the right shape (see pageJson). */
  static assembled<T>(text: string): JsonText<T> {
    return new JsonText<T>(text);
  }
}
