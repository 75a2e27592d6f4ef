/**
 * Prepared calls: `solver.prepare(method, ...args)` checks a method's arguments once and returns
 * `step(dt)`, which runs the method again and again with no per-call allocation and no check but
 * dt and liveness (docs/DECISIONS.md, "Prepared calls").
 *
 * Semantics: state and goal arrays are read live at every step. Per-element parameter arrays are
 * copied (into the solver's memory) at prepare and at `step.refresh()`; changing the originals
 * has no effect until refresh, which checks them again. So coefficients a backend keeps between
 * steps (while dt stays the same) can never be stale without the caller knowing.
 *
 * The core springs and the damper have their own prepared form (each backend's
 * `preparedSpring` / `preparedDamper`); every other method is captured: it is run twice with
 * two values of dt and a host that records its kernel call instead of running it; when both
 * records are one kernel call that differ only in the dt scalar, the step replays that call
 * (`preparedKernel`). A method that is not one kernel call (substep) runs as itself at every step.
 */
import { SpringMode, type Param } from '../core/types.js';
import type { Kernel, Operand, ParamSpec } from '../core/contract.js';
import { checkNumber, checkOptions, describe, firstInvalidJs, type ArrayArg, type ParamRule } from '../core/validate.js';
import { validDt } from '../core/quick-check.js';
import { checkDt, LARGE_DT } from '../core/dt.js';

/** What prepareCall needs of a solver (SolverBase): a leaf interface, so this module imports no solver. @internal */
export interface PrepareHost {
  checkLive(method: string): void;
  isDisposed(): boolean;
  checkUsable(method: string, name: string, array: Float32Array): void;
  readonly frees: number;
  /** True until the solver has warned of a dt ≥ 1 s (src/core/dt.ts). */
  readonly largeDtWarningDue: boolean;
  checkCall(method: string, arrays: ArrayArg[], params: ParamSpec[], dt: unknown, roundUniform?: boolean): Param[];
  alloc(length: number): Float32Array;
  free(array: Float32Array): void;
  preparedSpring(
    mode: SpringMode,
    x: Float32Array,
    v: Float32Array,
    g: Float32Array | null,
    q: Float32Array | null,
    a: Param,
    b: Param,
  ): PreparedRun;
  preparedDamper(x: Float32Array, g: Float32Array, h: Param): PreparedRun;
  preparedKernel(kernel: Kernel, n: number, operands: Operand[], params: Param[], scalars: number[], hasDt: boolean): PreparedRun;
}
type SolverBase = PrepareHost;

/** Where each method takes dt (its index among the method's arguments), or null when it takes none. */
export const DT_INDEX = {
  damper: 3,
  springDamper: 6,
  springDamperStiffness: 6,
  springDamperRatio: 6,
  criticalSpringDamper: 5,
  simpleSpringDamper: 4,
  decaySpringDamper: 3,
  doubleSpringDamper: 6,
  timedSpringDamper: 6,
  velocitySpringDamper: 6,
  characterUpdate: 5,
  characterPredict: 8,
  inertializeTransition: null,
  inertializeUpdate: 7,
  extrapolate: 3,
  deadBlendingTransition: null,
  deadBlendingUpdate: 6,
  trackingSpringUpdate: 9,
  pdSpring: 6,
  pdSpringRigidBody: 6,
  substep: 0,
  quatSimpleSpringDamper: 4,
  quatDecaySpringDamper: 3,
  quatDamper: 3,
  quatInertializeTransition: null,
  quatInertializeUpdate: 7,
  quatMul: null,
  quatInv: null,
  quatAbs: null,
  quatNormalize: null,
  quatRotate: null,
  quatToScaledAngleAxis: null,
  quatFromScaledAngleAxis: null,
  quatSlerp: null,
} as const;

/**
 * How many arguments each method takes, dt included: [fewest, most] (the last ones may be left
 * out). prepare refuses any other count (src/base/solver.ts checks the table against the Solver).
 */
