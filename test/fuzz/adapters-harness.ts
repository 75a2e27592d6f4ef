/**
 * What the fuzz of the adapters (spring-solver/three: test/fuzz/three.test.ts, spring-solver/vrm:
 * test/fuzz/vrm.test.ts) shares: the solvers a constructor may be given, arbitraries of mostly
 * accepted values, and `attempt`, which checks a call's success or refusal.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import fc from 'fast-check';
import { createSolver, type Solver } from '../../dist/index.js';
import { SEED } from './harness.js';
import { STATEFUL_RUNS } from './stateful-harness.js';

/** Fewer runs than the stateful fuzz: each builds three.js objects (a crowd parses the BVH, an avatar builds its chains). */
export const RUNS = Math.max(10, Math.round(STATEFUL_RUNS / 5));
/** fast-check's parameters of property `offset` of a file whose seeds start at SEED + `base`. */
export const adapterParams = (base: number, offset: number) => ({ numRuns: RUNS, seed: SEED + base + offset, endOnFailure: true });

/** The solver a constructor is given: a live one of either backend, a disposed one, or an object that is not a solver. */
export type SolverKind = 'simd' | 'js' | 'disposed' | 'none';

/** The solvers of each kind, for the test file (created before its tests, disposed after them). */
export function useAdapterSolvers(): Record<SolverKind, Solver> {
  const solvers = {} as Record<SolverKind, Solver>;
  beforeAll(async () => {
    solvers.simd = await createSolver({ backend: 'simd', warnLargeDt: false });
    solvers.js = await createSolver({ backend: 'js', warnLargeDt: false });
    solvers.disposed = await createSolver({ backend: 'js' });
    solvers.disposed.dispose();
    solvers.none = { alloc: () => new Float32Array(0) } as unknown as Solver;
  });
  afterAll(() => {
    solvers.simd.dispose();
    solvers.js.dispose();
  });
  return solvers;
}

export const solverArb = fc.constantFrom<SolverKind>('simd', 'simd', 'js', 'js', 'disposed', 'none');

/** Mostly accepted values, sometimes not (so that most runs get past the constructor). */
export const mostly = (good: readonly unknown[], bad: readonly unknown[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
/** dt (s). */
export const dtArb = mostly([1 / 60, 0, 0.5, 1e-6, 30, 1e6], [-1, -0, Number.NaN, Number.POSITIVE_INFINITY, '1']);
/** How many arguments past the last one a call is given: mostly none. */
export const extraArb = fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) });

/** three.js and three-vrm private fields (a message names what the user gave, never these), and an unnamed object as "". */
const PRIVATE =
  /\b_(bindings|nActiveBindings|accuIndex|origIndex|currentTail|prevTail|boneAxis|initialLocal\w*|worldSpaceBoneLength|center\w*)\b|""/;

/**
 * Runs `call`: on success returns true; on a throw checks that it is a TypeError or RangeError
 * starting with `cls` (then ": " or "."), naming one of `names` and no private field, and that
 * `state()` is as before.
 */
export function attempt(label: string, cls: string, names: readonly string[], call: () => void, state: () => unknown): boolean {
  const before = state();
  try {
    call();
    return true;
  } catch (error) {
    const message = String((error as Error)?.message);
    expect(error instanceof TypeError || error instanceof RangeError, `${label}: ${String(error)}`).toBe(true);
    expect(message.startsWith(`${cls}: `) || message.startsWith(`${cls}.`), `${label}: ${message}`).toBe(true);
    expect(
      names.some((name) => new RegExp(`(^|[^\\w.])${name.replace(/[.[\]]/g, '\\$&')}\\b`).test(message)),
      `${label}: "${message}" names none of ${names.join(', ')}`,
    ).toBe(true);
    expect(message, `${label}: a private field or "" in the message`).not.toMatch(PRIVATE);
    expect(state(), `${label}: a rejected call wrote (${message})`).toEqual(before);
    return false;
  }
}

export const floats = (a: ArrayLike<number> | null | undefined) => (a ? Array.from(a) : null);
export const allFinite = (a: ArrayLike<number>) => Array.prototype.every.call(a, Number.isFinite);
