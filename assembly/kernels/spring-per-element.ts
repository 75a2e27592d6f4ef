// The core springs with per-element parameters (spring.ts's springVarying, specialised), and
// their kept coefficients for prepared calls (src/api/prepare.ts):
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q
// The critical spring (criticalSpringDamper, simple, decay: s = a², d = 2a, a = 2·ln2/halflife)
// needs one exp per element: with u = a·t and e = e^{−u} (Holden's critical_spring_damper_exact),
//   xx = e·(1 + u), xv = e·t, vx = −a·u·e, vv = e·(1 − u), vq = 2u·e,
//   xq = d·∫₀ᵗ xv = 2·(1 − e·(1 + u))/a = 2t·u·e·φ₂(u),  φ₂(u) = (eᵘ − 1 − u)/u²,
// computed in f32x4 (criticalX4); the other modes use the general f64x2 transition.
// `coef` (0: none) keeps each block's f32x4 coefficients (SIMD: 6 × 16 bytes per 4 elements;
// the scalar tail is recomputed) or each element's float64 coefficients (scalar build: 48
// bytes per element), so that springApplyKept gives the very bits springPerElement gives.
import { springTransition, xx, xv, xq, vx, vv, vq } from '../spring/transition';
import { springTransitionX2, xxX2, xvX2, xqX2, vxX2, vvX2, vqX2 } from '../spring/transition-x2';
import { stiffnessOf, dampingOf, stiffnessOfX2, dampingOfX2, MODE_CRITICAL } from '../spring/params';
import { paramAt } from '../lanes/scalar';
import { paramX4, lowX2, highX2, joinX4 } from '../lanes/x4';

const TWO_LN2: f64 = 1.3862943611198906;
const INV_LN2: f32 = 1.4426950408889634;
const LOG2E_F32: f32 = 1.4426950408889634;
// ln2 split so that k·LN2_HI_F32 is exact for |k| < 2^8 (LN2_HI_F32 has 16 significant bits).
const LN2_HI_F32: f32 = 0.693145751953125;
const LN2_LO_F32: f32 = 1.428606765330187e-6;
// Past u = a·t = 80 (e^{−u} < 2e-35, near float32's subnormals) a block takes the f64x2 path,
// as does halflife 0 (u = ∞).
const CRITICAL_U_MAX: f32 = 80;
// Below u = 2, xq = 2t·u·e·φ₂(u) by polynomial; above, 1 − xx ≥ 0.59 and (1 − xx)·halflife/ln2 is exact enough.
const PHI2_U_MAX: f32 = 2;

/** Bytes of kept coefficients for n elements (see `coef` above). */
export function keptCoefficientBytes(n: i32): i32 {
  if (ASC_FEATURE_SIMD) return (n >> 2) * 96;
  return n * 48;
}

// The f32x4 coefficients of the current block.
// @ts-ignore: decorator
@lazy let cxx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let cxv: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let cxq: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let cvx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let cvv: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let cvq: v128 = f32x4.splat(0);

/** One call with per-element (stride 1) or broadcast (stride 0) parameters; keeps the coefficients at `coef` unless it is 0. */
export function springPerElement(
  x: usize, v: usize, g: usize, q: usize, n: i32, mode: i32,
  p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, dt: f64, coef: usize,
): void {
  if (dt == 0) return;
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      blockCoefficients(mode, p0, p0Stride, p1, p1Stride, i, dt, q != 0);
      if (coef) storeBlock(coef + <usize>i * 24);
      applyX4(x, v, g, q, i);
    }
  }
  for (; i < n; i++) {
    const a = paramAt(p0, p0Stride, i), b = paramAt(p1, p1Stride, i);
    springTransition(stiffnessOf(mode, a, b), dampingOf(mode, a, b), dt);
    if (!ASC_FEATURE_SIMD && coef) {
      const c = coef + <usize>i * 48;
      store<f64>(c, xx); store<f64>(c + 8, xv); store<f64>(c + 16, xq);
      store<f64>(c + 24, vx); store<f64>(c + 32, vv); store<f64>(c + 40, vq);
    }
    applyScalar(x, v, g, q, i, xx, xv, xq, vx, vv, vq);
  }
}

