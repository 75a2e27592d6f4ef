/**
 * Float64 reference of Holden's composite springs ("Spring-It-On": double, timed and velocity
 * springs, with exact steps and true exp). Each step is one or two critical-spring transitions
 * (the core springTransition, via critical.ts) toward a goal computed per element. State arrays
 * are updated in place; dt = 0 leaves them unchanged.
 */
import type { Param } from '../core/types.js';
import { criticalTransitions, paramAt, simpleSpringStep } from './critical.js';

/**
 * double_spring_damper: the intermediate (xi, vi) is a simple spring toward g with halflife/2,
 * then (x, v) a simple spring toward the new xi with halflife/2.
 * @example
 * ```ts
 * import { doubleSpringDamper } from 'spring-solver/reference';
 * const [x, v, xi, vi, g] = [new Float32Array(1), new Float32Array(1), new Float32Array(1), new Float32Array(1), new Float32Array([1])];
 * doubleSpringDamper(x, v, xi, vi, g, 0.2, 1 / 60); // halflife 0.2 s, dt 1/60 s
 * ```
 * @group Composite
 */
export function doubleSpringDamper(
  x: Float32Array,
  v: Float32Array,
  xi: Float32Array,
  vi: Float32Array,
  g: Float32Array,
  halflife: Param,
  dt: number,
): void {
  if (dt === 0) return;
  const m = criticalTransitions(halflife, dt, 0.5);
  for (let i = 0; i < x.length; i++) {
    const mi = m(i); // both springs have halflife/2
    simpleSpringStep(mi, xi, vi, i, g[i]);
    simpleSpringStep(mi, x, v, i, xi[i]);
  }
}

/**
 * timed_spring_damper: xi moves at v_goal = (g − xi)/max(tGoal, dt), the speed that reaches g
 * after tGoal (the time remaining, counted down by the caller); (x, v) is a simple spring toward
 * x_goal_future = xi + v_goal·t_goal_future, t_goal_future = dt + apprehension·halflife, or toward
 * g once t_goal_future ≥ tGoal; then xi += v_goal·dt.
 * @example
 * ```ts
 * import { timedSpringDamper } from 'spring-solver/reference';
 * const [x, v, xi, g] = [new Float32Array(1), new Float32Array(1), new Float32Array(1), new Float32Array([5])];
 * timedSpringDamper(x, v, xi, g, 2, 0.1, 1 / 60); // 2 s left to the goal, halflife 0.1 s, dt 1/60 s
 * ```
 * @group Composite
 */
export function timedSpringDamper(
  x: Float32Array,
  v: Float32Array,
  xi: Float32Array,
  g: Float32Array,
  tGoal: Param,
  halflife: Param,
  dt: number,
  apprehension: Param = 2,
): void {
  if (dt === 0) return;
  const m = criticalTransitions(halflife, dt);
  for (let i = 0; i < x.length; i++) {
    const tg = paramAt(tGoal, i);
    const vGoal = (g[i] - xi[i]) / Math.max(tg, dt); // min_time = max(t_goal, dt)
    const tGoalFuture = dt + paramAt(apprehension, i) * paramAt(halflife, i);
    simpleSpringStep(m(i), x, v, i, tGoalFuture < tg ? xi[i] + vGoal * tGoalFuture : g[i]);
    xi[i] += vGoal * dt;
  }
}

/**
 * velocity_spring_damper: xi moves toward g at `speed` (x_diff = sign(g − xi)·speed) and stops on
 * it; (x, v) is a simple spring toward x_goal_future = xi + x_diff·t_goal_future,
 * t_goal_future = dt + apprehension·halflife, or toward g when xi gets there sooner.
 * (Written out rather than sharing the timed spring's loop through a callback: a shared call
 * site would make V8 slow both down, and this is the JS backend.)
 * @example
 * ```ts
 * import { velocitySpringDamper } from 'spring-solver/reference';
 * const [x, v, xi, g] = [new Float32Array(1), new Float32Array(1), new Float32Array(1), new Float32Array([5])];
 * velocitySpringDamper(x, v, xi, g, 2, 0.1, 1 / 60); // speed 2 units/s, halflife 0.1 s, dt 1/60 s
 * ```
 * @group Composite
 */
export function velocitySpringDamper(
  x: Float32Array,
  v: Float32Array,
  xi: Float32Array,
  g: Float32Array,
  speed: Param,
  halflife: Param,
  dt: number,
  apprehension: Param = 2,
): void {
  if (dt === 0) return;
  const m = criticalTransitions(halflife, dt);
  for (let i = 0; i < x.length; i++) {
    const sp = paramAt(speed, i);
    const distance = Math.abs(g[i] - xi[i]);
    const xDiff = g[i] - xi[i] > 0 ? sp : -sp;
    const tGoalFuture = dt + paramAt(apprehension, i) * paramAt(halflife, i);
    simpleSpringStep(m(i), x, v, i, distance > tGoalFuture * sp ? xi[i] + xDiff * tGoalFuture : g[i]);
    xi[i] = distance > dt * sp ? xi[i] + xDiff * dt : g[i];
  }
}
