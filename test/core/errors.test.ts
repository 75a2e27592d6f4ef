/**
 * Rejected calls: every error is a TypeError or RangeError naming the method and the argument,
 * and a rejected call changes no array (state or parameter).
 */
import { describe, expect, it } from 'vitest';
import { createSolver, simdSupported, wasmSupported, type Solver } from '../../dist/index.js';
import { BACKENDS, FUNCTIONS, makeSolver, type FnInfo, useSolvers } from '../helpers/backends.js';
import { fillState, mulberry32 } from '../helpers/random.js';

const solvers = useSolvers(1024 * 1024);

// 75 elements: the wasm backends scan a per-element array in blocks of 32, then of 4, then one
// by one (two blocks of 32, two of 4, a tail of 3)
const N = 75;

/** Argument names of a method, in order: arrays, parameters, dt. */
function argNames(fn: FnInfo): string[] {
  return ['x', ...(fn.hasV ? ['v'] : []), ...(fn.hasG ? ['g'] : []), ...(fn.hasQ ? ['q'] : []), ...fn.params, 'dt'];
}
const arrayNames = (fn: FnInfo) => argNames(fn).filter((name) => name.length === 1 && name !== 'dt');

/** A valid call: random states, valid uniform parameters, dt = 1/60. */
function validArgs(fn: FnInfo, seed: number): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const [x, v, g, q] = [0, 0, 0, 0].map(() => new Float32Array(N));
  fillState(mulberry32(seed), x, v, g, q);
  Object.assign(args, { x, v, g, q });
  for (const name of fn.params) args[name] = name === 'dampingRatio' ? 0.7 : name === 'frequency' ? 2 : name === 'halflife' ? 0.2 : 3;
  args.dt = 1 / 60;
  return args;
}

function invoke(solver: Solver, fn: FnInfo, args: Record<string, unknown>): void {
  const method = solver[fn.name] as (...a: unknown[]) => void;
  method.apply(
    solver,
    argNames(fn).map((name) => args[name]),
  );
}

/** The bits of every Float32Array argument, to check that a rejected call changed nothing. */
function snapshot(args: Record<string, unknown>): Map<string, number[]> {
  const bits = new Map<string, number[]>();
  for (const [name, value] of Object.entries(args)) {
    if (value instanceof Float32Array) bits.set(name, Array.from(new Uint32Array(value.buffer, value.byteOffset, value.length)));
  }
  return bits;
}

/** Runs `action`, which must throw; returns the error. */
function thrown(action: () => void): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an exception, but the call returned normally');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface ErrorCase {
  label: string;
  /** Breaks the valid arguments (may allocate from the solver). */
  apply(args: Record<string, unknown>, solver: Solver): void;
  type: typeof TypeError | typeof RangeError;
  /** Expected message start, after "method: ". */
  message: RegExp;
}

