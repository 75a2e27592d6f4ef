// Holden's composite springs ("Spring-It-On": double, timed and velocity springs). Each step is
// one or two exact critical-spring transitions (spring/critical.ts, from the core) toward a
// goal computed per element. Uniform halflife: the transition once per call, in float64; per
// element: per lane. The float64 reference is src/reference/composite.ts.
import {
  criticalTransition, criticalTransitionX4, splatCriticalTransition, simpleStepX4, simpleStep,
} from '../spring/critical';
import { paramAt } from '../lanes/scalar';
import { paramX4 } from '../lanes/x4';

/**
 * double_spring_damper: (xi, vi) a simple spring toward g with halflife/2, then (x, v) a simple
 * spring toward the new xi with halflife/2 (both halflife/2 springs share one transition).
 */
export function doubleSpringDamper(
  x: usize, v: usize, xi: usize, vi: usize, g: usize, n: i32, halflife: usize, halflifeStride: i32, dt: f64,
): void {
  if (dt == 0) return;
  const uniform = halflifeStride == 0;
  if (uniform) criticalTransition(0.5 * paramAt(halflife, 0, 0), dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    if (uniform) splatCriticalTransition();
    for (; i + 4 <= n; i += 4) {
      if (!uniform) criticalTransitionX4(paramX4(halflife, halflifeStride, i), 0.5, dt);
      const off = <usize>i << 2;
      simpleStepX4(x, v, off, simpleStepX4(xi, vi, off, v128.load(g + off)));
    }
  }
  for (; i < n; i++) {
    if (!uniform) criticalTransition(0.5 * paramAt(halflife, halflifeStride, i), dt);
    const off = <usize>i << 2;
    simpleStep(x, v, off, simpleStep(xi, vi, off, <f64>load<f32>(g + off)));
  }
}

// The timed and velocity springs share one loop: an intermediate xi moves toward g, and (x, v)
// is a simple spring toward x_goal_future, where xi will be t_goal_future = dt +
// apprehension·halflife ahead. They differ in how xi moves (goal*X4 / goal*Scalar below, which
// return xi's next value and leave x_goal_future in goalX4 / goalOut).
const TIMED: i32 = 0;
const VELOCITY: i32 = 1;

// @ts-ignore: decorator
@lazy let goalX4: v128 = f32x4.splat(0);
let goalOut: f64 = 0;

/**
 * timed_spring_damper: xi moves at v_goal = (g − xi)/min_time, min_time = max(tGoal, dt), the speed
 * that reaches g after tGoal seconds; x_goal_future = xi + v_goal·t_goal_future, or g once
 * t_goal_future ≥ tGoal; then xi += v_goal·dt.
 */
// In float32 the same step is taken as fractions of g − xi, never through v_goal: xi + (g − xi)·f
// with f = dt/min_time (1 where tGoal ≤ dt) and f = t_goal_future/tGoal for the goal, both in
// [0, 1]. v_goal itself overflows float32 when min_time is tiny (tGoal = 0 and dt = 1e-40 gave
// v_goal = ∞ and xi = ∞; dt = 8e-323 rounds to 0 and gave 0/0), where the float64 step is finite.
// @ts-ignore: decorator
@inline function goalTimedX4(xi: v128, g: v128, tGoal: v128, tGoalFuture: v128, dt: v128): v128 {
  const diff = f32x4.sub(g, xi);
  const ahead = f32x4.lt(tGoalFuture, tGoal); // then tGoal > t_goal_future ≥ dt: min_time = tGoal > 0
  goalX4 = v128.bitselect(f32x4.add(xi, f32x4.mul(diff, f32x4.div(tGoalFuture, tGoal))), g, ahead);
  const f = v128.bitselect(f32x4.splat(1), f32x4.div(dt, tGoal), f32x4.le(tGoal, dt));
  return f32x4.add(xi, f32x4.mul(diff, f));
}

// @ts-ignore: decorator
@inline function goalTimedScalar(xi: f64, g: f64, tGoal: f64, tGoalFuture: f64, dt: f64): f64 {
  const vGoal = (g - xi) / Math.max(tGoal, dt);
  goalOut = tGoalFuture < tGoal ? xi + vGoal * tGoalFuture : g;
  return xi + vGoal * dt;
}

/**
 * velocity_spring_damper: xi moves toward g at `speed` (x_diff = sign(g − xi)·speed) and stops on
 * it; x_goal_future = xi + x_diff·t_goal_future, or g when |g − xi| ≤ t_goal_future·speed.
 */
