// Holden's spring character controller (Spring-It-On, spring_character_update / _predict): the
// velocity v is a critical spring toward vGoal whose derivative is the acceleration a, and x is
// its exact time integral. Over time t, with y = 2·ln2/halflife, j0 = v − vGoal, j1 = a + j0·y,
// e = e^{−y·t}:
//   x' = x + vGoal·t + j0·(1 − e)/y + j1·(1 − e − y·t·e)/y²
//   v' = vGoal + e·(j0 + j1·t)
//   a' = e·(a − j1·y·t)
// written as a transition of (j0, a): x' = x + vGoal·t + cx0·j0 + cxa·a, v' = vGoal + cv0·j0 +
// cva·a, a' = ca0·j0 + caa·a, where (1 − e)/y = t·φ1(u), (1 − e − y·t·e)/y² = t²·ψ(u), u = y·t
// (spring/exp-integrals.ts): cx0 = t·(φ1 + u·ψ), cxa = t²·ψ, cv0 = e·(1 + u), cva = e·t, ca0 = −e·y·u,
// caa = e·(1 − u) (the last four are the core critical transition's xx, xv, vx, vv).
// halflife 0 (y = ∞) is the limit: every coefficient 0 for t > 0; t = 0 is the identity.
// True exp instead of fast_negexp. The float64 reference is src/reference/character.ts.
import { decayIntegrals, psiOut, decayIntegralsX2, psiOutX2 } from '../spring/exp-integrals';
import { expX2 } from '../maths/x2';
import { paramAt } from '../lanes/scalar';
import { paramX4, lowX2, highX2, joinX4 } from '../lanes/x4';

const TWO_LN2: f64 = 1.3862943611198906;

let cx0: f64 = 0, cxa: f64 = 0, cv0: f64 = 1, cva: f64 = 0, ca0: f64 = 0, caa: f64 = 1;

/** y = 2·ln2/halflife (Holden's halflife_to_damping(halflife)/2); +∞ at halflife 0. */
// @ts-ignore: decorator
@inline function dampingRate(halflife: f64): f64 {
  return TWO_LN2 / halflife;
}

/** Sets cx0 … caa for rate y over time t ≥ 0. */
function characterCoefficients(y: f64, t: f64): void {
  if (t == 0 || y == Infinity) {
    const identity: f64 = t == 0 ? 1 : 0;
    cx0 = 0; cxa = 0; cv0 = identity; cva = 0; ca0 = 0; caa = identity;
    return;
  }
  const u = y * t;
  const e = Math.exp(-u);
  const phi = decayIntegrals(u, e);
  const p = psiOut;
  cx0 = t * (phi + u * p);
  cxa = t * t * p;
  cv0 = e * (1 + u);
  cva = e * t;
  ca0 = -e * y * u;
  caa = e * (1 - u);
}

// @ts-ignore: decorator
@lazy let cx0X4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let cxaX4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let cv0X4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let cvaX4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let ca0X4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let caaX4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let tX4: v128 = f32x4.splat(0);

// characterCoefficients for two f64x2 pairs of (y, t), with e = e^{−y·t} of each, rounded to
// f32x4 (lanes 0, 1 from lo).
function characterCoefficientsX4(yLo: v128, tLo: v128, eLo: v128, yHi: v128, tHi: v128, eHi: v128): void {
  characterCoefficientsX2(yLo, tLo, eLo);
  const cx0Lo = cx0X2, cxaLo = cxaX2, cv0Lo = cv0X2, cvaLo = cvaX2, ca0Lo = ca0X2, caaLo = caaX2;
  characterCoefficientsX2(yHi, tHi, eHi);
  cx0X4 = joinX4(cx0Lo, cx0X2);
  cxaX4 = joinX4(cxaLo, cxaX2);
  cv0X4 = joinX4(cv0Lo, cv0X2);
  cvaX4 = joinX4(cvaLo, cvaX2);
  ca0X4 = joinX4(ca0Lo, ca0X2);
  caaX4 = joinX4(caaLo, caaX2);
  tX4 = joinX4(tLo, tHi);
}

// @ts-ignore: decorator
@lazy let cx0X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let cxaX2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let cv0X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let cvaX2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let ca0X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let caaX2: v128 = f64x2.splat(0);

// characterCoefficients for two lanes, given e = e^{−y·t}.
function characterCoefficientsX2(y: v128, t: v128, e: v128): void {
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  const u = f64x2.mul(y, t);
  const phi = decayIntegralsX2(u, e);
  const p = psiOutX2;
  const limit = f64x2.eq(y, f64x2.splat(Infinity)); // halflife 0: 0 for t > 0, identity at t = 0
  const still = f64x2.eq(t, zero);
  const identity = v128.and(still, one);
  const special = v128.or(limit, still);
  cx0X2 = v128.bitselect(zero, f64x2.mul(t, f64x2.add(phi, f64x2.mul(u, p))), special);
  cxaX2 = v128.bitselect(zero, f64x2.mul(f64x2.mul(t, t), p), special);
  cv0X2 = v128.bitselect(identity, f64x2.mul(e, f64x2.add(one, u)), special);
  cvaX2 = v128.bitselect(zero, f64x2.mul(e, t), special);
  ca0X2 = v128.bitselect(zero, f64x2.neg(f64x2.mul(f64x2.mul(e, y), u)), special);
  caaX2 = v128.bitselect(identity, f64x2.mul(e, f64x2.sub(one, u)), special);
}