function errorCases(fn: FnInfo): ErrorCase[] {
  const cases: ErrorCase[] = [];
  const arrays = arrayNames(fn);
  // Mismatched lengths: every array after the first, shorter and longer than x.
  for (const name of arrays.slice(1)) {
    for (const length of [N - 1, N + 3]) {
      cases.push({
        label: `${name} of length ${length}`,
        apply: (a) => (a[name] = new Float32Array(length)),
        type: RangeError,
        message: new RegExp(`^${name} has length ${length}, expected ${N}`),
      });
    }
  }
  // Not a Float32Array.
  for (const name of arrays) {
    for (const [label, value, got] of [
      ['a plain Array', Array.from({ length: N }, () => 0), 'an Array'],
      ['a Float64Array', new Float64Array(N), 'Float64Array'],
      ['null', null, 'null'],
    ] as const) {
      cases.push({
        label: `${name} as ${label}`,
        apply: (a) => (a[name] = value),
        type: TypeError,
        message: new RegExp(`^${name} must be a Float32Array, got ${got}`),
      });
    }
  }
  for (const name of fn.params) {
    // Bad numbers.
    // −0 for every parameter: 4·ln2/−0 = −∞; messages print it as "-0".
    const bad: number[] = [NaN, -1, Infinity, -Infinity, -0, ...(name === 'dampingRatio' ? [0] : [])];
    for (const value of bad) {
      const shown = Object.is(value, -0) ? '-0' : String(value);
      cases.push({
        label: `${name} = ${shown}`,
        apply: (a) => (a[name] = value),
        type: RangeError,
        message: new RegExp(`^${name} is ${escapeRegExp(shown)}; it must be finite and ${name === 'dampingRatio' ? '>' : '≥'} 0`),
      });
    }
    // A bad element of a per-element array, plain or from alloc (the wasm backends scan their
    // own memory: positions in the first and last block of 32, in a block of 4, and the tail).
    for (const where of ['plain', 'alloc'] as const) {
      for (const index of [0, 3, 5, 33, 63, 66, N - 1]) {
        for (const value of [NaN, -2, Infinity, ...(name === 'dampingRatio' ? [0] : [])]) {
          cases.push({
            label: `${name}[${index}] = ${value} (${where} array)`,
            apply: (a, solver) => {
              const array = where === 'alloc' ? solver.alloc(N) : new Float32Array(N);
              array.fill(name === 'dampingRatio' ? 0.5 : 1);
              array[index] = value;
              a[name] = array;
            },
            type: RangeError,
            message: new RegExp(`^${name}\\[${index}\\] is ${escapeRegExp(String(value))}; it must be`),
          });
        }
      }
    }
    // Wrong length or type of a per-element parameter.
    cases.push({
      label: `${name} array of length ${N + 1}`,
      apply: (a) => (a[name] = new Float32Array(N + 1).fill(1)),
      type: RangeError,
      message: new RegExp(`^${name} has length ${N + 1}, expected ${N}`),
    });
    for (const [label, value] of [
      ['a string', '1'],
      ['a Float64Array', new Float64Array(N).fill(1)],
      ['null', null],
    ] as const) {
      cases.push({
        label: `${name} as ${label}`,
        apply: (a) => (a[name] = value),
        type: TypeError,
        message: new RegExp(`^${name} must be a number or a Float32Array`),
      });
    }
  }
  // dt.
  for (const value of [-1, NaN, Infinity, -1e-30]) {
    cases.push({
      label: `dt = ${value}`,
      apply: (a) => (a.dt = value),
      type: RangeError,
      message: new RegExp(`^dt is ${escapeRegExp(String(value))}; it must be finite and ≥ 0`),
    });
  }
  for (const [label, value] of [
    ['a string', '0.1'],
    ['undefined', undefined],
  ] as const) {
    cases.push({ label: `dt as ${label}`, apply: (a) => (a.dt = value), type: TypeError, message: /^dt must be a number/ });
  }
  // Overlaps: an output with another array in the same buffer (plain or from alloc).
  const outputs = arrays.filter((name) => name === 'x' || name === 'v');
  for (const where of ['plain', 'alloc'] as const) {
    const buffer = (solver: Solver, length: number) => (where === 'alloc' ? solver.alloc(length) : new Float32Array(length));
    for (const out of outputs) {
      for (const other of arrays.filter((name) => name !== out)) {
        cases.push({
          label: `${out} and ${other} overlapping by one element (${where})`,
          apply: (a, solver) => {
            const shared = buffer(solver, 2 * N);
            shared.set(a[out] as Float32Array, 0);
            shared.set(a[other] as Float32Array, N - 1);
            a[out] = shared.subarray(0, N);
            a[other] = shared.subarray(N - 1, 2 * N - 1);
          },
          type: RangeError,
          message: new RegExp(`^(${out} and ${other}|${other} and ${out}) overlap in memory`),
        });
      }
    }
    if (outputs.length === 2) {
      cases.push({
        label: `x and v the same array (${where})`,
        apply: (a, solver) => {
          const same = buffer(solver, N);
          a.x = same;
          a.v = same;
        },
        type: RangeError,
        message: /^x and v overlap in memory; outputs must be distinct/,
      });
    }
    // A per-element parameter overlapping an output.
    const param = fn.params[fn.params.length - 1];
    cases.push({
      label: `${param} array overlapping x (${where})`,
      apply: (a, solver) => {
        const shared = buffer(solver, 2 * N);
        shared.fill(0.5); // a valid parameter value everywhere: only the overlap is wrong
        a.x = shared.subarray(0, N);
        a[param] = shared.subarray(3, N + 3);
      },
      type: RangeError,
      message: new RegExp(`^x and ${param} overlap in memory`),
    });
  }
  return cases;
}

