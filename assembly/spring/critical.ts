// The exact transition of Holden's critical spring (simple / decay spring dampers of
// "Spring-It-On": s = d²/4, d = 4·ln2/halflife) taken from the core springTransition
// (transition.ts, transition-x2.ts), for the composite kernels that step such
// springs toward computed goals: x' = g + xx·(x − g) + xv·v, v' = vx·(x − g) + vv·v.
import { springTransition, xx, xv, vx, vv } from './transition';
import { springTransitionX2, xxX2, xvX2, vxX2, vvX2 } from './transition-x2';
import { stiffnessOf, dampingOf, stiffnessOfX2, dampingOfX2, MODE_CRITICAL } from './params';
import { lowX2, highX2, joinX4 } from '../lanes/x4';

/** Sets the core globals xx, xv, vx, vv (transition.ts) for one halflife (s) over dt. */
// @ts-ignore: decorator
@inline export function criticalTransition(halflife: f64, dt: f64): void {
  springTransition(stiffnessOf(MODE_CRITICAL, halflife, 0), dampingOf(MODE_CRITICAL, halflife, 0), dt);
}

// The f32x4 coefficients of the last criticalTransitionX4 call.
// @ts-ignore: decorator
@lazy export let xxX4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let xvX4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let vxX4: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let vvX4: v128 = f32x4.splat(0);

/**
 * Coefficients for four lanes of halflife (f32x4, each multiplied by `scale`), computed in
 * float64 by springTransitionX2 and rounded to f32x4. Only called from ASC_FEATURE_SIMD branches.
 */
function criticalTransitionX4(halflife: v128, scale: f64, dt: f64): void {
  const hLo = f64x2.mul(lowX2(halflife), f64x2.splat(scale));
  springTransitionX2(stiffnessOfX2(MODE_CRITICAL, hLo, hLo), dampingOfX2(MODE_CRITICAL, hLo, hLo), dt, false);
  const xxLo = xxX2, xvLo = xvX2, vxLo = vxX2, vvLo = vvX2;
  const hHi = f64x2.mul(highX2(halflife), f64x2.splat(scale));
  springTransitionX2(stiffnessOfX2(MODE_CRITICAL, hHi, hHi), dampingOfX2(MODE_CRITICAL, hHi, hHi), dt, false);
  xxX4 = joinX4(xxLo, xxX2);
  xvX4 = joinX4(xvLo, xvX2);
  vxX4 = joinX4(vxLo, vxX2);
  vvX4 = joinX4(vvLo, vvX2);
}

/** Rounds the coefficients of the last criticalTransition call to f32x4 (uniform halflife). */
export function splatCriticalTransition(): void {
  xxX4 = f32x4.splat(<f32>xx);
  xvX4 = f32x4.splat(<f32>xv);
  vxX4 = f32x4.splat(<f32>vx);
  vvX4 = f32x4.splat(<f32>vv);
}

/**
 * One step of the spring at x, v (four floats from byte offset `off`) toward `goal` with the
 * coefficients of the last criticalTransitionX4 / splatCriticalTransition call; returns the new x.
 */
// @ts-ignore: decorator
@inline export function simpleStepX4(x: usize, v: usize, off: usize, goal: v128): v128 {
  const dx = f32x4.sub(v128.load(x + off), goal); // x − goal
  const vNow = v128.load(v + off);
  const xn = f32x4.add(goal, f32x4.add(f32x4.mul(xxX4, dx), f32x4.mul(xvX4, vNow)));
  v128.store(x + off, xn);
  v128.store(v + off, f32x4.add(f32x4.mul(vxX4, dx), f32x4.mul(vvX4, vNow)));
  return xn;
}

/** The same for one element, with the float64 coefficients of the last criticalTransition call; returns the stored x. */
// @ts-ignore: decorator
@inline export function simpleStep(x: usize, v: usize, off: usize, goal: f64): f64 {
  const dx = <f64>load<f32>(x + off) - goal; // x − goal
  const vNow = <f64>load<f32>(v + off);
  const xn = <f32>(goal + xx * dx + xv * vNow);
  store<f32>(x + off, xn);
  store<f32>(v + off, <f32>(vx * dx + vv * vNow));
  return <f64>xn;
}

// Exported by a list, not `export function`: asc reports AS112 (v128 exchange) for every function
// declared `export` with v128 in its signature, as if it were a wasm export; this one is only
// called from other assembly files (docs/DECISIONS.md, Quiet build).
export { criticalTransitionX4 };
