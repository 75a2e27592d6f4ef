/**
 * t3ssel8r's second-order dynamics ("Giving Personality to Procedural Animations using Math") for
 * n channels, with the state in a solver's memory:
 *     y + k1·y' + k2·y'' = x + k3·x',  k1 = ζ/(πf),  k2 = 1/(2πf)²,  k3 = r·ζ/(2πf).
 * Kernels: assembly/kernels/second-order.ts; JS backend and oracle: SecondOrderDynamicsReference
 * (src/reference/second-order.ts), which documents each method and its stability.
 */
import { SolverBase, type Solver } from '../api/solver.js';
import { input, out, type Kernel, type KernelName } from '../core/contract.js';
import type { Param } from '../core/types.js';
import { SecondOrderDynamicsReference, type SecondOrderMethod } from '../reference/second-order.js';
import { criticalTimestep, fzrToK } from '../plain/second-order-parameters.js';
import { checkOptions, checkOverlap, describe, isDetached, show } from '../core/validate.js';
import { checkDt } from '../core/dt.js';
import { MAX_SUBSTEPS } from '../core/limits.js';
import { OwnedArrays } from './owned-arrays.js';

export type { SecondOrderMethod } from '../reference/second-order.js';

/**
 * @group Second-order
 */
export interface SecondOrderDynamicsOptions {
  /** The integration method; default 'pole-zero'. */
  method?: SecondOrderMethod;
}

/** Coefficients per channel of the widest method ('exact': k3, C, xv, D, vx, vv, I). */
const COEFFICIENT_PLANES = 7;

const WASM_KERNELS: Record<SecondOrderMethod, KernelName> = {
  'euler-substep': 'secondOrderEulerSubstep',
  clamped: 'secondOrderClamped',
  'pole-zero': 'secondOrderPoleZero',
  exact: 'secondOrderExact',
};

/**
 * A batch of n independent second-order systems (n = x0.length), following input x with output y.
 *
 * Methods (t3ssel8r's, see the reference for details): 'euler-substep' (semi-implicit Euler in
 * ceil(dt/Tcrit) equal substeps), 'clamped' (one step with k2 clamped for stability), 'pole-zero'
 * (one step with k1, k2 chosen so the discrete poles match the continuous ones; the default) and
 * 'exact' (the closed-form response to the input linearly interpolated over the step).
 *
 * Solver memory: 3n floats of state, n per per-element parameter and, on the wasm backends when
 * a parameter is per element, 7n floats of coefficients (kept while dt and the method stay).
 * `dispose()` returns it.
 * @example
 * ```ts
 * import { createSolver, SecondOrderDynamics } from 'spring-solver';
 * const solver = await createSolver();
 * const x = solver.alloc(3).fill(1); // the input signal, 3 channels
 * // f = 2 Hz, ζ = 0.5, r = 2 (anticipation), starting at rest on 0
 * const dynamics = new SecondOrderDynamics(solver, 2, 0.5, 2, solver.alloc(3));
 * const y = dynamics.update(1 / 60, x); // dt 1/60 s; the response
 * ```
 * @group Second-order
 */
export class SecondOrderDynamics {
  readonly n: number;
  /**
   * The state, in the solver's memory: the last input, the output and its velocity. Initially
   * xPrev = y = x0, yd = 0. They may be written between updates (to reset a channel).
   */
  readonly xPrev: Float32Array;
  readonly y: Float32Array;
  readonly yd: Float32Array;
  private readonly solver: SolverBase;
  /** Uniform numbers rounded to float32, or per-element copies in solver memory. */
  private readonly params: [f: Param, zeta: Param, r: Param];
  private readonly kernels: Record<SecondOrderMethod, Kernel>;
  /**
   * Per-element parameters on a wasm backend: the float32 coefficient planes of the last method
   * and dt (see assembly/kernels/second-order.ts), recomputed only when one of them changes.
   */
  private readonly planes: Float32Array[] | null;
  private prepared: { dt: number; method: SecondOrderMethod } | null = null;
  /** The smallest critical timestep of any channel: 'euler-substep' takes ceil(dt/Tcrit) substeps. */
  private readonly minTCrit: number;
  private readonly owned: OwnedArrays;
  private currentMethod: SecondOrderMethod;
  /** The JS backend's float64 stepper, created on its first update. */
  private reference: SecondOrderDynamicsReference | null = null;
  private disposed = false;

