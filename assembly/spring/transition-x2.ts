// springTransition (transition.ts) for two lanes of f64x2, each with its own s and d.
// Every regime present in the pair is evaluated and merged with bitselect; a regime no lane
// is in is skipped. Only called from `if (ASC_FEATURE_SIMD)` branches.
import { expX2, expm1OverXX2, sinCosX2, cosOut } from '../maths/x2';
import { CRITICAL_SERIES_Z, SMALL_STIFFNESS_ST2, springTransition, xx, xv, xq, vx, vv, vq, xp } from './transition';

// sinCosX2 reduces exactly only while ωt < 2^20·π/2; past (ωt)² = 1e12 a pair goes to the
// scalar transition, whose Math.sin/cos reduce any argument.
const SIMD_PHASE_LIMIT_Z: f64 = 1e12;

// @ts-ignore: decorator
@lazy export let xxX2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let xvX2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let xqX2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let vxX2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let vvX2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy export let vqX2: v128 = f64x2.splat(0);
// P = ∫₀ᵗ xv itself (only with `withXq`; not for infinite d), as `xp` of transition.ts.
// @ts-ignore: decorator
@lazy export let xpX2: v128 = f64x2.splat(0);

/** `withXq` false skips P = ∫ xv (xqX2 is then 0): for springs whose goal velocity is 0. */
function springTransitionX2(s: v128, d: v128, t: f64, withXq: bool = true): void {
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  const tt = f64x2.splat(t);
  const a = f64x2.mul(f64x2.splat(0.5), d);
  const w2 = f64x2.sub(s, f64x2.mul(a, a));
  const z = f64x2.mul(w2, f64x2.splat(t * t));
  const under = f64x2.gt(z, f64x2.splat(CRITICAL_SERIES_Z));
  const over = f64x2.lt(z, f64x2.splat(-CRITICAL_SERIES_Z));
  const near = v128.not(v128.or(under, over));
  if (v128.any_true(f64x2.gt(z, f64x2.splat(SIMD_PHASE_LIMIT_Z)))) {
    scalarTransitionX2(s, d, t);
    return;
  }
  let m00 = zero, m01 = zero, m11 = zero, P = zero;

  if (v128.any_true(under)) {
    // Under-damped: e^{−at}·(cos ωt, sin ωt / ω)
    const w = f64x2.sqrt(w2);
    const e = expX2(f64x2.neg(f64x2.mul(a, tt)));
    const sinWt = sinCosX2(f64x2.mul(w, tt));
    const c = cosOut;
    const sn = f64x2.div(sinWt, w);
    const u00 = f64x2.mul(e, f64x2.add(c, f64x2.mul(a, sn)));
    m00 = v128.bitselect(u00, m00, under);
    m01 = v128.bitselect(f64x2.mul(e, sn), m01, under);
    m11 = v128.bitselect(f64x2.mul(e, f64x2.sub(c, f64x2.mul(a, sn))), m11, under);
    if (withXq) P = v128.bitselect(f64x2.div(f64x2.sub(one, u00), s), P, under);
  }
  if (v128.any_true(over)) {
    // Over-damped: l1 = −s/(a + b), l2 = −(a + b)
    const b = f64x2.sqrt(f64x2.neg(w2));
    const apb = f64x2.add(a, b);
    const l1 = f64x2.neg(f64x2.div(s, apb));
    const l2 = f64x2.neg(apb);
    const l1t = f64x2.mul(l1, tt);
    const l2t = f64x2.mul(l2, tt);
    const e1 = expX2(l1t);
    const e2 = expX2(l2t);
    const inv2b = f64x2.div(one, f64x2.add(b, b));
    m00 = v128.bitselect(f64x2.mul(f64x2.add(f64x2.mul(apb, e1), f64x2.mul(l1, e2)), inv2b), m00, over);
    m01 = v128.bitselect(f64x2.mul(f64x2.sub(e1, e2), inv2b), m01, over);
    m11 = v128.bitselect(f64x2.mul(f64x2.add(f64x2.mul(l1, e1), f64x2.mul(apb, e2)), inv2b), m11, over);
    if (withXq) {
      const phiDiff = f64x2.sub(expm1OverXX2(l1t, e1), expm1OverXX2(l2t, e2));
      P = v128.bitselect(f64x2.mul(f64x2.mul(tt, phiDiff), inv2b), P, over);
    }
  }
  if (v128.any_true(near)) {
    // Near critical: series in z for cos √z and sin √z / √z
    const e = expX2(f64x2.neg(f64x2.mul(a, tt)));
    const c = cosSeries(z);
    const sn = f64x2.mul(tt, sinOverXSeries(z));
    const n00 = f64x2.mul(e, f64x2.add(c, f64x2.mul(a, sn)));
    m00 = v128.bitselect(n00, m00, near);
    m01 = v128.bitselect(f64x2.mul(e, sn), m01, near);
    m11 = v128.bitselect(f64x2.mul(e, f64x2.sub(c, f64x2.mul(a, sn))), m11, near);
    if (withXq) {
      const stiff = f64x2.ge(f64x2.mul(s, f64x2.splat(t * t)), f64x2.splat(SMALL_STIFFNESS_ST2));
      let nearP = f64x2.div(f64x2.sub(one, n00), s);
      if (v128.any_true(v128.andnot(near, stiff))) nearP = v128.bitselect(nearP, integralOfXvSeriesX2(s, d, t), stiff);
      P = v128.bitselect(nearP, P, near);
    }
  }

  xxX2 = m00;
  xvX2 = m01;
  xqX2 = f64x2.mul(d, P);
  vxX2 = f64x2.neg(f64x2.mul(s, m01));
  vvX2 = m11;
  vqX2 = f64x2.mul(d, m01);
  xpX2 = P;

  const dInfinite = f64x2.eq(d, f64x2.splat(Infinity));
  if (v128.any_true(dInfinite)) {
    // Halflife 0 limits, as in springTransition: finite s → (1, 0, t; 0, 0, 1), infinite s → 0.
    const finite = v128.and(dInfinite, f64x2.ne(s, f64x2.splat(Infinity)));
    xxX2 = v128.bitselect(v128.and(finite, one), xxX2, dInfinite);
    xvX2 = v128.bitselect(zero, xvX2, dInfinite);
    xqX2 = v128.bitselect(v128.and(finite, tt), xqX2, dInfinite);
    vxX2 = v128.bitselect(zero, vxX2, dInfinite);
    vvX2 = v128.bitselect(zero, vvX2, dInfinite);
    vqX2 = v128.bitselect(v128.and(finite, one), vqX2, dInfinite);
  }
}

