// Loading per-element parameters: stride 1 reads one value per element, stride 0 broadcasts
// the single value at the pointer (a uniform parameter mixed with a per-element one).

// @ts-ignore: decorator
@inline export function paramAt(p: usize, stride: i32, i: i32): f64 {
  return <f64>load<f32>(p + ((<usize>(i * stride)) << 2));
}

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