/** Splats the scalar coefficients (uniform halflife) to f32x4, with time t. */
function splatCharacterCoefficients(t: f64): void {
  cx0X4 = f32x4.splat(<f32>cx0);
  cxaX4 = f32x4.splat(<f32>cxa);
  cv0X4 = f32x4.splat(<f32>cv0);
  cvaX4 = f32x4.splat(<f32>cva);
  ca0X4 = f32x4.splat(<f32>ca0);
  caaX4 = f32x4.splat(<f32>caa);
  tX4 = f32x4.splat(<f32>t);
}

/** Writes x', v', a' of one state (f32x4 lanes) with the X4 coefficients to three addresses. */
// @ts-ignore: decorator
@inline function applyX4(xOut: usize, vOut: usize, aOut: usize, x: v128, v: v128, a: v128, vGoal: v128): void {
  const j0 = f32x4.sub(v, vGoal);
  const drift = f32x4.add(f32x4.mul(cx0X4, j0), f32x4.mul(cxaX4, a));
  v128.store(xOut, f32x4.add(x, f32x4.add(f32x4.mul(vGoal, tX4), drift)));
  v128.store(vOut, f32x4.add(vGoal, f32x4.add(f32x4.mul(cv0X4, j0), f32x4.mul(cvaX4, a))));
  v128.store(aOut, f32x4.add(f32x4.mul(ca0X4, j0), f32x4.mul(caaX4, a)));
}

/** The same for one element (addresses of its floats) with the float64 coefficients over time t. */
// @ts-ignore: decorator
@inline function applyScalar(xOut: usize, vOut: usize, aOut: usize, x: usize, v: usize, a: usize, vGoal: usize, t: f64): void {
  const vg = <f64>load<f32>(vGoal);
  const j0 = <f64>load<f32>(v) - vg;
  const ai = <f64>load<f32>(a);
  store<f32>(xOut, <f32>(<f64>load<f32>(x) + vg * t + cx0 * j0 + cxa * ai));
  store<f32>(vOut, <f32>(vg + cv0 * j0 + cva * ai));
  store<f32>(aOut, <f32>(ca0 * j0 + caa * ai));
}

/** spring_character_update: x, v, a advanced by dt in place. */
export function characterUpdate(x: usize, v: usize, a: usize, vGoal: usize, n: i32, halflife: usize, halflifeStride: i32, dt: f64): void {
  if (dt == 0) return;
  const uniform = halflifeStride == 0;
  if (uniform) characterCoefficients(dampingRate(paramAt(halflife, 0, 0)), dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const t = f64x2.splat(dt);
    if (uniform) splatCharacterCoefficients(dt);
    for (; i + 4 <= n; i += 4) {
      if (!uniform) {
        const h = paramX4(halflife, halflifeStride, i);
        const rate = f64x2.splat(TWO_LN2);
        const yLo = f64x2.div(rate, lowX2(h)), yHi = f64x2.div(rate, highX2(h));
        characterCoefficientsX4(yLo, t, decayX2(yLo, t), yHi, t, decayX2(yHi, t));
      }
      const off = <usize>i << 2;
      applyX4(x + off, v + off, a + off, v128.load(x + off), v128.load(v + off), v128.load(a + off), v128.load(vGoal + off));
    }
  }
  for (; i < n; i++) {
    if (!uniform) characterCoefficients(dampingRate(paramAt(halflife, halflifeStride, i)), dt);
    const off = <usize>i << 2;
    applyScalar(x + off, v + off, a + off, x + off, v + off, a + off, vGoal + off, dt);
  }
}

/**
 * Sample 0 (time 0) is the state itself; the f32x4 form vGoal + cv0·(v − vGoal) would round v,
 * so the vectorised paths overwrite it with the state (the scalar path computes it in float64,
 * where vGoal + (v − vGoal) is v).
 */
// @ts-ignore: decorator
@inline function copyState(px: usize, pv: usize, pa: usize, x: usize, v: usize, a: usize, out: usize, off: usize): void {
  store<f32>(px + out, load<f32>(x + off));
  store<f32>(pv + out, load<f32>(v + off));
  store<f32>(pa + out, load<f32>(a + off));
}

/** e^{−y·t} for two lanes. */
// @ts-ignore: decorator
@inline function decayX2(y: v128, t: v128): v128 {
  return expX2(f64x2.neg(f64x2.mul(y, t)));
}

/** Times (k, k + 1)·dt as f64x2. */
// @ts-ignore: decorator
@inline function timesX2(k: i32, dt: f64): v128 {
  return f64x2.replace_lane(f64x2.splat(<f64>k * dt), 1, <f64>(k + 1) * dt);
}

