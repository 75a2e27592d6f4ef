/**
 * Builds the arguments of a fuzzed Solver call from a table entry (test/fuzz/table.ts) and a
 * drawn case, with canary floats around every operand, and checks what the call left behind.
 */
import fc from 'fast-check';
import type { Solver } from '../../dist/index.js';
import type { ArgKind, ArrayKind, ParamKind } from './table.js';

/** Runs per property (FUZZ_RUNS or VITE_FUZZ_RUNS for a longer run), and the seed (FUZZ_SEED). */
const env: Record<string, string | undefined> =
  (globalThis as { process?: { env: Record<string, string> } }).process?.env ??
  (import.meta as unknown as { env: Record<string, string> }).env ??
  {};
export const RUNS = Number(env.FUZZ_RUNS ?? env.VITE_FUZZ_RUNS ?? 12);
export const SEED = Number(env.FUZZ_SEED ?? env.VITE_FUZZ_SEED ?? 20250611);

/** The hang detector: every call must return within this (a generous bound, not a benchmark). */
export const CALL_MS = 1000;

/**
 * State floats: moderate ones mostly, and any up to ±STATE_MAX (subnormals and ±0 included). The
 * SIMD kernels compute in float32, whose intermediates (x − g, s·x·dt²) overflow for states
 * near 3.4e38; the documented state range is |x| ≤ 1e6 (README, "Value ranges").
 */
export const STATE_MAX = 1e6;
export const STATE_MIN = 1e-30;
export const stateFloat = fc
  .oneof(
    { weight: 3, arbitrary: fc.float({ min: -100, max: 100, noNaN: true }) },
    { weight: 1, arbitrary: fc.float({ min: -STATE_MAX, max: STATE_MAX, noNaN: true }) },
  )
  .map((v) => (Math.abs(v) < STATE_MIN ? 0 : v));

/**
 * Parameters: 0 (or PARAM_MIN for a rule > 0) and [PARAM_MIN, PARAM_MAX]: float32's smallest
 * normal number up to 1e30. Above 1e30 pdSpring's SIMD lanes still overflow where the float64
 * reference does not (docs/DECISIONS.md "Accepted ranges"); the core springs are checked up to
 * float32's largest number in test/families/huge-parameters.test.ts.
 */
export const PARAM_MIN = 1.1754943508222875e-38; // 2^-126
export const PARAM_MAX = Math.fround(1e30);

function paramFloat(rule: ParamKind['rule']): fc.Arbitrary<number> {
  if (rule === 'gain') return fc.oneof(fc.constantFrom(0, 1), fc.float({ min: 0, max: 1, noNaN: true }));
  if (rule === 'slerpT')
    return fc.oneof(fc.constantFrom(0, 1, 1000), fc.float({ min: 0, max: 1000, noNaN: true })).map((v) => (Object.is(v, -0) ? 0 : v));
  const lowest = rule === 'positive' ? PARAM_MIN : 0;
  return fc
    .oneof(
      { weight: 1, arbitrary: fc.constant(lowest) },
      { weight: 3, arbitrary: fc.float({ min: Math.fround(Math.max(lowest, 1e-3)), max: 100, noNaN: true }) },
      { weight: 2, arbitrary: fc.float({ min: Math.fround(Math.max(lowest, PARAM_MIN)), max: PARAM_MAX, noNaN: true }) },
    )
    .map((v) => (Object.is(v, -0) ? 0 : v));
}

/** dt: 0, a frame, or any finite float64 ≥ 0 (huge and subnormal ones included). */
export const dtArb = fc
  .oneof(
    fc.constantFrom(0, 1 / 60, 1 / 30, 0.1),
    fc.double({ min: 1e-6, max: 10, noNaN: true }),
    fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
    fc.double({ min: 0, max: 1e-300, noNaN: true }),
  )
  .map((v) => (Object.is(v, -0) ? 0 : v));

/** gainDt: the accepted range (docs/DECISIONS.md, "Accepted ranges"). */
export const GAIN_DT_MIN = 2 ** -60;
export const GAIN_DT_MAX = 2 ** 60;
const gainDtArb = fc.oneof(
  fc.constantFrom(1 / 60, GAIN_DT_MIN, GAIN_DT_MAX),
  fc.double({ min: GAIN_DT_MIN, max: GAIN_DT_MAX, noNaN: true }),
);

/** Where an array lives: solver memory, a plain array, or another solver's memory (copied). */
export type Placement = 'alloc' | 'plain' | 'foreign';
const placementArb = fc.constantFrom<Placement>('alloc', 'alloc', 'plain', 'foreign');

/** A drawn value for one argument (arrays: their floats; per-element params: one per element). */
export type Drawn =
  | { kind: 'array'; values: number[]; placement: Placement }
  | { kind: 'number'; value: number | undefined }
  | { kind: 'perElement'; values: number[]; placement: Placement }
  | { kind: 'options'; value: unknown };

export interface Case {
  n: number;
  count: number;
  args: Drawn[];
}

function widthOf(kind: ArrayKind, count: number): number {
  return kind.width === 'count' ? count : kind.width;
}

