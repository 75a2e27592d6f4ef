/**
 * Easing helpers from Daniel Holden's "Spring-It-On" demos: cubic Hermite easing (cubiceasing.c,
 * `cubic` / `cubic_dt`) and inertial smoothstep easing (inertialeasing.c, `smoothstep`,
 * `smoothstep_dt`, `smoothstep_solve`). Plain float64 maths on numbers.
 *
 * Time here is easing time t: 0 to 1 over one blend (Holden advances it by dt / blendtime), so
 * every velocity is in position units per unit of t; multiply by 1/blendtime for units per second.
 * @module
 */
import type { PositionVelocity } from './interpolation.js';

/**
 * Cubic Hermite curve on t ∈ [0, 1] from position p0 with velocity v0 (at t = 0) to position p1
 * with velocity v1 (at t = 1): returns its position x and velocity v = dx/dt at t.
 *
 *     x = h00·p0 + h10·v0 + h01·p1 + h11·v1
 *     h00 = (1 + 2t)(1 − t)²,  h10 = t(1 − t)²,  h01 = t²(3 − 2t),  h11 = t²(t − 1)
 *
 * Units: x in the points' units, v0, v1 and v per unit of t. Outside [0, 1] the cubic continues.
 * Source: the standard cubic Hermite basis, of which Holden's cubic easing is the case
 * p0 = 0, v1 = 0 (see {@link cubicEasing}). Nothing corrected.
 * @example
 * ```ts
 * import { hermite } from 'spring-solver';
 * const { x, v } = hermite(0.5, 0, 1, 1, 0); // t 0.5, p0 0, v0 1, p1 1, v1 0
 * ```
 * @group Easing
 */
export function hermite(t: number, p0: number, v0: number, p1: number, v1: number): PositionVelocity {
  const u = 1 - t;
  // Hermite basis in factored form: exactly (1, 0, 0, 0) at t = 0 and (0, 0, 1, 0) at t = 1.
  const x = (1 + 2 * t) * u * u * p0 + t * u * u * v0 + t * t * (3 - 2 * t) * p1 + t * t * (t - 1) * v1;
  // Derivatives of the four basis functions: h00' = −6t(1 − t), h10' = (1 − t)(1 − 3t), h01' = 6t(1 − t), h11' = t(3t − 2).
  const v = 6 * t * u * (p1 - p0) + u * (1 - 3 * t) * v0 + t * (3 * t - 2) * v1;
  return { x, v };
}

/**
 * Holden's cubic easing: the offset x from the start of a blend, and its velocity, at easing time
 * t, for a blend that starts with velocity `v` and comes to rest at offset `g` when t = 1:
 * `hermite(t, 0, v, g, 0)` for t ≤ 1, and (g, 0) after. Values of t below 0 continue the cubic,
 * as in Holden's demo (which draws the fitted curve before the blend's start).
 * Units: g in position units; v and the returned v per unit of t.
 * Source: Holden's cubiceasing.c (`cubic`, weights 3t² − 2t³ on g and t³ − 2t² + t on v, and
 * `cubic_dt`). Nothing corrected.
 * @example
 * ```ts
 * import { cubicEasing } from 'spring-solver';
 * const { x, v } = cubicEasing(0.5, 1, 1); // t 0.5, v 1, g 1
 * ```
 * @group Easing
 */
export function cubicEasing(t: number, v: number, g: number): PositionVelocity {
  if (t > 1) return { x: g, v: 0 }; // past the blend: at rest on g, as Holden's cubic
  return hermite(t, 0, v, g, 0); // cubic = h01·g + h10·v
}

/**
 * Holden's scaled smoothstep, including its negative section: position `x = s·(3t² − 2t³)` and
 * velocity `v = s·(6t − 6t²)` for t ≤ 1 (any t below 0 too), and (s, 0) for t > 1.
 * Units: s in position units, v per unit of t. Source: Holden's inertialeasing.c (`smoothstep`,
 * `smoothstep_dt`). Nothing corrected.
 * @example
 * ```ts
 * import { smoothstep } from 'spring-solver';
 * const { x, v } = smoothstep(0.3, 1); // t 0.3, scale s 1
 * ```
 * @group Easing
 */
export function smoothstep(t: number, s: number): PositionVelocity {
  if (t > 1) return { x: s, v: 0 }; // past the blend: at rest on s
  return { x: s * t * t * (3 - 2 * t), v: 6 * s * t * (1 - t) }; // s·(3t² − 2t³), its derivative s·(6t − 6t²)
}

/**
 * Easing time t and scale s of a {@link smoothstep} fit: see {@link smoothstepSolve}.
 * @group Easing
 */
export interface SmoothstepFit {
  t: number;
  s: number;
}