/** The same call with the coefficients springPerElement kept at `coef` for the same parameters and dt. */
export function springApplyKept(
  x: usize, v: usize, g: usize, q: usize, n: i32, mode: i32,
  p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, dt: f64, coef: usize,
): void {
  if (dt == 0) return;
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    // One loop per goal layout, coefficients in locals (the same operations as applyX4, so the same bits)
    if (g && q) for (; i + 4 <= n; i += 4) keptX4(x, v, g, q, i, coef, true, true);
    else if (g) for (; i + 4 <= n; i += 4) keptX4(x, v, g, q, i, coef, true, false);
    else if (q) for (; i + 4 <= n; i += 4) keptX4(x, v, g, q, i, coef, false, true);
    else for (; i + 4 <= n; i += 4) keptX4(x, v, g, q, i, coef, false, false);
    for (; i < n; i++) {
      const a = paramAt(p0, p0Stride, i), b = paramAt(p1, p1Stride, i);
      springTransition(stiffnessOf(mode, a, b), dampingOf(mode, a, b), dt);
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
@inline function storeBlock(c: usize): void {
  v128.store(c, cxx); v128.store(c, cxv, 16); v128.store(c, cxq, 32);
  v128.store(c, cvx, 48); v128.store(c, cvv, 64); v128.store(c, cvq, 80);
}

// Coefficients of the four elements from i: the f32x4 critical path where it applies, else
// the general transition in f64x2 rounded to f32x4 (as springVarying).
// @ts-ignore: decorator
@inline function blockCoefficients(mode: i32, p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, i: i32, dt: f64, withQ: bool): void {
  const a = paramX4(p0, p0Stride, i);
  if (mode == MODE_CRITICAL && criticalX4(a, dt, withQ)) return;
  const b = paramX4(p1, p1Stride, i);
  const aLo = lowX2(a), bLo = lowX2(b);
  springTransitionX2(stiffnessOfX2(mode, aLo, bLo), dampingOfX2(mode, aLo, bLo), dt, withQ);
  const xxLo = xxX2, xvLo = xvX2, xqLo = xqX2, vxLo = vxX2, vvLo = vvX2, vqLo = vqX2;
  const aHi = highX2(a), bHi = highX2(b);
  springTransitionX2(stiffnessOfX2(mode, aHi, bHi), dampingOfX2(mode, aHi, bHi), dt, withQ);
  cxx = joinX4(xxLo, xxX2); cxv = joinX4(xvLo, xvX2); cxq = joinX4(xqLo, xqX2);
  cvx = joinX4(vxLo, vxX2); cvv = joinX4(vvLo, vvX2); cvq = joinX4(vqLo, vqX2);
}

/**
 * The critical spring's coefficients for four halflives h, in f32x4 with one exp per element.
 * u = 2·ln2·t/h is divided in float64 and kept as f32 uf plus the remainder ur = u − uf, so that
 * 1 ± u and the exp's reduced argument r = k·ln2 − u are exact to float32 rounding even near
 * u = 1 and for large u (docs/DECISIONS.md has the error budget). Returns false (nothing set)
 * when a lane has u > CRITICAL_U_MAX or h = 0.
 */
// @ts-ignore: decorator
@inline function criticalX4(h: v128, t: f64, withQ: bool): bool {
  const c = f64x2.splat(TWO_LN2 * t);
  const uLo = f64x2.div(c, lowX2(h));
  const uHi = f64x2.div(c, highX2(h));
  const uf = joinX4(uLo, uHi);
  if (v128.any_true(f32x4.gt(uf, f32x4.splat(CRITICAL_U_MAX)))) return false;
  const ur = joinX4(f64x2.sub(uLo, lowX2(uf)), f64x2.sub(uHi, highX2(uf)));
  // a·u = u²/t, in float64 then rounded once. Below t = 5.6e-309, 1/t is ∞ and u² is 0 (u ≤ 1e-263):
  // ∞·0 gave NaN; clamped, u²·(1/t) is the 0 that a·u = a²·t (≤ 1e90·t) rounds to in float32.
  const invT = f64x2.splat(Math.min(1.0 / t, F64.MAX_VALUE));
  const au = joinX4(f64x2.mul(f64x2.mul(uLo, uLo), invT), f64x2.mul(f64x2.mul(uHi, uHi), invT));

  // e = e^{−u} = 2^{−k}·e^r, r = k·ln2 − u, |r| ≤ ln2/2 (+ rounding); Taylor degree 7 in r
  const k = f32x4.nearest(f32x4.mul(uf, f32x4.splat(LOG2E_F32)));
  const r = f32x4.sub(f32x4.add(f32x4.sub(f32x4.mul(k, f32x4.splat(LN2_HI_F32)), uf), f32x4.mul(k, f32x4.splat(LN2_LO_F32))), ur);
  let p = f32x4.splat(1.0 / 5040.0);
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 720.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 120.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 24.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0 / 6.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(0.5));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(1.0));
  // 2^{−k}: k ≤ 116 here, so the exponent 127 − k stays normal
  const scale = i32x4.shl(i32x4.sub(i32x4.splat(127), i32x4.trunc_sat_f32x4_s(k)), 23);
  const e = f32x4.mul(p, scale);

  const one = f32x4.splat(1);
  const tf = f32x4.splat(<f32>t);
  cxx = f32x4.mul(e, f32x4.add(f32x4.add(one, uf), ur));
  cxv = f32x4.mul(e, tf);
  cvx = f32x4.neg(f32x4.mul(au, e));
  cvv = f32x4.mul(e, f32x4.sub(f32x4.sub(one, uf), ur));
  cvq = f32x4.mul(f32x4.add(uf, uf), e);
  if (!withQ) {
    cxq = f32x4.splat(0);
    return true;
  }
  // φ₂(u) = Σ uᵏ/(k + 2)!, minimax degree 7 on [0, 2] (fit error 6.8e-9 relative; positive terms)
  let f = f32x4.splat(6.197591165046923e-6);
  f = f32x4.add(f32x4.mul(f, uf), f32x4.splat(1.231229868266237e-5));
  f = f32x4.add(f32x4.mul(f, uf), f32x4.splat(2.2036163104063866e-4));
  f = f32x4.add(f32x4.mul(f, uf), f32x4.splat(1.368183616549539e-3));
  f = f32x4.add(f32x4.mul(f, uf), f32x4.splat(8.34373423348651e-3));
  f = f32x4.add(f32x4.mul(f, uf), f32x4.splat(4.166414116373849e-2));
  f = f32x4.add(f32x4.mul(f, uf), f32x4.splat(0.16666689666698056));
  f = f32x4.add(f32x4.mul(f, uf), f32x4.splat(0.4999999966241977));
  const small = f32x4.mul(f32x4.mul(f32x4.mul(f32x4.splat(<f32>(2 * t)), uf), e), f);
  // 2/a = h/ln2
  const large = f32x4.mul(f32x4.sub(one, cxx), f32x4.mul(h, f32x4.splat(INV_LN2)));
  cxq = v128.bitselect(small, large, f32x4.lt(uf, f32x4.splat(PHI2_U_MAX)));
  return true;
}

