/**
 * Holden's composite springs ("Spring-It-On": double, timed and velocity springs), stepped
 * exactly. Kernels: assembly/kernels/composite.ts; float64 reference: src/reference/composite.ts.
 */
import { checkAndRun, read, written, type Kernel, type KernelHost, type Param, type ParamSpec } from '../core/contract.js';
import * as reference from '../reference/composite.js';

export interface CompositeMethods {
  /**
   * Holden's double spring (double_spring_damper, exact steps): the intermediate (xi, vi) is a
   * simple spring (critical, goal velocity 0) toward g with halflife/2, then (x, v) a simple
   * spring toward the new xi with halflife/2. The result is smoother than one simple spring:
   * x starts moving with zero acceleration. x, v, xi, vi are updated in place; halflife in s.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, xi, vi, g] = [solver.alloc(3), solver.alloc(3), solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1)];
   * solver.doubleSpringDamper(x, v, xi, vi, g, 0.2, 1 / 60); // halflife 0.2 s, dt 1/60 s
   * ```
   * @group Composite
   */
  doubleSpringDamper(
    x: Float32Array,
    v: Float32Array,
    xi: Float32Array,
    vi: Float32Array,
    g: Float32Array,
    halflife: Param,
    dt: number,
  ): void;
  /**
   * Holden's timed spring (timed_spring_damper, exact steps): reaches g at about the time
   * `tGoal` from now. `tGoal` (s, ≥ 0) is the time REMAINING until the goal: the caller counts
   * it down by dt every step (it may reach 0; then the spring just settles on g). The
   * intermediate xi moves at v_goal = (g − xi)/max(tGoal, dt); (x, v) is a simple spring toward
   * x_goal_future = xi + v_goal·t_goal_future, t_goal_future = dt + apprehension·halflife, or
   * toward g once t_goal_future ≥ tGoal; then xi += v_goal·dt. Start with xi = x.
   * x, v, xi are updated in place; apprehension (≥ 0) defaults to 2.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, xi, g] = [solver.alloc(1), solver.alloc(1), solver.alloc(1), solver.alloc(1).fill(5)];
   * let tGoal = 2; // s left until the goal: count it down yourself
   * const dt = 1 / 60;
   * solver.timedSpringDamper(x, v, xi, g, tGoal, 0.1, dt); // halflife 0.1 s
   * tGoal = Math.max(0, tGoal - dt);
   * ```
   * @group Composite
   */
  timedSpringDamper(
    x: Float32Array,
    v: Float32Array,
    xi: Float32Array,
    g: Float32Array,
    tGoal: Param,
    halflife: Param,
    dt: number,
    apprehension?: Param,
  ): void;
  /**
   * Holden's velocity spring (velocity_spring_damper, exact steps): moves toward g at about
   * `speed` (units/s), arriving smoothly. The intermediate xi moves at x_diff = sign(g − xi)·speed
   * and stops on g; (x, v) is a simple spring toward x_goal_future = xi + x_diff·t_goal_future,
   * t_goal_future = dt + apprehension·halflife, or toward g when |g − xi| ≤ t_goal_future·speed.
   * Start with xi = x. x, v, xi are updated in place; apprehension (≥ 0) defaults to 2.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, xi, g] = [solver.alloc(1), solver.alloc(1), solver.alloc(1), solver.alloc(1).fill(5)];
   * solver.velocitySpringDamper(x, v, xi, g, 2, 0.1, 1 / 60); // speed 2 units/s, halflife 0.1 s, dt 1/60 s
   * ```
   * @group Composite
   */
  velocitySpringDamper(
    x: Float32Array,
    v: Float32Array,
    xi: Float32Array,
    g: Float32Array,
    speed: Param,
    halflife: Param,
    dt: number,
    apprehension?: Param,
  ): void;
}

const DOUBLE: Kernel = {
  wasm: 'doubleSpringDamper',
  js: ([x, v, xi, vi, g], [halflife], [dt]) => reference.doubleSpringDamper(x!, v!, xi!, vi!, g!, halflife, dt),
};

/** The wasm export `leadingSpring` runs both, told which by its last argument. */
const LEADING_TIMED = 0;
const LEADING_VELOCITY = 1;

const TIMED: Kernel = {
  wasm: 'leadingSpring',
  js: ([x, v, xi, g], [tGoal, halflife, apprehension], [dt]) =>
    reference.timedSpringDamper(x!, v!, xi!, g!, tGoal, halflife, dt, apprehension),
};

const VELOCITY: Kernel = {
  wasm: 'leadingSpring',
  js: ([x, v, xi, g], [speed, halflife, apprehension], [dt]) =>
    reference.velocitySpringDamper(x!, v!, xi!, g!, speed, halflife, dt, apprehension),
};

export const compositeMethods: CompositeMethods & ThisType<KernelHost> = {
  doubleSpringDamper(x, v, xi, vi, g, halflife, dt) {
    const arrays = [written('x', x), written('v', v), written('xi', xi), written('vi', vi), read('g', g, 1, ['x', 'v', 'xi', 'vi'])];
    checkAndRun(this, 'doubleSpringDamper', DOUBLE, arrays, [['halflife', halflife, 'nonNegative']], dt, [dt]);
  },

  timedSpringDamper(x, v, xi, g, tGoal, halflife, dt, apprehension = 2) {
    const arrays = [written('x', x), written('v', v), written('xi', xi), read('g', g, 1, ['x', 'v', 'xi'])];
    const params: ParamSpec[] = [
      ['tGoal', tGoal, 'nonNegative'],
      ['halflife', halflife, 'nonNegative'],
      ['apprehension', apprehension, 'nonNegative'],
    ];
    checkAndRun(this, 'timedSpringDamper', TIMED, arrays, params, dt, [dt, LEADING_TIMED]);
  },

  velocitySpringDamper(x, v, xi, g, speed, halflife, dt, apprehension = 2) {
    // The JS reference reads g after writing x and v: g may alias only xi.
    const arrays = [written('x', x), written('v', v), written('xi', xi), read('g', g, 1, ['xi'])];
    const params: ParamSpec[] = [
      ['speed', speed, 'nonNegative'],
      ['halflife', halflife, 'nonNegative'],
      ['apprehension', apprehension, 'nonNegative'],
    ];
    checkAndRun(this, 'velocitySpringDamper', VELOCITY, arrays, params, dt, [dt, LEADING_VELOCITY]);
  },
};