export const ARITY = {
  damper: [4, 4],
  springDamper: [7, 7],
  springDamperStiffness: [7, 7],
  springDamperRatio: [7, 7],
  criticalSpringDamper: [6, 6],
  simpleSpringDamper: [5, 5],
  decaySpringDamper: [4, 4],
  doubleSpringDamper: [7, 7],
  timedSpringDamper: [7, 8],
  velocitySpringDamper: [7, 8],
  characterUpdate: [6, 6],
  characterPredict: [10, 10],
  inertializeTransition: [6, 6],
  inertializeUpdate: [8, 8],
  extrapolate: [4, 4],
  deadBlendingTransition: [5, 5],
  deadBlendingUpdate: [7, 8],
  trackingSpringUpdate: [11, 11],
  pdSpring: [7, 8],
  pdSpringRigidBody: [7, 7],
  substep: [3, 3],
  quatSimpleSpringDamper: [5, 5],
  quatDecaySpringDamper: [4, 4],
  quatDamper: [4, 4],
  quatInertializeTransition: [6, 6],
  quatInertializeUpdate: [8, 8],
  quatMul: [3, 3],
  quatInv: [2, 2],
  quatAbs: [2, 2],
  quatNormalize: [2, 2],
  quatRotate: [3, 3],
  quatToScaledAngleAxis: [2, 2],
  quatFromScaledAngleAxis: [2, 2],
  quatSlerp: [4, 4],
} as const satisfies Record<keyof typeof DT_INDEX, readonly [number, number]>;

type DtTable = typeof DT_INDEX;
type Tuple<N extends number, T extends unknown[] = []> = T['length'] extends N ? T : Tuple<N, [...T, unknown]>;
/** The numbers lo … hi, as a union. */
type Between<Lo extends number, Hi extends number, T extends unknown[] = Tuple<Lo>> = T['length'] extends Hi
  ? Hi
  : T['length'] | Between<Lo, Hi, [...T, unknown]>;
/** never when ARITY gives each method of S its argument counts (else the names of the methods where it does not). */
export type ArityFits<S> = {
  [M in PreparableMethod]: M extends keyof S
    ? S[M] extends (...a: infer A) => unknown
      ? [A['length']] extends [Between<(typeof ARITY)[M][0], (typeof ARITY)[M][1]>]
        ? [Between<(typeof ARITY)[M][0], (typeof ARITY)[M][1]>] extends [A['length']]
          ? never
          : M
        : M
      : M
    : M;
}[PreparableMethod];
type Methods<S> = { [K in keyof S]: S[K] extends (...args: never[]) => unknown ? K : never }[keyof S];
/**
 * Every method of solver type S a prepared call can run (src/base/solver.ts checks they are DT_INDEX's keys).
 * @group Prepared calls
 */
export type PreparableMethod = keyof DtTable;
/** The methods of S that DT_INDEX must list. */
export type MethodsToPrepare<S> = Exclude<Methods<S>, 'alloc' | 'free' | 'dispose' | 'prepare'>;
/** true when dt is a number at every index DT_INDEX gives (else the names of the methods where it is not). */
export type DtIndexFits<S> = {
  [M in PreparableMethod]: M extends keyof S
    ? S[M] extends (...a: infer A) => unknown
      ? DtTable[M] extends number
        ? A[DtTable[M]] extends number
          ? never
          : M
        : never
      : M
    : M;
}[PreparableMethod];

type Fn<S, M> = M extends keyof S ? (S[M] extends (...a: never[]) => unknown ? S[M] : never) : never;

type Take<T extends unknown[], N extends number, Acc extends unknown[] = []> = Acc['length'] extends N
  ? Acc
  : T extends [infer H, ...infer R]
    ? Take<R, N, [...Acc, H]>
    : Acc;
type Drop<T extends unknown[], N extends number, C extends unknown[] = []> = C['length'] extends N
  ? T
  : T extends [unknown, ...infer R]
    ? Drop<R, N, [...C, unknown]>
    : [];
type Without<T extends unknown[], I> = I extends number ? [...Take<T, I>, ...(Drop<T, I> extends [unknown, ...infer R] ? R : [])] : T;

/**
 * The arguments of `prepare(method, …)`: the method's own, without dt.
 * @group Prepared calls
 */
export type PrepareArgs<S, M extends PreparableMethod> = Without<Parameters<Fn<S, M>>, DtTable[M]>;

