// Input checks run inside the wasm memory, so arrays living there are scanned without a copy.

/**
 * Index of the first element of p[0..n) that is NaN, infinite, negative (−0 included: its sign
 * bit is set, and 4·ln2/−0 = −∞), or (when positive is true) zero; −1 when all are valid.
 */
export function firstInvalid(p: usize, n: i32, positive: bool): i32 {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const lowest = f32x4.splat(0);
    const inf = f32x4.splat(Infinity);
    const signBitClear = i32x4.splat(0);
    for (; i + 4 <= n; i += 4) {
      const value = v128.load(p + (<usize>i << 2));
      // ≥ +0 is the sign bit clear (NaN with a clear sign bit fails the < ∞ test)
      const aboveLowest = positive ? f32x4.gt(value, lowest) : i32x4.ge_s(value, signBitClear);
      if (!i32x4.all_true(v128.and(aboveLowest, f32x4.lt(value, inf)))) break; // the scalar loop finds which
    }
  }
  for (; i < n; i++) {
    const value = load<f32>(p + (<usize>i << 2));
    if (!(positive ? value > 0 : reinterpret<i32>(value) >= 0) || !(value < Infinity)) return i;
  }
  return -1;
}