describe.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend) => {
  describe.each(FUNCTIONS.map((fn) => [fn.name, fn] as const))('%s', (name, fn) => {
    it.each(errorCases(fn).map((c) => [c.label, c] as const))('rejects %s, changing nothing', (_label, c) => {
      const solver = solvers[backend];
      const args = validArgs(fn, 3);
      c.apply(args, solver);
      const before = snapshot(args);
      const error = thrown(() => invoke(solver, fn, args));
      expect(error).toBeInstanceOf(c.type);
      expect(error.message.startsWith(`${name}: `), error.message).toBe(true);
      expect(error.message.slice(name.length + 2)).toMatch(c.message);
      expect(snapshot(args)).toEqual(before);
    });

    it('accepts an input that is the very same array as an output, and a valid call', () => {
      // Not an error (documented: element i is read before it is written) — the counterpart of
      // the overlap cases above; and the valid arguments themselves are accepted.
      const solver = solvers[backend];
      const args = validArgs(fn, 4);
      invoke(solver, fn, args);
      if (fn.hasG) {
        args.g = args.x;
        invoke(solver, fn, args);
      }
      expect(Array.from(args.x as Float32Array).every(Number.isFinite)).toBe(true);
    });

    it('throws a TypeError naming the method after dispose(), changing nothing', async () => {
      const solver = await makeSolver(backend, 65536);
      const args = validArgs(fn, 5);
      solver.dispose();
      const before = snapshot(args);
      const error = thrown(() => invoke(solver, fn, args));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(new RegExp(`^${name}: this solver has been disposed`));
      expect(snapshot(args)).toEqual(before);
    });
  });

  describe('alloc and free', () => {
    it.each([
      [-1, RangeError, /^alloc: length is -1; it must be finite and ≥ 0/],
      [1.5, RangeError, /^alloc: length is 1\.5; it must be a whole number/],
      [NaN, RangeError, /^alloc: length is NaN/],
      [Infinity, RangeError, /^alloc: length is Infinity/],
      ['3', TypeError, /^alloc: length must be a number, got string/],
    ] as const)('alloc(%s) throws', (length, type, message) => {
      const error = thrown(() => solvers[backend].alloc(length as number));
      expect(error).toBeInstanceOf(type);
      expect(error.message).toMatch(message);
    });

    it('free rejects a foreign array, a double free, a subarray and a non-array', async () => {
      const solver = solvers[backend];
      const other = await makeSolver(backend, 65536);
      const a = solver.alloc(8);
      const foreign: [string, unknown][] = [
        ['a plain Float32Array', new Float32Array(8)],
        ["another solver's array", other.alloc(8)],
        ['a subarray of an allocated array', a.subarray(4)],
        ['a shorter view of an allocated array', a.subarray(0, 4)],
        ['null', null],
        ['an Array', [1, 2]],
      ];
      for (const [label, value] of foreign) {
        const error = thrown(() => solver.free(value as Float32Array));
        expect(error, label).toBeInstanceOf(TypeError);
        expect(error.message, label).toMatch(/^free: array/);
      }
      solver.free(a);
      const error = thrown(() => solver.free(a));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^free: array .*already freed/);
      other.dispose();
    });

    it('alloc and free throw a TypeError after dispose()', async () => {
      const solver = await makeSolver(backend, 65536);
      const a = solver.alloc(4);
      solver.dispose();
      for (const [method, action] of [
        ['alloc', () => solver.alloc(4)],
        ['free', () => solver.free(a)],
      ] as const) {
        const error = thrown(action);
        expect(error, method).toBeInstanceOf(TypeError);
        expect(error.message).toMatch(new RegExp(`^${method}: this solver has been disposed`));
      }
    });
  });
});

