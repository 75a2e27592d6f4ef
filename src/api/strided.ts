/**
 * Springs on strided data, in place: the translation column of instance matrices (stride 16,
 * offset 12, width 3), an interleaved vertex attribute, or any array where item i is `width`
 * floats from `offset + i·stride`. On the wasm backends every array must come from the
 * solver's `alloc` (that is the point: no copy); the JS backend takes any Float32Array.
 * Kernel: assembly/kernels/strided-spring.ts; float64 reference: src/reference/strided-spring.ts.
 */
import type { Solver } from './solver.js';
import type { SolverBase } from './solver.js';
import { SpringMode } from '../core/types.js';
import type { WasmSolver } from '../backends/wasm/wasm-solver.js';
import { checkNumber, checkOptions, describe } from '../core/validate.js';
import { checkDt } from '../core/dt.js';
import { N_ARGUMENT } from '../backends/wasm/threads/split.js';
import { springStrided as referenceStrided, type StridedOperand } from '../reference/strided-spring.js';

/**
 * Where the items of an operand are: item i is `array[offset + i·stride + c]`, c < width.
 * @group Core springs
 */
export interface Strided {
  array: Float32Array;
  /** Index of item 0's first float (default 0). */
  offset?: number;
  /** Floats from one item to the next, ≥ width (default: width, i.e. packed). */
  stride?: number;
}

/**
 * The items a strided spring updates: x and v in place, toward g (goal 0 if absent) with goal velocity q (0 if absent).
 * @group Core springs
 */
export interface StridedItems {
  x: Strided;
  v: Strided;
  g?: Strided | null;
  q?: Strided | null;
  /** Floats per item (3 for a position). */
  width: number;
  /** Number of items. */
  count: number;
}

/**
 * The spring's parameters, one set for every item: `{ halflife }` is the critical spring,
 * `{ frequency, halflife }` springDamper, `{ dampingRatio, halflife }` springDamperRatio,
 * `{ stiffness, damping }` springDamperStiffness (units as in {@link Solver}).
 * @group Core springs
 */
export type StridedSpringParams =
  | { halflife: number; frequency?: undefined; dampingRatio?: undefined }
  | { frequency: number; halflife: number }
  | { dampingRatio: number; halflife: number }
  | { stiffness: number; damping: number };

const METHOD = 'springStrided';
const memoryBuffers = new WeakMap<Solver, ArrayBufferLike>();

/**
 * Steps `x'' = s·(g − x) + d·(q − v)` exactly by dt on strided items. Nothing is written when an
 * argument is rejected. Outputs (x, v) may share a buffer with other operands only in disjoint
 * slots of the same stride (interleaved), or in disjoint ranges.
 * @example
 * ```ts
 * import { createSolver, springStrided } from 'spring-solver';
 * const solver = await createSolver();
 * // 10 interleaved vertices of 6 floats (position xyz, normal xyz): spring the positions only
 * const x = solver.alloc(60), v = solver.alloc(30), g = solver.alloc(30).fill(1);
 * const items = { x: { array: x, stride: 6 }, v: { array: v }, g: { array: g }, width: 3, count: 10 };
 * springStrided(solver, items, { halflife: 0.2 }, 1 / 60); // halflife 0.2 s, dt 1/60 s
 * ```
 * @group Core springs
 */
export function springStrided(solver: Solver, items: StridedItems, params: StridedSpringParams, dt: number): void {
  checkSolver(solver);
  const [mode, p0, p1] = springParams(params);
  checkDt(solver, METHOD, dt);
  prepared(solver, items)(mode, p0, p1, dt);
}

/**
 * The layout checked once, for a loop that springs the same items every frame (InstancedSprings,
 * AttributeSprings): the returned function checks only the solver's life, the parameters and dt.
 * The arrays must stay allocated meanwhile (solver memory never moves, so pointers stay valid).
 * @internal
 */
export function prepareSpringStrided(solver: Solver, items: StridedItems): (params: StridedSpringParams, dt: number) => void {
  checkSolver(solver);
  const run = prepared(solver, items);
  return (params, dt) => {
    (solver as unknown as SolverBase).checkLive(METHOD);
    const [mode, p0, p1] = springParams(params);
    checkDt(solver, METHOD, dt);
    run(mode, p0, p1, dt);
  };
}

