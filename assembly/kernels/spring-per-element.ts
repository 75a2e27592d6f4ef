// The core springs with per-element parameters, and
// their kept coefficients for prepared calls (src/base/prepare.ts):
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q
// The critical spring (criticalSpringDamper, simple, decay: s = a², d = 2a, a = 2·ln2/halflife)
// needs one exp per element: with u = a·t and e = e^{−u} (Holden's critical_spring_damper_exact),
//   xx = e·(1 + u), xv = e·t, vx = −a·u·e, vv = e·(1 − u), vq = 2u·e,
//   xq = d·∫₀ᵗ xv = 2·(1 − e·(1 + u))/a = 2t·u·e·φ₂(u),  φ₂(u) = (eᵘ − 1 − u)/u²,
// computed in f32x4 (criticalX4); the other modes in f32x4 where |z| = |s − a²|·t² ≤ 1
// (generalX4, spring/coefficients-x4.ts), else by the general f64x2 transition.
// `coef` (0: none) keeps each block's f32x4 coefficients or each element's float64 coefficients
// (scalar build: 48 bytes per element), so that springApplyKept gives the very bits
// springPerElement gives. SIMD: two regions (the scalar tail is recomputed):
//   compact, 48 bytes per block of 4: e, u, xq of a criticalSmallX4 block (the other five
//     coefficients are a few products of them), or e = −1 marking a block kept in full;
//   full, 96 bytes per block: the six coefficients of any other block.
// A replay of critical blocks then reads 12 bytes per element instead of 24 (docs/DECISIONS.md).
import { springTransition, xx, xv, xq, vx, vv, vq } from '../spring/transition';
import { springTransitionX2, xxX2, xvX2, xqX2, vxX2, vvX2, vqX2 } from '../spring/transition-x2';
import { stiffnessOf, dampingOf, stiffnessOfX2, dampingOfX2, MODE_CRITICAL } from '../spring/params';
import { criticalX4, generalX4, expNegSmallX4, phi2X4, U_SMALL, cxx, cxv, cxq, cvx, cvv, cvq } from '../spring/coefficients-x4';
import { paramAt } from '../lanes/scalar';
import { applyX4, applyScalar } from '../spring/apply';
import { paramX4, lowX2, highX2, joinX4 } from '../lanes/x4';

// criticalSmallX4's range of dt (dt, 2·ln2·dt and 1/dt normal in float32)
const T_SMALL_MIN: f64 = 8.673617379884035e-19; // 2^-60
const T_SMALL_MAX: f64 = 1.152921504606847e18; // 2^60

/** Bytes of kept coefficients for n elements (see `coef` above). */
export function keptCoefficientBytes(n: i32): i32 {
  if (ASC_FEATURE_SIMD) return (n >> 2) * (COMPACT_BLOCK_BYTES + FULL_BLOCK_BYTES);
  return n * 48;
}

const COMPACT_BLOCK_BYTES = 48;
const FULL_BLOCK_BYTES = 96;

// The compact slot and the full slot of the block at element i, for n elements
// @ts-ignore: decorator
@inline function compactSlot(coef: usize, i: i32): usize {
  return coef + <usize>(i >> 2) * COMPACT_BLOCK_BYTES;
}
// @ts-ignore: decorator
@inline function fullSlot(coef: usize, n: i32, i: i32): usize {
  return coef + <usize>(n >> 2) * COMPACT_BLOCK_BYTES + <usize>(i >> 2) * FULL_BLOCK_BYTES;
}

/**
 * One call with per-element (stride 1) or broadcast (stride 0) parameters; keeps the coefficients
 * at `coef` unless it is 0. Returns the number of blocks of four that went through float64
 * because a coefficient does not fit float32 (their kept coefficients are not valid).
 */
