/**
 * Property-based fuzzing of every Solver method on every backend (fast-check, seeded; FUZZ_RUNS
 * for a longer run, FUZZ_SEED for another seed). The methods come from the solver object itself;
 * test/fuzz/table.ts gives each argument's kind, and a method missing there fails the first test.
 *  - valid input: outputs finite wherever the float64 reference (the JS backend on copies) is
 *    finite; canaries around every operand untouched; every call within CALL_MS;
 *  - bad input (types, lengths, NaN, ±∞, −0, huge and subnormal numbers, freed and detached
 *    arrays, a disposed solver): a TypeError or RangeError naming the method and the argument,
 *    and nothing written;
 *  - aliasing: an input that is the very array of an output is either rejected (RangeError naming
 *    both, nothing written) or computes exactly what the same call with a copy computes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Backend, Solver } from '../../dist/index.js';
import { BACKENDS, LARGE_DT_ON_PURPOSE, makeSolver } from '../helpers/backends.js';
import { METHODS, NOT_KERNELS, parameterNames, solverMethodNames, type ArgKind } from './table.js';
import {
  CALL_MS,
  CallArrays,
  GAIN_DT_MAX,
  GAIN_DT_MIN,
  RUNS,
  SEED,
  caseArb,
  namesArgument,
  plainCopies,
  timedCall,
  type Case,
} from './harness.js';

const MiB = 1024 * 1024;

const params = (offset: number) => ({ numRuns: RUNS, seed: SEED + offset, endOnFailure: true });

describe('fuzz table', () => {
  it('describes every Solver method, with the argument names the method declares', async () => {
    const solver = await makeSolver('js');
    const names = solverMethodNames(solver).filter((name) => !NOT_KERNELS.has(name));
    expect(
      names.filter((name) => !(name in METHODS)),
      'Solver methods without a fuzz description in test/fuzz/table.ts',
    ).toEqual([]);
    expect(
      Object.keys(METHODS).filter((name) => !names.includes(name)),
      'table entries that are not Solver methods',
    ).toEqual([]);
    for (const name of names) {
      const declared = parameterNames((solver as unknown as Record<string, (...a: never[]) => unknown>)[name]);
      expect(
        METHODS[name].map(([arg]) => arg),
        name,
      ).toEqual(declared);
    }
    for (const name of NOT_KERNELS) expect(typeof (solver as unknown as Record<string, unknown>)[name], name).toBe('function');
    solver.dispose();
  });
});

/** Bad values for one argument kind; functions build the value from the valid call. */
type Bad = { label: string; value: unknown } | { label: string; make: (arrays: CallArrays, valid: unknown, solver: Solver) => unknown };