/**
 * `prepare({ method, itemSize })`: per-element parameters of a core spring hold one value per item of itemSize elements.
 * @group Prepared calls
 */
export interface PrepareOptions<M extends PreparableMethod> {
  method: M;
  /** Elements per parameter value (3 for vec3, 4 for quaternions); 1 by default. Core springs and damper only. */
  itemSize?: number;
}

/**
 * A prepared call: `step(dt)` (or `step()` for a method without dt), `refresh()`, `dispose()`.
 * @group Prepared calls
 */
export interface PreparedCall<S, M extends PreparableMethod> {
  (...dt: DtTable[M] extends number ? [dt: number] : []): ReturnType<Fn<S, M>>;
  /**
   * Copies and checks the parameter arrays again; forgets kept coefficients. On a throw nothing changes.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, v, g] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1)];
   * const halflife = solver.alloc(3).fill(0.1); // s, one per element
   * const step = solver.prepare('simpleSpringDamper', x, v, g, halflife);
   * halflife.fill(0.3);
   * step.refresh(); // the prepared call copies the new halflives
   * step(1 / 60); // dt 1/60 s
   * ```
   */
  refresh(): void;
  /**
   * Releases the parameter copies and kept coefficients; a later step or refresh throws a TypeError.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [x, g] = [solver.alloc(3), solver.alloc(3).fill(1)];
   * const step = solver.prepare('damper', x, g, 0.1); // halflife 0.1 s
   * step(1 / 60);
   * step.dispose(); // releases its copies: a later step throws a TypeError
   * ```
   */
  dispose(): void;
}

/** What a backend runs at each step, and releases at dispose. @internal */
export interface PreparedRun {
  run(dt: number): unknown;
  dispose(): void;
}

interface CoreSpec {
  /** null: the damper. */
  mode: SpringMode | null;
  arrays: { name: string; output: boolean }[];
  params: [string, ParamRule][];
}

const state = (name: string) => ({ name, output: true });
const goal = (name: string) => ({ name, output: false });
const HALFLIFE: [string, ParamRule] = ['halflife', 'nonNegative'];
const SPRING_ARRAYS = [state('x'), state('v'), goal('g'), goal('q')];

const CORE: Partial<Record<PreparableMethod, CoreSpec>> = {
  damper: { mode: null, arrays: [state('x'), goal('g')], params: [HALFLIFE] },
  springDamper: { mode: SpringMode.FrequencyHalflife, arrays: SPRING_ARRAYS, params: [['frequency', 'nonNegative'], HALFLIFE] },
  springDamperStiffness: {
    mode: SpringMode.StiffnessDamping,
    arrays: SPRING_ARRAYS,
    params: [
      ['stiffness', 'nonNegative'],
      ['damping', 'nonNegative'],
    ],
  },
  springDamperRatio: { mode: SpringMode.RatioHalflife, arrays: SPRING_ARRAYS, params: [['dampingRatio', 'positive'], HALFLIFE] },
  criticalSpringDamper: { mode: SpringMode.Critical, arrays: SPRING_ARRAYS, params: [HALFLIFE] },
  simpleSpringDamper: { mode: SpringMode.Critical, arrays: [state('x'), state('v'), goal('g')], params: [HALFLIFE] },
  decaySpringDamper: { mode: SpringMode.Critical, arrays: [state('x'), state('v')], params: [HALFLIFE] },
};

