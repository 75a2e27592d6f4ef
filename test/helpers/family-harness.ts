/**
 * Shared machinery of the family tests (composite, character, inertialize, signal): solvers on
 * every backend, arrays in or out of a solver's memory, a random parameter in each layout,
 * the parity loop against the float64 reference, and a tolerance check that reports the worst
 * element. No Node APIs: runs in Node and in Chromium.
 */
import { expect } from 'vitest';
import type { Param, Solver } from '../../dist/index.js';
import { BACKENDS } from './backends.js';
import { PARITY_TOLERANCE } from './tolerances.js';
import { mulberry32, uniform, type Rng } from './random.js';

export { BACKENDS };
export type ArrayKind = 'plain' | 'alloc';
export const ARRAY_KINDS: readonly ArrayKind[] = ['plain', 'alloc'];
/** uniform: every parameter a number; perElement: every one an array; mixed: the first an array, the rest numbers. */
export type ParamMode = 'uniform' | 'perElement' | 'mixed';
export const PARAM_MODES: readonly ParamMode[] = ['uniform', 'perElement', 'mixed'];

export { PARITY_TOLERANCE } from './tolerances.js';
/** A copy of `values` as a plain Float32Array, or in the solver's memory (alloc). */
export function copyFor(solver: Solver, kind: ArrayKind, values: ArrayLike<number>): Float32Array {
  const array = kind === 'alloc' ? solver.alloc(values.length) : new Float32Array(values.length);
  array.set(values);
  return array;
}

/** A parameter in the same layout for a solver (arrays copied as `kind`). */
export function paramFor(solver: Solver, kind: ArrayKind, p: Param): Param {
  return typeof p === 'number' ? p : copyFor(solver, kind, p);
}

/** Frees the alloc() arrays among `arrays` (no-op for plain ones). */
export function release(solver: Solver, kind: ArrayKind, arrays: (Param | null)[]): void {
  if (kind !== 'alloc') return;
  for (const a of arrays) if (a instanceof Float32Array) solver.free(a);
}

/** n values from `draw`, in a Float32Array. */
export function filled(n: number, draw: () => number): Float32Array {
  return Float32Array.from({ length: n }, draw);
}

/**
 * A parameter in `mode` for parameter number `index`: a float32 number (the solvers round
 * uniform values to float32, so the reference gets the same), or n per-element values;
 * `zeroShare` of the per-element values are exactly 0 (the limit cases ride along).
 */
export function drawParam(rng: Rng, n: number, mode: ParamMode, index: number, draw: () => number, zeroShare = 0): Param {
  const array = mode === 'perElement' || (mode === 'mixed' && index === 0);
  if (!array) return Math.fround(draw());
  return filled(n, () => (rng() < zeroShare ? 0 : draw()));
}

/** A time step: a frame at 60 or 30 Hz, or anything in [0, 0.5] s. */
export function drawDt(rng: Rng): number {
  const r = rng();
  return r < 0.3 ? 1 / 60 : r < 0.5 ? 1 / 30 : uniform(rng, 0, 0.5);
}

/**
 * Below float32's smallest normal number 2^-126 results are subnormal: a kernel that rounds a
 * coefficient to float32 before multiplying may flush them to 0 where float64 keeps them, an
 * absolute difference of at most 2^-126 that no relative tolerance covers.
 */
const FLOAT32_MIN_NORMAL = 2 ** -126;

/**
 * Asserts |actual[i] − expected[i]| ≤ tolerance·scale[i] + 2^-126 for every i (scale: the
 * magnitude of the terms of element i), with one expect that names the worst element.
 */
export function expectWithin(
  label: string,
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  scale: ArrayLike<number>,
  tolerance: number,
): void {
  expect(actual.length, `${label}: length`).toBe(expected.length);
  let worst = -1;
  let worstRatio = 1;
  for (let i = 0; i < expected.length; i++) {
    const error = Math.abs(actual[i] - expected[i]);
    const allowed = tolerance * scale[i] + FLOAT32_MIN_NORMAL;
    const ratio = error / allowed;
    if (!(error <= allowed) && (worst < 0 || !(ratio <= worstRatio))) {
      worst = i;
      worstRatio = ratio;
    }
  }
  const detail =
    worst < 0
      ? 'ok'
      : `element ${worst}: got ${actual[worst]}, expected ${expected[worst]} ± ${tolerance * scale[worst] + FLOAT32_MIN_NORMAL}`;
  expect(detail, label).toBe('ok');
}