export function springPerElement(
  x: usize, v: usize, g: usize, q: usize, n: i32, mode: i32,
  p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, dt: f64, coef: usize,
): i32 {
  if (dt == 0) return 0;
  let i = 0;
  let float64Blocks = 0;
  if (ASC_FEATURE_SIMD) {
    // criticalSmallX4 needs dt, 2·ln2·dt and 1/dt normal in float32
    const small = mode == MODE_CRITICAL && dt >= T_SMALL_MIN && dt <= T_SMALL_MAX;
    // One loop per case, so that criticalSmallX4's `keep` is a constant
    if (small && coef) {
      for (; i + 4 <= n; i += 4) {
        if (criticalSmallX4(x, v, g, q, p0, p0Stride, i, dt, coef, true)) continue;
        if (!block(x, v, g, q, n, mode, p0, p0Stride, p1, p1Stride, i, dt, coef)) float64Blocks++;
      }
    } else if (small) {
      for (; i + 4 <= n; i += 4) {
        if (criticalSmallX4(x, v, g, q, p0, p0Stride, i, dt, 0, false)) continue;
        if (!block(x, v, g, q, n, mode, p0, p0Stride, p1, p1Stride, i, dt, 0)) float64Blocks++;
      }
    }
    for (; i + 4 <= n; i += 4) {
      if (!block(x, v, g, q, n, mode, p0, p0Stride, p1, p1Stride, i, dt, coef)) float64Blocks++;
    }
  }
  for (; i < n; i++) {
    elementTransition(mode, p0, p0Stride, p1, p1Stride, i, dt);
    if (!ASC_FEATURE_SIMD && coef) {
      const c = coef + <usize>i * 48;
      store<f64>(c, xx); store<f64>(c + 8, xv); store<f64>(c + 16, xq);
      store<f64>(c + 24, vx); store<f64>(c + 32, vv); store<f64>(c + 40, vq);
    }
    applyScalar(x, v, g, q, i, xx, xv, xq, vx, vv, vq);
  }
  return float64Blocks;
}

// Element i's transition in float64 (into spring/transition.ts's xx … vq).
// @ts-ignore: decorator
@inline function elementTransition(mode: i32, p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, i: i32, dt: f64): void {
  const a = paramAt(p0, p0Stride, i), b = paramAt(p1, p1Stride, i);
  springTransition(stiffnessOf(mode, a, b), dampingOf(mode, a, b), dt);
}

// The block of four from i: coefficients (kept at coef unless 0), then the step; or, where a
// coefficient does not fit float32 (huge stiffness or damping: vx = −s·xv past 3.4e38 while the
// result stays finite), the four elements with float64 coefficients, returning false.
// @ts-ignore: decorator
@inline function block(
  x: usize, v: usize, g: usize, q: usize, n: i32, mode: i32,
  p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, i: i32, dt: f64, coef: usize,
): bool {
  if (!blockCoefficients(mode, p0, p0Stride, p1, p1Stride, i, dt, q != 0)) {
    for (let k = i; k < i + 4; k++) {
      elementTransition(mode, p0, p0Stride, p1, p1Stride, k, dt);
      applyScalar(x, v, g, q, k, xx, xv, xq, vx, vv, vq);
    }
    return false;
  }
  if (coef) {
    keepBlock(fullSlot(coef, n, i), cxx, cxv, cxq, cvx, cvv, cvq);
    v128.store(compactSlot(coef, i), f32x4.splat(-1)); // kept in full
  }
  applyBlockX4(x, v, g, q, i);
  return true;
}

/** The same call with the coefficients springPerElement kept at `coef` for the same parameters and dt. */
export function springApplyKept(
  x: usize, v: usize, g: usize, q: usize, n: i32, mode: i32,
  p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, dt: f64, coef: usize,
): void {
  if (dt == 0) return;
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    // One loop per mode and goal layout (the same operations as the keeping call, so the same bits)
    if (mode == MODE_CRITICAL) {
      if (g && q) for (; i + 4 <= n; i += 4) keptCriticalX4(x, v, g, q, n, i, coef, dt, true, true);
      else if (g) for (; i + 4 <= n; i += 4) keptCriticalX4(x, v, g, q, n, i, coef, dt, true, false);
      else if (q) for (; i + 4 <= n; i += 4) keptCriticalX4(x, v, g, q, n, i, coef, dt, false, true);
      else for (; i + 4 <= n; i += 4) keptCriticalX4(x, v, g, q, n, i, coef, dt, false, false);
    } else {
      if (g && q) for (; i + 4 <= n; i += 4) keptX4(x, v, g, q, i, fullSlot(coef, n, i), true, true);
      else if (g) for (; i + 4 <= n; i += 4) keptX4(x, v, g, q, i, fullSlot(coef, n, i), true, false);
      else if (q) for (; i + 4 <= n; i += 4) keptX4(x, v, g, q, i, fullSlot(coef, n, i), false, true);
      else for (; i + 4 <= n; i += 4) keptX4(x, v, g, q, i, fullSlot(coef, n, i), false, false);
    }
    for (; i < n; i++) {
      elementTransition(mode, p0, p0Stride, p1, p1Stride, i, dt);
      applyScalar(x, v, g, q, i, xx, xv, xq, vx, vv, vq);
    }
  } else {
    for (; i < n; i++) {
      const c = coef + <usize>i * 48;
      applyScalar(x, v, g, q, i,
        load<f64>(c), load<f64>(c + 8), load<f64>(c + 16), load<f64>(c + 24), load<f64>(c + 32), load<f64>(c + 40));
    }
  }
}

