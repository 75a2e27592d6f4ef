/**
 * The memory model: alloc() arrays are zeroed, used in place, never detached; capacity is
 * fixed (memoryBytes) and reported by a RangeError; free() coalesces; plain and allocated arrays
 * can be mixed in one call with the same result.
 */
import { describe, expect, it } from 'vitest';
import type { Param, Solver } from '../../dist/index.js';
import { BACKENDS, FUNCTIONS, callKernel, isWasm, makeSolver } from '../helpers/backends.js';
import { fillState, integer, mulberry32, springParams } from '../helpers/random.js';

const MiB = 1024 * 1024;
const WASM_BACKENDS = BACKENDS.filter(isWasm);

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

/** Allocates the largest array that still fits (binary search on alloc's RangeError). */
function allocLargest(solver: Solver): Float32Array | null {
  let lo = 0; // fits (0 always does)
  let hi = 1 << 29; // does not fit (2 GiB)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    try {
      solver.free(solver.alloc(mid));
      lo = mid;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      hi = mid;
    }
  }
  return lo > 0 ? solver.alloc(lo) : null;
}

/** Fills the solver's memory completely; returns the arrays taken. */
function fillUp(solver: Solver): Float32Array[] {
  const taken: Float32Array[] = [];
  for (let a = allocLargest(solver); a; a = allocLargest(solver)) taken.push(a);
  return taken;
}