  /**
   * @param solver the solver whose memory holds the state and which runs the kernels
   * @param f      natural frequency in Hz (finite, > 0; f = 0 would make k2 infinite), per channel or uniform
   * @param zeta   damping ratio ζ (finite, ≥ 0)
   * @param r      initial response (finite; r > 1 overshoots, r < 0 anticipates)
   * @param x0     initial input and output per channel (its length is n)
   * @example
   * ```ts
   * import { createSolver, SecondOrderDynamics } from 'spring-solver';
   * const solver = await createSolver();
   * const dynamics = new SecondOrderDynamics(solver, 1.5, 1, 0, solver.alloc(2), { method: 'exact' }); // f 1.5 Hz, ζ 1, r 0
   * ```
   */
  constructor(solver: Solver, f: Param, zeta: Param, r: Param, x0: Float32Array, options: SecondOrderDynamicsOptions = {}) {
    const where = 'SecondOrderDynamics';
    if (!(solver instanceof SolverBase)) throw new TypeError(`${where}: solver must be a Solver, got ${describe(solver)}`);
    solver.checkLive(where);
    if (!(x0 instanceof Float32Array)) throw new TypeError(`${where}: x0 must be a Float32Array, got ${describe(x0)}`);
    checkArray(solver, where, 'x0', x0);
    const n = x0.length;
    checkFloat32Param(where, 'f', f, n, 'positive');
    checkFloat32Param(where, 'zeta', zeta, n, 'nonNegative');
    checkFloat32Param(where, 'r', r, n, 'finite');
    for (const [name, p] of [
      ['f', f],
      ['zeta', zeta],
      ['r', r],
    ] as const)
      if (typeof p !== 'number') checkArray(solver, where, name, p as Float32Array);
    this.minTCrit = minCriticalTimestep(f, zeta, n);
    checkOptions(where, options, ['method']);
    this.currentMethod = checkMethod(where, 'options.method', options.method ?? 'pole-zero');
    this.solver = solver;
    this.n = n;
    this.owned = new OwnedArrays(solver);
    const alloc = () => this.owned.alloc(n);
    try {
      this.xPrev = alloc();
      this.y = alloc();
      this.yd = alloc();
      const copy = (p: Param): Param => {
        if (typeof p === 'number') return Math.fround(p);
        const array = alloc();
        array.set(p);
        return array;
      };
      this.params = [copy(f), copy(zeta), copy(r)];
      const perElement = this.params.some((p) => typeof p !== 'number');
      this.planes = perElement && solver.backend !== 'js' ? Array.from({ length: COEFFICIENT_PLANES }, alloc) : null;
    } catch (error) {
      this.owned.release();
      throw error;
    }
    this.xPrev.set(x0);
    this.y.set(x0);
    const kernel = (name: SecondOrderMethod): Kernel => ({
      wasm: WASM_KERNELS[name],
      js: (arrays, _params, [dt], count) => this.referenceStep(arrays, count, dt),
    });
    this.kernels = {
      'euler-substep': kernel('euler-substep'),
      clamped: kernel('clamped'),
      'pole-zero': kernel('pole-zero'),
      exact: kernel('exact'),
    };
  }

  /** The method used by `update`; may be changed between updates (the state carries over). */
  get method(): SecondOrderMethod {
    return this.currentMethod;
  }

  set method(value: SecondOrderMethod) {
    this.currentMethod = checkMethod('SecondOrderDynamics', 'method', value);
  }

  /**
   * Advances every channel by dt (s, finite, ≥ 0) with input x and, optionally, its velocity xd
   * (otherwise xd = (x − xPrev)/dt, t3ssel8r); then xPrev = x. dt = 0 changes nothing.
   * @returns `y`, the output: the same Float32Array (in solver memory) at every call, overwritten
   *          by the next update; copy it to keep it.
   * @example
   * ```ts
   * import type { SecondOrderDynamics } from 'spring-solver';
   * declare const dynamics: SecondOrderDynamics;
   * declare const x: Float32Array, xd: Float32Array; // the input and, if known, its velocity
   * const y = dynamics.update(1 / 60, x, xd); // dt 1/60 s
   * ```
   */
  update(dt: number, x: Float32Array, xd?: Float32Array): Float32Array {
    const where = 'SecondOrderDynamics.update';
    if (this.disposed) throw new TypeError(`${where}: this object has been disposed`);
    this.solver.checkLive(where);
    checkDt(this.solver, where, dt);
    this.checkInput(where, 'x', x);
    if (xd !== undefined) this.checkInput(where, 'xd', xd);
    checkOverlap(where, [
      { name: 'x', array: x },
      ...(xd === undefined ? [] : [{ name: 'xd', array: xd }]),
      { name: 'xPrev', array: this.xPrev, output: true },
      { name: 'y', array: this.y, output: true },
      { name: 'yd', array: this.yd, output: true },
    ]);
    checkArray(this.solver, where, 'x', x); // after the overlap check, which names both arrays
    if (xd !== undefined) checkArray(this.solver, where, 'xd', xd);
    if (dt === 0) return this.y;
    if (this.currentMethod === 'euler-substep' && !(dt / this.minTCrit <= MAX_SUBSTEPS)) {
      throw new RangeError(
        `${where}: dt is ${dt}, which needs ${Math.ceil(dt / this.minTCrit)} 'euler-substep' substeps (Tcrit = ${this.minTCrit} s); ` +
          `it must need at most ${MAX_SUBSTEPS} (use method 'exact' for long steps)`,
      );
    }
    const operands = [input(x), input(xd ?? null), out(this.xPrev), out(this.y), out(this.yd)];
    const planes = this.planes ?? Array<null>(COEFFICIENT_PLANES).fill(null);
    for (const plane of planes) operands.push(plane ? out(plane) : input(null));
    const current = this.currentMethod;
    const prepare = this.prepared?.dt !== dt || this.prepared.method !== current;
    this.prepared = null; // until the kernel has run
    this.solver.runKernel(this.kernels[current], this.n, operands, this.params, [dt, prepare ? 1 : 0]);
    this.prepared = { dt, method: current };
    return this.y;
  }

