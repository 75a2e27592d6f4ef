/**
 * Substepping as a Solver method: `solver.substep(dt, { maxDt, mode }, (h) => solver.pdSpring(…, h))`
 * runs any step function over dt in steps no longer than maxDt. The schedule is the reference's
 * (src/reference/substep.ts): it is pure bookkeeping over the caller's step, with no arithmetic
 * on the state, so the solver uses it as it is, after its own argument checks.
 */
import { checkDt, checkNumber, checkOptions, describe, MAX_SUBSTEPS, type KernelHost } from '../core/contract.js';
import { substepMaxDt, substepUniform } from '../reference/substep.js';

/**
 * 'max-dt': floor(dt/maxDt) steps of exactly maxDt, then the remainder as one shorter step.
 * 'uniform': n = ceil(dt/maxDt) equal steps of dt/n.
 * A quotient dt/maxDt within 1e-9 (relative) of a whole number counts as that number.
 * @group Time steps
 */
export type SubstepMode = 'max-dt' | 'uniform';

/**
 * @group Time steps
 */
export interface SubstepOptions {
  /** The longest step, in seconds (finite, > 0). */
  maxDt: number;
  /** Default 'uniform'. */
  mode?: SubstepMode;
}

export interface SubstepMethods {
  /**
   * Advances by dt (s, ≥ 0) by calling `step(h)` with substeps h ≤ maxDt (up to 1e-9·maxDt)
   * that add up to dt; dt = 0 calls nothing. Returns the number of calls. dt/maxDt must be at
   * most 999,999 (a call takes at most a million substeps; a RangeError otherwise).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [pos, vel, target, targetVel] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * const explicit = { integrator: 'explicit' } as const; // stable only for small steps: substep it
   * // a frame of 1/30 s in substeps of at most 1/240 s
   * solver.substep(1 / 30, { maxDt: 1 / 240 }, (h) => solver.pdSpring(pos, vel, target, targetVel, 20, 0.7, h, explicit));
   * ```
   * @group Time steps
   */
  substep(dt: number, options: SubstepOptions, step: (h: number) => void): number;
}

const MODES: readonly SubstepMode[] = ['max-dt', 'uniform'];

export const substepMethods: SubstepMethods & ThisType<KernelHost> = {
  substep(dt, options, step) {
    this.checkLive('substep');
    checkDt(this, 'substep', dt);
    checkOptions('substep', options, ['maxDt', 'mode']);
    checkNumber('substep', 'options.maxDt', options.maxDt, 'positive');
    const mode = options.mode ?? 'uniform';
    if (!MODES.includes(mode)) {
      throw new RangeError(`substep: options.mode is ${JSON.stringify(mode)}; it must be one of ${MODES.join(', ')}`);
    }
    if (typeof step !== 'function') throw new TypeError(`substep: step must be a function, got ${describe(step)}`);
    // Both modes take about dt/maxDt steps (at most one more); an infinite quotient never ends.
    if (!(dt / options.maxDt <= MAX_SUBSTEPS - 1)) {
      throw new RangeError(
        `substep: dt / options.maxDt is ${dt} / ${options.maxDt} = ${dt / options.maxDt}; it must be at most ${MAX_SUBSTEPS - 1} ` +
          `(a call takes at most ${MAX_SUBSTEPS} substeps)`,
      );
    }
    return mode === 'uniform' ? substepUniform(dt, options.maxDt, step) : substepMaxDt(dt, options.maxDt, step);
  },
};
