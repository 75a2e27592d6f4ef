// Following and continuing signals (Holden): extrapolation with a decaying velocity
// (Spring-It-On, extrapolate), dead blending (dead_blending_transition / _update) and the exact
// tracking spring (Spring-It-On, tracking_spring_update_exact). The float64 reference is
// src/reference/signal.ts.
import { springTransition, xx, xv, xq, vx, vv } from '../spring/transition';
import { springTransitionX2, xxX2, xvX2, xqX2, vxX2, vvX2 } from '../spring/transition-x2';
import { decayIntegrals, decayIntegralsX2 } from '../spring/exp-integrals';
import { expX2 } from '../maths/x2';
import { paramAt } from '../lanes/scalar';
import { paramX4, lowX2, highX2, joinX4 } from '../lanes/x4';

const LN2: f64 = 0.6931471805599453;

// ---------------------------------------------------------------------------------------------
// Extrapolation: y = ln2/halflife (the velocity halves every halflife), e = e^{−y·dt},
// x += v·(1 − e)/y = v·dt·φ1(y·dt), v *= e. halflife 0: v = 0, x unchanged; halflife ∞ (dead
// blending without decay): x += v·dt.

let decayE: f64 = 1, decayC: f64 = 0;

/** Sets decayE = e^{−y·dt} and decayC = dt·φ1(y·dt) for one halflife (identity at dt = 0). */
function decayCoefficients(halflife: f64, dt: f64): void {
  if (dt == 0) {
    decayE = 1;
    decayC = 0;
    return;
  }
  const u = (LN2 / halflife) * dt;
  decayE = Math.exp(-u);
  decayC = dt * decayIntegrals(u, decayE);
}

// @ts-ignore: decorator
@lazy let decayEX4: v128 = f32x4.splat(1);
// @ts-ignore: decorator
@lazy let decayCX4: v128 = f32x4.splat(0);

/** The scalar decay coefficients (uniform halflife) as f32x4. */
function splatDecayCoefficients(): void {
  decayEX4 = f32x4.splat(<f32>decayE);
  decayCX4 = f32x4.splat(<f32>decayC);
}

/** decayCoefficients for four lanes of halflife (f32x4), dt > 0. */
function decayCoefficientsX4(halflife: v128, dt: f64): void {
  const rateDt = f64x2.splat(LN2 * dt);
  const t = f64x2.splat(dt);
  const uLo = f64x2.div(rateDt, lowX2(halflife));
  const uHi = f64x2.div(rateDt, highX2(halflife));
  const eLo = expX2(f64x2.neg(uLo));
  const eHi = expX2(f64x2.neg(uHi));
  decayEX4 = joinX4(eLo, eHi);
  decayCX4 = joinX4(f64x2.mul(t, decayIntegralsX2(uLo, eLo)), f64x2.mul(t, decayIntegralsX2(uHi, eHi)));
}

/** extrapolate: x += v·dt·φ1(y·dt), v *= e^{−y·dt}, y = ln2/halflife. */
export function extrapolate(x: usize, v: usize, n: i32, halflife: usize, halflifeStride: i32, dt: f64): void {
  if (dt == 0) return;
  const uniform = halflifeStride == 0;
  if (uniform) decayCoefficients(paramAt(halflife, 0, 0), dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    if (uniform) splatDecayCoefficients();
    for (; i + 4 <= n; i += 4) {
      if (!uniform) decayCoefficientsX4(paramX4(halflife, halflifeStride, i), dt);
      const off = <usize>i << 2;
      const w = v128.load(v + off);
      v128.store(x + off, f32x4.add(v128.load(x + off), f32x4.mul(decayCX4, w)));
      v128.store(v + off, f32x4.mul(decayEX4, w));
    }
  }
  for (; i < n; i++) {
    if (!uniform) decayCoefficients(paramAt(halflife, halflifeStride, i), dt);
    const off = <usize>i << 2;
    const w = <f64>load<f32>(v + off);
    store<f32>(x + off, <f32>(<f64>load<f32>(x + off) + decayC * w));
    store<f32>(v + off, <f32>(decayE * w));
  }
}

