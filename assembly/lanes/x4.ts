// Four float32 elements as one f32x4, and its halves as f64x2 pairs (the kernels that compute
// their coefficients in float64 and the step in float32). Stride 1 reads one parameter per
// element, stride 0 broadcasts the single value at the pointer. Only called from
// ASC_FEATURE_SIMD branches.

/** Four consecutive f32 parameters from element i (or the broadcast value). */
// @ts-ignore: decorator
@inline export function paramX4(p: usize, stride: i32, i: i32): v128 {
  return stride == 0 ? v128.load32_splat(p) : v128.load(p + (<usize>i << 2));
}

/** Lanes 0, 1 of an f32x4 as f64x2. */
// @ts-ignore: decorator
@inline export function lowX2(v: v128): v128 {
  return f64x2.promote_low_f32x4(v);
}

/** Lanes 2, 3 of an f32x4 as f64x2. */
// @ts-ignore: decorator
@inline export function highX2(v: v128): v128 {
  return f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 2, 3, 2, 3));
}

/** An f32x4 from two f64x2 (lanes 0, 1 from lo; 2, 3 from hi). */
// @ts-ignore: decorator
@inline export function joinX4(lo: v128, hi: v128): v128 {
  return i32x4.shuffle(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 1, 4, 5);
}
