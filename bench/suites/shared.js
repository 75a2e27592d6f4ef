// What the benchmark suites share: seeded values, arrays in a solver's memory, and the task
// shapes bench/run.js measures. See bench/README.md.
//
// A suite is { name, sizes({ quick }), tasks(n, { quick }), targets(t), settings }: `tasks(n)`
// lists the rows to measure at that N, each a task
//   { kernel, variant, params, n, backends?, arrays?, floor?, setup(solver, backend) }
// where setup returns { call, reset, bounded, dispose }: `call` is one timed call, `reset`
// restores the initial state (untimed), `bounded()` is true while the state stays finite and of
// a sane size, `dispose` returns the memory. `targets(t)` adds the suite's PASS/FAIL checks
// through t (see bench/run.js) and returns its information lines.

import { mulberry32 } from '../../tools/mulberry32.js';

/**
 * The shapes the suites and run.js share (checked by `tsc -p tsconfig.typecheck-js.json`).
 * @typedef {{ width: number, key?: string, fill: (a: Float32Array, random: () => number) => void }} ArraySpec
 * @typedef {{ uniform: number, lo: number, hi: number }} ParamSpec
 * @typedef {{ call: () => unknown, reset: () => void, bounded: () => boolean, dispose?: () => void }} Setup
 * @typedef {{ kernel: string, variant?: string | null, params: string, n: number, backends?: string[],
 *   arrays?: string, floor?: boolean, setup: (solver: any, backend?: string) => Setup }} Task
 * @typedef {{ bound?: number, reset?: () => void, dispose?: () => void }} TrackedOptions
 * @typedef {{ kernel: string, variant?: string | null, n: number, params?: Record<string, ParamSpec> }} ClassTaskSpec
 * @typedef {ClassTaskSpec & { state: Record<string, ArraySpec>, inputs?: Record<string, ArraySpec>,
 *   call: (solver: any, arrays: any, params: any) => () => unknown, bound?: number }} MethodTaskSpec
 * @typedef {Omit<MethodTaskSpec, 'n'>} MethodSpec
 */

export const DT = 1 / 60;
export const TWO_PI = 2 * Math.PI;
export const FOUR_LN2 = 4 * Math.LN2;

export function uniformArray(n, lo, hi, random) {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = lo + (hi - lo) * random();
  return a;
}

/**
 * A seeded PRNG (mulberry32), so every run sees the same values; seeded by an array's name and N,
 * so an array of the same name gets the same values in every task.
 */
function seeded(key, n) {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return mulberry32(h + n);
}

// ---------------------------------------------------------------------------------------------
// Array specs: `width` floats an element, `fill(array, random)` writes the initial values.
// `key` (default: the array's name) picks the seed, so that e.g. xi can start equal to x.

/** Uniform values in [lo, hi). */
export function range(lo, hi, width = 1, key) {
  return { width, key, fill: (a, random) => a.set(uniformArray(a.length, lo, hi, random)) };
}

/** Zeros (outputs). */
export function zeros(width = 1) {
  return { width, fill: () => {} };
}

/**
 * Uniformly random unit quaternions [x, y, z, w] (Shoemake's method), computed in float64 and
 * renormalised in float64 from their float32 values, so |q| = 1 to float32 rounding.
 */
export function unitQuaternions(key) {
  return {
    width: 4,
    key,
    fill: (a, random) => {
      for (let i = 0; i < a.length; i += 4) {
        const [u1, u2, u3] = [random(), TWO_PI * random(), TWO_PI * random()];
        const [s1, s2] = [Math.sqrt(1 - u1), Math.sqrt(u1)];
        a.set([s1 * Math.sin(u2), s1 * Math.cos(u2), s2 * Math.sin(u3), s2 * Math.cos(u3)], i);
        const norm = Math.hypot(a[i], a[i + 1], a[i + 2], a[i + 3]);
        for (let k = 0; k < 4; k++) a[i + k] /= norm;
      }
    },
  };
}

/** Fills a solver array (or any Float32Array) of n elements with a spec's seeded values. */
export function fillSpec(array, spec, name, n) {
  spec.fill(array, seeded(spec.key ?? name, n));
  return array;
}

// ---------------------------------------------------------------------------------------------
// Parameters: { uniform, lo, hi }: one number, or one seeded value per element in [lo, hi).

export function paramValue(spec, mode, name, n, alloc = (length) => new Float32Array(length)) {
  return mode === 'uniform' ? spec.uniform : fillSpec(alloc(n), range(spec.lo, spec.hi), name, n);
}