function checkSolver(solver: Solver): void {
  const base = solver as unknown as SolverBase;
  if (typeof base?.checkLive !== 'function') throw new TypeError(`${METHOD}: solver must be a Solver, got ${describe(solver)}`);
  base.checkLive(METHOD);
}

/** Checks the items; returns the kernel call on them (parameters already checked). */
function prepared(solver: Solver, items: StridedItems): (mode: SpringMode, p0: number, p1: number, dt: number) => void {
  if (typeof items !== 'object' || items === null) throw new TypeError(`${METHOD}: items must be an object, got ${describe(items)}`);
  checkOptions(METHOD, items, ITEM_KEYS, 'items');
  const { width, count } = items;
  checkWhole('width', width, 1);
  checkWhole('count', count, 0);
  const x = operand('x', items.x, width, count);
  const v = operand('v', items.v, width, count);
  const g = items.g == null ? null : operand('g', items.g, width, count);
  const q = items.q == null ? null : operand('q', items.q, width, count);
  const named: [string, StridedOperand, boolean][] = [
    ['x', x, true],
    ['v', v, true],
  ];
  if (g) named.push(['g', g, false]);
  if (q) named.push(['q', q, false]);
  checkStridedOverlap(named, width, count);
  if (solver.backend === 'js') return (mode, p0, p1, dt) => referenceStrided(mode, x, v, g, q, count, width, p0, p1, dt);
  let buffer = memoryBuffers.get(solver);
  if (buffer === undefined) {
    buffer = solver.alloc(0).buffer;
    memoryBuffers.set(solver, buffer);
  }
  for (const [name, o] of named) {
    if (o.array.buffer !== buffer) {
      throw new TypeError(
        `${METHOD}: items.${name}.array is not in this solver's memory; on the ${solver.backend} backend it must come from solver.alloc (strided data is never copied)`,
      );
    }
  }
  const pointer = (o: StridedOperand | null) => (o ? o.array.byteOffset + o.offset * 4 : 0);
  const [px, pv, pg, pq] = [pointer(x), pointer(v), pointer(g), pointer(q)];
  const [gs, qs] = [g?.stride ?? 0, q?.stride ?? 0];
  const wasm = solver as unknown as WasmSolver;
  const kernels = wasm.exports;
  // Each operand's readable end (its items' last float, in the whole call): items of 3 floats run in
  // groups of 4 up to the last item whose 16-byte loads stay before it (assembly/kernels/strided-spring.ts),
  // and a threaded solver's chunks keep these ends, so their groups are those of one call.
  const end = (p: number, o: StridedOperand | null) => (o && count > 0 ? p + 4 * ((count - 1) * o.stride + width) : 0);
  const [ex, ev, eg, eq] = [end(px, x), end(pv, v), end(pg, g), end(pq, q)];
  // (the count is fixed: a call too small to split calls the export itself; the minimum is in springs, floats)
  // (items of 3 run the SIMD groups, much cheaper a float than the scalar loop: their own minimum, in items)
  if (width === 3 ? !wasm.splits('springStrided3', count) : !wasm.splits('springStrided', count * width))
    return (mode, p0, p1, dt) =>
      kernels.springStrided(px, x.stride, pv, v.stride, pg, gs, pq, qs, count, width, mode, p0, p1, dt, ex, ev, eg, eq);
  const fn = wasm.unsplitKernel('springStrided') as (...args: number[]) => number;
  const args = [px, x.stride, pv, v.stride, pg, gs, pq, qs, count, width, 0, 0, 0, 0, ex, ev, eg, eq];
  // (bytes an item of each argument: threads/split.ts; pointers 0, no goal, stay 0; the ends stay)
  const advances = [4 * x.stride, 0, 4 * v.stride, 0, 4 * gs, 0, 4 * qs, 0, N_ARGUMENT, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  return (mode, p0, p1, dt) => {
    args[10] = mode;
    args[11] = p0;
    args[12] = p1;
    args[13] = dt;
    wasm.threading!.split('springStrided', fn, args, advances);
  };
}

function checkWhole(name: string, value: unknown, min: number): void {
  if (typeof value !== 'number') throw new TypeError(`${METHOD}: items.${name} must be a number, got ${describe(value)}`);
  if (!Number.isInteger(value) || value < min || value > 2 ** 30) {
    throw new RangeError(`${METHOD}: items.${name} is ${value}; it must be a whole number ≥ ${min}`);
  }
}

/** The keys of StridedItems and of a Strided operand: any other is a typo (a `strid` would leave the stride at width). */
const ITEM_KEYS = ['x', 'v', 'g', 'q', 'width', 'count'] as const;
const OPERAND_KEYS = ['array', 'offset', 'stride'] as const;

/** The keys of each set of parameters: another key (a typo, or one of another set) would be ignored. */
const PARAM_KEYS = {
  stiffness: ['stiffness', 'damping'],
  frequency: ['frequency', 'halflife'],
  ratio: ['dampingRatio', 'halflife'],
  critical: ['halflife'],
} as const;

function springParams(params: StridedSpringParams): [SpringMode, number, number] {
  if (typeof params !== 'object' || params === null) throw new TypeError(`${METHOD}: params must be an object, got ${describe(params)}`);
  const p = params as Record<string, unknown>;
  const num = (name: string, rule: 'nonNegative' | 'positive') => checkNumber(METHOD, `params.${name}`, p[name], rule);
  const keys = (set: keyof typeof PARAM_KEYS) => checkOptions(METHOD, p, PARAM_KEYS[set], 'params');
  if ('stiffness' in p || 'damping' in p) {
    keys('stiffness');
    return [SpringMode.StiffnessDamping, num('stiffness', 'nonNegative'), num('damping', 'nonNegative')];
  }
  if (p.frequency !== undefined) {
    keys('frequency');
    return [SpringMode.FrequencyHalflife, num('frequency', 'nonNegative'), num('halflife', 'nonNegative')];
  }
  if (p.dampingRatio !== undefined) {
    keys('ratio');
    return [SpringMode.RatioHalflife, num('dampingRatio', 'positive'), num('halflife', 'nonNegative')];
  }
  keys('critical');
  return [SpringMode.Critical, num('halflife', 'nonNegative'), 0];
}

function operand(name: string, s: Strided, width: number, count: number): StridedOperand {
  if (typeof s !== 'object' || s === null)
    throw new TypeError(`${METHOD}: items.${name} must be an object { array, offset?, stride? }, got ${describe(s)}`);
  checkOptions(METHOD, s, OPERAND_KEYS, `items.${name}`);
  const { array, offset = 0, stride = width } = s;
  if (!(array instanceof Float32Array))
    throw new TypeError(`${METHOD}: items.${name}.array must be a Float32Array, got ${describe(array)}`);
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw new RangeError(`${METHOD}: items.${name}.offset is ${String(offset)}; it must be a whole number ≥ 0`);
  }
  if (typeof stride !== 'number' || !Number.isInteger(stride) || stride < width) {
    throw new RangeError(`${METHOD}: items.${name}.stride is ${String(stride)}; it must be a whole number ≥ width (${width})`);
  }
  const end = count === 0 ? 0 : offset + (count - 1) * stride + width;
  if (end > array.length) {
    throw new RangeError(
      `${METHOD}: items.${name} needs ${end} floats (offset ${offset}, ${count} items of ${width} every ${stride}); its array has ${array.length}`,
    );
  }
  return { array, offset, stride };
}

