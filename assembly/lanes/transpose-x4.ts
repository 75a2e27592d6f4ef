// Four consecutive quaternions (x, y, z, w interleaved) or 3-vectors (x, y, z interleaved) as
// one f32x4 per component ("structure of arrays"), and back, with lane shuffles. The loaders
// set the globals below; a kernel copies them into locals before the next load.
// Only called from `if (ASC_FEATURE_SIMD)` branches.

// @ts-ignore: decorator
@lazy export let lx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let ly: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let lz: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let lw: v128 = f32x4.splat(0);

/** Quaternions i … i + 3 of p into lx, ly, lz, lw (a 4×4 transpose). */
// @ts-ignore: decorator
@inline export function loadQuatX4(p: usize, i: i32): void {
  const a = p + (<usize>i << 4);
  const q0 = v128.load(a), q1 = v128.load(a, 16), q2 = v128.load(a, 32), q3 = v128.load(a, 48);
  const xy01 = i32x4.shuffle(q0, q1, 0, 4, 1, 5); // x0 x1 y0 y1
  const xy23 = i32x4.shuffle(q2, q3, 0, 4, 1, 5); // x2 x3 y2 y3
  const zw01 = i32x4.shuffle(q0, q1, 2, 6, 3, 7); // z0 z1 w0 w1
  const zw23 = i32x4.shuffle(q2, q3, 2, 6, 3, 7); // z2 z3 w2 w3
  lx = i32x4.shuffle(xy01, xy23, 0, 1, 4, 5);
  ly = i32x4.shuffle(xy01, xy23, 2, 3, 6, 7);
  lz = i32x4.shuffle(zw01, zw23, 0, 1, 4, 5);
  lw = i32x4.shuffle(zw01, zw23, 2, 3, 6, 7);
}

/** Stores four quaternions given per component at quaternions i … i + 3 of p. */
// @ts-ignore: decorator
@inline export function storeQuatX4(p: usize, i: i32, x: v128, y: v128, z: v128, w: v128): void {
  const a = p + (<usize>i << 4);
  const xy01 = i32x4.shuffle(x, y, 0, 4, 1, 5); // x0 y0 x1 y1
  const zw01 = i32x4.shuffle(z, w, 0, 4, 1, 5); // z0 w0 z1 w1
  const xy23 = i32x4.shuffle(x, y, 2, 6, 3, 7); // x2 y2 x3 y3
  const zw23 = i32x4.shuffle(z, w, 2, 6, 3, 7); // z2 w2 z3 w3
  v128.store(a, i32x4.shuffle(xy01, zw01, 0, 1, 4, 5));
  v128.store(a, i32x4.shuffle(xy01, zw01, 2, 3, 6, 7), 16);
  v128.store(a, i32x4.shuffle(xy23, zw23, 0, 1, 4, 5), 32);
  v128.store(a, i32x4.shuffle(xy23, zw23, 2, 3, 6, 7), 48);
}

/** 3-vectors i … i + 3 of p (12 floats: x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3) into lx, ly, lz. */
// @ts-ignore: decorator
@inline export function loadVec3X4(p: usize, i: i32): void {
  const a = p + <usize>i * 12;
  const v0 = v128.load(a), v1 = v128.load(a, 16), v2 = v128.load(a, 32);
  lx = i32x4.shuffle(i32x4.shuffle(v0, v1, 0, 3, 6, 7), v2, 0, 1, 2, 5);
  ly = i32x4.shuffle(i32x4.shuffle(v0, v1, 1, 4, 7, 0), v2, 0, 1, 2, 6);
  lz = i32x4.shuffle(i32x4.shuffle(v0, v1, 2, 5, 0, 0), v2, 0, 1, 4, 7);
}

/** Stores four 3-vectors given per component at vectors i … i + 3 of p. */
// @ts-ignore: decorator
@inline export function storeVec3X4(p: usize, i: i32, x: v128, y: v128, z: v128): void {
  const a = p + <usize>i * 12;
  v128.store(a, i32x4.shuffle(i32x4.shuffle(x, y, 0, 4, 1, 5), z, 0, 1, 4, 2)); // x0 y0 z0 x1
  v128.store(a, i32x4.shuffle(i32x4.shuffle(y, z, 1, 5, 2, 6), x, 0, 1, 6, 2), 16); // y1 z1 x2 y2
  v128.store(a, i32x4.shuffle(z, i32x4.shuffle(x, y, 3, 7, 3, 7), 2, 4, 5, 3), 32); // z2 x3 y3 z3
}

/** A per-bone f32x4 (one lane per 3-vector) spread over the 12 floats of four 3-vectors. */
// @ts-ignore: decorator
@lazy export let spread0: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let spread1: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let spread2: v128 = f32x4.splat(0);

// @ts-ignore: decorator
@inline export function spreadVec3X4(c: v128): void {
  spread0 = i32x4.shuffle(c, c, 0, 0, 0, 1);
  spread1 = i32x4.shuffle(c, c, 1, 1, 2, 2);
  spread2 = i32x4.shuffle(c, c, 2, 3, 3, 3);
}
