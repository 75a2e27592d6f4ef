// Quaternion algebra for the kernels (layout x, y, z, w; Hamilton product; three.js convention),
// re-derived from the formulas of Holden's quat.h like src/reference/quat.ts:
//   mul   a ⊗ b                                   (quat_mul)
//   rotate v + w·t + u × t, t = 2·u × v, u = xyz   (quat_mul_vec3)
//   log   scaled angle axis of abs(q): 2·atan2(|xyz|, w)·xyz/|xyz|   (quat_to_scaled_angle_axis, atan2 form)
//   exp   [sin(h)·a/|a|, cos(h)], h = |a|/2        (quat_from_scaled_angle_axis)
// Two widths: four bones per call in f32x4 lanes (results in the globals q* and vec*; SIMD build
// only), and one bone in float64 (results in the globals s*), for the scalar build and tails.
import { atan2FirstQuadrantX4, atanRatioOut, atanSmallOut, sinOverXX4, cosX4 } from '../maths/x4';
import { joinX4 } from '../lanes/x4';

// @ts-ignore: decorator
@lazy export let qx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let qy: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let qz: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let qw: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let vecX: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let vecY: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let vecZ: v128 = f32x4.splat(0);

const PI: f64 = 3.141592653589793;
const INV_PI: f64 = 0.3183098861837907;

/** q = a ⊗ b for four pairs. */
// @ts-ignore: decorator
@inline export function quatMulX4(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): void {
  const x = f32x4.add(f32x4.add(f32x4.mul(aw, bx), f32x4.mul(ax, bw)), f32x4.sub(f32x4.mul(ay, bz), f32x4.mul(az, by)));
  const y = f32x4.add(f32x4.sub(f32x4.mul(aw, by), f32x4.mul(ax, bz)), f32x4.add(f32x4.mul(ay, bw), f32x4.mul(az, bx)));
  const z = f32x4.add(f32x4.add(f32x4.mul(aw, bz), f32x4.mul(ax, by)), f32x4.sub(f32x4.mul(az, bw), f32x4.mul(ay, bx)));
  qw = f32x4.sub(f32x4.sub(f32x4.mul(aw, bw), f32x4.mul(ax, bx)), f32x4.add(f32x4.mul(ay, by), f32x4.mul(az, bz)));
  qx = x; qy = y; qz = z;
}

/** v = rotate(q, v) for four pairs. */
// @ts-ignore: decorator
@inline export function quatRotateX4(x: v128, y: v128, z: v128, w: v128, px: v128, py: v128, pz: v128): void {
  const two = f32x4.splat(2);
  const tx = f32x4.mul(two, f32x4.sub(f32x4.mul(y, pz), f32x4.mul(z, py)));
  const ty = f32x4.mul(two, f32x4.sub(f32x4.mul(z, px), f32x4.mul(x, pz)));
  const tz = f32x4.mul(two, f32x4.sub(f32x4.mul(x, py), f32x4.mul(y, px)));
  const rx = f32x4.add(f32x4.add(px, f32x4.mul(w, tx)), f32x4.sub(f32x4.mul(y, tz), f32x4.mul(z, ty)));
  const ry = f32x4.add(f32x4.add(py, f32x4.mul(w, ty)), f32x4.sub(f32x4.mul(z, tx), f32x4.mul(x, tz)));
  vecZ = f32x4.add(f32x4.add(pz, f32x4.mul(w, tz)), f32x4.sub(f32x4.mul(x, ty), f32x4.mul(y, tx)));
  vecX = rx; vecY = ry;
}

/**
 * A power of two per lane that brings the largest |component| of (x, y, z, w) into [1, 4):
 * 2^(127 − E), E its exponent field, clamped to 253 so the factor stays a normal float32 (a
 * subnormal or zero largest component, E = 0, gets 2^127). Multiplying by it is exact, so
 * scale-invariant results (log, normalize, the Jacobian's ratios) are bit for bit those of the
 * unscaled quaternion wherever its squares fit in float32, and finite where they would under- or
 * overflow (|component| below 1e-19 or above 1.8e19).
 */
// @ts-ignore: decorator
@inline export function unitScaleX4(x: v128, y: v128, z: v128, w: v128): v128 {
  const mag = i32x4.splat(0x7fffffff); // |·| as bits: for non-negative floats integer order is float order
  const m = i32x4.max_s(i32x4.max_s(v128.and(x, mag), v128.and(y, mag)), i32x4.max_s(v128.and(z, mag), v128.and(w, mag)));
  const e = i32x4.min_s(v128.and(m, i32x4.splat(0x7f800000)), i32x4.splat(253 << 23));
  return i32x4.sub(i32x4.splat(254 << 23), e);
}

