/** A copy of typed array `a`, `n` long (n ≥ its length), for an array that grows. */
export function grown<A extends Int32Array | Float64Array>(a: A, n: number): A {
  const b = new (a.constructor as new (length: number) => A)(n);
  b.set(a);
  return b;
}
