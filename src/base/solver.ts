/**
 * The Solver API and the checks every backend shares. A backend implements the `run*` kernels
 * (called only with validated arguments), memory management and the parameter scan.
 */
import { SpringMode, type Backend, type Param } from '../core/types.js';
import { checkArrays, checkOverlap, checkParam, type ArrayArg, type OverlapArg, type ParamRule } from '../core/validate.js';
import { checkDt, LARGE_DT } from '../core/dt.js';
import type { Kernel, KernelHost, Operand, ParamSpec } from '../core/contract.js';
import { families, type FamilyMethods } from '../methods/families.js';
import { disjoint, mayRead, validDt, validValue } from '../core/quick-check.js';
import {
  DT_INDEX,
  prepareCall,
  type ArityFits,
  type DtIndexFits,
  type MethodsToPrepare,
  type PreparableMethod,
  type PrepareArgs,
  type PrepareOptions,
  type PreparedCall,
  type PreparedRun,
} from './prepare.js';

/**
 * A batch solver. Every state array is a Float32Array updated in place; element i of every
 * array (and of every per-element parameter) is one independent spring, so a vec3 is three elements.
 * Units: seconds, Hz, 1/s (damping), 1/s² (stiffness).
 * @group Setup
 */
export interface Solver {
  /**
   * The implementation running the kernels.
   * @group Setup
   */
  readonly backend: Backend;
  /**
   * Why createSolver() runs a slower backend than this engine supports: which wasm build failed to
   * load, from where, and the error (an HTTP status, a missing file, a Content-Security-Policy).
   * Null when the best supported backend loaded, or when the backend was forced.
   * @group Setup
   */
  readonly fallbackReason: string | null;
  /**
   * How many threads run a large call: 1 unless createSolver({ threads }) asked for more and they
   * started (the calling thread and its workers).
   * @group Setup
   */
  readonly threads: number;
  /**
   * Why fewer threads run than createSolver({ threads }) asked for: no SharedArrayBuffer (a page
   * that is not cross-origin isolated), a worker that failed to start, a backend other than SIMD.
   * Null when they all run, or when one thread was asked for.
   * @group Setup
   */
  readonly threadsReason: string | null;
  /**
   * A zeroed Float32Array of `length` floats living in the solver's memory: passed back to the
   * solver it is used in place, with no copy. It stays valid for the solver's life (memory never
   * grows); when capacity runs out this throws a RangeError (see `memoryBytes`).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const x = solver.alloc(3 * 1000); // 1,000 vec3, zeroed, used in place by every call
   * ```
   * @group Memory
   */
  alloc(length: number): Float32Array;
  /**
   * Returns an array from {@link Solver.alloc} to the solver. Do not use it afterwards: its
   * memory may be handed out again by a later alloc (this is not detected).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const scratch = solver.alloc(64);
   * solver.free(scratch); // its memory may be handed out again: do not use it afterwards
   * ```
   * @group Memory
   */
  free(array: Float32Array): void;
  /**
   * Releases the solver; any later call throws a TypeError.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * solver.dispose(); // every later call throws a TypeError
   * ```
   * @group Memory
   */
  dispose(): void;
  /**
   * Exact damper (Holden): `x ← g + (x − g)·exp(−ln2·dt / halflife)`.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, g] = [solver.alloc(3), solver.alloc(3).fill(1)];
   * solver.damper(x, g, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
   * ```
   * @group Core springs
   */
  damper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void;
  /**
   * Holden's spring_damper_exact: `x'' = s·(g − x) + d·(q − v)`, s = (2π·frequency)², d = 4·ln2/halflife; any regime.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, g, q] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.springDamper(x, v, g, q, 2, 0.3, 1 / 60); // frequency 2 Hz, halflife 0.3 s, dt 1/60 s
   * ```
   * @group Core springs
   */
  springDamper(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, frequency: Param, halflife: Param, dt: number): void;
  /**
   * The same spring given stiffness s (1/s²) and damping d (1/s). s = 0 is exact (v relaxes to q, x integrates v).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, g, q] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.springDamperStiffness(x, v, g, q, 100, 10, 1 / 60); // stiffness 100 1/s², damping 10 1/s, dt 1/60 s
   * ```
   * @group Core springs
   */
  springDamperStiffness(
    x: Float32Array,
    v: Float32Array,
    g: Float32Array,
    q: Float32Array,
    stiffness: Param,
    damping: Param,
    dt: number,
  ): void;
  /**
   * The same spring given damping ratio ζ > 0 and halflife: d = 4·ln2/halflife, s = (d / 2ζ)².
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, g, q] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.springDamperRatio(x, v, g, q, 0.5, 0.2, 1 / 60); // damping ratio 0.5, halflife 0.2 s, dt 1/60 s
   * ```
   * @group Core springs
   */
  springDamperRatio(
    x: Float32Array,
    v: Float32Array,
    g: Float32Array,
    q: Float32Array,
    dampingRatio: Param,
    halflife: Param,
    dt: number,
  ): void;
  /**
   * Holden's critical_spring_damper_exact: s = d²/4.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, g, q] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.criticalSpringDamper(x, v, g, q, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
   * ```
   * @group Core springs
   */
  criticalSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, halflife: Param, dt: number): void;
  /**
   * Holden's simple_spring_damper_exact: critical, goal velocity 0.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, g] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1)];
   * const halflife = solver.alloc(3).fill(0.1); // one halflife per element (s), or one number for all
   * solver.simpleSpringDamper(x, v, g, halflife, 1 / 60); // dt 1/60 s
   * ```
   * @group Core springs
   */
  simpleSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, halflife: Param, dt: number): void;
  /**
   * Holden's decay_spring_damper_exact: critical, goal 0, goal velocity 0.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v] = [solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.decaySpringDamper(x, v, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s; toward 0
   * ```
   * @group Core springs
   */
  decaySpringDamper(x: Float32Array, v: Float32Array, halflife: Param, dt: number): void;
  /**
   * Prepares repeated calls of `method` with these arguments (the method's own, without `dt`),
   * checked once here: returns `step(dt)`, which runs the method with no per-call allocation and
   * no check but dt and liveness. State and goal arrays are read live at every step; per-element
   * parameter arrays are copied here and at `step.refresh()`, so changing them has no effect
   * until refresh (which checks them again). `step.dispose()` releases the copies. With
   * `{ method, itemSize: k }` a per-element parameter of a core spring holds one value per item
   * of k consecutive elements (3 for a vec3). See docs/DECISIONS.md (prepared calls).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, g, q] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * const step = solver.prepare('criticalSpringDamper', x, v, g, q, 0.1); // halflife 0.1 s; arguments without dt
   * step(1 / 60); // every frame: dt in s, no allocation, no check but dt
   * step.dispose();
   * ```
   * @group Prepared calls
   */
  prepare<M extends PreparableMethod>(method: M | PrepareOptions<M>, ...args: PrepareArgs<Solver, M>): PreparedCall<Solver, M>;
}