// Below this e^{−y·t} is flushed to 0 in the recurrence of characterPredict, which would
// otherwise reach float64 subnormals (slow on some CPUs) long after the float32 result is 0.
const FLUSH_BELOW: f64 = 1e-290;

/**
 * spring_character_predict: for each of n characters, `count` samples at times k·dt
 * (k = 0 … count − 1), each the closed form from the current state; sample k of character c is
 * element c·count + k of px, pv, pa.
 */
export function characterPredict(
  x: usize, v: usize, a: usize, vGoal: usize, px: usize, pv: usize, pa: usize, n: i32,
  halflife: usize, halflifeStride: i32, dt: f64, count: i32,
): void {
  const rowBytes = <usize>count << 2;
  if (dt == 0) {
    // Every sample is at time 0: the state itself, exactly.
    for (let c = 0; c < n; c++) {
      const off = <usize>c << 2;
      for (let k = 0; k < count; k++) copyState(px, pv, pa, x, v, a, <usize>c * rowBytes + (<usize>k << 2), off);
    }
    return;
  }
  // Four samples at a time as f32x4 lanes; the last block of four ends at `count` (it may
  // overlap the one before, writing the same samples again). Fewer than four: scalar.
  const vectorised = ASC_FEATURE_SIMD && count >= 4;
  if (halflifeStride == 0) {
    const y = dampingRate(paramAt(halflife, 0, 0));
    if (vectorised) {
      // Sample blocks outside, characters inside: each block's coefficients are computed once.
      const yy = f64x2.splat(y);
      for (let k = 0; k < count; k += 4) {
        const k0 = min(k, count - 4);
        const tLo = timesX2(k0, dt), tHi = timesX2(k0 + 2, dt);
        characterCoefficientsX4(yy, tLo, decayX2(yy, tLo), yy, tHi, decayX2(yy, tHi));
        for (let c = 0; c < n; c++) {
          const off = <usize>c << 2;
          const out = <usize>c * rowBytes + (<usize>k0 << 2);
          applyX4(px + out, pv + out, pa + out,
            v128.load32_splat(x + off), v128.load32_splat(v + off), v128.load32_splat(a + off), v128.load32_splat(vGoal + off));
          if (k0 == 0) copyState(px, pv, pa, x, v, a, out, off);
        }
      }
      return;
    }
    for (let k = 0; k < count; k++) {
      const t = <f64>k * dt;
      characterCoefficients(y, t);
      for (let c = 0; c < n; c++) {
        const off = <usize>c << 2;
        const out = <usize>c * rowBytes + (<usize>k << 2);
        applyScalar(px + out, pv + out, pa + out, x + off, v + off, a + off, vGoal + off, t);
      }
    }
    return;
  }
  for (let c = 0; c < n; c++) {
    const y = dampingRate(paramAt(halflife, halflifeStride, c));
    const off = <usize>c << 2;
    const row = <usize>c * rowBytes;
    if (vectorised) {
      const yy = f64x2.splat(y);
      const xs = v128.load32_splat(x + off), vs = v128.load32_splat(v + off);
      const as = v128.load32_splat(a + off), gs = v128.load32_splat(vGoal + off);
      // e^{−y·k·dt} by the recurrence e_{k+4} = e_k·e^{−4y·dt} (relative error ≈ k ulp).
      const e1 = Math.exp(-y * dt);
      const e2 = e1 * e1;
      const step = f64x2.splat(e2 * e2);
      const flush = f64x2.splat(FLUSH_BELOW);
      let eLo = f64x2.replace_lane(f64x2.splat(1), 1, e1);
      let eHi = f64x2.mul(eLo, f64x2.splat(e2));
      for (let k = 0; k < count; k += 4) {
        let k0 = k;
        if (k + 4 > count) {
          // The overlapping last block: its own exps.
          k0 = count - 4;
          eLo = decayX2(yy, timesX2(k0, dt));
          eHi = decayX2(yy, timesX2(k0 + 2, dt));
        }
        characterCoefficientsX4(yy, timesX2(k0, dt), eLo, yy, timesX2(k0 + 2, dt), eHi);
        const out = row + (<usize>k0 << 2);
        applyX4(px + out, pv + out, pa + out, xs, vs, as, gs);
        if (k0 == 0) copyState(px, pv, pa, x, v, a, out, off);
        eLo = f64x2.mul(eLo, step);
        eHi = f64x2.mul(eHi, step);
        eLo = v128.and(eLo, f64x2.gt(eLo, flush));
        eHi = v128.and(eHi, f64x2.gt(eHi, flush));
      }
      continue;
    }
    for (let k = 0; k < count; k++) {
      const t = <f64>k * dt;
      characterCoefficients(y, t);
      const out = row + (<usize>k << 2);
      applyScalar(px + out, pv + out, pa + out, x + off, v + off, a + off, vGoal + off, t);
    }
  }
}
