/**
 * Fixed-timestep simulation of n channels of (pos, vel) decoupled from the frame rate, with the
 * public state interpolated between the last two fixed states; the state lives in a solver's
 * memory, so solver methods step it in place. Semantics of the float64 reference
 * FixedStepAccumulator (src/reference/substep.ts).
 */
import { SolverBase, type Solver } from '../api/solver.js';
import { checkNumber, checkOptions, describe, isDetached } from '../core/validate.js';
import { checkDt } from '../core/dt.js';
import { MAX_ALLOC_LENGTH, MAX_SUBSTEPS } from '../core/limits.js';
import { OwnedArrays } from './owned-arrays.js';

/**
 * Advances the fixed state (pos, vel) in place by dt, e.g. with a solver method.
 * @group Time steps
 */
export type FixedStepFunction = (pos: Float32Array, vel: Float32Array, dt: number) => void;

/**
 * @group Time steps
 */
export interface FixedStepperOptions {
  /** Initial positions (copied; length n). Default 0. */
  pos?: Float32Array;
  /** Initial velocities (copied; length n). Default 0. */
  vel?: Float32Array;
  /**
   * Most fixed steps per `advance` (default 8). When a long frame needs more, the extra whole
   * steps are dropped (simulated time falls behind, see `droppedTime`); the fraction is kept, so
   * the interpolation stays continuous. Infinity disables the cap; then a frame needing more
   * than a million steps throws a RangeError (every call finishes in bounded time).
   */
  maxUpdates?: number;
}

/** Accumulated time within 1e-9·fixedDt of a whole step counts as that step (rounding of frame sums). */
const RELATIVE_SLACK = 1e-9;

/**
 * `advance(frameDt)` adds frameDt to the accumulator and, while a fixed step is due, copies the
 * current fixed state to the previous one and calls `step(currPos, currVel, fixedDt)`. Every step
 * has exactly fixedDt, so the fixed states depend only on how many steps were taken, never on
 * how time was split into frames. Then pos = prevPos + (currPos − prevPos)·alpha (vel the same),
 * alpha = accumulator/fixedDt clamped to [0, 1]: the public state lags the newest fixed state by
 * up to one fixed step.
 * @example
 * ```ts
 * import { createSolver, FixedStepper } from 'spring-solver';
 * const solver = await createSolver();
 * const goal = solver.alloc(3).fill(1);
 * // 3 channels, a fixed step of 1/120 s, halflife 0.1 s
 * const stepper = new FixedStepper(solver, 3, 1 / 120, (pos, vel, dt) => solver.simpleSpringDamper(pos, vel, goal, 0.1, dt));
 * stepper.advance(1 / 60); // a frame of 1/60 s: two fixed steps
 * console.log(stepper.pos[0]); // interpolated between the last two fixed states
 * ```
 * @group Time steps
 */
export class FixedStepper {
  readonly n: number;
  readonly fixedDt: number;
  readonly maxUpdates: number;
  /** The newest fixed state (what `step` advances). */
  readonly currPos: Float32Array;
  readonly currVel: Float32Array;
  /** The fixed state one step before. */
  readonly prevPos: Float32Array;
  readonly prevVel: Float32Array;
  /** The interpolated public state, written by `advance`. */
  readonly pos: Float32Array;
  readonly vel: Float32Array;
  private readonly solver: SolverBase;
  private readonly step: FixedStepFunction;
  private readonly owned: OwnedArrays;
  /** The accumulator: float64, in solver memory (a float32 accumulator would drift off the slack). */
  private readonly clock: Float64Array;
  private dropped = 0;
  private steps = 0;
  private disposed = false;

