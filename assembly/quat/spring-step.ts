// The spring step of the quaternion springs (Holden's simple_spring_damper_exact, "Spring-It-On")
// on the log j0 of a rotation relative to its goal, for four bones in lanes (float64 pairs for
// the scalar algebra, since |w|·dt can reach thousands of radians) or one bone in float64;
// shared by the quaternion kernels (kernels/quat.ts) and the pose inertialization (kernels/pose-inertialize.ts).
//   y = 2·ln2/halflife, eydt = exp(−y·dt), j1 = v + j0·y,
//   x' = exp(eydt·(j0 + j1·dt)) [⊗ goal],  v' = eydt·(v − j1·y·dt).
// eydt = 0 (halflife 0, or exp underflow) is the exact limit: the goal, at rest.
import { loadQuatX4, loadVec3X4, lx, ly, lz, lw } from '../lanes/transpose-x4';
import { quatLogX4, quatExpX4, quatExpSmallX4, vecX, vecY, vecZ, quatLogScalar, quatExpScalar, sx, sy, sz, sw } from './algebra';
import { expX2 } from '../maths/x2';
import { expX4 } from '../maths/x4';
import { paramX4, lowX2, highX2, joinX4 } from '../lanes/x4';
import { readF32, writeF32 } from '../lanes/scalar';

const LN2: f64 = 0.6931471805599453;
// dampingX4's float32 path needs dt normal in float32
const F32_DT_MIN: f64 = 1.1754943508222875e-38;

// Results of springPairX2 for one pair of lanes (float64): the new log a and angular velocity u.
// @ts-ignore: decorator
@lazy export let pax: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let pay: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let paz: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let pux: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let puy: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let puz: v128 = f64x2.splat(0);
// The new angular velocity of four bones (f32x4), set by springX4.
// @ts-ignore: decorator
@lazy export let nvx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let nvy: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let nvz: v128 = f32x4.splat(0);
// The new rotation vector a = eydt·(j0 + j1·dt) of four bones before exp (f32x4), set by springX4.
// @ts-ignore: decorator
@lazy export let rvx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let rvy: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let rvz: v128 = f32x4.splat(0);
// y and eydt of four bones, as float64 pairs, set by dampingX4
// @ts-ignore: decorator
@lazy export let yLo: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let yHi: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let eLo: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let eHi: v128 = f64x2.splat(0);
// The same rounded to float32 (f32x4), for the float32 steps
// @ts-ignore: decorator
@lazy export let y4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let e4: v128 = f32x4.splat(0);
/** Whether the last dampingX4 formed y and eydt in float32 (y·dt ≤ 0.5 in every lane, per-bone halflives). */
export let dampedInF32 = false;

/** yLo … eHi, y4, e4 for bones i … i + 3: the per-call constants for a broadcast halflife, per bone otherwise. */
// @ts-ignore: decorator
@inline export function dampingX4(h: usize, hStride: i32, i: i32, dt: f64, yUniform: f64, eUniform: f64): void {
  dampedInF32 = false;
  if (hStride == 0) {
    yLo = f64x2.splat(yUniform);
    yHi = yLo;
    eLo = f64x2.splat(eUniform);
    eHi = eLo;
    y4 = f32x4.splat(<f32>yUniform);
    e4 = f32x4.splat(<f32>eUniform);
    return;
  }
  const hv = paramX4(h, hStride, i);
  // In float32 where every lane has y·dt ≤ 0.5 (halflife ≥ 2.8·dt): y to 1.5 ulp, e^{−y·dt} to
  // 1.6e-7 relative, and 1 ± y·dt (the position decay) cannot cancel
  const y = f32x4.div(f32x4.splat(<f32>(2 * LN2)), hv);
  const ydt = f32x4.mul(y, f32x4.splat(<f32>dt));
  if (dt >= F32_DT_MIN && v128.all_true<i32>(f32x4.le(ydt, f32x4.splat(0.5)))) {
    const e = expX4(f32x4.neg(ydt));
    y4 = y; e4 = e;
    yLo = lowX2(y); yHi = highX2(y);
    eLo = lowX2(e); eHi = highX2(e);
    dampedInF32 = true;
    return;
  }
  const twoLn2 = f64x2.splat(2 * LN2);
  const minusDt = f64x2.splat(-dt);
  yLo = f64x2.div(twoLn2, lowX2(hv)); // halflife_to_damping(h) / 2 (Spring-It-On); h = 0 gives +∞
  yHi = f64x2.div(twoLn2, highX2(hv));
  eLo = expX2(f64x2.mul(yLo, minusDt)); // fast_negexp(y·dt), exact here; −∞ flushes to 0
  eHi = expX2(f64x2.mul(yHi, minusDt));
  y4 = joinX4(yLo, yHi);
  e4 = joinX4(eLo, eHi);
}