// @ts-ignore: decorator
@inline function keepBlock(c: usize, xx: v128, xv: v128, xq: v128, vx: v128, vv: v128, vq: v128): void {
  v128.store(c, xx); v128.store(c, xv, 16); v128.store(c, xq, 32);
  v128.store(c, vx, 48); v128.store(c, vv, 64); v128.store(c, vq, 80);
}

// Coefficients of the four elements from i: the f32x4 critical path where it applies, else
// the general transition in f64x2 rounded to f32x4.
// @ts-ignore: decorator
@inline function blockCoefficients(mode: i32, p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, i: i32, dt: f64, withQ: bool): bool {
  const a = paramX4(p0, p0Stride, i);
  if (mode == MODE_CRITICAL) {
    if (criticalX4(a, dt, withQ)) return true;
    return f64x2Coefficients(mode, a, a, dt, withQ);
  }
  const b = paramX4(p1, p1Stride, i);
  if (generalX4(mode, a, b, dt, withQ)) return true;
  return f64x2Coefficients(mode, a, b, dt, withQ);
}

// The general transition for four elements in two f64x2 pairs, rounded to f32x4;
// a function of its own, not inlined, so that the f32x4 loops stay small. False when a
// coefficient is not finite in float32 (the c* are then not to be used).
function f64x2Coefficients(mode: i32, a: v128, b: v128, dt: f64, withQ: bool): bool {
  const aLo = lowX2(a), bLo = lowX2(b);
  springTransitionX2(stiffnessOfX2(mode, aLo, bLo), dampingOfX2(mode, aLo, bLo), dt, withQ);
  const xxLo = xxX2, xvLo = xvX2, xqLo = xqX2, vxLo = vxX2, vvLo = vvX2, vqLo = vqX2;
  const aHi = highX2(a), bHi = highX2(b);
  springTransitionX2(stiffnessOfX2(mode, aHi, bHi), dampingOfX2(mode, aHi, bHi), dt, withQ);
  cxx = joinX4(xxLo, xxX2); cxv = joinX4(xvLo, xvX2); cxq = joinX4(xqLo, xqX2);
  cvx = joinX4(vxLo, vxX2); cvv = joinX4(vvLo, vvX2); cvq = joinX4(vqLo, vqX2);
  const big = f32x4.splat(Infinity);
  const finite = v128.and(
    v128.and(v128.and(f32x4.lt(f32x4.abs(cxx), big), f32x4.lt(f32x4.abs(cxv), big)), v128.and(f32x4.lt(f32x4.abs(cxq), big), f32x4.lt(f32x4.abs(cvx), big))),
    v128.and(f32x4.lt(f32x4.abs(cvv), big), f32x4.lt(f32x4.abs(cvq), big)),
  );
  return v128.all_true<i32>(finite);
}

// Four elements from offset i with the current block's coefficients.
// @ts-ignore: decorator
@inline function applyBlockX4(x: usize, v: usize, g: usize, q: usize, i: i32): void {
  applyX4(x, v, g, q, i, cxx, cxv, cxq, cvx, cvv, cvq, g != 0, q != 0);
}

