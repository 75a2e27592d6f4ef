/**
 * Piecewise-linear interpolation with its velocity, from Daniel Holden's "Spring-It-On"
 * (section "Interpolation", `piecewise_interpolation`), used there as the moving goal of a spring.
 * @module
 */

/**
 * A position and its velocity.
 * @group Easing
 */
export interface PositionVelocity {
  x: number;
  v: number;
}

/**
 * Position `x` and velocity `v = dx/dt` at parameter `t` on the piecewise-linear curve through
 * `points`, the n points being evenly spaced over t ∈ [0, 1] (point i at t = i/(n − 1)).
 * Units: x in the points' units; v in those units per unit of t (divide by the duration that
 * t = 0…1 spans to get units per second). Computed in float64 whatever the array type.
 *
 * With u = t·(n − 1), segment i0 = ⌊u⌋ (kept within 0…n − 2), i1 = i0 + 1, alpha = u − i0:
 * `x = lerp(points[i0], points[i1], alpha)`, `v = (points[i1] − points[i0])·(n − 1)`.
 *
 * Source: Holden's `piecewise_interpolation`. Corrected: his velocity is
 * `(points[i0] − points[i1]) / n`, which has the wrong sign and the wrong scale — a segment spans
 * Δt = 1/(n − 1), so the slope is the difference times (n − 1). Also, he clamps i0 to n − 1, so at
 * t = 1 both indices are the last point and v = 0; we keep the last segment there (alpha = 1), so
 * v at t = 1 is that segment's slope, the derivative from the left. Outside [0, 1] (where his
 * indices leave the array) the end segments are extended as straight lines.
 * One point gives that point with v = 0; no points throws a RangeError.
 * @example
 * ```ts
 * import { piecewiseInterpolation } from 'spring-solver';
 * const { x, v } = piecewiseInterpolation(0.25, [0, 1, 0.5, 2]); // t 0.25 in [0, 1]; position and velocity
 * ```
 * @group Easing
 */
export function piecewiseInterpolation(t: number, points: ArrayLike<number>): PositionVelocity {
  const n = points.length;
  if (n === 0) throw new RangeError('piecewiseInterpolation: points is empty; it needs at least one point');
  if (n === 1) return { x: +points[0], v: 0 };
  const u = t * (n - 1); // position in segments: point i sits at u = i
  const i0 = Math.min(Math.max(Math.floor(u), 0), n - 2); // segment start, an end segment outside [0, 1]
  const alpha = u - i0; // fraction along the segment, in [0, 1] for t in [0, 1]
  const p0 = +points[i0];
  const p1 = +points[i0 + 1];
  // lerp written as (1 − α)·p0 + α·p1 so that α = 0 and α = 1 give the points exactly.
  return { x: (1 - alpha) * p0 + alpha * p1, v: (p1 - p0) * (n - 1) }; // v = Δp / Δt, Δt = 1/(n − 1)
}