/** The implementation of Solver.prepare. @internal */
export function prepareCall(solver: SolverBase, target: unknown, args: unknown[]): PreparedCall<unknown, PreparableMethod> {
  solver.checkLive('prepare');
  let method: unknown = target;
  let itemSize = 1;
  if (typeof target === 'object' && target !== null) {
    checkOptions('prepare', target, ['method', 'itemSize']);
    method = (target as PrepareOptions<PreparableMethod>).method;
    const size = (target as PrepareOptions<PreparableMethod>).itemSize ?? 1;
    checkNumber('prepare', 'options.itemSize', size, 'positive');
    if (!Number.isInteger(size)) throw new RangeError(`prepare: options.itemSize is ${size}; it must be a whole number`);
    itemSize = size;
  }
  if (typeof method !== 'string' || !Object.hasOwn(DT_INDEX, method)) {
    throw new TypeError(
      `prepare: method must be the name of a Solver method, got ${typeof method === 'string' ? JSON.stringify(method) : describe(method)}`,
    );
  }
  const name = method as PreparableMethod;
  const dtIndex: number | null = DT_INDEX[name];
  const [fewest, most] = ARITY[name].map((count) => count - (dtIndex === null ? 0 : 1));
  if (args.length < fewest! || args.length > most!) {
    const takes = fewest === most ? `${fewest}` : `${fewest} to ${most}`;
    throw new TypeError(
      `prepare: ${name} takes ${takes} arguments after its name (its own${dtIndex === null ? '' : ' without dt, which each step takes'}), got ${args.length}`,
    );
  }
  const core = CORE[name];
  if (itemSize !== 1 && !core) {
    throw new RangeError(`prepare: options.itemSize applies to the core springs and the damper, not to ${name}`);
  }
  const build = (): PreparedRun => (core ? prepareCore(solver, name, core, args, itemSize) : prepareCaptured(solver, name, dtIndex, args));
  let current: PreparedRun | null = build();
  // The arrays a step reads live (a core spring's parameters are copies): checked again for a
  // freed one whenever the solver has freed any since the last step.
  const live = core ? args.slice(0, core.arrays.length) : args;
  const arrays = live.flatMap((a, i) =>
    a instanceof Float32Array ? [[core ? core.arrays[i].name : `argument ${i + 1}`, a] as const] : [],
  );
  let frees = solver.frees;
  const step = ((dt?: number) => {
    if (current === null) throw new TypeError(`${name}: this prepared call has been disposed`);
    if (solver.isDisposed()) solver.checkLive(name);
    if (solver.frees !== frees) {
      for (const [label, array] of arrays) solver.checkUsable(name, label, array);
      frees = solver.frees;
    }
    // A dt ≥ 1 s while the solver's warning is due: checkDt warns (src/core/dt.ts).
    if (dtIndex !== null && (!validDt(dt) || (dt >= LARGE_DT && solver.largeDtWarningDue))) checkDt(solver, name, dt);
    return current.run(dt as number);
  }) as PreparedCall<unknown, PreparableMethod>;
  step.refresh = () => {
    if (current === null) throw new TypeError(`${name}: this prepared call has been disposed`);
    solver.checkLive(name);
    const next = build();
    current.dispose();
    current = next;
  };
  step.dispose = () => {
    if (current === null) return;
    if (!solver.isDisposed()) current.dispose();
    current = null;
  };
  return step;
}

/** A copy of a per-element parameter in the solver's memory (what the steps read). */
function snapshot(solver: SolverBase, p: Param): Param {
  if (typeof p === 'number') return p;
  const copy = solver.alloc(p.length);
  copy.set(p);
  return copy;
}

function release(solver: SolverBase, params: Param[]): void {
  for (const p of params) if (typeof p !== 'number') solver.free(p);
}

/** The damper and core springs: the method's own checks, then the backend's prepared form. */
function prepareCore(solver: SolverBase, method: PreparableMethod, spec: CoreSpec, args: unknown[], itemSize: number): PreparedRun {
  const count = spec.arrays.length;
  const arrays: ArrayArg[] = spec.arrays.map(({ name, output }, i) => ({ name, array: args[i], output }));
  const raw = spec.params.map((_, k) => args[count + k]);
  if (itemSize !== 1) {
    const x = args[0];
    const n = x instanceof Float32Array ? x.length : 0;
    for (let k = 0; k < raw.length; k++) raw[k] = expandPerItem(method, spec.params[k], raw[k], n, itemSize);
  }
  const params: ParamSpec[] = spec.params.map(([name, rule], k) => [name, raw[k] as Param, rule]);
  const checked = solver.checkCall(method, arrays, params, 0);
  const copies = checked.map((p) => snapshot(solver, p));
  let run: PreparedRun;
  try {
    const a = arrays.map((arg) => arg.array as Float32Array);
    run =
      spec.mode === null
        ? solver.preparedDamper(a[0], a[1], copies[0])
        : solver.preparedSpring(
            spec.mode,
            a[0],
            a[1],
            count > 2 ? a[2] : null,
            count > 3 ? a[3] : null,
            copies[0],
            copies.length > 1 ? copies[1] : 0,
          );
  } catch (error) {
    release(solver, copies);
    throw error;
  }
  return {
    run: run.run,
    dispose() {
      run.dispose();
      release(solver, copies);
    },
  };
}

