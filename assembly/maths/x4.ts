// Vectorised float32 atan, atan2, sin and cos (four lanes of f32x4) for the quaternion kernels,
// where float32 is enough (rotations must agree to 2e-5 rad). The polynomials are minimax fits
// made for this file (Remez exchange, relative error for atan and sin r / r, absolute for cos);
// their fit errors and the measured errors of this code are in docs/DECISIONS.md and checked by
// test/wasm/simd-math-f32.test.ts. Only called from `if (ASC_FEATURE_SIMD)` branches.

// tan(π/8): the atan polynomial covers |u| ≤ TAN_PI_8.
const TAN_PI_8: f32 = 0.41421356237309503;
const PI_4: f32 = 0.7853981633974483;
const PI_2: f32 = 1.5707963267948966;
const PI: f32 = 3.141592653589793;

/** atan(u)/u = P(u²) for |u| ≤ tan(π/8): degree 5 in u², fit error 6.0e-10 relative. */
// @ts-ignore: decorator
@inline export function atanOverXX4(u2: v128): v128 {
  let p = f32x4.splat(-0.060347904192147181);
  p = f32x4.add(f32x4.mul(p, u2), f32x4.splat(0.10573479833396893));
  p = f32x4.add(f32x4.mul(p, u2), f32x4.splat(-0.14240083012521729));
  p = f32x4.add(f32x4.mul(p, u2), f32x4.splat(0.1999821694786533));
  p = f32x4.add(f32x4.mul(p, u2), f32x4.splat(-0.33333307625846759));
  return f32x4.add(f32x4.mul(p, u2), f32x4.splat(0.99999999939667072));
}

/** atanOverXX4 of the last atan2FirstQuadrantX4 call: P(u²) with u = y / x where y ≤ tan(π/8)·x. */
// @ts-ignore: decorator
@lazy export let atanRatioOut: v128 = f32x4.splat(0);
/** Lanes of the last atan2FirstQuadrantX4 call where y ≤ tan(π/8)·x (the angle is u·atanRatioOut). */
// @ts-ignore: decorator
@lazy export let atanSmallOut: v128 = f32x4.splat(0);

/**
 * atan2(y, x) for y ≥ 0, x ≥ 0, in [0, π/2]. Three ranges, each mapped to |u| ≤ tan(π/8):
 * y ≤ tan(π/8)·x: u = y/x, angle = u·P(u²); x ≤ tan(π/8)·y: u = x/y, angle = π/2 − u·P(u²);
 * between: u = (y − x)/(y + x), angle = π/4 + u·P(u²) (atan's addition formula). (0, 0) gives 0.
 */
function atan2FirstQuadrantX4(y: v128, x: v128): v128 {
  const small = f32x4.le(y, f32x4.mul(x, f32x4.splat(TAN_PI_8)));
  const large = f32x4.le(x, f32x4.mul(y, f32x4.splat(TAN_PI_8)));
  let num = v128.bitselect(y, v128.bitselect(x, f32x4.sub(y, x), large), small);
  let den = v128.bitselect(x, v128.bitselect(y, f32x4.add(y, x), large), small);
  den = v128.bitselect(f32x4.splat(1), den, f32x4.eq(den, f32x4.splat(0))); // (0, 0): u = 0/1
  const u = f32x4.div(num, den);
  const p = atanOverXX4(f32x4.mul(u, u));
  atanRatioOut = p;
  atanSmallOut = small;
  const base = v128.bitselect(f32x4.splat(0), v128.bitselect(f32x4.splat(PI_2), f32x4.splat(PI_4), large), small);
  const up = f32x4.mul(u, p);
  return f32x4.add(base, v128.bitselect(f32x4.neg(up), up, large));
}

/** atan2(y, x) in [−π, π] for every (x, y), with Math.atan2's signs at ±0. */
function atan2X4(y: v128, x: v128): v128 {
  const signBit = f32x4.splat(-0.0);
  const a = atan2FirstQuadrantX4(f32x4.abs(y), f32x4.abs(x));
  // x < 0 (or −0): the angle is π − a; then y's sign.
  const xNegative = i32x4.lt_s(x, i32x4.splat(0));
  const b = v128.bitselect(f32x4.sub(f32x4.splat(PI), a), a, xNegative);
  return v128.or(b, v128.and(y, signBit));
}

