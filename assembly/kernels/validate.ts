// Input checks run inside the wasm memory, so arrays living there are scanned without a copy.

/**
 * Index of the first element of p[0..n) that is NaN, infinite, negative (−0 included: its sign
 * bit is set, and 4·ln2/−0 = −∞), or (when positive is true) zero; −1 when all are valid.
 */
export function firstInvalid(p: usize, n: i32, positive: bool): i32 {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    // As unsigned integers, the valid bit patterns are one range: [0, +∞) for non-negative
    // (−0, negatives and negative NaNs have the sign bit set: above it), [1, +∞) for positive
    // (shifted down by one, +0 wraps around). So a block is valid when its largest shifted pattern
    // is below +∞'s: one max per vector and one test per 32 elements (a test per vector made the
    // scan a sixth of a per-element spring call; docs/DECISIONS.md)
    const shift = i32x4.splat(positive ? 1 : 0);
    const limit = i32x4.splat(positive ? 0x7f800000 - 1 : 0x7f800000);
    for (; i + 32 <= n; i += 32) {
      const a = p + (<usize>i << 2);
      let m = i32x4.max_u(i32x4.sub(v128.load(a), shift), i32x4.sub(v128.load(a, 16), shift));
      m = i32x4.max_u(m, i32x4.max_u(i32x4.sub(v128.load(a, 32), shift), i32x4.sub(v128.load(a, 48), shift)));
      m = i32x4.max_u(m, i32x4.max_u(i32x4.sub(v128.load(a, 64), shift), i32x4.sub(v128.load(a, 80), shift)));
      m = i32x4.max_u(m, i32x4.max_u(i32x4.sub(v128.load(a, 96), shift), i32x4.sub(v128.load(a, 112), shift)));
      if (!i32x4.all_true(i32x4.lt_u(m, limit))) break; // the loops below find which
    }
    for (; i + 4 <= n; i += 4) {
      if (!i32x4.all_true(i32x4.lt_u(i32x4.sub(v128.load(p + (<usize>i << 2)), shift), limit))) break;
    }
  }
  for (; i < n; i++) {
    const value = load<f32>(p + (<usize>i << 2));
    if (!(positive ? value > 0 : reinterpret<i32>(value) >= 0) || !(value < Infinity)) return i;
  }
  return -1;
}

/** Index of the first element of p[0..n) that is NaN or infinite; −1 when all are finite. */
export function firstNonFinite(p: usize, n: i32): i32 {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    // a float is NaN or ±∞ when its exponent bits are all set: one and + compare per vector,
    // one test per 16 elements
    const exponent = i32x4.splat(0x7f800000);
    for (; i + 16 <= n; i += 16) {
      const a = p + (<usize>i << 2);
      const e0 = i32x4.eq(v128.and(v128.load(a), exponent), exponent), e1 = i32x4.eq(v128.and(v128.load(a, 16), exponent), exponent);
      const e2 = i32x4.eq(v128.and(v128.load(a, 32), exponent), exponent), e3 = i32x4.eq(v128.and(v128.load(a, 48), exponent), exponent);
      if (v128.any_true(v128.or(v128.or(e0, e1), v128.or(e2, e3)))) break; // the loop below finds which
    }
  }
  for (; i < n; i++) {
    if ((reinterpret<i32>(load<f32>(p + (<usize>i << 2))) & 0x7f800000) == 0x7f800000) return i;
  }
  return -1;
}

/** Index of the first element of the float64 array p[0..n) that is NaN or infinite; −1 when all are finite. */
export function firstNonFinite64(p: usize, n: i32): i32 {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const exponent = i64x2.splat(0x7ff0000000000000);
    for (; i + 8 <= n; i += 8) {
      const a = p + (<usize>i << 3);
      const e0 = i64x2.eq(v128.and(v128.load(a), exponent), exponent), e1 = i64x2.eq(v128.and(v128.load(a, 16), exponent), exponent);
      const e2 = i64x2.eq(v128.and(v128.load(a, 32), exponent), exponent), e3 = i64x2.eq(v128.and(v128.load(a, 48), exponent), exponent);
      if (v128.any_true(v128.or(v128.or(e0, e1), v128.or(e2, e3)))) break; // the loop below finds which
    }
  }
  for (; i < n; i++) {
    if ((reinterpret<i64>(load<f64>(p + (<usize>i << 3))) & 0x7ff0000000000000) == 0x7ff0000000000000) return i;
  }
  return -1;
}