export abstract class SolverBase implements Solver, KernelHost {
  abstract readonly backend: Backend;
  /** Set by createSolver() when it falls back (src/api/fallback.ts). */
  fallbackReason: string | null = null;
  /** Set by createSolver() when fewer threads run than asked for (src/api/threads.ts). */
  threadsReason: string | null = null;
  /** One, except on a threaded wasm solver. */
  get threads(): number {
    return 1;
  }
  /**
   * True until this solver has warned of a dt that looks like milliseconds (≥ 1 s), or when
   * createSolver({ warnLargeDt: false }) silenced it (src/core/dt.ts).
   * @internal
   */
  largeDtWarningDue = true;
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
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    p0: Param,
    p1: Param,
    dt: number,
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

  /**
   * How many arrays free() has returned so far: a prepared call checks its arrays again only
   * when this has changed since its last step (src/base/prepare.ts).
   * @internal
   */
  frees = 0;

  /** checkUsable as a test, for the quick paths (false: let the full checks name the fault). @internal */
  abstract isUsable(array: Float32Array): boolean;

  /** @internal */
  checkLive(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this solver has been disposed`);
  }

  /**
   * Checks a call: not disposed, arrays, parameters, overlaps, dt (and warns once per solver of a
   * dt ≥ 1 s, src/core/dt.ts). Returns the parameters, with
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
    checkDt(this, method, dt);
    if (!(roundUniform || paramArrays.length > 0)) return params.map(([, value]) => value);
    // checkParam made sure a number keeps its rule rounded to float32.
    return params.map(([, value]) => (typeof value === 'number' ? Math.fround(value) : value));
  }

  damper(x: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
    if (this.quickDamper(x, g, halflife, dt)) return;
    const [h] = this.checkCall(
      'damper',
      [
        { name: 'x', array: x, output: true },
        { name: 'g', array: g, aliases: ['x'] },
      ],
      [['halflife', halflife, 'nonNegative']],
      dt,
    );
    this.runDamper(x, g, h, dt);
  }

  springDamper(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, frequency: Param, halflife: Param, dt: number): void {
    if (this.quickSpring(SpringMode.FrequencyHalflife, x, v, g, q, 2, frequency, halflife, 2, false, dt)) return;
    this.spring(
      'springDamper',
      SpringMode.FrequencyHalflife,
      x,
      v,
      { g, q },
      ['frequency', frequency, 'nonNegative'],
      ['halflife', halflife, 'nonNegative'],
      dt,
    );
  }

  springDamperStiffness(
    x: Float32Array,
    v: Float32Array,
    g: Float32Array,
    q: Float32Array,
    stiffness: Param,
    damping: Param,
    dt: number,
  ): void {
    if (this.quickSpring(SpringMode.StiffnessDamping, x, v, g, q, 2, stiffness, damping, 2, false, dt)) return;
    this.spring(
      'springDamperStiffness',
      SpringMode.StiffnessDamping,
      x,
      v,
      { g, q },
      ['stiffness', stiffness, 'nonNegative'],
      ['damping', damping, 'nonNegative'],
      dt,
    );
  }

  springDamperRatio(
    x: Float32Array,
    v: Float32Array,
    g: Float32Array,
    q: Float32Array,
    dampingRatio: Param,
    halflife: Param,
    dt: number,
  ): void {
    if (this.quickSpring(SpringMode.RatioHalflife, x, v, g, q, 2, dampingRatio, halflife, 2, true, dt)) return;
    this.spring(
      'springDamperRatio',
      SpringMode.RatioHalflife,
      x,
      v,
      { g, q },
      ['dampingRatio', dampingRatio, 'positive'],
      ['halflife', halflife, 'nonNegative'],
      dt,
    );
  }

  criticalSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, q: Float32Array, halflife: Param, dt: number): void {
    if (this.quickSpring(SpringMode.Critical, x, v, g, q, 2, halflife, 0, 1, false, dt)) return;
    this.spring('criticalSpringDamper', SpringMode.Critical, x, v, { g, q }, ['halflife', halflife, 'nonNegative'], null, dt);
  }

  simpleSpringDamper(x: Float32Array, v: Float32Array, g: Float32Array, halflife: Param, dt: number): void {
    if (this.quickSpring(SpringMode.Critical, x, v, g, null, 1, halflife, 0, 1, false, dt)) return;
    this.spring('simpleSpringDamper', SpringMode.Critical, x, v, { g }, ['halflife', halflife, 'nonNegative'], null, dt);
  }

  decaySpringDamper(x: Float32Array, v: Float32Array, halflife: Param, dt: number): void {
    if (this.quickSpring(SpringMode.Critical, x, v, null, null, 0, halflife, 0, 1, false, dt)) return;
    this.spring('decaySpringDamper', SpringMode.Critical, x, v, {}, ['halflife', halflife, 'nonNegative'], null, dt);
  }

  /**
   * The prepared form of a method (see {@link Solver.prepare}).
   */
  prepare<M extends PreparableMethod>(method: M | PrepareOptions<M>, ...args: PrepareArgs<Solver, M>): PreparedCall<Solver, M> {
    return prepareCall(this, method, args) as unknown as PreparedCall<Solver, M>;
  }

  /**
   * The prepared form of a core spring, on checked arguments (a, b: parameter copies, or numbers).
   * Here: the ordinary kernel at every step; a backend may keep coefficients.
   * @internal
   */
  preparedSpring(
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    a: Param,
    b: Param,
  ): PreparedRun {
    return { run: (dt) => this.runSpring(mode, x, v, g, q, a, b, dt), dispose() {} };
  }

  /** The prepared damper, on checked arguments. @internal */
  preparedDamper(x: Float32Array, g: Float32Array, h: Param): PreparedRun {
    return { run: (dt) => this.runDamper(x, g, h, dt), dispose() {} };
  }

  /** A captured kernel call, replayed with scalars[0] = dt when `hasDt`. @internal */
  preparedKernel(kernel: Kernel, n: number, operands: Operand[], params: Param[], scalars: number[], hasDt: boolean): PreparedRun {
    return {
      run: (dt) => {
        if (hasDt) scalars[0] = dt;
        this.runKernel(kernel, n, operands, params, scalars);
      },
      dispose() {},
    };
  }

  /**
   * The ordinary calls' quick path for the core springs: when every argument passes the
   * allocation-free tests (quick-check.ts), runs the spring and returns true; otherwise returns
   * false and the full checks run (and name the fault). `goals`: how many of g, q the method
   * takes (2, 1: g only, 0); `params`: how many of p0, p1 (a missing one is passed as 0).
   */
  private quickSpring(
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    goals: number,
    p0: Param,
    p1: Param,
    params: number,
    positive0: boolean,
    dt: unknown,
  ): boolean {
    // A dt ≥ 1 s while the warning is due goes through checkCall, which warns (src/core/dt.ts).
    if (this.disposed || !validDt(dt) || (dt >= LARGE_DT && this.largeDtWarningDue)) return false;
    if (!(x instanceof Float32Array) || !(v instanceof Float32Array)) return false;
    const n = x.length;
    if (v.length !== n || n === 0) return false;
    if (goals > 0 && !(g instanceof Float32Array && g.length === n)) return false;
    if (goals > 1 && !(q instanceof Float32Array && q.length === n)) return false;
    const perElement = typeof p0 !== 'number' || (params > 1 && typeof p1 !== 'number');
    const a = quickShape(p0, n, positive0, perElement);
    if (a === null) return false;
    const b = params > 1 ? quickShape(p1, n, false, perElement) : 0;
    if (b === null) return false;
    return this.quickRun(mode, x, v, goals > 0 ? g : null, goals > 1 ? q : null, a, b, positive0, dt);
  }

  /**
   * The rest of the quick path, on arrays of one length n > 0 and parameters of the right shape:
   * overlaps, the per-element parameters' values, then the run. A backend may do it with fewer
   * property reads (the wasm one compares byte offsets in its memory).
   * @internal
   */
  quickRun(
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    a: Param,
    b: Param,
    positive0: boolean,
    dt: number,
  ): boolean {
    if (!disjoint(x, v) || !this.isUsable(x) || !this.isUsable(v)) return false;
    if (g !== null && !(mayRead(x, g) && mayRead(v, g) && this.isUsable(g))) return false;
    if (q !== null && !(mayRead(x, q) && mayRead(v, q) && this.isUsable(q))) return false;
    // A per-element parameter may not share memory with an output at all (validate.ts).
    if (
      typeof a !== 'number' &&
      !(disjoint(x, a) && disjoint(v, a) && this.isUsable(a) && this.firstInvalid(a, positive0 ? 'positive' : 'nonNegative') < 0)
    )
      return false;
    if (typeof b !== 'number' && !(disjoint(x, b) && disjoint(v, b) && this.isUsable(b) && this.firstInvalid(b, 'nonNegative') < 0))
      return false;
    this.runSpring(mode, x, v, g, q, a, b, dt);
    return true;
  }

  private quickDamper(x: Float32Array, g: Float32Array, halflife: Param, dt: unknown): boolean {
    if (
      this.disposed ||
      !validDt(dt) ||
      (dt >= LARGE_DT && this.largeDtWarningDue) ||
      !(x instanceof Float32Array) ||
      x.length === 0 || // a detached array has length 0: the full checks name it
      !this.quickInput(x, x, g) ||
      !this.isUsable(x) ||
      !this.isUsable(g)
    ) {
      return false;
    }
    const h = quickShape(halflife, x.length, false, false);
    if (h === null || (typeof h !== 'number' && !(disjoint(x, h) && this.isUsable(h) && this.firstInvalid(h, 'nonNegative') < 0)))
      return false;
    this.runDamper(x, g, h, dt);
    return true;
  }

  /** An input array of the quick path: a Float32Array as long as x, readable next to x and v. */
  private quickInput(x: Float32Array, v: Float32Array, a: unknown): a is Float32Array {
    return a instanceof Float32Array && a.length === x.length && mayRead(x, a) && mayRead(v, a);
  }

  /** `goals` holds the goal arrays this method takes (a key that is present must be a Float32Array). */
  private spring(
    method: string,
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    goals: { g?: Float32Array; q?: Float32Array },
    p0: ParamSpec,
    p1: ParamSpec | null,
    dt: number,
  ): void {
    const arrays: ArrayArg[] = [
      { name: 'x', array: x, output: true },
      { name: 'v', array: v, output: true },
    ];
    // Each element is read whole before it is written: a goal may be the very array x or v.
    if ('g' in goals) arrays.push({ name: 'g', array: goals.g, aliases: ['x', 'v'] });
    if ('q' in goals) arrays.push({ name: 'q', array: goals.q, aliases: ['x', 'v'] });
    const [a, b = 0] = this.checkCall(method, arrays, p1 ? [p0, p1] : [p0], dt);
    this.runSpring(mode, x, v, goals.g ?? null, goals.q ?? null, a, b, dt);
  }
}

/**
 * A parameter of the quick path: a valid number (rounded to float32 when `round`), or a
 * Float32Array of n values (their values are checked later); null otherwise.
 */
function quickShape(p: unknown, n: number, positive: boolean, round: boolean): Param | null {
  if (typeof p === 'number') return validValue(p, positive) ? (round ? Math.fround(p) : p) : null;
  return p instanceof Float32Array && p.length === n ? p : null;
}

// The families of methods beyond the core springs (src/methods/families.ts) are part of the
// Solver interface and of the class, by declaration merging and one Object.assign.
export interface Solver extends FamilyMethods {}
export interface SolverBase extends FamilyMethods {}
Object.assign(SolverBase.prototype, ...Object.values(families));

// prepare.ts's DT_INDEX lists every method of the Solver, each with the index of its dt.
const everyMethodListed: Record<MethodsToPrepare<Solver>, number | null> = DT_INDEX;
const dtIndexFits: [DtIndexFits<Solver>] extends [never] ? true : DtIndexFits<Solver> = true;
// and ARITY the number of arguments of each.
const arityFits: [ArityFits<Solver>] extends [never] ? true : ArityFits<Solver> = true;
void everyMethodListed;
void dtIndexFits;
void arityFits;