describe.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend) => {
  it('alloc returns zeroed arrays, also when it reuses freed (dirty) memory', async () => {
    const solver = await makeSolver(backend, MiB);
    for (const length of [1, 3, 4, 1000, 16_385]) {
      const a = solver.alloc(length);
      expect(a.length).toBe(length);
      expect(a.every((value) => Object.is(value, 0))).toBe(true);
      a.fill(-7.5);
      solver.free(a);
      const b = solver.alloc(length);
      expect(
        b.every((value) => Object.is(value, 0)),
        `length ${length} after reuse`,
      ).toBe(true);
      solver.free(b);
    }
    solver.dispose();
  });

  it('runs kernels in place: the result is in the same array object, visible through any view of it', async () => {
    const solver = await makeSolver(backend, MiB);
    const n = 1003;
    const [x, v, g, q] = [0, 0, 0, 0].map(() => solver.alloc(n));
    const halflife = solver.alloc(n);
    const rng = mulberry32(1);
    fillState(rng, x, v, g, q);
    for (let i = 0; i < n; i++) halflife[i] = 0.05 + rng();
    const alias = new Float32Array(x.buffer, x.byteOffset, x.length); // a second view, made before the call
    const [xPlain, vPlain] = [Float32Array.from(x), Float32Array.from(v)];
    const xBefore = bits(x);
    const buffer = x.buffer;
    solver.criticalSpringDamper(x, v, g, q, halflife, 0.1);
    solver.criticalSpringDamper(xPlain, vPlain, Float32Array.from(g), Float32Array.from(q), Float32Array.from(halflife), 0.1);
    // The same results as the copy path, in the arrays handed in.
    expect(bits(x)).toEqual(bits(xPlain));
    expect(bits(v)).toEqual(bits(vPlain));
    expect(bits(alias)).toEqual(bits(x));
    expect(x.buffer).toBe(buffer);
    expect(x.length).toBe(n);
    expect(bits(x)).not.toEqual(xBefore); // the call did move x
    if (isWasm(backend)) {
      // Every allocated array is a view of the solver's one memory.
      for (const a of [v, g, q, halflife]) expect(a.buffer).toBe(x.buffer);
    }
    solver.dispose();
  });

  it('never detaches or shrinks an allocated array (many arrays, kernels, frees and new allocs)', async () => {
    const solver = await makeSolver(backend, 8 * MiB);
    const rng = mulberry32(2);
    const live: { array: Float32Array; length: number; seed: number }[] = [];
    const pattern = (seed: number, i: number) => Math.fround(seed + i / 4096);
    const allocate = () => {
      const length = integer(rng, 1, 6000);
      const seed = live.length + 1;
      const array = solver.alloc(length);
      for (let i = 0; i < length; i++) array[i] = pattern(seed, i);
      live.push({ array, length, seed });
    };
    const checkAll = (when: string) => {
      for (const { array, length, seed } of live) {
        expect(array.length, when).toBe(length);
        expect(array.byteLength, when).toBe(4 * length);
        let same = true;
        for (let i = 0; i < length && same; i++) same = array[i] === pattern(seed, i);
        expect(same, `${when}: contents of array ${seed}`).toBe(true);
      }
    };
    for (let i = 0; i < 300; i++) allocate();
    checkAll('after 300 allocs');
    // Kernels on other arrays: allocated (in place) and plain (copied through scratch memory).
    for (let round = 0; round < 5; round++) {
      const n = 20_000;
      const own = [0, 0, 0, 0].map(() => solver.alloc(n));
      fillState(rng, own[0], own[1], own[2], own[3]);
      solver.springDamper(own[0], own[1], own[2], own[3], 1.5, 0.3, 1 / 60);
      const plain = [0, 0, 0, 0].map(() => new Float32Array(n + round));
      solver.springDamperRatio(plain[0], plain[1], plain[2], plain[3], 0.5, 0.2, 1 / 30);
      solver.damper(own[0], own[2], new Float32Array(n).fill(0.1), 0.5);
      for (const a of own) solver.free(a);
      checkAll(`after kernel round ${round}`);
    }
    // Free every other array, allocate more: the survivors are untouched.
    for (let i = live.length - 1; i >= 0; i -= 2) {
      solver.free(live[i].array);
      live.splice(i, 1);
    }
    for (let i = 0; i < 200; i++) allocate();
    checkAll('after frees and 200 more allocs');
    // Another solver's memory does not disturb this one.
    const other = await makeSolver(backend, 4 * MiB);
    other.alloc(MiB / 4).fill(3);
    checkAll('after another solver was created');
    other.dispose();
    solver.dispose();
  });

  it('a default solver holds 64 MiB of arrays (16 of 1 Mi floats)', async () => {
    const solver = await makeSolver(backend);
    const arrays = Array.from({ length: 16 }, () => solver.alloc(1 << 20));
    arrays.forEach((a, k) => a.fill(k + 0.5));
    // Kernels over some of them, in place: halflife 0 snaps the decay spring to (0, 0) and the
    // damper's x to its goal.
    solver.decaySpringDamper(arrays[3], arrays[4], 0, 1 / 60);
    solver.damper(arrays[5], arrays[6], 0, 1 / 60);
    arrays.forEach((a, k) => {
      const expected = k === 3 || k === 4 ? 0 : k === 5 ? 6.5 : k + 0.5;
      expect(a.length).toBe(1 << 20);
      expect(a[0] === expected && a[(1 << 20) - 1] === expected && a.every((value) => value === expected), `array ${k}`).toBe(true);
    });
    solver.dispose();
  });

  it.each(FUNCTIONS.map((fn) => [fn.name, fn] as const))(
    '%s: allocated and plain arrays mixed in one call give the all-plain result, bit for bit',
    async (_name, fn) => {
      // Every element goes through the same arithmetic on either path (copy chunks hold a
      // multiple of 4 elements, so the SIMD body/scalar tail split is the same): equality is exact.
      const solver = await makeSolver(backend, 4 * MiB);
      const n = 20_011; // > 16,384: the plain operands are copied in two chunks
      const rng = mulberry32(3);
      const base = [0, 0, 0, 0].map(() => new Float32Array(n));
      fillState(rng, base[0], base[1], base[2], base[3]);
      const params = fn.params.map(() => new Float32Array(n));
      for (let i = 0; i < n; i++) springParams(rng, fn.name).forEach((value, k) => (params[k][i] = value));
      const names = ['x', 'v', 'g', 'q', ...fn.params.map((_, k) => `p${k}`)];
      const sources = [...base, ...params];
      const run = (allocated: (index: number) => boolean, uniform: boolean): number[][] => {
        const owned: Float32Array[] = [];
        const operands = sources.map((source, index) => {
          if (!allocated(index)) return Float32Array.from(source);
          // Allocated arrays, some of them unaligned subarrays.
          const shift = index % 3;
          const block = solver.alloc(n + shift);
          owned.push(block);
          const view = block.subarray(shift, shift + n);
          view.set(source);
          return view;
        });
        const [x, v, g, q, ...p] = operands;
        const ps: Param[] = uniform ? fn.params.map((_, k) => params[k][0]) : p;
        callKernel(solver, fn.name, x, v, g, q, ps, 0.05);
        const result = [bits(x), bits(v)];
        for (const block of owned) solver.free(block);
        return result;
      };
      for (const uniform of [false, true]) {
        const plain = run(() => false, uniform);
        const mixes: [string, (index: number) => boolean][] = [
          ['all allocated', () => true],
          ['x, g and even parameters allocated', (index) => index === 0 || index === 2 || (index >= 4 && index % 2 === 0)],
          ['v, q and odd parameters allocated', (index) => index === 1 || index === 3 || (index >= 4 && index % 2 === 1)],
        ];
        for (const [label, allocated] of mixes) {
          const mixed = run(allocated, uniform);
          expect(mixed[0], `${label}: x (${names.join(', ')}; uniform ${uniform})`).toEqual(plain[0]);
          expect(mixed[1], `${label}: v`).toEqual(plain[1]);
        }
      }
      solver.dispose();
    },
  );
});