/** The spring step for one pair of lanes (float64), into pax … puz. */
// @ts-ignore: decorator
@inline export function springPairX2(j0x: v128, j0y: v128, j0z: v128, wx: v128, wy: v128, wz: v128, y: v128, e: v128, dt: f64): void {
  const snap = f64x2.eq(e, f64x2.splat(0));
  const zero = f64x2.splat(0);
  const tdt = f64x2.splat(dt);
  const ydt = f64x2.mul(y, tdt);
  const j1x = f64x2.add(wx, f64x2.mul(j0x, y)); // j1 = v + j0·y
  const j1y = f64x2.add(wy, f64x2.mul(j0y, y));
  const j1z = f64x2.add(wz, f64x2.mul(j0z, y));
  // x = eydt·(j0 + j1·dt)
  pax = v128.bitselect(zero, f64x2.mul(e, f64x2.add(j0x, f64x2.mul(j1x, tdt))), snap);
  pay = v128.bitselect(zero, f64x2.mul(e, f64x2.add(j0y, f64x2.mul(j1y, tdt))), snap);
  paz = v128.bitselect(zero, f64x2.mul(e, f64x2.add(j0z, f64x2.mul(j1z, tdt))), snap);
  // v = eydt·(v − j1·y·dt)
  pux = v128.bitselect(zero, f64x2.mul(e, f64x2.sub(wx, f64x2.mul(j1x, ydt))), snap);
  puy = v128.bitselect(zero, f64x2.mul(e, f64x2.sub(wy, f64x2.mul(j1y, ydt))), snap);
  puz = v128.bitselect(zero, f64x2.mul(e, f64x2.sub(wz, f64x2.mul(j1z, ydt))), snap);
}

/**
 * The spring step for four bones, given j0 and w per component (f32x4) and y, eydt as dampingX4
 * sets them (y, e: f32x4; yl, el: float64 lanes 0, 1; yh, eh: lanes 2, 3): sets qx … qw to
 * exp(a/2) and nvx … nvz to the new angular velocity.
 */
// @ts-ignore: decorator
@inline export function springX4(
  j0x: v128, j0y: v128, j0z: v128, wx: v128, wy: v128, wz: v128, y: v128, e: v128, yl: v128, yh: v128, el: v128, eh: v128, dt: f64,
): void {
  if (springSmallX4(j0x, j0y, j0z, wx, wy, wz, y, e, dt)) return;
  springPairX2(lowX2(j0x), lowX2(j0y), lowX2(j0z), lowX2(wx), lowX2(wy), lowX2(wz), yl, el, dt);
  const axLo = pax, ayLo = pay, azLo = paz, uxLo = pux, uyLo = puy, uzLo = puz;
  springPairX2(highX2(j0x), highX2(j0y), highX2(j0z), highX2(wx), highX2(wy), highX2(wz), yh, eh, dt);
  nvx = joinX4(uxLo, pux);
  nvy = joinX4(uyLo, puy);
  nvz = joinX4(uzLo, puz);
  rvx = joinX4(axLo, pax); rvy = joinX4(ayLo, pay); rvz = joinX4(azLo, paz);
  quatExpX4(axLo, pax, ayLo, pay, azLo, paz);
}

// The new rotation vector may be formed in float32 when its terms are small: |j0| ≤ π from the
// log, and |j1·dt| ≤ SMALL_J1DT bounds the absolute error of a = eydt·(j0 + j1·dt) by
// 2·(π + 8)·2^-24 ≈ 1.3e-6 rad (the float64 pairs are for |w|·dt up to thousands of radians).
const SMALL_J1DT_SQUARED: f32 = 64;
const PI_SQUARED: f32 = 9.869604401089358;

/**
 * springX4 in float32, with quatExpSmallX4, when every lane has eydt > 0, |j1·dt| ≤ 8 and a new
 * rotation vector |a| ≤ π (the common case of an inertialization offset or a following spring);
 * returns false, setting nothing, otherwise.
 */
