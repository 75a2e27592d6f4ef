/**
 * Allocation-free acceptance tests for the hot paths (ordinary core-spring calls, prepared
 * steps). Each returns true only for arguments the full checks (validate.ts) accept; a false
 * sends the call through the full checks, which name the fault. Overlap is a comparison of
 * integer byte ranges.
 */

/** True when a and b share no byte (different buffers, disjoint ranges, or one empty). */
export function disjoint(a: Float32Array, b: Float32Array): boolean {
  return (
    a.buffer !== b.buffer ||
    a.length === 0 ||
    b.length === 0 ||
    a.byteOffset + a.byteLength <= b.byteOffset ||
    b.byteOffset + b.byteLength <= a.byteOffset
  );
}

/** An input may be read next to an output when disjoint from it or the identical array. */
export function mayRead(output: Float32Array, input: Float32Array): boolean {
  return (
    disjoint(output, input) || (output.buffer === input.buffer && output.byteOffset === input.byteOffset && output.length === input.length)
  );
}

/**
 * A parameter value keeping its rule (≥ 0, or > 0 when `positive`), finite, also once rounded to
 * float32; −0 breaks the rule (validate.ts: 4·ln2/−0 = −∞).
 */
export function validValue(value: number, positive: boolean): boolean {
  if (!(value < Infinity) || !(Math.fround(value) < Infinity)) return false;
  if (positive) return value > 0 && Math.fround(value) > 0;
  return value > 0 || (value === 0 && 1 / value > 0);
}

/** A valid dt: finite and ≥ 0, and not −0 (as validate.ts). */
export function validDt(dt: unknown): dt is number {
  return typeof dt === 'number' && (dt > 0 || (dt === 0 && 1 / dt > 0)) && dt < Infinity;
}