/**
 * v = log of abs(q) as a scaled angle axis, for four quaternions (any nonzero length): scaled by
 * unitScaleX4 first, so tiny and huge ones keep their squares inside float32.
 */
// @ts-ignore: decorator
@inline export function quatLogX4(x: v128, y: v128, z: v128, w: v128): void {
  const scale = unitScaleX4(x, y, z, w);
  quatLogInRangeX4(f32x4.mul(x, scale), f32x4.mul(y, scale), f32x4.mul(z, scale), f32x4.mul(w, scale));
}

/**
 * quatLogX4 for quaternions whose largest |component| is already of order 1 (scaled by
 * unitScaleX4, or a product of such): squares cannot under- or overflow.
 * angle/|xyz| = 2·atan2(s, w)/s with s = |xyz|; where s ≤ tan(π/8)·w it is 2·P(u²)/w, u = s/w,
 * which keeps full relative precision as s → 0 (no division by s).
 */
// @ts-ignore: decorator
@inline export function quatLogInRangeX4(x: v128, y: v128, z: v128, w: v128): void {
  // abs: flip the sign of every component where w < 0 (shortest arc)
  const flip = v128.and(f32x4.lt(w, f32x4.splat(0)), f32x4.splat(-0.0));
  const ax = v128.xor(x, flip), ay = v128.xor(y, flip), az = v128.xor(z, flip), aw = v128.xor(w, flip);
  const s = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(ax, ax), f32x4.mul(ay, ay)), f32x4.mul(az, az)));
  const half = atan2FirstQuadrantX4(s, aw);
  const small = atanSmallOut;
  const k = f32x4.div(
    f32x4.mul(f32x4.splat(2), v128.bitselect(atanRatioOut, half, small)),
    v128.bitselect(aw, s, small),
  );
  vecX = f32x4.mul(k, ax);
  vecY = f32x4.mul(k, ay);
  vecZ = f32x4.mul(k, az);
}

/**
 * v = log(abs(a ⊗ inv(b))) for four pairs (the rotation from b to a). The log does not depend on
 * the lengths of a and b, so each is scaled by a power of two first (unitScaleX4): the product of
 * two small quaternions (|a|·|b| below 1e-38) no longer underflows to 0, whose log is NaN.
 */
// @ts-ignore: decorator
@inline export function quatRelativeLogX4(ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): void {
  const sa = unitScaleX4(ax, ay, az, aw);
  const sb = unitScaleX4(bx, by, bz, bw);
  const nb = f32x4.neg(sb); // inv(b) = [−xyz, w]
  quatMulX4(f32x4.mul(ax, sa), f32x4.mul(ay, sa), f32x4.mul(az, sa), f32x4.mul(aw, sa),
    f32x4.mul(bx, nb), f32x4.mul(by, nb), f32x4.mul(bz, nb), f32x4.mul(bw, sb));
  quatLogInRangeX4(qx, qy, qz, qw); // |a ⊗ b⁻¹| = |a|·|b| in [1, 64]
}

/**
 * q = exp(a/2) for four scaled angle axes given as float64 pairs (lanes 0, 1 in *Lo, 2, 3 in *Hi).
 * The half angle h = |a|/2 is reduced in float64 to r = h − k·π, |r| ≤ π/2 (exact enough for
 * |a| up to 1e8: k·π is off by k·1.2e-16), so large angles keep their absolute precision; then
 * q = ±[sin(r)/r · (r/|a|) · a, cos(r)] in float32 (the sign (−1)^k is dropped: q ≡ −q). w ≥ 0.
 */