/** A valid case for a method's argument list. */
export function caseArb(kinds: ArgKind[]): fc.Arbitrary<Case> {
  return fc
    .record({ n: fc.integer({ min: 0, max: 9 }), count: fc.integer({ min: 1, max: 5 }) })
    .chain(({ n, count }) => fc.tuple(...kinds.map((kind) => argArb(kind, n, count))).map((args) => ({ n, count, args })));
}

function argArb(kind: ArgKind, n: number, count: number): fc.Arbitrary<Drawn> {
  switch (kind.kind) {
    case 'in':
    case 'out': {
      const length = n * widthOf(kind, count);
      return fc
        .record({ values: fc.array(stateFloat, { minLength: length, maxLength: length }), placement: placementArb })
        .map(({ values, placement }) => ({ kind: 'array' as const, values, placement }));
    }
    case 'param': {
      const value = paramFloat(kind.rule);
      const perElement = fc
        .record({ values: fc.array(value, { minLength: n, maxLength: n }), placement: placementArb })
        .map(({ values, placement }) => ({ kind: 'perElement' as const, values, placement }));
      const uniform = (kind.optional ? fc.option(value, { nil: undefined }) : value).map((v) => ({ kind: 'number' as const, value: v }));
      return fc.oneof(uniform, perElement);
    }
    case 'dt':
      return dtArb.map((value) => ({ kind: 'number' as const, value }));
    case 'gainDt':
      return gainDtArb.map((value) => ({ kind: 'number' as const, value }));
    case 'count':
      return fc.constant({ kind: 'number' as const, value: count });
    case 'pdOptions':
      return fc
        .constantFrom(
          undefined,
          {},
          { integrator: 'explicit' },
          { integrator: 'semi-implicit' },
          { integrator: 'implicit' },
          { integrator: 'exact' },
        )
        .map((value) => ({ kind: 'options' as const, value }));
  }
}

/** The canary pattern: a NaN payload no kernel writes. */
const CANARY_BITS = 0x7fa5a5a5;
const CANARY_FLOATS = 4;

/** The Float32Arrays of one call and its canaries, allocated from `solver` (and `foreign`). */
export class CallArrays {
  /** The argument values, in order (arrays, numbers, options). */
  readonly values: unknown[] = [];
  private readonly allocated: [Solver, Float32Array][] = [];
  private readonly canaries: Float32Array[] = [];

  constructor(
    private readonly solver: Solver,
    private readonly foreign: Solver,
  ) {}

  /** Builds the arguments of `c`. */
  build(c: Case): this {
    for (const drawn of c.args) {
      if (drawn.kind === 'array' || drawn.kind === 'perElement') this.values.push(this.array(drawn.values, drawn.placement));
      else this.values.push(drawn.value);
    }
    return this;
  }

  /** A Float32Array holding `values`, placed as asked, between two canaries. */
  array(values: number[], placement: Placement): Float32Array {
    const owner = placement === 'alloc' ? this.solver : placement === 'foreign' ? this.foreign : null;
    let array: Float32Array;
    if (owner) {
      const [before, a, after] = [CANARY_FLOATS, values.length, CANARY_FLOATS].map((length) => owner.alloc(length));
      for (const canary of [before, after]) this.allocated.push([owner, canary]);
      this.allocated.push([owner, a]);
      this.canaries.push(before, after);
      array = a;
    } else {
      const whole = new Float32Array(values.length + 2 * CANARY_FLOATS);
      this.canaries.push(whole.subarray(0, CANARY_FLOATS), whole.subarray(CANARY_FLOATS + values.length));
      array = whole.subarray(CANARY_FLOATS, CANARY_FLOATS + values.length);
    }
    for (const canary of this.canaries.slice(-2)) new Uint32Array(canary.buffer, canary.byteOffset, canary.length).fill(CANARY_BITS);
    array.set(values);
    return array;
  }

  /** True when every canary still holds its pattern. */
  canariesIntact(): boolean {
    return this.canaries.every((c) => new Uint32Array(c.buffer, c.byteOffset, c.length).every((bits) => bits === CANARY_BITS));
  }

  /** The bits of every array argument and canary, to show that a rejected call wrote nothing. */
  snapshot(): number[][] {
    const arrays = [...this.values.filter((v): v is Float32Array => v instanceof Float32Array && v.length > 0), ...this.canaries];
    return arrays.map((a) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length)));
  }

  release(): void {
    for (const [owner, array] of this.allocated) owner.free(array);
    this.allocated.length = 0;
  }
}

/** Calls `method` of `solver` with `args`, measuring the time; returns the error thrown, if any. */
export function timedCall(solver: Solver, method: string, args: unknown[]): { error: unknown; ms: number } {
  const fn = (solver as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
  const start = performance.now();
  let error: unknown = null;
  try {
    fn.apply(solver, args);
  } catch (e) {
    error = e;
  }
  return { error, ms: performance.now() - start };
}

/** Plain copies of the arrays among `args` (numbers and options as they are). */
export function plainCopies(args: unknown[]): unknown[] {
  return args.map((a) => (a instanceof Float32Array ? Float32Array.from(a) : a));
}

/** A message naming the method and the argument: "method: …name…". */
export function namesArgument(error: unknown, method: string, name: string): boolean {
  if (!(error instanceof TypeError || error instanceof RangeError)) return false;
  return error.message.startsWith(`${method}: `) && new RegExp(`\\b${name}\\b`).test(error.message);
}