function detachedArray(length: number): Float32Array {
  const array = new Float32Array(length);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

function freedArray(solver: Solver, like: Float32Array): Float32Array {
  const array = solver.alloc(like.length);
  array.set(like);
  solver.free(array);
  return array;
}

function badValues(kind: ArgKind, first: boolean, n: number): Bad[] {
  const numbers = (values: number[]) => values.map((value) => ({ label: String(Object.is(value, -0) ? '-0' : value), value }));
  const types = [
    { label: 'null', value: null },
    { label: 'a string', value: '1' },
    { label: 'an Array', value: [1, 2] },
  ];
  switch (kind.kind) {
    case 'in':
    case 'out': {
      const bads: Bad[] = [
        ...types,
        { label: 'undefined', value: undefined },
        { label: 'a number', value: 3 },
        { label: 'a Float64Array', make: (_a, valid) => new Float64Array((valid as Float32Array).length) },
        { label: 'a detached array', make: (_a, valid) => detachedArray((valid as Float32Array).length) },
        { label: 'a freed array', make: (_a, valid, solver) => freedArray(solver, valid as Float32Array) },
      ];
      const width = typeof kind.width === 'number' ? kind.width : 0;
      if (!first || width > 1)
        bads.push({ label: 'one float longer', make: (_a, valid) => new Float32Array((valid as Float32Array).length + 1) });
      return bads;
    }
    case 'param': {
      const bads: Bad[] = [...types, ...numbers([NaN, Infinity, -Infinity, -1, -0, 1e300, -1e-300])];
      if (kind.rule === 'positive') bads.push(...numbers([0, 5e-324, 1e-50]));
      if (kind.rule === 'gain') bads.push(...numbers([1.5, 1 + 2 ** -20]));
      if (kind.rule === 'slerpT') bads.push(...numbers([1000.5, 1e6]));
      bads.push({ label: 'a per-element array one longer', make: () => new Float32Array(n + 1).fill(0.5) });
      bads.push({ label: 'a freed per-element array', make: (_a, _v, solver) => freedArray(solver, new Float32Array(n).fill(0.5)) });
      if (n > 0) {
        for (const bad of [
          NaN,
          -0,
          -1,
          Infinity,
          ...(kind.rule === 'positive' ? [0] : []),
          ...(kind.rule === 'gain' ? [2] : []),
          ...(kind.rule === 'slerpT' ? [2000] : []),
        ]) {
          bads.push({
            label: `a per-element array holding ${Object.is(bad, -0) ? '-0' : bad}`,
            make: () => new Float32Array(n).fill(0.5).fill(bad, n - 1),
          });
        }
      }
      return bads;
    }
    case 'dt':
      return [...types.slice(0, 2), { label: 'undefined', value: undefined }, ...numbers([NaN, Infinity, -1, -0, -5e-324])];
    case 'gainDt':
      return [...types.slice(0, 2), ...numbers([0, -0, NaN, Infinity, -1, 5e-324, GAIN_DT_MIN / 2, GAIN_DT_MAX * 2])];
    case 'count':
      return [...types.slice(0, 2), ...numbers([0, 1.5, 16385, NaN, -1])];
    case 'pdOptions':
      return [
        { label: 'a string', value: 'exact' },
        { label: 'null', value: null },
        { label: 'integrator rk4', value: { integrator: 'rk4' } },
        { label: 'integrator 3', value: { integrator: 3 } },
      ];
  }
}

/** Bitwise equality of two float arrays (NaN payloads included). */
function sameBits(a: Float32Array, b: Float32Array): boolean {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  return x.length === y.length && x.every((bits, i) => bits === y[i]);
}

describe.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend: Backend) => {
  let solver: Solver;
  let foreign: Solver;
  let reference: Solver;
  beforeAll(async () => {
    solver = await makeSolver(backend, 16 * MiB, LARGE_DT_ON_PURPOSE);
    foreign = await makeSolver(backend, 4 * MiB, LARGE_DT_ON_PURPOSE);
    reference = await makeSolver('js', undefined, LARGE_DT_ON_PURPOSE);
  });
  afterAll(() => {
    for (const s of [solver, foreign, reference]) s.dispose();
  });

  const entries = Object.entries(METHODS);

  describe.each(entries.map(([name, args], i) => [name, args, i] as const))('%s', (method, table, index) => {
    const kinds = table.map(([, kind]) => kind);
    const names = table.map(([name]) => name);
    const outputs = kinds.flatMap((k, i) => (k.kind === 'out' ? [i] : []));

    it('valid input: finite where the float64 reference is, canaries intact, bounded time', () => {
      fc.assert(
        fc.property(caseArb(kinds), (c: Case) => {
          const arrays = new CallArrays(solver, foreign).build(c);
          const expected = plainCopies(arrays.values);
          try {
            const { error: refError } = timedCall(reference, method, expected);
            const { error, ms } = timedCall(solver, method, arrays.values);
            expect(error, 'a valid call throws').toBe(refError);
            if (error) throw error; // the reference rejected a case drawn as valid: the table or the draw is wrong
            expect(ms, 'call time (ms)').toBeLessThan(CALL_MS);
            expect(arrays.canariesIntact(), 'canaries').toBe(true);
            for (const o of outputs) {
              const got = arrays.values[o] as Float32Array;
              const want = expected[o] as Float32Array;
              const bad = Array.from(want).findIndex((w, i) => Number.isFinite(w) && !Number.isFinite(got[i]));
              expect(bad, `${names[o]}[${bad}] is ${got[bad]}, the reference ${want[bad]}`).toBe(-1);
            }
          } finally {
            arrays.release();
          }
        }),
        params(index),
      );
    });

    it('bad input: a TypeError or RangeError naming the method and the argument; nothing written', () => {
      const firstArray = kinds.findIndex((k) => k.kind === 'in' || k.kind === 'out');
      const arb = caseArb(kinds).chain((c) =>
        fc.integer({ min: 0, max: kinds.length - 1 }).chain((arg) => {
          const bads = badValues(kinds[arg], arg === firstArray, c.n);
          return fc.integer({ min: 0, max: bads.length - 1 }).map((b) => ({ c, arg, bad: bads[b] }));
        }),
      );
      fc.assert(
        fc.property(arb, ({ c, arg, bad }) => {
          const arrays = new CallArrays(solver, foreign).build(c);
          try {
            const args = [...arrays.values];
            args[arg] = 'value' in bad ? bad.value : bad.make(arrays, arrays.values[arg], solver);
            const before = arrays.snapshot();
            const { error, ms } = timedCall(solver, method, args);
            expect(ms).toBeLessThan(CALL_MS);
            expect(namesArgument(error, method, names[arg]), `${names[arg]} = ${bad.label}: ${String(error)}`).toBe(true);
            expect(arrays.snapshot(), 'a rejected call wrote').toEqual(before);
          } finally {
            arrays.release();
          }
        }),
        params(1000 + index),
      );
    });

    const pairs = outputs.flatMap((o) =>
      kinds.flatMap((k, i) =>
        i !== o && (k.kind === 'in' || k.kind === 'out') && (k as { width: unknown }).width === (kinds[o] as { width: unknown }).width
          ? [[i, o] as const]
          : [],
      ),
    );
    // Defined only for methods with an input and an output of the same width (no skipped tests).
    if (pairs.length > 0)
      it('aliasing: accepted only where it computes what a copy computes', () => {
        const arb = caseArb(kinds).chain((c) => fc.constantFrom(...pairs).map(([i, o]) => ({ c, i, o })));
        fc.assert(
          fc.property(arb, ({ c, i, o }) => {
            const aliased = new CallArrays(solver, foreign).build(c);
            const copied = new CallArrays(solver, foreign).build(c);
            try {
              aliased.values[i] = aliased.values[o];
              copied.values[i] = Float32Array.from(copied.values[o] as Float32Array);
              const before = aliased.snapshot();
              const { error } = timedCall(solver, method, aliased.values);
              const label = `${names[i]} ≡ ${names[o]}`;
              if (error) {
                expect(namesArgument(error, method, names[i]) && namesArgument(error, method, names[o]), `${label}: ${String(error)}`).toBe(
                  true,
                );
                expect(error, label).toBeInstanceOf(RangeError);
                expect(aliased.snapshot(), `${label}: a rejected call wrote`).toEqual(before);
                return;
              }
              const { error: copyError } = timedCall(solver, method, copied.values);
              if (copyError) throw copyError;
              for (const out of outputs) {
                if (out === i) continue; // the input itself, compared as the output o
                const got = aliased.values[out] as Float32Array;
                const want = copied.values[out] as Float32Array;
                expect(sameBits(got, want), `${label}: ${names[out]} is ${Array.from(got)}, with a copy ${Array.from(want)}`).toBe(true);
              }
              if (kinds[i].kind === 'out' && c.n > 0) expect.unreachable(`${label}: two outputs as one array were accepted`);
            } finally {
              aliased.release();
              copied.release();
            }
          }),
          params(2000 + index),
        );
      });

    it('a disposed solver: a TypeError naming the method', async () => {
      const disposed = await makeSolver(backend, MiB);
      disposed.dispose();
      fc.assert(
        fc.property(caseArb(kinds), (c) => {
          const arrays = new CallArrays(reference, reference).build(c);
          const before = arrays.snapshot();
          const { error } = timedCall(disposed, method, arrays.values);
          expect(error).toBeInstanceOf(TypeError);
          expect((error as Error).message).toBe(`${method}: this solver has been disposed`);
          expect(arrays.snapshot()).toEqual(before);
        }),
        { ...params(3000 + index), numRuns: Math.min(RUNS, 3) },
      );
    });
  });
});