// applyX4 with the six coefficients kept at c (the block's full slot); hasG / hasQ are constants at the call sites.
// @ts-ignore: decorator
@inline function keptX4(x: usize, v: usize, g: usize, q: usize, i: i32, c: usize, hasG: bool, hasQ: bool): void {
  const zero = f32x4.splat(0);
  applyX4(x, v, g, q, i, v128.load(c), v128.load(c, 16), hasQ ? v128.load(c, 32) : zero,
    v128.load(c, 48), v128.load(c, 64), hasQ ? v128.load(c, 80) : zero, hasG, hasQ);
}


/**
 * The critical spring for the four elements from i where every lane has u = 2·ln2·t/h ≤ U_SMALL
 * (halflife ≥ 2.8·dt, the common case); false, doing nothing, otherwise. Coefficients and step
 * in one function, in locals (handing them over in globals, as criticalX4 does, measured 20 %
 * slower): u rounded once to float32 is enough here (1 − u ≥ 0.5 cannot cancel; e^{−u} is off by
 * u·1.5 ulp), e^{−u} needs no range reduction (expNegSmallX4), and
 *   xx = e + u·e, vv = e − u·e, xv = e·t, vx = −(u·e)·(u/t), vq = 2·(u·e), xq = 2t·(u·e)·φ₂(u).
 * With `keep` the coefficients are kept at `coef` as storeBlock keeps them; the step is applyX4's
 * (applyX4), so springApplyKept reproduces it bit for bit.
 */
// @ts-ignore: decorator
@inline function criticalSmallX4(x: usize, v: usize, g: usize, q: usize, p: usize, stride: i32, i: i32, t: f64, coef: usize, keep: bool): bool {
  const u = f32x4.div(f32x4.splat(<f32>(1.3862943611198906 * t)), paramX4(p, stride, i)); // 2·ln2·t/h
  if (!v128.all_true<i32>(f32x4.le(u, f32x4.splat(U_SMALL)))) return false; // NaN too
  const e = expNegSmallX4(u);
  const eu = f32x4.mul(e, u);
  const xq = q ? f32x4.mul(f32x4.mul(eu, f32x4.splat(<f32>(2 * t))), phi2X4(u)) : f32x4.splat(0);
  applyCriticalX4(x, v, g, q, i, e, u, eu, xq, t, g != 0, q != 0);
  if (keep) {
    const c = compactSlot(coef, i);
    v128.store(c, e); v128.store(c, u, 16); v128.store(c, xq, 32);
  }
  return true;
}

/**
 * The critical spring's step for the four elements from i given e = e^{−u}, u, u·e and xq (as
 * criticalSmallX4 forms them): xx = e + u·e, vv = e − u·e, xv = e·t, vx = −(u·e)·(u/t),
 * vq = 2·(u·e), then applyX4. The keeping call and the replay of its compact slot both run it.
 */
// @ts-ignore: decorator
@inline function applyCriticalX4(
  x: usize, v: usize, g: usize, q: usize, i: i32, e: v128, u: v128, eu: v128, xq: v128, t: f64, hasG: bool, hasQ: bool,
): void {
  const xx = f32x4.add(e, eu);
  const vv = f32x4.sub(e, eu);
  const xv = f32x4.mul(e, f32x4.splat(<f32>t));
  const vx = f32x4.neg(f32x4.mul(eu, f32x4.mul(u, f32x4.splat(<f32>(1.0 / t)))));
  const vq = hasQ ? f32x4.add(eu, eu) : f32x4.splat(0);
  applyX4(x, v, g, q, i, xx, xv, xq, vx, vv, vq, hasG, hasQ);
}

// The replay of a critical block: its compact slot, or its full slot where the compact one says so
// (e = −1: a block that did not take criticalSmallX4). hasG / hasQ are constants at the call sites.
// @ts-ignore: decorator
@inline function keptCriticalX4(x: usize, v: usize, g: usize, q: usize, n: i32, i: i32, coef: usize, t: f64, hasG: bool, hasQ: bool): void {
  const c = compactSlot(coef, i);
  const e = v128.load(c);
  if (i32x4.bitmask(e) == 0) {
    const u = v128.load(c, 16);
    applyCriticalX4(x, v, g, q, i, e, u, f32x4.mul(e, u), hasQ ? v128.load(c, 32) : f32x4.splat(0), t, hasG, hasQ);
  } else keptX4(x, v, g, q, i, fullSlot(coef, n, i), hasG, hasQ);
}
