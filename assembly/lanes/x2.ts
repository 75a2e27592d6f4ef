// Two float32 elements as one f64x2, for the per-element kernels that compute in float64 from
// load to store (kernels/pd-spring.ts 'exact', kernels/second-order.ts). Only called from ASC_FEATURE_SIMD branches.

/** Elements i, i + 1 of a float32 array, promoted to f64x2. */
// @ts-ignore: decorator
@inline export function loadX2(p: usize, i: i32): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(p + (<usize>i << 2)));
}

/** Stores the two lanes of an f64x2, rounded to float32, at elements i, i + 1. */
// @ts-ignore: decorator
@inline export function storeX2(p: usize, i: i32, value: v128): void {
  v128.store64_lane(p + (<usize>i << 2), f32x4.demote_f64x2_zero(value), 0);
}

/** A parameter at elements i, i + 1 (stride 1), or its broadcast value (stride 0), as f64x2. */
// @ts-ignore: decorator
@inline export function paramX2(p: usize, stride: i32, i: i32): v128 {
  return stride == 0 ? f64x2.splat(<f64>load<f32>(p)) : loadX2(p, i);
}