// @ts-ignore: decorator
@inline function springSmallX4(j0x: v128, j0y: v128, j0z: v128, wx: v128, wy: v128, wz: v128, y: v128, e: v128, dt: f64): bool {
  const tdt = f32x4.splat(<f32>dt);
  const ydt = f32x4.mul(y, tdt);
  const j1x = f32x4.add(wx, f32x4.mul(j0x, y)); // j1 = v + j0·y
  const j1y = f32x4.add(wy, f32x4.mul(j0y, y));
  const j1z = f32x4.add(wz, f32x4.mul(j0z, y));
  const dx = f32x4.mul(j1x, tdt), dy = f32x4.mul(j1y, tdt), dz = f32x4.mul(j1z, tdt);
  const ax = f32x4.mul(e, f32x4.add(j0x, dx)); // x = eydt·(j0 + j1·dt)
  const ay = f32x4.mul(e, f32x4.add(j0y, dy));
  const az = f32x4.mul(e, f32x4.add(j0z, dz));
  const dd = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
  const aa = f32x4.add(f32x4.add(f32x4.mul(ax, ax), f32x4.mul(ay, ay)), f32x4.mul(az, az));
  // false for NaN and for e = 0 (halflife 0 or an underflow: the f64 path snaps those lanes)
  const ok = v128.and(v128.and(f32x4.gt(e, f32x4.splat(0)), f32x4.le(dd, f32x4.splat(SMALL_J1DT_SQUARED))), f32x4.le(aa, f32x4.splat(PI_SQUARED)));
  if (!v128.all_true<i32>(ok)) return false;
  nvx = f32x4.mul(e, f32x4.sub(wx, f32x4.mul(j1x, ydt))); // v = eydt·(v − j1·y·dt)
  nvy = f32x4.mul(e, f32x4.sub(wy, f32x4.mul(j1y, ydt)));
  nvz = f32x4.mul(e, f32x4.sub(wz, f32x4.mul(j1z, ydt)));
  rvx = ax; rvy = ay; rvz = az;
  quatExpSmallX4(ax, ay, az);
  return true;
}

// One bone in float64: (sx, sy, sz, sw) = exp(a/2), new angular velocity in (ux, uy, uz).
export let ux: f64 = 0;
export let uy: f64 = 0;
export let uz: f64 = 0;
// The new rotation vector a = eydt·(j0 + j1·dt) of the last springScalar (0 when snapped), before exp.
export let rax: f64 = 0;
export let ray: f64 = 0;
export let raz: f64 = 0;

// @ts-ignore: decorator
@inline export function springScalar(j0x: f64, j0y: f64, j0z: f64, wx: f64, wy: f64, wz: f64, y: f64, e: f64, dt: f64): void {
  if (e == 0) {
    ux = 0; uy = 0; uz = 0;
    rax = 0; ray = 0; raz = 0;
    sx = 0; sy = 0; sz = 0; sw = 1;
    return;
  }
  const j1x = wx + j0x * y, j1y = wy + j0y * y, j1z = wz + j0z * y; // j1 = v + j0·y
  const ydt = y * dt;
  ux = e * (wx - j1x * ydt); // v = eydt·(v − j1·y·dt)
  uy = e * (wy - j1y * ydt);
  uz = e * (wz - j1z * ydt);
  rax = e * (j0x + j1x * dt); ray = e * (j0y + j1y * dt); raz = e * (j0z + j1z * dt);
  quatExpScalar(rax, ray, raz); // x = exp(eydt·(j0 + j1·dt))
}

/** y = 2·ln2/halflife (halflife_to_damping / 2, Spring-It-On). */
// @ts-ignore: decorator
@inline export function yOf(halflife: f64): f64 {
  return (2 * LN2) / halflife;
}

// The decay of bones i … i + 3 into qx … qw, nvx … nvz (j0 = log(abs(q)), Spring-It-On).
// @ts-ignore: decorator
@inline export function decayX4(q: usize, w: usize, i: i32, h: usize, hStride: i32, dt: f64, yU: f64, eU: f64): void {
  loadQuatX4(q, i);
  quatLogX4(lx, ly, lz, lw);
  const j0x = vecX, j0y = vecY, j0z = vecZ;
  loadVec3X4(w, i);
  dampingX4(h, hStride, i, dt, yU, eU);
  springX4(j0x, j0y, j0z, lx, ly, lz, y4, e4, yLo, yHi, eLo, eHi, dt);
}

// The decay of bone i into (sx … sw), (ux, uy, uz).
// @ts-ignore: decorator
@inline export function decayScalar(q: usize, w: usize, i: i32, y: f64, e: f64, dt: f64): void {
  quatLogScalar(readF32(q, 4 * i), readF32(q, 4 * i + 1), readF32(q, 4 * i + 2), readF32(q, 4 * i + 3));
  springScalar(sx, sy, sz, readF32(w, 3 * i), readF32(w, 3 * i + 1), readF32(w, 3 * i + 2), y, e, dt);
}

// Stores (sx … sw) as rotation i of q and (ux, uy, uz) as angular velocity i of w.
// @ts-ignore: decorator
@inline export function storeBone(q: usize, w: usize, i: i32): void {
  writeF32(q, 4 * i, sx); writeF32(q, 4 * i + 1, sy); writeF32(q, 4 * i + 2, sz); writeF32(q, 4 * i + 3, sw);
  writeF32(w, 3 * i, ux); writeF32(w, 3 * i + 1, uy); writeF32(w, 3 * i + 2, uz);
}