/**
 * Inertial easing: the point (t, s) on a scaled smoothstep that continues the current motion.
 * Given `x`, the distance still to go to the new target, and `v`, the current velocity (per unit
 * of easing time), it finds t and s with
 *
 *     s·(1 − S(t)) = x   and   s·S'(t) = v,   S(t) = 3t² − 2t³,
 *
 * so that following `smoothstep(t, s)` from easing time t (shifted by an offset so it starts at the
 * current position) keeps the position and velocity continuous and ends at the target at t = 1.
 * Eliminating s: `x·6t(1 − t) = v·(1 − t)²(1 + 2t)`, i.e. `2v·t² + (6x − v)·t − v = 0`.
 * For x > 0: with v < 0 the fit is the root in (−1/2, 0), with s > 0; with v > 0 it is the root in
 * (0, 1], unless the other root, always ≤ −1/2, lies within `overshoot` of −1/2: then that one is
 * taken (s < 0: the curve passes the target and comes back), which avoids the very large s (a hard
 * stop) that the root near 1 needs when x is small for v. x < 0 is the mirror image.
 *
 * Units: x and s in position units, v per unit of t (Holden feeds `smoothstep(t, s).v` of the
 * current fit), t and `overshoot` in easing time. `|v| < eps` counts as zero velocity and gives
 * t = 0, s = x.
 *
 * Source: Holden's `smoothstep_solve` (inertialeasing.c, after openprocessing sketch 1684527).
 * Corrected:
 * - Mirror symmetry. He solves x < 0 by solving (−x, −v) again, but with the default `overshoot`
 *   and `eps` rather than the caller's, so (x, v) and (−x, −v) can get fits that are not mirror
 *   images. Here `smoothstepSolve(−x, −v, o, e)` is always `{ t, s: −s }` of
 *   `smoothstepSolve(x, v, o, e)`, including at x = 0, which he does not mirror: there (0, v < 0)
 *   gets the overshooting fit t = −1/2 whatever `overshoot` is, and (0, v > 0) gets t = 1, s = 0,
 *   which drops the velocity. Here x = 0 takes t = −1/2, s = −v/4.5 (the limit as x → 0⁺) when
 *   `overshoot > 0`, and t = 1, s = 0 (an instant stop, the other limit) when `overshoot` is 0.
 * - Accuracy. The roots come from the ratio x/v in a form without cancellation, and s from
 *   whichever of `v / S'(t)` and `x / (1 − S(t))` is the better conditioned. His direct root
 *   formula cancels when x ≫ v and his `|S'(t)| < eps ⇒ s = 0` guard then stops the motion
 *   (e.g. x = 10⁹, v = 1 gives s = 0 instead of s ≈ 10⁹). His floor of `eps` on the discriminant
 *   (6x − v)² + 8v² is absolute, so for small inputs (|x|, |v| below about 10⁻⁴) it replaces the
 *   discriminant and the fit is wrong: x = v = 10⁻⁶ gives t = 23.75, past the end of the curve.
 *   Divided by v², the discriminant is (6x/v − 1)² + 8 ≥ 8 and needs no floor.
 * - `eps` is used for the zero-velocity test, where he hard-codes 1e-8 (the same default).
 * @example
 * ```ts
 * import { smoothstepSolve } from 'spring-solver';
 * const fit = smoothstepSolve(0.5, 1); // x 0.5, v 1
 * ```
 * @group Easing
 */
export function smoothstepSolve(x: number, v: number, overshoot = 0.05, eps = 1e-8): SmoothstepFit {
  // No velocity: start the smoothstep at its beginning, scaled to cover x (Holden's first case).
  if (Math.abs(v) < eps) return { t: 0, s: x };
  // Mirror image, passing overshoot and eps on (his recursion drops them), and x = 0 with v < 0 too.
  if (x < 0 || (x === 0 && v < 0)) {
    const fit = smoothstepSolve(-x, -v, overshoot, eps);
    return { t: fit.t, s: 0 - fit.s }; // 0 − s rather than −s: a zero scale comes back as 0, not −0
  }
  // Now x ≥ 0, v ≠ 0 (and v > 0 when x = 0). Divided by v the quadratic is 2t² − b·t − 1 = 0
  // with b = 1 − 6x/v: roots (b ± h)/4, h = √(b² + 8); their product is −1/2.
  const b = 1 - (6 * x) / v;
  const h = Math.hypot(b, Math.SQRT2 * 2); // √(b² + 8) without overflow of b²
  // The root of b's sign from the sum, the other from the product −1/2: no cancellation.
  const hi = b >= 0 ? (b + h) / 4 : 2 / (h - b); // larger root: in (0, 1] when v > 0, > 1 when v < 0
  const lo = b >= 0 ? -2 / (b + h) : (b - h) / 4; // smaller root: ≤ −1/2 when v > 0, in (−1/2, 0) when v < 0
  // Holden's choice: v < 0 takes the root in (−1/2, 0); v > 0 takes the root in (0, 1] unless the
  // negative one is within overshoot of −1/2 (its end −1/2 included, reached only at x = 0).
  const t = v < 0 || (overshoot > 0 && lo > -(0.5 + overshoot)) ? lo : hi;
  const dS = 6 * t * (1 - t); // S'(t) = 6t − 6t²
  const rest = (1 - t) * (1 - t) * (1 + 2 * t); // 1 − S(t), factored
  // s·S' = v and s·(1 − S) = x agree at a root; divide by the larger of the two (both 0 only at t = 1).
  const s = Math.abs(dS) >= Math.abs(rest) ? (dS === 0 ? 0 : v / dS) : x / rest;
  return { t, s };
}
