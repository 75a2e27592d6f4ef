/**
 * Huw Bowles' PD springs ("Spring dynamics for production") as Solver methods: pdSpring with four
 * integrators, and the rigid-body velocity change of his appendix B. Kernels:
 * assembly/kernels/pd-spring.ts; JS backend and oracle: src/reference/pd-spring.ts (which documents the
 * stability region of every integrator).
 */
import {
  checkAndRun,
  checkOptions,
  describe,
  read,
  written,
  type Kernel,
  type KernelHost,
  type KernelName,
  type Param,
  type ParamSpec,
} from '../core/contract.js';
import * as reference from '../reference/pd-spring.js';

import type { PdIntegrator } from '../reference/pd-spring.js';

export type { PdIntegrator } from '../reference/pd-spring.js';

/**
 * @group PD
 */
export interface PdSpringOptions {
  /** The integration scheme; default 'implicit' (Bowles' stable PD). */
  integrator?: PdIntegrator;
}

export interface PdSpringMethods {
  /**
   * Bowles' PD spring: the acceleration F = ω²·(targetPos − pos) + 2ζω·(targetVel − vel) with
   * ω = `uaf` (undamped angular frequency, rad/s, ≥ 0) and ζ = `dampingRatio` (≥ 0); pos and vel
   * are updated in place, targets held over the step. Integrators:
   * - 'explicit': pos += vel·dt (old vel), vel += F·dt. Diverges at ζ = 0; for ζ > 0 stable iff
   *   ωdt < 2ζ and (ωdt)² − 4ζ·ωdt + 4 > 0.
   * - 'semi-implicit': vel += F·dt, then pos += vel·dt. Stable for ζ > 0 iff (ωdt)² + 4ζ·ωdt < 4.
   * - 'implicit' (default): Bowles' stable PD, F taken at the predicted pos + dt·vel with implicit
   *   damping, vel += F·dt/(1 + dt·2ζω), pos += vel·dt. Only conditionally stable: it converges
   *   iff ωdt < u* = (2ζ + 2√(ζ² + 3))/3 (1.155 at ζ = 0, 2 at ζ = 1).
   * - 'exact': the closed-form transition of the ODE over dt; stable for any dt.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [pos, vel, targetPos, targetVel] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.pdSpring(pos, vel, targetPos, targetVel, 20, 0.7, 1 / 60, { integrator: 'exact' }); // ω 20 rad/s, ζ 0.7, dt 1/60 s
   * ```
   * @group PD
   */
  pdSpring(
    pos: Float32Array,
    vel: Float32Array,
    targetPos: Float32Array,
    targetVel: Float32Array,
    uaf: Param,
    dampingRatio: Param,
    dt: number,
    options?: PdSpringOptions,
  ): void;
  /**
   * Bowles' appendix B: a spring driving a rigid body it does not own. Writes only vel, with the
   * stable-PD velocity change vel += dt·F/(1 + dt·2ζω), F = ω²·(targetPos − (pos + dt·vel)) +
   * 2ζω·(targetVel − vel); pos is read. Followed by pos += vel·dt this is pdSpring 'implicit'.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [pos, vel, targetPos, targetVel] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * const dt = 1 / 60; // s
   * solver.pdSpringRigidBody(pos, vel, targetPos, targetVel, 20, 0.7, dt); // ω 20 rad/s, ζ 0.7; writes vel only
   * for (let i = 0; i < pos.length; i++) pos[i]! += vel[i]! * dt; // your physics integrates
   * ```
   * @group PD
   */
  pdSpringRigidBody(
    pos: Float32Array,
    vel: Float32Array,
    targetPos: Float32Array,
    targetVel: Float32Array,
    uaf: Param,
    dampingRatio: Param,
    dt: number,
  ): void;
}

function kernel(wasm: KernelName, integrator: PdIntegrator): Kernel {
  return {
    wasm,
    js: ([pos, vel, targetPos, targetVel], [uaf, zeta], [dt]) =>
      reference.pdSpring(pos!, vel!, targetPos!, targetVel!, uaf, zeta, dt, { integrator }),
  };
}

const INTEGRATORS: Record<PdIntegrator, Kernel> = {
  explicit: kernel('pdSpringExplicit', 'explicit'),
  'semi-implicit': kernel('pdSpringSemiImplicit', 'semi-implicit'),
  implicit: kernel('pdSpringImplicit', 'implicit'),
  exact: kernel('pdSpringExact', 'exact'),
};

const RIGID_BODY: Kernel = {
  wasm: 'pdSpringRigidBody',
  js: ([pos, vel, targetPos, targetVel], [uaf, zeta], [dt]) =>
    reference.pdSpringRigidBody(pos!, vel!, targetPos!, targetVel!, uaf, zeta, dt),
};

function params(uaf: Param, dampingRatio: Param): ParamSpec[] {
  return [
    ['uaf', uaf, 'nonNegative'],
    ['dampingRatio', dampingRatio, 'nonNegative'],
  ];
}

/** The kernel of options.integrator; a TypeError or RangeError naming it when it is not one. */
function integratorKernel(options: unknown): Kernel {
  if (options === undefined) return INTEGRATORS.implicit;
  checkOptions('pdSpring', options as PdSpringOptions, ['integrator']);
  const integrator = (options as PdSpringOptions).integrator ?? 'implicit';
  if (typeof integrator !== 'string') {
    throw new TypeError(`pdSpring: options.integrator must be a string, got ${describe(integrator)}`);
  }
  if (!Object.hasOwn(INTEGRATORS, integrator)) {
    throw new RangeError(`pdSpring: options.integrator is '${integrator}'; it must be one of ${Object.keys(INTEGRATORS).join(', ')}`);
  }
  return INTEGRATORS[integrator];
}

export const pdSpringMethods: PdSpringMethods & ThisType<KernelHost> = {
  pdSpring(pos, vel, targetPos, targetVel, uaf, dampingRatio, dt, options) {
    this.checkLive('pdSpring');
    const kernel = integratorKernel(options);
    const arrays = [
      written('pos', pos),
      written('vel', vel),
      read('targetPos', targetPos, 1, ['pos', 'vel']),
      read('targetVel', targetVel, 1, ['pos', 'vel']),
    ];
    checkAndRun(this, 'pdSpring', kernel, arrays, params(uaf, dampingRatio), dt, [dt]);
  },

  pdSpringRigidBody(pos, vel, targetPos, targetVel, uaf, dampingRatio, dt) {
    const arrays = [
      read('pos', pos, 1, ['vel']),
      written('vel', vel),
      read('targetPos', targetPos, 1, ['vel']),
      read('targetVel', targetVel, 1, ['vel']),
    ];
    checkAndRun(this, 'pdSpringRigidBody', RIGID_BODY, arrays, params(uaf, dampingRatio), dt, [dt]);
  },
};
