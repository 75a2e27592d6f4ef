// The damped spring family of Holden's "Spring-It-On" (springDamper, springDamperStiffness,
// springDamperRatio, critical, simple and decay springs): one exact transition per step,
//   x' = g + xx·(x − g) + xv·v + xq·q,   v' = vx·(x − g) + vv·v + vq·q
// (spring/transition.ts). g = 0 / q = 0 pointers mean goal 0 / goal velocity 0.
import { springTransition, xx, xv, xq, vx, vv, vq } from '../spring/transition';
import { stiffnessOf, dampingOf } from '../spring/params';
import { applyX4, applyScalar } from '../spring/apply';

// The numbers of the `mode` argument (SpringMode in src/core/types.ts), exported as wasm globals.
export { MODE_FREQUENCY_HALFLIFE, MODE_STIFFNESS_DAMPING, MODE_RATIO_HALFLIFE, MODE_CRITICAL } from '../spring/params';

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
  for (; i < n; i++) applyScalar(x, v, g, q, i, xx, xv, xq, vx, vv, vq);
}

// @ts-ignore: decorator
@inline function fitsF32(c: f64): bool {
  return Math.abs(c) <= <f64>F32.MAX_VALUE;
}
