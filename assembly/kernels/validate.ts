// Input checks run inside the wasm memory, so arrays living there are scanned without a copy.

/**
 * Index of the first element of p[0..n) that is NaN, infinite, negative, or (when positive is
 * true) zero; −1 when all are valid.
 */
export function firstInvalid(p: usize, n: i32, positive: bool): i32 {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const lowest = f32x4.splat(0);
    const inf = f32x4.splat(Infinity);
    for (; i + 4 <= n; i += 4) {
      const value = v128.load(p + (<usize>i << 2));
      const aboveLowest = positive ? f32x4.gt(value, lowest) : f32x4.ge(value, lowest);
      if (!i32x4.all_true(v128.and(aboveLowest, f32x4.lt(value, inf)))) break; // the scalar loop finds which
    }
  }
  for (; i < n; i++) {
    const value = load<f32>(p + (<usize>i << 2));
    if (!(positive ? value > 0 : value >= 0) || !(value < Infinity)) return i;
  }
  return -1;
}