/** Asserts every value is finite. */
export function expectFinite(label: string, ...arrays: Float32Array[]): void {
  for (const array of arrays) {
    const bad = array.findIndex((value) => !Number.isFinite(value));
    expect(bad < 0 ? 'finite' : `element ${bad} is ${array[bad]}`, label).toBe('finite');
  }
}

/** The state of one parity step: named arrays, parameters and dt. */
export interface Step {
  arrays: Record<string, Float32Array>;
  params: Param[];
  dt: number;
}

/**
 * A method under parity test. `run` calls it on a solver or on the reference module (the same
 * signature). `scales` gives, for each checked output, the magnitude of its terms from the
 * step's inputs and the reference's outputs.
 */
export interface ParitySpec<Impl> {
  /** Elements per array (the first array's length / width). */
  n: number;
  steps: number;
  /** The state at the start, and the new goals between steps (retargeting mid-flight). */
  start(rng: Rng, n: number): Record<string, Float32Array>;
  retarget(rng: Rng, arrays: Record<string, Float32Array>): void;
  params(rng: Rng, n: number, mode: ParamMode): Param[];
  dt?(rng: Rng): number;
  run(impl: Impl, arrays: Record<string, Float32Array>, params: Param[], dt: number): void;
  outputs: string[];
  scales(input: Step, expected: Record<string, Float32Array>): Record<string, ArrayLike<number>>;
}

/**
 * Runs `spec` on `solver` and on `reference` from the same inputs, step after step (each step
 * starts both from the reference's previous outputs, so they never drift apart), and checks
 * every output within PARITY_TOLERANCE of the terms' magnitude. On the JS backend, which runs the
 * reference itself, this checks only the plumbing (arguments, copies, dispatch), not the maths.
 */
export function checkParity<Impl>(
  solver: Solver & Impl,
  reference: Impl,
  kind: ArrayKind,
  mode: ParamMode,
  seed: number,
  spec: ParitySpec<Impl>,
): void {
  const rng = mulberry32(seed);
  let arrays = spec.start(rng, spec.n);
  for (let step = 0; step < spec.steps; step++) {
    if (step > 0) spec.retarget(rng, arrays);
    const params = spec.params(rng, spec.n, mode);
    const dt = spec.dt ? spec.dt(rng) : drawDt(rng);
    const expected = Object.fromEntries(Object.entries(arrays).map(([k, a]) => [k, a.slice()]));
    spec.run(reference, expected, params, dt);
    const actual = Object.fromEntries(Object.entries(arrays).map(([k, a]) => [k, copyFor(solver, kind, a)]));
    const solverParams = params.map((p) => paramFor(solver, kind, p));
    spec.run(solver, actual, solverParams, dt);
    const scales = spec.scales({ arrays, params, dt }, expected);
    for (const name of spec.outputs) {
      expectWithin(
        `${solver.backend} ${kind} ${mode} step ${step} dt ${dt}: ${name}`,
        actual[name],
        expected[name],
        scales[name],
        PARITY_TOLERANCE,
      );
    }
    release(solver, kind, [...Object.values(actual), ...solverParams]);
    arrays = expected;
  }
}

/** Elements of the parity runs: not a multiple of 4, and more than one copy chunk (16384 floats). */
export const PARITY_N = 18887;
export const PARITY_STEPS = 3;

/** Snapshot of arrays, to check that a rejected call wrote nothing. */
export function snapshot(arrays: Float32Array[]): Float32Array[] {
  return arrays.map((a) => a.slice());
}

/** `expectRejected` for a fixed set of arrays that every rejected call must leave as they were. */
export function rejecter(arrays: Float32Array[]) {
  return (call: () => void, type: typeof TypeError | typeof RangeError, method: string, argument: string) =>
    expectRejected(call, type, method, argument, arrays);
}

/** Asserts `call` throws `type` with a message naming `method` and `argument`, and left `arrays` as they were. */
export function expectRejected(
  call: () => void,
  type: typeof TypeError | typeof RangeError,
  method: string,
  argument: string,
  arrays: Float32Array[],
): void {
  const before = snapshot(arrays);
  let error: unknown = null;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error, `${method}/${argument}: threw`).toBeInstanceOf(type);
  const message = (error as Error).message;
  expect(message.startsWith(`${method}:`), message).toBe(true);
  expect(message.includes(argument), message).toBe(true);
  arrays.forEach((a, i) => expect(Array.from(a), `${method}/${argument}: array ${i} unchanged`).toEqual(Array.from(before[i])));
}