// @ts-ignore: decorator
@inline export function quatExpX4(axLo: v128, axHi: v128, ayLo: v128, ayHi: v128, azLo: v128, azHi: v128): void {
  const nLo = f64x2.sqrt(f64x2.add(f64x2.add(f64x2.mul(axLo, axLo), f64x2.mul(ayLo, ayLo)), f64x2.mul(azLo, azLo)));
  const nHi = f64x2.sqrt(f64x2.add(f64x2.add(f64x2.mul(axHi, axHi), f64x2.mul(ayHi, ayHi)), f64x2.mul(azHi, azHi)));
  const rLo = reduceHalfAngleX2(nLo);
  const ratioLo = ratioOfX2(rLo, nLo);
  const rHi = reduceHalfAngleX2(nHi);
  const ratioHi = ratioOfX2(rHi, nHi);
  const r = joinX4(rLo, rHi);
  const r2 = f32x4.mul(r, r);
  const f = f32x4.mul(joinX4(ratioLo, ratioHi), sinOverXX4(r2));
  qx = f32x4.mul(joinX4(axLo, axHi), f);
  qy = f32x4.mul(joinX4(ayLo, ayHi), f);
  qz = f32x4.mul(joinX4(azLo, azHi), f);
  qw = cosX4(r2);
}

/**
 * quatExpX4 for four scaled angle axes a in f32x4 with |a| ≤ π (no reduction: r = |a|/2 ≤ π/2):
 * q = [sin(r)/r · a/2, cos r], polynomials in r² = |a|²/4 only (no square root, no division).
 */
// @ts-ignore: decorator
@inline export function quatExpSmallX4(ax: v128, ay: v128, az: v128): void {
  const r2 = f32x4.mul(f32x4.add(f32x4.add(f32x4.mul(ax, ax), f32x4.mul(ay, ay)), f32x4.mul(az, az)), f32x4.splat(0.25));
  const f = f32x4.mul(f32x4.splat(0.5), sinOverXX4(r2));
  qx = f32x4.mul(ax, f);
  qy = f32x4.mul(ay, f);
  qz = f32x4.mul(az, f);
  qw = cosX4(r2);
}

// r = |a|/2 − k·π with k = round(|a|/2π), in [−π/2, π/2]
// @ts-ignore: decorator
@inline function reduceHalfAngleX2(n: v128): v128 {
  const h = f64x2.mul(n, f64x2.splat(0.5));
  const k = f64x2.nearest(f64x2.mul(h, f64x2.splat(INV_PI)));
  return f64x2.sub(h, f64x2.mul(k, f64x2.splat(PI)));
}

// r/|a| (= 1/2 exactly when k = 0, including |a| = 0)
// @ts-ignore: decorator
@inline function ratioOfX2(r: v128, n: v128): v128 {
  return v128.bitselect(f64x2.splat(0.5), f64x2.div(r, n), f64x2.eq(n, f64x2.splat(0)));
}

// ---------------------------------------------------------------------------------------------
// One bone in float64.

export let sx: f64 = 0;
export let sy: f64 = 0;
export let sz: f64 = 0;
export let sw: f64 = 0;

/** (sx, sy, sz, sw) = a ⊗ b. */
// @ts-ignore: decorator
@inline export function quatMulScalar(ax: f64, ay: f64, az: f64, aw: f64, bx: f64, by: f64, bz: f64, bw: f64): void {
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  sw = aw * bw - ax * bx - ay * by - az * bz;
  sx = x; sy = y; sz = z;
}

/** (sx, sy, sz) = rotate(q, p). */
// @ts-ignore: decorator
@inline export function quatRotateScalar(x: f64, y: f64, z: f64, w: f64, px: f64, py: f64, pz: f64): void {
  const tx = 2 * (y * pz - z * py);
  const ty = 2 * (z * px - x * pz);
  const tz = 2 * (x * py - y * px);
  const rx = px + w * tx + (y * tz - z * ty);
  const ry = py + w * ty + (z * tx - x * tz);
  sz = pz + w * tz + (x * ty - y * tx);
  sx = rx; sy = ry;
}

/** (sx, sy, sz) = log of abs(q) as a scaled angle axis (atan2 form, exact limit 2/w at s = 0). */
export function quatLogScalar(x: f64, y: f64, z: f64, w: f64): void {
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  const s = Math.sqrt(x * x + y * y + z * z);
  const k = s > 0 ? (2 * Math.atan2(s, w)) / s : 2 / w;
  sx = k * x; sy = k * y; sz = k * z;
}

/** (sx, sy, sz, sw) = exp(a/2) = [sin(h)·a/|a|, cos(h)], h = |a|/2. */
export function quatExpScalar(ax: f64, ay: f64, az: f64): void {
  const n = Math.sqrt(ax * ax + ay * ay + az * az);
  const h = 0.5 * n;
  const k = n > 0 ? Math.sin(h) / n : 0.5;
  sx = k * ax; sy = k * ay; sz = k * az; sw = Math.cos(h);
}