// ---------------------------------------------------------------------------------------------
// Dead blending (Holden, "Dead Blending"): at a transition the source's value and velocity are
// captured; while extT < blendTime they are extrapolated (decaying velocity when a decay
// halflife is given, else x += v·dt; the host passes halflife ∞ for that), extT += dt, and the
// output is lerp(extX, inX, smoothstep(clamp(extT/blendTime, 0, 1))); after that out = inX and
// the extrapolated state is left as it is.

/** dead_blending_transition: extX = srcX, extV = srcV, extT = 0. */
export function deadBlendingTransition(extX: usize, extV: usize, extT: usize, srcX: usize, srcV: usize, n: i32): void {
  memory.copy(extX, srcX, <usize>n << 2);
  memory.copy(extV, srcV, <usize>n << 2);
  memory.fill(extT, 0, <usize>n << 2);
}

/** smoothstep(t) = t²·(3 − 2t) with t clamped to [0, 1] (NaN → 1, as in the reference). */
// @ts-ignore: decorator
@inline function smoothstep(ratio: f64): f64 {
  let t = ratio < 1 ? ratio : 1;
  t = t > 0 ? t : 0;
  return t * t * (3 - 2 * t);
}

/** dead_blending_update; decayHalflife is per element or uniform (∞: no decay). */
export function deadBlendingUpdate(
  outX: usize, extX: usize, extV: usize, extT: usize, inX: usize, n: i32,
  blendTime: usize, blendTimeStride: i32, decayHalflife: usize, decayHalflifeStride: i32, dt: f64,
): void {
  const uniform = decayHalflifeStride == 0 || dt == 0; // dt = 0: the identity for every halflife
  if (uniform) decayCoefficients(paramAt(decayHalflife, 0, 0), dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    if (uniform) splatDecayCoefficients();
    const one = f32x4.splat(1);
    const zero = f32x4.splat(0);
    const dtX2 = f64x2.splat(dt);
    for (; i + 4 <= n; i += 4) {
      const off = <usize>i << 2;
      const t = v128.load(extT + off);
      const bt = paramX4(blendTime, blendTimeStride, i);
      const inx = v128.load(inX + off);
      const active = f32x4.lt(t, bt);
      if (!v128.any_true(active)) {
        v128.store(outX + off, inx);
        continue;
      }
      if (!uniform) decayCoefficientsX4(paramX4(decayHalflife, decayHalflifeStride, i), dt);
      const ex = v128.load(extX + off);
      const ev = v128.load(extV + off);
      const exNext = f32x4.add(ex, f32x4.mul(decayCX4, ev));
      // extT + dt in float64, as the reference does, so every backend stores the same extT.
      const tNext = joinX4(f64x2.add(lowX2(t), dtX2), f64x2.add(highX2(t), dtX2));
      const ratio = f32x4.div(tNext, bt);
      let s = v128.bitselect(ratio, one, f32x4.lt(ratio, one));
      s = v128.bitselect(s, zero, f32x4.gt(s, zero));
      const alpha = f32x4.mul(f32x4.mul(s, s), f32x4.sub(f32x4.splat(3), f32x4.add(s, s)));
      const blended = f32x4.add(f32x4.mul(f32x4.sub(one, alpha), exNext), f32x4.mul(alpha, inx));
      v128.store(outX + off, v128.bitselect(blended, inx, active));
      v128.store(extX + off, v128.bitselect(exNext, ex, active));
      v128.store(extV + off, v128.bitselect(f32x4.mul(decayEX4, ev), ev, active));
      v128.store(extT + off, v128.bitselect(tNext, t, active));
    }
  }
  for (; i < n; i++) {
    const off = <usize>i << 2;
    const t = load<f32>(extT + off);
    const bt = <f32>paramAt(blendTime, blendTimeStride, i);
    if (!(t < bt)) {
      store<f32>(outX + off, load<f32>(inX + off));
      continue;
    }
    if (!uniform) decayCoefficients(paramAt(decayHalflife, decayHalflifeStride, i), dt);
    const ev = <f64>load<f32>(extV + off);
    const exNext = <f64>load<f32>(extX + off) + decayC * ev;
    const tNext = <f32>(<f64>t + dt);
    const alpha = smoothstep(<f64>tNext / <f64>bt);
    store<f32>(outX + off, <f32>((1 - alpha) * exNext + alpha * <f64>load<f32>(inX + off)));
    store<f32>(extX + off, <f32>exNext);
    store<f32>(extV + off, <f32>(decayE * ev));
    store<f32>(extT + off, tNext);
  }
}

