/**
 * Substepping helpers for any fixed-parameter step function `step(dt)` (reference, float64).
 *
 *  - substepMaxDt:   steps of exactly maxDt, the remainder in a final shorter step.
 *  - substepUniform: n = ceil(dt/maxDt) equal steps of dt/n.
 *  - FixedStepAccumulator: fixed-timestep simulation of N (pos, vel) channels decoupled from the
 *    frame rate, with the public state linearly interpolated between the last two fixed states.
 *
 * Rounding convention shared by the helpers: a quotient dt/maxDt that is within 1e-9 (relative) of
 * an integer is treated as that integer, so e.g. dt = 0.1, maxDt = 0.01 gives 10 steps, not 11
 * (or 10 plus a 1e-18 s remainder). Consequently a step may exceed maxDt by at most 1e-9·maxDt.
 */

/**
 * A step function advancing some state by `dt` seconds.
 * @group Time steps
 */
export type StepFunction = (dt: number) => void;

const RELATIVE_SLACK = 1e-9;

function checkArgs(dt: number, maxDt: number): void {
  if (!(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`dt must be finite and >= 0, got ${dt}`);
  if (!(maxDt > 0) || !Number.isFinite(maxDt)) throw new RangeError(`maxDt must be finite and > 0, got ${maxDt}`);
}

/**
 * Advance by `dt` in steps of `maxDt`, putting the remainder in the last step:
 * floor(dt/maxDt) calls step(maxDt), then one call step(dt − k·maxDt) if that remainder is
 * non-negligible. A remainder below 1e-9·maxDt is merged into the last full step instead, so the
 * total time passed to `step` is always dt (up to rounding of the subtraction).
 * dt = 0 calls nothing.
 * @returns the number of calls made
 * @example
 * ```ts
 * import { substepMaxDt } from 'spring-solver/reference';
 * const calls = substepMaxDt(0.05, 0.02, (h) => console.log(h)); // dt 0.05 s, maxDt 0.02 s; 0.02, 0.02, 0.01
 * ```
 * @group Time steps
 */
export function substepMaxDt(dt: number, maxDt: number, step: StepFunction): number {
  checkArgs(dt, maxDt);
  if (dt === 0) return 0;
  let k = Math.floor(dt / maxDt + RELATIVE_SLACK);
  let remainder = dt - k * maxDt;
  if (remainder < 0 && k > 0 && remainder < -RELATIVE_SLACK * maxDt) {
    // floor rounded up across an integer by more than the slack: take one full step less.
    k -= 1;
    remainder += maxDt;
  }
  if (k === 0) {
    step(dt);
    return 1;
  }
  const mergeRemainder = Math.abs(remainder) <= RELATIVE_SLACK * maxDt;
  const fullSteps = mergeRemainder ? k - 1 : k;
  for (let i = 0; i < fullSteps; i++) step(maxDt);
  if (mergeRemainder) {
    step(maxDt + remainder);
    return k;
  }
  step(remainder);
  return k + 1;
}

/**
 * Advance by `dt` in n = ceil(dt/maxDt) equal steps of dt/n (n = 0 and no call when dt = 0).
 * @returns n
 * @example
 * ```ts
 * import { substepUniform } from 'spring-solver/reference';
 * const calls = substepUniform(0.05, 0.02, (h) => console.log(h)); // dt 0.05 s, maxDt 0.02 s; 3 × 0.01666…
 * ```
 * @group Time steps
 */
export function substepUniform(dt: number, maxDt: number, step: StepFunction): number {
  checkArgs(dt, maxDt);
  if (dt === 0) return 0;
  const n = Math.max(1, Math.ceil(dt / maxDt - RELATIVE_SLACK));
  const h = dt / n;
  for (let i = 0; i < n; i++) step(h);
  return n;
}

/**
 * Advances a batch of (pos, vel) channels in place by dt.
 * @group Time steps
 */
export type BatchStepFunction = (pos: Float64Array, vel: Float64Array, dt: number) => void;

/**
 * @group Time steps
 */
export interface FixedStepAccumulatorOptions {
  /**
   * Maximum number of fixed steps per `advance` call (default 8). When a long frame would need
   * more, the extra whole fixed steps are dropped: simulated time falls behind wall-clock time by
   * that amount (accumulated in `droppedTime`), the fractional part is kept so the interpolation
   * stays continuous. Infinity disables the cap.
   */
  maxUpdates?: number;
}

/**
 * Fixed-timestep driver for n channels of (pos, vel).
 *
 * `advance(frameDt)` adds frameDt to the accumulator and calls `step(currPos, currVel, fixedDt)`
 * while at least one fixed step is due (accumulator ≥ fixedDt − 1e-9·fixedDt, the slack absorbing
 * rounding so that e.g. 1/30 and 1/60 + 1/60 take the same number of steps), copying the current
 * fixed state to the previous one before each step. Every fixed step has exactly fixedDt, so the
 * sequence of fixed states depends only on how many steps were taken, never on how wall time was
 * split into frames.
 *
 * Public state: pos = prevPos + (currPos − prevPos)·alpha (same for vel) with
 * alpha = clamp(accumulator/fixedDt, 0, 1). It therefore lags the newest fixed state by up to one
 * fixed step (it shows the simulation at wall time minus fixedDt).
 * @example
 * ```ts
 * import { FixedStepAccumulator, simpleSpringDamper } from 'spring-solver/reference';
 * const goal = new Float32Array([1]);
 * const accumulator = new FixedStepAccumulator(1, 1 / 120, (pos, vel, dt) => { // fixed step 1/120 s
 *   const [x, v] = [Float32Array.from(pos), Float32Array.from(vel)];
 *   simpleSpringDamper(x, v, goal, 0.1, dt);
 *   pos.set(x);
 *   vel.set(v);
 * });
 * accumulator.advance(1 / 60); // frame dt 1/60 s
 * ```
 * @group Time steps
 */
export class FixedStepAccumulator {
  readonly n: number;
  readonly fixedDt: number;
  readonly maxUpdates: number;
  readonly prevPos: Float64Array;
  readonly prevVel: Float64Array;
  readonly currPos: Float64Array;
  readonly currVel: Float64Array;
  /** Interpolated public state (updated by advance). */
  readonly pos: Float64Array;
  readonly vel: Float64Array;
  private readonly step: BatchStepFunction;
  private acc = 0;
  private dropped = 0;
  private steps = 0;

  /**
   * @param n          number of channels
   * @param fixedDt    fixed step in seconds (> 0)
   * @param step       advances (pos, vel) in place by the given dt
   * @param initialPos initial positions (default 0); copied
   * @param initialVel initial velocities (default 0); copied
   * @example
   * ```ts
   * import { FixedStepAccumulator } from 'spring-solver/reference';
   * const accumulator = new FixedStepAccumulator(2, 1 / 120, (pos, vel, dt) => pos.forEach((p, i) => (pos[i] = p + vel[i]! * dt)), [0, 0], [1, 2]); // fixed step 1/120 s
   * ```
   */
  constructor(
    n: number,
    fixedDt: number,
    step: BatchStepFunction,
    initialPos?: ArrayLike<number>,
    initialVel?: ArrayLike<number>,
    options: FixedStepAccumulatorOptions = {},
  ) {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
    if (!(fixedDt > 0) || !Number.isFinite(fixedDt)) throw new RangeError(`fixedDt must be finite and > 0, got ${fixedDt}`);
    const maxUpdates = options.maxUpdates ?? 8;
    if (!(maxUpdates >= 1) || !(Number.isInteger(maxUpdates) || maxUpdates === Infinity)) {
      throw new RangeError(`maxUpdates must be an integer >= 1 or Infinity, got ${maxUpdates}`);
    }
    if (initialPos !== undefined && initialPos.length !== n) throw new RangeError(`initialPos must have length ${n}`);
    if (initialVel !== undefined && initialVel.length !== n) throw new RangeError(`initialVel must have length ${n}`);
    this.n = n;
    this.fixedDt = fixedDt;
    this.maxUpdates = maxUpdates;
    this.step = step;
    this.currPos = new Float64Array(n);
    this.currVel = new Float64Array(n);
    if (initialPos !== undefined) this.currPos.set(Array.from(initialPos));
    if (initialVel !== undefined) this.currVel.set(Array.from(initialVel));
    this.prevPos = Float64Array.from(this.currPos);
    this.prevVel = Float64Array.from(this.currVel);
    this.pos = Float64Array.from(this.currPos);
    this.vel = Float64Array.from(this.currVel);
  }

  /** Unconsumed time in seconds (in [−1e-9·fixedDt, fixedDt)). */
  get accumulator(): number {
    return this.acc;
  }

  /** Interpolation factor between the previous and the current fixed state. */
  get alpha(): number {
    return Math.min(1, Math.max(0, this.acc / this.fixedDt));
  }

  /** Total simulated time discarded by the maxUpdates cap. */
  get droppedTime(): number {
    return this.dropped;
  }

  /** Number of fixed steps taken so far. */
  get stepCount(): number {
    return this.steps;
  }

  /**
   * Consume a frame of wall-clock time.
   * @returns the number of fixed steps taken
   * @example
   * ```ts
   * import { FixedStepAccumulator } from 'spring-solver/reference';
   * const accumulator = new FixedStepAccumulator(1, 1 / 120, (pos, vel, dt) => (pos[0] = pos[0]! + vel[0]! * dt), [0], [1]);
   * const steps = accumulator.advance(1 / 60); // frame dt 1/60 s; 2
   * ```
   */
  advance(frameDt: number): number {
    if (!(frameDt >= 0) || !Number.isFinite(frameDt)) throw new RangeError(`frameDt must be finite and >= 0, got ${frameDt}`);
    const fixedDt = this.fixedDt;
    const slack = RELATIVE_SLACK * fixedDt;
    this.acc += frameDt;
    let count = 0;
    while (this.acc + slack >= fixedDt && count < this.maxUpdates) {
      this.prevPos.set(this.currPos);
      this.prevVel.set(this.currVel);
      this.step(this.currPos, this.currVel, fixedDt);
      this.acc -= fixedDt;
      count++;
    }
    this.steps += count;
    if (this.acc + slack >= fixedDt) {
      // Catch-up cap reached: drop the whole fixed steps still due, keep the fraction.
      const k = Math.floor((this.acc + slack) / fixedDt);
      this.acc -= k * fixedDt;
      this.dropped += k * fixedDt;
    }
    const a = this.alpha;
    for (let i = 0; i < this.n; i++) {
      const p0 = this.prevPos[i] as number;
      const v0 = this.prevVel[i] as number;
      this.pos[i] = p0 + ((this.currPos[i] as number) - p0) * a;
      this.vel[i] = v0 + ((this.currVel[i] as number) - v0) * a;
    }
    return count;
  }
}