/**
 * Outputs may share floats with no other operand, except that an input may be the identical
 * view (same floats, same stride). Same-stride views in one buffer share a float exactly when
 * their offsets differ by less than `width` modulo the stride; views of different strides are
 * accepted only when their ranges are disjoint.
 */
function checkStridedOverlap(named: [string, StridedOperand, boolean][], width: number, count: number): void {
  if (count === 0) return;
  for (let i = 0; i < named.length; i++) {
    for (let j = i + 1; j < named.length; j++) {
      const [an, a, aOut] = named[i];
      const [bn, b, bOut] = named[j];
      if ((!aOut && !bOut) || a.array.buffer !== b.array.buffer) continue;
      const aStart = a.array.byteOffset / 4 + a.offset;
      const bStart = b.array.byteOffset / 4 + b.offset;
      const aEnd = aStart + (count - 1) * a.stride + width;
      const bEnd = bStart + (count - 1) * b.stride + width;
      if (aEnd <= bStart || bEnd <= aStart) continue;
      if (a.stride === b.stride) {
        if (aStart === bStart && !(aOut && bOut)) continue;
        const d = (((bStart - aStart) % a.stride) + a.stride) % a.stride;
        if (d >= width && d + width <= a.stride) continue;
      }
      throw new RangeError(
        `${METHOD}: items.${an} and items.${bn} share floats; an output must not overlap another operand ` +
          '(interleaved operands need the same stride and disjoint slots)',
      );
    }
  }
}