// Four elements from offset i with the current block's coefficients (as spring.ts's applyX4).
// @ts-ignore: decorator
@inline function applyX4(x: usize, v: usize, g: usize, q: usize, i: i32): void {
  const off = <usize>i << 2;
  const xi = v128.load(x + off);
  const vi = v128.load(v + off);
  const gi = g ? v128.load(g + off) : f32x4.splat(0);
  const y = f32x4.sub(xi, gi);
  let xn = f32x4.add(f32x4.mul(cxx, y), f32x4.mul(cxv, vi));
  let vn = f32x4.add(f32x4.mul(cvx, y), f32x4.mul(cvv, vi));
  if (q) {
    const qi = v128.load(q + off);
    xn = f32x4.add(xn, f32x4.mul(cxq, qi));
    vn = f32x4.add(vn, f32x4.mul(cvq, qi));
  }
  v128.store(x + off, f32x4.add(gi, xn));
  v128.store(v + off, vn);
}

// applyX4 with the coefficients kept at coef (block i/4); hasG / hasQ are constants at the call sites.
// @ts-ignore: decorator
@inline function keptX4(x: usize, v: usize, g: usize, q: usize, i: i32, coef: usize, hasG: bool, hasQ: bool): void {
  const c = coef + <usize>i * 24;
  const off = <usize>i << 2;
  const xi = v128.load(x + off);
  const vi = v128.load(v + off);
  const gi = hasG ? v128.load(g + off) : f32x4.splat(0);
  const y = f32x4.sub(xi, gi);
  let xn = f32x4.add(f32x4.mul(v128.load(c), y), f32x4.mul(v128.load(c, 16), vi));
  let vn = f32x4.add(f32x4.mul(v128.load(c, 48), y), f32x4.mul(v128.load(c, 64), vi));
  if (hasQ) {
    const qi = v128.load(q + off);
    xn = f32x4.add(xn, f32x4.mul(v128.load(c, 32), qi));
    vn = f32x4.add(vn, f32x4.mul(v128.load(c, 80), qi));
  }
  v128.store(x + off, f32x4.add(gi, xn));
  v128.store(v + off, vn);
}

// One element with float64 coefficients.
// @ts-ignore: decorator
@inline function applyScalar(
  x: usize, v: usize, g: usize, q: usize, i: i32, cxx: f64, cxv: f64, cxq: f64, cvx: f64, cvv: f64, cvq: f64,
): void {
  const off = <usize>i << 2;
  const gi: f64 = g ? <f64>load<f32>(g + off) : 0;
  const qi: f64 = q ? <f64>load<f32>(q + off) : 0;
  const y = <f64>load<f32>(x + off) - gi;
  const vi = <f64>load<f32>(v + off);
  store<f32>(x + off, <f32>(gi + cxx * y + cxv * vi + cxq * qi));
  store<f32>(v + off, <f32>(cvx * y + cvv * vi + cvq * qi));
}