// @ts-ignore: decorator
@inline function goalVelocityX4(xi: v128, g: v128, speed: v128, tGoalFuture: v128, dt: v128): v128 {
  const diff = f32x4.sub(g, xi);
  const distance = f32x4.abs(diff);
  const xDiff = v128.bitselect(speed, f32x4.neg(speed), f32x4.gt(diff, f32x4.splat(0)));
  goalX4 = v128.bitselect(f32x4.add(xi, f32x4.mul(xDiff, tGoalFuture)), g, f32x4.gt(distance, f32x4.mul(tGoalFuture, speed)));
  return v128.bitselect(f32x4.add(xi, f32x4.mul(xDiff, dt)), g, f32x4.gt(distance, f32x4.mul(dt, speed)));
}

// @ts-ignore: decorator
@inline function goalVelocityScalar(xi: f64, g: f64, speed: f64, tGoalFuture: f64, dt: f64): f64 {
  const distance = Math.abs(g - xi);
  const xDiff = g - xi > 0 ? speed : -speed;
  goalOut = distance > tGoalFuture * speed ? xi + xDiff * tGoalFuture : g;
  return distance > dt * speed ? xi + xDiff * dt : g;
}

/**
 * timedSpringDamper (kind TIMED, p = tGoal) and velocitySpringDamper (kind VELOCITY, p = speed):
 * one export for both, the kind passed last.
 */
export function leadingSpring(
  x: usize, v: usize, xi: usize, g: usize, n: i32,
  p: usize, pStride: i32, halflife: usize, halflifeStride: i32, apprehension: usize, apprehensionStride: i32, dt: f64,
  kind: i32,
): void {
  if (dt == 0) return;
  const uniform = halflifeStride == 0;
  if (uniform) criticalTransition(paramAt(halflife, 0, 0), dt);
  let i = 0;
  // In float32, dt > 3.4e38 or t_goal_future = dt + apprehension·halflife beyond it is ∞, and
  // v_goal·dt or x_diff·t_goal_future become ∞·0 = NaN where the float64 step is finite: the whole
  // call (dt), or the four elements (t_goal_future), take the float64 path.
  if (ASC_FEATURE_SIMD && dt <= <f64>F32.MAX_VALUE) {
    if (uniform) splatCriticalTransition();
    const dtX4 = f32x4.splat(<f32>dt);
    const inf = f32x4.splat(Infinity);
    for (; i + 4 <= n; i += 4) {
      const h = paramX4(halflife, halflifeStride, i);
      const tGoalFuture = f32x4.add(dtX4, f32x4.mul(paramX4(apprehension, apprehensionStride, i), h));
      if (!i32x4.all_true(f32x4.lt(tGoalFuture, inf))) {
        for (let k = i; k < i + 4; k++) {
          leadingScalar(kind, x, v, xi, g, k, p, pStride, halflife, halflifeStride, apprehension, apprehensionStride, dt, uniform);
        }
        continue;
      }
      if (!uniform) criticalTransitionX4(h, 1, dt);
      const off = <usize>i << 2;
      const xiNow = v128.load(xi + off);
      const gi = v128.load(g + off);
      const pi = paramX4(p, pStride, i);
      const xiNext = kind == TIMED ? goalTimedX4(xiNow, gi, pi, tGoalFuture, dtX4) : goalVelocityX4(xiNow, gi, pi, tGoalFuture, dtX4);
      simpleStepX4(x, v, off, goalX4);
      v128.store(xi + off, xiNext);
    }
  }
  for (; i < n; i++) {
    leadingScalar(kind, x, v, xi, g, i, p, pStride, halflife, halflifeStride, apprehension, apprehensionStride, dt, uniform);
  }
}

// Element i of leadingSpring in float64 (a uniform halflife's transition is already computed).
// @ts-ignore: decorator
@inline function leadingScalar(
  kind: i32, x: usize, v: usize, xi: usize, g: usize, i: i32,
  p: usize, pStride: i32, halflife: usize, halflifeStride: i32, apprehension: usize, apprehensionStride: i32, dt: f64, uniform: bool,
): void {
  const h = paramAt(halflife, halflifeStride, i);
  if (!uniform) criticalTransition(h, dt);
  const off = <usize>i << 2;
  const xiNow = <f64>load<f32>(xi + off);
  const gi = <f64>load<f32>(g + off);
  const pi = paramAt(p, pStride, i);
  const tGoalFuture = dt + paramAt(apprehension, apprehensionStride, i) * h;
  const xiNext = kind == TIMED ? goalTimedScalar(xiNow, gi, pi, tGoalFuture, dt) : goalVelocityScalar(xiNow, gi, pi, tGoalFuture, dt);
  simpleStep(x, v, off, goalOut);
  store<f32>(xi + off, <f32>xiNext);
}
