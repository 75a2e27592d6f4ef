/**
 * The Solver API and the checks every backend shares. A backend implements the `run*` kernels
 * (called only with validated arguments), memory management and the parameter scan.
 */
import { SpringMode, type Backend, type Param } from '../core/types.js';
import { checkArrays, checkNumber, checkOverlap, checkParam, type ArrayArg, type OverlapArg, type ParamRule } from '../core/validate.js';
import type { Kernel, KernelHost, Operand, ParamSpec } from '../core/contract.js';
import { families, type FamilyMethods } from '../methods/families.js';

/**
 * A batch solver. Every state array is a Float32Array updated in place; element i of every
 * array (and of every per-element parameter) is one independent spring, so a vec3 is three elements.
 * Units: seconds, Hz, 1/s (damping), 1/s² (stiffness).
 */
export interface Solver {
  /** The implementation running the kernels. */
  readonly backend: Backend;
  /**
   * Why createSolver() runs a slower backend than this engine supports: which wasm build failed to
   * load, from where, and the error (an HTTP status, a missing file, a Content-Security-Policy).
   * Null when the best supported backend loaded, or when the backend was forced.
   */
  readonly fallbackReason: string | null;
  /**
   * A zeroed Float32Array of `length` floats living in the solver's memory: passed back to the
   * solver it is used in place, with no copy. It stays valid for the solver's life (memory never
   * grows); when capacity runs out this throws a RangeError (see `memoryBytes`).
   */
  alloc(length: number): Float32Array;
  /**
   * Returns an array from {@link Solver.alloc} to the solver. Do not use it afterwards: its
   * memory may be handed out again by a later alloc (this is not detected).
   */
  free(array: Float32Array): void;
  /** Releases the solver; any later call throws a TypeError. */
  dispose(): void;
  /** Exact damper (Holden): `x ← g + (x − g)·exp(−ln2·dt / halflife)`. */
  damper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void;
  /** Holden's spring_damper_exact: `x'' = s·(g − x) + d·(q − v)`, s = (2π·frequency)², d = 4·ln2/halflife; any regime. */
  springDamper(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, frequency: Param, halflife: Param, dt: number): void;
  /** The same spring given stiffness s (1/s²) and damping d (1/s). s = 0 is exact (v relaxes to q, x integrates v). */
  springDamperStiffness(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, stiffness: Param, damping: Param, dt: number): void;
  /** The same spring given damping ratio ζ > 0 and halflife: d = 4·ln2/halflife, s = (d / 2ζ)². */
  springDamperRatio(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, dampingRatio: Param, halflife: Param, dt: number): void;
  /** Holden's critical_spring_damper_exact: s = d²/4. */
  criticalSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, halflife: Param, dt: number): void;
  /** Holden's simple_spring_damper_exact: critical, goal velocity 0. */
  simpleSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, halflife: Param, dt: number): void;
  /** Holden's decay_spring_damper_exact: critical, goal 0, goal velocity 0. */
  decaySpringDamper(x: Float32Array, v: Float32Array, halflife: Param, dt: number): void;
}

export abstract class SolverBase implements Solver, KernelHost {
  abstract readonly backend: Backend;
  /** Set by createSolver() when it falls back (src/api/fallback.ts). */
  fallbackReason: string | null = null;
  private disposed = false;

  abstract alloc(length: number): Float32Array;
  abstract free(array: Float32Array): void;

  dispose(): void {
    this.disposed = true;
  }

  /**
   * True after dispose() (objects holding solver memory skip freeing it then).
   * @internal
   */
  isDisposed(): boolean {
    return this.disposed;
  }

  /** Index of the first element breaking `rule`, or −1. */
  protected abstract firstInvalid(array: Float32Array, rule: ParamRule): number;
  protected abstract runDamper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void;
  protected abstract runSpring(
    mode: SpringMode, x: Float32Array, v: Float32Array, g: Float32Array | null, q: Float32Array | null,
    p0: Param, p1: Param, dt: number,
  ): void;

  /**
   * Runs a generic kernel on validated arguments (see {@link Kernel}).
   * @internal
   */
  abstract runKernel(kernel: Kernel, n: number, operands: Operand[], params: Param[], scalars: number[]): void;

  /**
   * Throws a TypeError naming `method` and `name` when `array` was freed by this solver (or, on
   * the wasm backends, is a view of solver memory outside every live alloc() array). An identity
   * check in the common case (docs/DECISIONS.md).
   * @internal
   */
  abstract checkUsable(method: string, name: string, array: Float32Array): void;