describe('createSolver', () => {
  /** Awaits `promise`, which must reject; returns the reason. */
  async function rejected(promise: Promise<unknown>): Promise<Error> {
    try {
      await promise;
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a rejection, but createSolver resolved');
  }

  it.each([
    ['backend "gpu"', { backend: 'gpu' }, RangeError, /^createSolver: backend is "gpu"; it must be one of simd, wasm, js/],
    ['backend "SIMD"', { backend: 'SIMD' }, RangeError, /^createSolver: backend is "SIMD"/],
    ['memoryBytes 0', { memoryBytes: 0 }, RangeError, /^createSolver: memoryBytes is 0; it must be finite and > 0/],
    ['memoryBytes −1', { memoryBytes: -1 }, RangeError, /^createSolver: memoryBytes is -1/],
    ['memoryBytes 1.5', { memoryBytes: 1.5 }, RangeError, /^createSolver: memoryBytes is 1\.5; it must be a whole number/],
    ['memoryBytes 65536.5', { memoryBytes: 65536.5 }, RangeError, /^createSolver: memoryBytes is 65536\.5; it must be a whole number/],
    ['memoryBytes NaN', { memoryBytes: NaN }, RangeError, /^createSolver: memoryBytes is NaN/],
    ['memoryBytes Infinity', { memoryBytes: Infinity }, RangeError, /^createSolver: memoryBytes is Infinity/],
    ['memoryBytes above 2 GiB', { memoryBytes: 2 ** 31 + 16 }, RangeError, /^createSolver: memoryBytes is 2147483664; .*up to 2 GiB/],
    ['memoryBytes "1024"', { memoryBytes: '1024' }, TypeError, /^createSolver: memoryBytes must be a number, got string/],
    ['options null', null, TypeError, /^createSolver: options must be an object, got null/],
    ['options 5', 5, TypeError, /^createSolver: options must be an object/],
  ] as const)('rejects %s', async (_label, options, type, message) => {
    for (const backend of [undefined, ...BACKENDS]) {
      const withBackend =
        options !== null && typeof options === 'object' && !('backend' in options) && backend ? { ...options, backend } : options;
      const error = await rejected(createSolver(withBackend as Parameters<typeof createSolver>[0]));
      expect(error, `backend ${backend}`).toBeInstanceOf(type);
      expect(error.message).toMatch(message);
    }
  });

  it('accepts every backend by name, and the default', async () => {
    for (const backend of BACKENDS) {
      const solver = await createSolver({ backend, memoryBytes: 65536 });
      expect(solver.backend).toBe(backend);
      solver.dispose();
    }
    const best = await createSolver({ memoryBytes: 65536 });
    expect(best.backend).toBe(simdSupported() ? 'simd' : wasmSupported() ? 'wasm' : 'js');
    best.dispose();
  });
});

describe('numbers that do not survive rounding to float32', () => {
  // A uniform number travelling with per-element arrays (or to a generic kernel) is rounded to
  // float32: 1e300 would become Infinity and 1e-50 would become 0, so both are rejected.
  it.each(BACKENDS.map((b) => [b] as const))('%s: rejected with the argument named, nothing written', async (backend) => {
    const solver = await makeSolver(backend, 65536);
    const x = new Float32Array([1, 2, 3, 4]);
    const v = new Float32Array([5, 6, 7, 8]);
    const g = new Float32Array(4);
    const q = new Float32Array(4);
    const before = [x.slice(), v.slice()];
    expect(() => solver.springDamper(x, v, g, q, new Float32Array(4).fill(1), 1e300, 0.1)).toThrow(
      /springDamper: halflife is 1e\+300, which is Infinity as float32/,
    );
    expect(() => solver.springDamperRatio(x, v, g, q, 1e-50, new Float32Array(4).fill(0.2), 0.1)).toThrow(
      /springDamperRatio: dampingRatio is 1e-50, which is 0 as float32/,
    );
    expect(() => solver.pdSpring(x, v, g, q, 1e300, 0.5, 0.1)).toThrow(/pdSpring: uaf is 1e\+300/);
    expect([x, v]).toEqual(before);
    solver.dispose();
  });
});
