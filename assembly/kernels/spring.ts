// The damped spring family of Holden's "Spring-It-On" (springDamper, springDamperStiffness,
// springDamperRatio, critical, simple and decay springs): one exact transition per step,
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q
// (spring/transition.ts). g = 0 / q = 0 pointers mean goal 0 / goal velocity 0.
import { springTransition, xx, xv, xq, vx, vv, vq } from '../spring/transition';
import { springTransitionX2, xxX2, xvX2, xqX2, vxX2, vvX2, vqX2 } from '../spring/transition-x2';
import { stiffnessOf, dampingOf, stiffnessOfX2, dampingOfX2 } from '../spring/params';

// The numbers of the `mode` argument (SpringMode in src/core/types.ts), exported as wasm globals.
export { MODE_FREQUENCY_HALFLIFE, MODE_STIFFNESS_DAMPING, MODE_RATIO_HALFLIFE, MODE_CRITICAL } from '../spring/params';
import { paramAt } from '../lanes/scalar';
import { paramX4, lowX2, highX2, joinX4 } from '../lanes/x4';

/** Uniform parameters: the transition is computed once, in float64, then applied to n elements. */
export function springUniform(x: usize, v: usize, g: usize, q: usize, n: i32, mode: i32, p0: f64, p1: f64, dt: f64): void {
  if (dt == 0) return;
  springTransition(stiffnessOf(mode, p0, p1), dampingOf(mode, p0, p1), dt);
  let i = 0;
  // A coefficient beyond float32 (huge stiffness or damping: vx = −s·xv past 3.4e38 while the
  // result stays finite) sends the call to the float64 loop.
  if (ASC_FEATURE_SIMD && fitsF32(xx) && fitsF32(xv) && fitsF32(xq) && fitsF32(vx) && fitsF32(vv) && fitsF32(vq)) {
    const cxx = f32x4.splat(<f32>xx), cxv = f32x4.splat(<f32>xv), cxq = f32x4.splat(<f32>xq);
    const cvx = f32x4.splat(<f32>vx), cvv = f32x4.splat(<f32>vv), cvq = f32x4.splat(<f32>vq);
    // One loop per goal layout, so the loop body has no branch (decay: no g, no q).
    if (g && q) {
      for (; i + 8 <= n; i += 8) {
        applyX4(x, v, g, q, i, cxx, cxv, cxq, cvx, cvv, cvq, true, true);
        applyX4(x, v, g, q, i + 4, cxx, cxv, cxq, cvx, cvv, cvq, true, true);
      }
      for (; i + 4 <= n; i += 4) applyX4(x, v, g, q, i, cxx, cxv, cxq, cvx, cvv, cvq, true, true);
    } else if (g) {
      for (; i + 4 <= n; i += 4) applyX4(x, v, g, q, i, cxx, cxv, cxq, cvx, cvv, cvq, true, false);
    } else {
      for (; i + 4 <= n; i += 4) applyX4(x, v, g, q, i, cxx, cxv, cxq, cvx, cvv, cvq, false, false);
    }
  }
  for (; i < n; i++) applyScalar(x, v, g, q, i);
}

// @ts-ignore: decorator
@inline function fitsF32(c: f64): bool {
  return Math.abs(c) <= <f64>F32.MAX_VALUE;
}

/** Per-element parameters (stride 1) or a mix with broadcast ones (stride 0). */
export function springVarying(
  x: usize, v: usize, g: usize, q: usize, n: i32, mode: i32,
  p0: usize, p0Stride: i32, p1: usize, p1Stride: i32, dt: f64,
): void {
  if (dt == 0) return;
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      const a = paramX4(p0, p0Stride, i);
      const b = paramX4(p1, p1Stride, i);
      const aLo = lowX2(a), bLo = lowX2(b);
      springTransitionX2(stiffnessOfX2(mode, aLo, bLo), dampingOfX2(mode, aLo, bLo), dt, q != 0);
      const xxLo = xxX2, xvLo = xvX2, xqLo = xqX2, vxLo = vxX2, vvLo = vvX2, vqLo = vqX2;
      const aHi = highX2(a), bHi = highX2(b);
      springTransitionX2(stiffnessOfX2(mode, aHi, bHi), dampingOfX2(mode, aHi, bHi), dt, q != 0);
      applyX4(x, v, g, q, i,
        joinX4(xxLo, xxX2), joinX4(xvLo, xvX2), joinX4(xqLo, xqX2),
        joinX4(vxLo, vxX2), joinX4(vvLo, vvX2), joinX4(vqLo, vqX2), g != 0, q != 0);
    }
  }
  for (; i < n; i++) {
    const a = paramAt(p0, p0Stride, i), b = paramAt(p1, p1Stride, i);
    springTransition(stiffnessOf(mode, a, b), dampingOf(mode, a, b), dt);
    applyScalar(x, v, g, q, i);
  }
}

// Four elements from offset i with f32x4 coefficients. hasG / hasQ are constants at the
// uniform call sites, so inlining folds the branches away there.
// @ts-ignore: decorator
@inline function applyX4(
  x: usize, v: usize, g: usize, q: usize, i: i32,
  cxx: v128, cxv: v128, cxq: v128, cvx: v128, cvv: v128, cvq: v128, hasG: bool, hasQ: bool,
): void {
  const off = <usize>i << 2;
  const xNow = v128.load(x + off);
  const vNow = v128.load(v + off);
  const gi = hasG ? v128.load(g + off) : f32x4.splat(0);
  const dx = f32x4.sub(xNow, gi); // x − g
  let xn = f32x4.add(f32x4.mul(cxx, dx), f32x4.mul(cxv, vNow));
  let vn = f32x4.add(f32x4.mul(cvx, dx), f32x4.mul(cvv, vNow));
  if (hasQ) {
    const qi = v128.load(q + off);
    xn = f32x4.add(xn, f32x4.mul(cxq, qi));
    vn = f32x4.add(vn, f32x4.mul(cvq, qi));
  }
  v128.store(x + off, f32x4.add(gi, xn));
  v128.store(v + off, vn);
}

// One element with the float64 coefficients of the last springTransition call.
// @ts-ignore: decorator
@inline function applyScalar(x: usize, v: usize, g: usize, q: usize, i: i32): void {
  const off = <usize>i << 2;
  const gi: f64 = g ? <f64>load<f32>(g + off) : 0;
  const qi: f64 = q ? <f64>load<f32>(q + off) : 0;
  const dx = <f64>load<f32>(x + off) - gi; // x − g
  const vNow = <f64>load<f32>(v + off);
  store<f32>(x + off, <f32>(gi + xx * dx + xv * vNow + xq * qi));
  store<f32>(v + off, <f32>(vx * dx + vv * vNow + vq * qi));
}