/** atan(x) in (−π/2, π/2) for every x: atan2(x, 1). */
function atanX4(x: v128): v128 {
  return atan2X4(x, f32x4.splat(1));
}

/** sin(r)/r = S(r²) for |r| ≤ π/2: degree 5 in r², fit error 2.1e-11 relative (1 at r = 0). */
// @ts-ignore: decorator
@inline export function sinOverXX4(r2: v128): v128 {
  let p = f32x4.splat(-2.3868346523043411e-8);
  p = f32x4.add(f32x4.mul(p, r2), f32x4.splat(2.7523971074740042e-6));
  p = f32x4.add(f32x4.mul(p, r2), f32x4.splat(-0.00019840832823263805));
  p = f32x4.add(f32x4.mul(p, r2), f32x4.splat(0.0083333307205577488));
  p = f32x4.add(f32x4.mul(p, r2), f32x4.splat(-0.1666666660882607));
  return f32x4.add(f32x4.mul(p, r2), f32x4.splat(0.99999999997884903));
}

/** cos(r) = C(r²) for |r| ≤ π/2: degree 5 in r², fit error 2.2e-10 absolute. */
// @ts-ignore: decorator
@inline export function cosX4(r2: v128): v128 {
  let p = f32x4.splat(-2.6051495219551734e-7);
  p = f32x4.add(f32x4.mul(p, r2), f32x4.splat(2.4760161352837606e-5));
  p = f32x4.add(f32x4.mul(p, r2), f32x4.splat(-0.0013888361400280842));
  p = f32x4.add(f32x4.mul(p, r2), f32x4.splat(0.041666636258070808));
  p = f32x4.add(f32x4.mul(p, r2), f32x4.splat(-0.49999999358471786));
  return f32x4.add(f32x4.mul(p, r2), f32x4.splat(0.99999999978065168));
}

const LOG2E_F32: f32 = 1.4426950408889634;
// ln2 split so that k·LN2_HI_F32 is exact for |k| < 2^8 (LN2_HI_F32 has 16 significant bits).
const LN2_HI_F32: f32 = 0.693145751953125;
const LN2_LO_F32: f32 = 1.428606765330187e-6;
// Below this e^u < 1.2e-38 (FLT_MIN): flushed to 0.
const EXP_UNDERFLOW_F32: f32 = -87.33654;

/**
 * e^u for u ≤ 0 in four float32 lanes (the damper's per-element factor). u = k·ln2 + r with
 * |r| ≤ ln2/2, Taylor series of degree 7 (truncation (ln2/2)^8/8! = 5e-9), 2^k from its
 * exponent bits; below −87.3 flushed to 0. Measured error in test/wasm/simd-math-f32.test.ts.
 */
// @ts-ignore: decorator
@inline export function expX4(u: v128): v128 {
  const uc = f32x4.pmax(u, f32x4.splat(EXP_UNDERFLOW_F32));
  const k = f32x4.nearest(f32x4.mul(uc, f32x4.splat(LOG2E_F32)));
  const r = f32x4.sub(f32x4.sub(uc, f32x4.mul(k, f32x4.splat(LN2_HI_F32))), f32x4.mul(k, f32x4.splat(LN2_LO_F32)));
  let p = f32x4.splat(1.0 / 5040.0);
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 720.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 120.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 24.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 6.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(0.5));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0));
  const scale = i32x4.shl(i32x4.add(i32x4.trunc_sat_f32x4_s(k), i32x4.splat(127)), 23);
  return v128.bitselect(f32x4.splat(0), f32x4.mul(p, scale), f32x4.lt(u, f32x4.splat(EXP_UNDERFLOW_F32)));
}

// Exported by a list, not `export function`: asc reports AS112 (v128 exchange) for every function
// declared `export` with v128 in its signature, as if it were a wasm export; this one is only
// called from other assembly files (docs/DECISIONS.md, Quiet build).
export { atan2FirstQuadrantX4, atan2X4, atanX4 };