  /**
   * @param solver  the solver whose memory holds the state
   * @param n       number of channels (a whole number ≥ 0)
   * @param fixedDt the fixed step in seconds (finite, > 0)
   * @param step    advances (pos, vel) in place by the given dt
   * @example
   * ```ts
   * import { createSolver, FixedStepper } from 'spring-solver';
   * const solver = await createSolver();
   * const goal = solver.alloc(3).fill(1);
   * const step = (pos: Float32Array, vel: Float32Array, dt: number) => solver.simpleSpringDamper(pos, vel, goal, 0.1, dt);
   * const stepper = new FixedStepper(solver, 3, 1 / 120, step, { maxUpdates: 8 }); // 3 channels, fixed step 1/120 s
   * ```
   */
  constructor(solver: Solver, n: number, fixedDt: number, step: FixedStepFunction, options: FixedStepperOptions = {}) {
    if (!(solver instanceof SolverBase)) throw new TypeError(`FixedStepper: solver must be a Solver, got ${describe(solver)}`);
    solver.checkLive('FixedStepper');
    checkNumber('FixedStepper', 'n', n, 'nonNegative');
    if (!Number.isInteger(n) || n > MAX_ALLOC_LENGTH) {
      throw new RangeError(`FixedStepper: n is ${n}; it must be a whole number up to ${MAX_ALLOC_LENGTH} (the longest alloc)`);
    }
    checkNumber('FixedStepper', 'fixedDt', fixedDt, 'positive');
    if (typeof step !== 'function') throw new TypeError(`FixedStepper: step must be a function, got ${describe(step)}`);
    checkOptions('FixedStepper', options, ['pos', 'vel', 'maxUpdates']);
    const { pos, vel, maxUpdates = 8 } = options;
    if (typeof maxUpdates !== 'number')
      throw new TypeError(`FixedStepper: options.maxUpdates must be a number, got ${describe(maxUpdates)}`);
    if (!(maxUpdates >= 1) || !(Number.isInteger(maxUpdates) || maxUpdates === Infinity)) {
      throw new RangeError(`FixedStepper: options.maxUpdates is ${maxUpdates}; it must be a whole number ≥ 1 or Infinity`);
    }
    for (const [name, array] of [
      ['options.pos', pos],
      ['options.vel', vel],
    ] as const) {
      if (array === undefined) continue;
      if (!(array instanceof Float32Array)) throw new TypeError(`FixedStepper: ${name} must be a Float32Array, got ${describe(array)}`);
      if (isDetached(array))
        throw new TypeError(`FixedStepper: ${name} is a Float32Array whose buffer is detached (transferred); it must be a usable array`);
      solver.checkUsable('FixedStepper', name, array);
      if (array.length !== n) throw new RangeError(`FixedStepper: ${name} has length ${array.length}, expected ${n}`);
    }
    this.solver = solver;
    this.n = n;
    this.fixedDt = fixedDt;
    this.maxUpdates = maxUpdates;
    this.step = step;
    this.owned = new OwnedArrays(solver);
    const alloc = (length: number) => this.owned.alloc(length);
    try {
      this.currPos = alloc(n);
      this.currVel = alloc(n);
      this.prevPos = alloc(n);
      this.prevVel = alloc(n);
      this.pos = alloc(n);
      this.vel = alloc(n);
      const clock = alloc(2); // 8 bytes, at a 16-byte aligned offset (wasm) or offset 0 (js)
      this.clock = new Float64Array(clock.buffer, clock.byteOffset, 1);
    } catch (error) {
      this.owned.release();
      throw error;
    }
    for (const array of [this.currPos, this.prevPos, this.pos]) if (pos) array.set(pos);
    for (const array of [this.currVel, this.prevVel, this.vel]) if (vel) array.set(vel);
  }

  /** Unconsumed time in seconds (in [−1e-9·fixedDt, fixedDt)). */
  get accumulator(): number {
    return this.clock[0];
  }

  /** The interpolation factor between the previous and the current fixed state. */
  get alpha(): number {
    return Math.min(1, Math.max(0, this.clock[0] / this.fixedDt));
  }

  /** Total simulated time dropped by the maxUpdates cap, in seconds. */
  get droppedTime(): number {
    return this.dropped;
  }

  /** Fixed steps taken so far. */
  get stepCount(): number {
    return this.steps;
  }

  /**
   * Consumes frameDt seconds (finite, ≥ 0) of wall-clock time; returns the number of fixed steps taken.
   * @example
   * ```ts
   * import type { FixedStepper } from 'spring-solver';
   * declare const stepper: FixedStepper;
   * const steps = stepper.advance(1 / 60); // frame dt 1/60 s; fixed steps taken this frame
   * ```
   */
  advance(frameDt: number): number {
    if (this.disposed) throw new TypeError('FixedStepper.advance: this stepper has been disposed');
    this.solver.checkLive('FixedStepper.advance');
    checkDt(this.solver, 'FixedStepper.advance', frameDt, 'frameDt');
    const { fixedDt, clock } = this;
    const slack = RELATIVE_SLACK * fixedDt;
    if (this.maxUpdates > MAX_SUBSTEPS && !((clock[0] + frameDt + slack) / fixedDt < MAX_SUBSTEPS + 1)) {
      throw new RangeError(
        `FixedStepper.advance: frameDt is ${frameDt}, which needs ${Math.floor((clock[0] + frameDt + slack) / fixedDt)} fixed steps; ` +
          `one call takes at most ${MAX_SUBSTEPS} (set options.maxUpdates to drop the excess instead)`,
      );
    }
    clock[0] += frameDt;
    let count = 0;
    while (clock[0] + slack >= fixedDt && count < this.maxUpdates) {
      this.prevPos.set(this.currPos);
      this.prevVel.set(this.currVel);
      this.step(this.currPos, this.currVel, fixedDt);
      clock[0] -= fixedDt;
      count++;
    }
    this.steps += count;
    if (clock[0] + slack >= fixedDt) {
      // The cap was reached: drop the whole steps still due, keep the fraction; for a huge
      // clock (1e300 s) by fmod, as clock − k·fixedDt would lose the fraction entirely.
      const k = Math.floor((clock[0] + slack) / fixedDt);
      let rest = clock[0] - k * fixedDt;
      if (k > 2 ** 52) {
        rest = clock[0] % fixedDt; // exact where k·fixedDt is not
        if (rest + slack >= fixedDt) rest -= fixedDt;
      }
      this.dropped += k > 2 ** 52 ? clock[0] - rest : k * fixedDt;
      clock[0] = rest;
    }
    const a = this.alpha;
    interpolate(this.pos, this.prevPos, this.currPos, a);
    interpolate(this.vel, this.prevVel, this.currVel, a);
    return count;
  }

  /**
   * Returns the state to the solver; the arrays must not be used afterwards. Idempotent.
   * @example
   * ```ts
   * import type { FixedStepper } from 'spring-solver';
   * declare const stepper: FixedStepper;
   * stepper.dispose(); // frees its solver memory
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.owned.release();
  }
}

/** out = from + (to − from)·a, in float64, rounded once. */
function interpolate(out: Float32Array, from: Float32Array, to: Float32Array, a: number): void {
  for (let i = 0; i < out.length; i++) {
    const p = from[i];
    out[i] = p + (to[i] - p) * a;
  }
}