describe.each(WASM_BACKENDS.map((b) => [b] as const))('%s backend: fixed capacity', (backend) => {
  it('holds at least memoryBytes, then alloc throws a RangeError that mentions memoryBytes', async () => {
    const solver = await makeSolver(backend, MiB);
    const taken = fillUp(solver);
    const bytes = taken.reduce((sum, a) => sum + a.byteLength, 0);
    expect(bytes).toBeGreaterThanOrEqual(MiB);
    expect(bytes).toBeLessThan(MiB + 65_536); // memory comes in 64 KiB pages: at most one more
    for (const length of [1, 1000, 1 << 20]) {
      let error: unknown;
      try {
        solver.alloc(length);
      } catch (e) {
        error = e;
      }
      expect(error, `alloc(${length})`).toBeInstanceOf(RangeError);
      expect((error as Error).message).toMatch(new RegExp(`^alloc: length ${length} .*memoryBytes`));
    }
    // Full memory does not break kernels on plain arrays (they use the separate scratch area): after one
    // halflife, halfway to the goal.
    const x = new Float32Array(20_000).fill(1);
    solver.damper(x, new Float32Array(20_000), 0.5, 0.5);
    expect(x.every((value) => value === 0.5)).toBe(true);
    solver.dispose();
  });

  it('a single array larger than memoryBytes is refused', async () => {
    const solver = await makeSolver(backend, MiB);
    expect(() => solver.alloc(MiB)).toThrow(RangeError); // 4 MiB
    expect(() => solver.alloc(MiB)).toThrow(/memoryBytes/);
    solver.dispose();
  });

  it('free then alloc reuses the space, coalescing neighbours', async () => {
    const solver = await makeSolver(backend, MiB);
    const quarter = MiB / 16; // floats in 256 KiB
    const [a, b, c] = [solver.alloc(quarter), solver.alloc(quarter), solver.alloc(quarter)];
    const rest = fillUp(solver);
    expect(() => solver.alloc(1)).toThrow(RangeError);
    // One freed block is reused for an array of its size, at the same place.
    solver.free(b);
    expect(() => solver.alloc(quarter + 4)).toThrow(RangeError);
    const b2 = solver.alloc(quarter);
    expect(b2.byteOffset).toBe(b.byteOffset);
    // Two neighbours, freed (first then second), coalesce into one block of their combined size.
    solver.free(a);
    solver.free(b2);
    const ab = solver.alloc(2 * quarter);
    expect(ab.byteOffset).toBe(a.byteOffset);
    // Freed in the other order (second then first), too.
    solver.free(c);
    solver.free(ab);
    const abc = solver.alloc(3 * quarter);
    expect(abc.byteOffset).toBe(a.byteOffset);
    // Three blocks freed outer ones first, the middle last, merge on both sides.
    solver.free(abc);
    const [p, m, r] = [solver.alloc(quarter), solver.alloc(quarter), solver.alloc(quarter)];
    solver.free(p);
    solver.free(r);
    expect(() => solver.alloc(2 * quarter)).toThrow(RangeError);
    solver.free(m);
    const pmr = solver.alloc(3 * quarter);
    expect(pmr.byteOffset).toBe(p.byteOffset);
    // Freeing everything gives back the whole capacity as one block.
    solver.free(pmr);
    for (const array of rest) solver.free(array);
    expect(allocLargest(solver)!.byteLength).toBeGreaterThanOrEqual(MiB);
    solver.dispose();
  });
});