/** The uniform values of a parameter map (for the results file's settings). */
export function uniformValues(params) {
  return Object.fromEntries(Object.entries(params).map(([name, spec]) => [name, spec.uniform]));
}

// ---------------------------------------------------------------------------------------------
// Memory and state

/**
 * Arrays taken from one solver for one task, and objects holding its memory (an Inertializer, a
 * SecondOrderDynamics…), all returned together by free().
 */
export function arena(solver) {
  const owned = [];
  const objects = [];
  const alloc = (length) => {
    const array = solver.alloc(length);
    owned.push(array);
    return array;
  };
  return {
    alloc,
    /** name → spec: arrays of n elements, filled with their seeded values. */
    arrays(n, specs) {
      return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, fillSpec(alloc(n * spec.width), spec, name, n)]));
    },
    /** name → { uniform, lo, hi }: numbers (uniform) or per-element arrays in solver memory. */
    params(n, specs, mode) {
      return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, paramValue(spec, mode, name, n, alloc)]));
    },
    /** Disposes `object` in free(); returns it. */
    own(object) {
      objects.push(object);
      return object;
    },
    free() {
      for (const object of objects.splice(0)) object.dispose();
      for (const array of owned.splice(0)) solver.free(array);
    },
  };
}

/** True when every value is finite and |value| < bound. */
function within(array, bound) {
  for (let i = 0; i < array.length; i++) if (!(Math.abs(array[i]) < bound)) return false;
  return true;
}

/**
 * A task's setup result for a call that writes `written`: reset restores their values as they
 * are now (untimed), bounded() checks them. `reset` may be replaced (a class with its own reset).
 */
/** @param {() => unknown} call @param {Float32Array[]} written @param {TrackedOptions} [options] @returns {Setup} */
export function tracked(call, written, { bound = 100, reset, dispose } = {}) {
  const initial = written.map((a) => a.slice());
  return {
    call,
    reset: reset ?? (() => written.forEach((a, i) => a.set(initial[i]))),
    bounded: () => written.every((a) => within(a, bound)),
    dispose,
  };
}

/** 'uniform' and 'per-element' when there are parameters, else 'none'. */
const paramModes = (params) => (Object.keys(params).length ? ['uniform', 'per-element'] : ['none']);

/**
 * The tasks of one call at N = n, one per parameter mode of `params` (name → { uniform, lo, hi }):
 * `setup(solver, mode, memory)` returns the task's setup (see tracked), taking what it needs
 * from `memory`, an arena freed (with the objects it owns) when the task is disposed.
 */
/**
 * @param {ClassTaskSpec} spec
 * @param {(solver: any, mode: string, memory: ReturnType<typeof arena>) => Setup} setup
 * @returns {Task[]}
 */
export function classTasks({ kernel, variant = null, n, params = {} }, setup) {
  return paramModes(params).map((mode) => ({
    kernel,
    variant,
    params: mode,
    n,
    setup(solver) {
      const memory = arena(solver);
      return { ...setup(solver, mode, memory), dispose: memory.free };
    },
  }));
}

/**
 * The tasks of one Solver method at N = n: `state` (arrays the call writes: restored at each
 * reset, checked to stay under `bound`) and `inputs` (read only) are name → array spec, `params`
 * name → { uniform, lo, hi }; `call(solver, arrays, params)` returns the timed call.
 */
/** @param {MethodTaskSpec} spec @returns {Task[]} */
export function methodTasks({ kernel, variant, n, state, inputs = {}, params = {}, call, bound }) {
  return classTasks({ kernel, variant, n, params }, (solver, mode, memory) => {
    const a = memory.arrays(n, { ...state, ...inputs });
    const p = memory.params(n, params, mode);
    return tracked(
      call(solver, a, p),
      Object.keys(state).map((name) => a[name]),
      { bound },
    );
  });
}

/**
 * Adds, for each [kernel, variant] at N = n, the check SIMD ≥ min× JS (uniform parameters) and
 * returns the per-element counterparts as information lines.
 */
/** @param {any} t @param {[string, (string | null)?][]} list @param {{ n: number, min: number, where?: string }} options */
export function speedupTargets(t, list, { n, min, where }) {
  return list.map(([kernel, variant = null]) => {
    t.speedup({ kernel, variant, params: 'uniform', n, min, where });
    return t.speedupInfo({ kernel, variant, params: 'per-element', n });
  });
}