// ---------------------------------------------------------------------------------------------
// Tracking spring (tracking_spring_update_exact): with t0 = (1 − vGain)(1 − xGain),
// t1 = aGain·(1 − vGain)(1 − xGain), t2 = vGain·(1 − xGain)/gainDt, t3 = xGain/gainDt², the
// spring x'' = s·(g − x) + d·(q − v) with s = t3, d = (1 − t0)/gainDt, g = targetX and
// d·q = t2·targetV + t1·targetA is stepped exactly by dt. The forcing d·q is applied through
// P = ∫₀^dt xv = xq/d (P = dt²/2 when d = 0, where gains in [0, 1] force s = 0 too), so no
// goal velocity q = d·q/d is formed and zero gains are exact. a = the spring's acceleration
// s·(g − x') − d·v' + d·q after the step.

let trS: f64 = 0, trD: f64 = 0, trT1: f64 = 0, trT2: f64 = 0, trP: f64 = 0;

/** Sets trS, trD, trT1, trT2, trP and the core xx, xv, vx, vv for one set of gains. */
function trackingCoefficients(xGain: f64, vGain: f64, aGain: f64, dt: f64, gainDt: f64): void {
  const t0 = (1 - vGain) * (1 - xGain);
  trT1 = aGain * t0;
  trT2 = (vGain * (1 - xGain)) / gainDt;
  trS = xGain / (gainDt * gainDt);
  trD = (1 - t0) / gainDt;
  springTransition(trS, trD, dt);
  trP = trD > 0 ? xq / trD : 0.5 * dt * dt;
}