  /**
   * Returns the state to the solver; the arrays must not be used afterwards. Idempotent.
   * @example
   * ```ts
   * import type { SecondOrderDynamics } from 'spring-solver';
   * declare const dynamics: SecondOrderDynamics;
   * dynamics.dispose(); // frees its solver memory
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.owned.release();
  }

  private checkInput(where: string, name: string, array: unknown): void {
    if (!(array instanceof Float32Array)) throw new TypeError(`${where}: ${name} must be a Float32Array, got ${describe(array)}`);
    if (array.length !== this.n)
      throw new RangeError(`${where}: ${name} has length ${array.length}, expected ${this.n} (one value per channel)`);
  }

  /** The JS backend: one float64 reference update on the float32 state. */
  private referenceStep(arrays: (Float32Array | null)[], n: number, dt: number): void {
    const [x, xd, xPrev, y, yd] = arrays as [Float32Array, Float32Array | null, Float32Array, Float32Array, Float32Array];
    const [f, zeta, r] = this.params;
    this.reference ??= new SecondOrderDynamicsReference(n, f, zeta, r, xPrev);
    const reference = this.reference;
    reference.xPrev.set(xPrev);
    reference.y.set(y);
    reference.yd.set(yd);
    reference.update(dt, x, xd ?? undefined, this.currentMethod);
    xPrev.set(reference.xPrev);
    y.set(reference.y);
    yd.set(reference.yd);
  }
}

/** Rejects a detached array, or one the solver freed, with a TypeError naming it. */
function checkArray(solver: SolverBase, where: string, name: string, array: Float32Array): void {
  if (isDetached(array))
    throw new TypeError(`${where}: ${name} is a Float32Array whose buffer is detached (transferred); it must be a usable array`);
  solver.checkUsable(where, name, array);
}

/** The smallest critical timestep over the channels (float32 parameters, as the kernels read them). */
function minCriticalTimestep(f: Param, zeta: Param, n: number): number {
  const at = (p: Param, i: number) => Math.fround(typeof p === 'number' ? p : p[i]);
  let min = Infinity;
  for (let i = 0; i < (typeof f === 'number' && typeof zeta === 'number' ? Math.min(n, 1) : n); i++) {
    const { k1, k2 } = fzrToK(at(f, i), at(zeta, i), 0);
    min = Math.min(min, criticalTimestep(k1, k2));
  }
  return min;
}

function checkMethod(where: string, name: string, value: unknown): SecondOrderMethod {
  if (typeof value !== 'string') throw new TypeError(`${where}: ${name} must be a string, got ${describe(value)}`);
  if (!Object.hasOwn(WASM_KERNELS, value)) {
    throw new RangeError(`${where}: ${name} is '${value}'; it must be one of ${Object.keys(WASM_KERNELS).join(', ')}`);
  }
  return value as SecondOrderMethod;
}

/**
 * A number, or a Float32Array with one value per channel, that is finite and > 0, ≥ 0 or of any
 * sign. A number must keep its rule once rounded to float32 (the kernels read float32), so e.g.
 * f = 1e-50 (0 in float32) is rejected.
 */
function checkFloat32Param(where: string, name: string, value: unknown, n: number, rule: 'positive' | 'nonNegative' | 'finite'): void {
  const text = rule === 'finite' ? 'finite' : rule === 'positive' ? 'finite and > 0' : 'finite and ≥ 0 (+0, not −0)';
  const ok = (v: number) => Number.isFinite(v) && (rule === 'finite' || (rule === 'positive' ? v > 0 : v > 0 || Object.is(v, 0))); // −0 rejected as in validate.ts
  if (typeof value === 'number') {
    if (!ok(value)) throw new RangeError(`${where}: ${name} is ${show(value)}; it must be ${text}`);
    const rounded = Math.fround(value);
    if (!ok(rounded)) throw new RangeError(`${where}: ${name} is ${value}, ${rounded} in float32; it must be ${text}`);
    return;
  }
  if (!(value instanceof Float32Array)) throw new TypeError(`${where}: ${name} must be a number or a Float32Array, got ${describe(value)}`);
  if (value.length !== n) throw new RangeError(`${where}: ${name} has length ${value.length}, expected ${n} (one value per channel)`);
  const bad = value.findIndex((v) => !ok(v));
  if (bad >= 0) throw new RangeError(`${where}: ${name}[${bad}] is ${show(value[bad])}; it must be ${text}`);
}
