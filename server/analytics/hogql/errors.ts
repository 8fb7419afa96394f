/** An expression outside the HogQL subset (docs/hogql.md), at offset `pos` of its text. */
export class HogqlError extends Error {
  constructor(
    readonly reason: string,
    readonly pos: number,
  ) {
    super(`${reason} at position ${pos}.`);
  }
}