/** A per-item parameter (one value per `itemSize` elements) as one value per element. */
function expandPerItem(method: string, [name, rule]: [string, ParamRule], p: unknown, n: number, itemSize: number): unknown {
  if (!(p instanceof Float32Array)) return p;
  if (n % itemSize !== 0 || p.length * itemSize !== n) {
    throw new RangeError(
      `${method}: ${name} has length ${p.length}, expected ${n / itemSize} (one value per item of ${itemSize} elements, x has ${n})`,
    );
  }
  const bad = firstInvalidJs(p, rule);
  if (bad >= 0)
    throw new RangeError(`${method}: ${name}[${bad}] is ${p[bad]}; it must be finite and ${rule === 'positive' ? '> 0' : '≥ 0'}`);
  const expanded = new Float32Array(n);
  for (let i = 0; i < p.length; i++) expanded.fill(p[i], i * itemSize, (i + 1) * itemSize);
  return expanded;
}

interface Record_ {
  kernel: Kernel;
  n: number;
  operands: Operand[];
  params: Param[];
  scalars: number[];
}

const CAPTURE_DT = [0.5, 0.25];

/** Every other method: captured (see the file's comment), or run as itself at every step. */
function prepareCaptured(solver: SolverBase, method: PreparableMethod, dtIndex: number | null, args: unknown[]): PreparedRun {
  const fn = (solver as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
  const callArgs = args.slice();
  if (dtIndex !== null) callArgs.splice(dtIndex, 0, 0);
  const capture = (dt: number): Record_[] => {
    const records: Record_[] = [];
    const host = Object.create(solver, {
      runKernel: {
        value: (kernel: Kernel, n: number, operands: Operand[], params: Param[], scalars: number[]) =>
          records.push({ kernel, n, operands, params, scalars }),
      },
    });
    if (dtIndex !== null) callArgs[dtIndex] = dt;
    fn.apply(host, callArgs);
    return records;
  };
  // substep runs the caller's function: never captured.
  const records = method === 'substep' ? null : capture(CAPTURE_DT[0]);
  const other = records === null || dtIndex === null ? records : capture(CAPTURE_DT[1]);
  if (records && other && replayable(records, other, dtIndex !== null)) {
    const { kernel, n, operands, params, scalars } = records[0];
    const copies = params.map((p) => snapshot(solver, p));
    const run = solver.preparedKernel(kernel, n, operands, copies, scalars.slice(), dtIndex !== null);
    return {
      run: run.run,
      dispose() {
        run.dispose();
        release(solver, copies);
      },
    };
  }
  // Checked once more by every call of the method itself.
  return {
    run(dt: number) {
      if (dtIndex !== null) callArgs[dtIndex] = dt;
      return fn.apply(solver, callArgs);
    },
    dispose() {},
  };
}

/** Two captures are one kernel call each, differing only in scalars[0] = dt (when the method takes dt). */
function replayable(a: Record_[], b: Record_[], hasDt: boolean): boolean {
  if (a.length !== 1 || b.length !== 1) return false;
  const [x, y] = [a[0], b[0]];
  if (x.kernel !== y.kernel || x.n !== y.n || x.operands.length !== y.operands.length || x.params.length !== y.params.length) return false;
  if (x.scalars.length !== y.scalars.length) return false;
  for (let i = 0; i < x.operands.length; i++) {
    const [o, p] = [x.operands[i], y.operands[i]];
    if (o.array !== p.array || o.width !== p.width || o.output !== p.output) return false;
  }
  for (let i = 0; i < x.params.length; i++) if (!Object.is(x.params[i], y.params[i])) return false;
  for (let i = 0; i < x.scalars.length; i++) {
    if (hasDt && i === 0) {
      if (x.scalars[0] !== CAPTURE_DT[0] || y.scalars[0] !== CAPTURE_DT[1]) return false;
    } else if (!Object.is(x.scalars[i], y.scalars[i])) return false;
  }
  return true;
}