export function trackingSpringUpdate(
  x: usize, v: usize, a: usize, targetX: usize, targetV: usize, targetA: usize, n: i32,
  xGain: usize, xGainStride: i32, vGain: usize, vGainStride: i32, aGain: usize, aGainStride: i32,
  dt: f64, gainDt: f64,
): void {
  const uniform = xGainStride == 0 && vGainStride == 0 && aGainStride == 0;
  if (uniform) trackingCoefficients(paramAt(xGain, 0, 0), paramAt(vGain, 0, 0), paramAt(aGain, 0, 0), dt, gainDt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    let cxx = f32x4.splat(<f32>xx), cxv = f32x4.splat(<f32>xv), cP = f32x4.splat(<f32>trP);
    let cvx = f32x4.splat(<f32>vx), cvv = f32x4.splat(<f32>vv), cs = f32x4.splat(<f32>trS);
    let cd = f32x4.splat(<f32>trD), ct1 = f32x4.splat(<f32>trT1), ct2 = f32x4.splat(<f32>trT2);
    const one = f64x2.splat(1);
    for (; i + 4 <= n; i += 4) {
      if (!uniform) {
        const xg = paramX4(xGain, xGainStride, i), vg = paramX4(vGain, vGainStride, i), ag = paramX4(aGain, aGainStride, i);
        // Lanes 0, 1 then 2, 3, as trackingCoefficients.
        const xgLo = lowX2(xg), vgLo = lowX2(vg), xgHi = highX2(xg), vgHi = highX2(vg);
        const t0Lo = f64x2.mul(f64x2.sub(one, vgLo), f64x2.sub(one, xgLo));
        const t0Hi = f64x2.mul(f64x2.sub(one, vgHi), f64x2.sub(one, xgHi));
        const invGainDt = f64x2.splat(1 / gainDt);
        const sLo = f64x2.mul(xgLo, f64x2.splat(1 / (gainDt * gainDt)));
        const sHi = f64x2.mul(xgHi, f64x2.splat(1 / (gainDt * gainDt)));
        const dLo = f64x2.mul(f64x2.sub(one, t0Lo), invGainDt);
        const dHi = f64x2.mul(f64x2.sub(one, t0Hi), invGainDt);
        const halfDt2 = f64x2.splat(0.5 * dt * dt);
        springTransitionX2(sLo, dLo, dt);
        const xxLo = xxX2, xvLo = xvX2, vxLo = vxX2, vvLo = vvX2;
        const pLo = v128.bitselect(f64x2.div(xqX2, dLo), halfDt2, f64x2.gt(dLo, f64x2.splat(0)));
        springTransitionX2(sHi, dHi, dt);
        const pHi = v128.bitselect(f64x2.div(xqX2, dHi), halfDt2, f64x2.gt(dHi, f64x2.splat(0)));
        cxx = joinX4(xxLo, xxX2); cxv = joinX4(xvLo, xvX2); cP = joinX4(pLo, pHi);
        cvx = joinX4(vxLo, vxX2); cvv = joinX4(vvLo, vvX2);
        cs = joinX4(sLo, sHi); cd = joinX4(dLo, dHi);
        ct1 = f32x4.mul(ag, joinX4(t0Lo, t0Hi));
        ct2 = joinX4(
          f64x2.mul(f64x2.mul(vgLo, f64x2.sub(one, xgLo)), invGainDt),
          f64x2.mul(f64x2.mul(vgHi, f64x2.sub(one, xgHi)), invGainDt),
        );
      }
      const off = <usize>i << 2;
      const gx = v128.load(targetX + off);
      const dq = f32x4.add(f32x4.mul(ct2, v128.load(targetV + off)), f32x4.mul(ct1, v128.load(targetA + off)));
      const dx = f32x4.sub(v128.load(x + off), gx); // x − g
      const w = v128.load(v + off);
      const dxNext = f32x4.add(f32x4.add(f32x4.mul(cxx, dx), f32x4.mul(cxv, w)), f32x4.mul(cP, dq));
      const vNext = f32x4.add(f32x4.add(f32x4.mul(cvx, dx), f32x4.mul(cvv, w)), f32x4.mul(cxv, dq));
      v128.store(x + off, f32x4.add(gx, dxNext));
      v128.store(v + off, vNext);
      v128.store(a + off, f32x4.sub(dq, f32x4.add(f32x4.mul(cs, dxNext), f32x4.mul(cd, vNext))));
    }
  }
  for (; i < n; i++) {
    if (!uniform) {
      trackingCoefficients(paramAt(xGain, xGainStride, i), paramAt(vGain, vGainStride, i), paramAt(aGain, aGainStride, i), dt, gainDt);
    }
    const off = <usize>i << 2;
    const gx = <f64>load<f32>(targetX + off);
    const dq = trT2 * <f64>load<f32>(targetV + off) + trT1 * <f64>load<f32>(targetA + off);
    const dx = <f64>load<f32>(x + off) - gx; // x − g
    const w = <f64>load<f32>(v + off);
    const dxNext = xx * dx + xv * w + trP * dq;
    const vNext = vx * dx + vv * w + xv * dq;
    store<f32>(x + off, <f32>(gx + dxNext));
    store<f32>(v + off, <f32>vNext);
    store<f32>(a + off, <f32>(dq - trS * dxNext - trD * vNext));
  }
}