  /** @internal */
  checkLive(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this solver has been disposed`);
  }

  /**
   * Checks a call: not disposed, arrays, parameters, overlaps, dt. Returns the parameters, with
   * uniform numbers rounded to float32 when another parameter is per-element (they then travel
   * with the per-element values, so every backend sees the same float32 value), or always when
   * `roundUniform` is set (generic kernels carry uniform parameters as float32 broadcast values,
   * so the reference must see the same value).
   * @internal
   */
  checkCall(method: string, arrays: ArrayArg[], params: ParamSpec[], dt: unknown, roundUniform = false): Param[] {
    this.checkLive(method);
    const n = checkArrays(method, arrays);
    const scan = (array: Float32Array, rule: ParamRule) => this.firstInvalid(array, rule);
    for (const [name, value, rule] of params) checkParam(method, name, value, n, rule, scan);
    const paramArrays = params
      .filter(([, value]) => typeof value !== 'number')
      .map(([name, value]) => ({ name, array: value as Float32Array }));
    for (const { name, array } of arrays) this.checkUsable(method, name, array as Float32Array);
    for (const { name, array } of paramArrays) this.checkUsable(method, name, array);
    checkOverlap(method, [...(arrays as OverlapArg[]), ...paramArrays]);
    checkNumber(method, 'dt', dt, 'nonNegative');
    if (!(roundUniform || paramArrays.length > 0)) return params.map(([, value]) => value);
    // checkParam made sure a number keeps its rule rounded to float32.
    return params.map(([, value]) => (typeof value === 'number' ? Math.fround(value) : value));
  }

  damper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
    const [h] = this.checkCall('damper', [{ name: 'x', array: x, output: true }, { name: 'g', array: g, aliases: ['x'] }], [['halflife', halflife, 'nonNegative']], dt);
    this.runDamper(x, g, h, dt);
  }

  springDamper(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, frequency: Param, halflife: Param, dt: number): void {
    this.spring('springDamper', SpringMode.FrequencyHalflife, x, v, { g, q }, ['frequency', frequency, 'nonNegative'], ['halflife', halflife, 'nonNegative'], dt);
  }

  springDamperStiffness(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, stiffness: Param, damping: Param, dt: number): void {
    this.spring('springDamperStiffness', SpringMode.StiffnessDamping, x, v, { g, q }, ['stiffness', stiffness, 'nonNegative'], ['damping', damping, 'nonNegative'], dt);
  }

  springDamperRatio(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, dampingRatio: Param, halflife: Param, dt: number): void {
    this.spring('springDamperRatio', SpringMode.RatioHalflife, x, v, { g, q }, ['dampingRatio', dampingRatio, 'positive'], ['halflife', halflife, 'nonNegative'], dt);
  }

  criticalSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, halflife: Param, dt: number): void {
    this.spring('criticalSpringDamper', SpringMode.Critical, x, v, { g, q }, ['halflife', halflife, 'nonNegative'], null, dt);
  }

  simpleSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
    this.spring('simpleSpringDamper', SpringMode.Critical, x, v, { g }, ['halflife', halflife, 'nonNegative'], null, dt);
  }

  decaySpringDamper(x: Float32Array, v: Float32Array, halflife: Param, dt: number): void {
    this.spring('decaySpringDamper', SpringMode.Critical, x, v, {}, ['halflife', halflife, 'nonNegative'], null, dt);
  }

  /** `goals` holds the goal arrays this method takes (a key that is present must be a Float32Array). */
  private spring(
    method: string, mode: SpringMode, x: Float32Array, v: Float32Array, goals: { g?: Float32Array; q?: Float32Array },
    p0: ParamSpec, p1: ParamSpec | null, dt: number,
  ): void {
    const arrays: ArrayArg[] = [{ name: 'x', array: x, output: true }, { name: 'v', array: v, output: true }];
    // Each element is read whole before it is written: a goal may be the very array x or v.
    if ('g' in goals) arrays.push({ name: 'g', array: goals.g, aliases: ['x', 'v'] });
    if ('q' in goals) arrays.push({ name: 'q', array: goals.q, aliases: ['x', 'v'] });
    const [a, b = 0] = this.checkCall(method, arrays, p1 ? [p0, p1] : [p0], dt);
    this.runSpring(mode, x, v, goals.g ?? null, goals.q ?? null, a, b, dt);
  }
}

// The families of methods beyond the core springs (src/methods/families.ts) are part of the
// Solver interface and of the class, by declaration merging and one Object.assign.
export interface Solver extends FamilyMethods {}
export interface SolverBase extends FamilyMethods {}
Object.assign(SolverBase.prototype, ...Object.values(families));