// Both lanes through the scalar springTransition.
function scalarTransitionX2(s: v128, d: v128, t: f64): void {
  springTransition(f64x2.extract_lane(s, 0), f64x2.extract_lane(d, 0), t);
  const xx0 = xx, xv0 = xv, xq0 = xq, vx0 = vx, vv0 = vv, vq0 = vq, xp0 = xp;
  springTransition(f64x2.extract_lane(s, 1), f64x2.extract_lane(d, 1), t);
  xxX2 = f64x2(xx0, xx); xvX2 = f64x2(xv0, xv); xqX2 = f64x2(xq0, xq);
  vxX2 = f64x2(vx0, vx); vvX2 = f64x2(vv0, vv); vqX2 = f64x2(vq0, vq); xpX2 = f64x2(xp0, xp);
}

// cos √z = 1 − z/2 + z²/24 − z³/720 + z⁴/40320 (divisions by constants as multiplications)
// @ts-ignore: decorator
@inline function cosSeries(z: v128): v128 {
  let c = f64x2.sub(f64x2.splat(1), f64x2.mul(z, f64x2.splat(1.0 / 56)));
  c = f64x2.sub(f64x2.splat(1), f64x2.mul(f64x2.mul(z, f64x2.splat(1.0 / 30)), c));
  c = f64x2.sub(f64x2.splat(1), f64x2.mul(f64x2.mul(z, f64x2.splat(1.0 / 12)), c));
  return f64x2.sub(f64x2.splat(1), f64x2.mul(f64x2.mul(z, f64x2.splat(0.5)), c));
}

// sin √z / √z = 1 − z/6 + z²/120 − z³/5040 + z⁴/362880
// @ts-ignore: decorator
@inline function sinOverXSeries(z: v128): v128 {
  let c = f64x2.sub(f64x2.splat(1), f64x2.mul(z, f64x2.splat(1.0 / 72)));
  c = f64x2.sub(f64x2.splat(1), f64x2.mul(f64x2.mul(z, f64x2.splat(1.0 / 42)), c));
  c = f64x2.sub(f64x2.splat(1), f64x2.mul(f64x2.mul(z, f64x2.splat(1.0 / 20)), c));
  return f64x2.sub(f64x2.splat(1), f64x2.mul(f64x2.mul(z, f64x2.splat(1.0 / 6)), c));
}

// integralOfXvSeries (transition.ts) for two lanes.
function integralOfXvSeriesX2(s: v128, d: v128, t: f64): v128 {
  const D = f64x2.mul(d, f64x2.splat(t));
  const S = f64x2.mul(s, f64x2.splat(t * t));
  let cPrev = f64x2.splat(0);
  let c = f64x2.splat(0.5);
  let sum = c;
  for (let k = 1; k <= 10; k++) {
    const num = f64x2.add(f64x2.mul(f64x2.mul(D, f64x2.splat(<f64>(k + 1))), c), f64x2.mul(S, cPrev));
    const next = f64x2.mul(f64x2.neg(num), f64x2.splat(1.0 / <f64>((k + 2) * (k + 1))));
    cPrev = c;
    c = next;
    sum = f64x2.add(sum, c);
  }
  return f64x2.mul(f64x2.splat(t * t), sum);
}

// Exported by a list, not `export function`: asc reports AS112 (v128 exchange) for every function
// declared `export` with v128 in its signature, as if it were a wasm export; this one is only
// called from other assembly files (docs/DECISIONS.md, Quiet build).
export { springTransitionX2 };
