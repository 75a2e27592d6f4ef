/**
 * Runs one call of a stateful object (Inertializer, SecondOrderDynamics, FixedStepper) on every
 * backend in lockstep, the JS backend first (its float64 reference is the oracle), and checks what
 * holds for every call: each returns within CALL_MS; the backends agree on whether it throws (the
 * same class and message, since the checks are shared code); a call that throws leaves every state
 * array byte for byte as it was.
 */
import { expect } from 'vitest';
import type { Backend } from '../../dist/index.js';
import { CALL_MS, namesArgument } from './harness.js';

/** The JS backend first: its result is the oracle of the others. */
export const ORDER: readonly Backend[] = ['js', 'simd', 'wasm'];

/** Runs per property of the stateful fuzz (FUZZ_RUNS or VITE_FUZZ_RUNS for a longer run). */
const env: Record<string, string | undefined> =
  (globalThis as { process?: { env: Record<string, string> } }).process?.env ??
  (import.meta as unknown as { env: Record<string, string> }).env ??
  {};
export const STATEFUL_RUNS = Number(env.FUZZ_RUNS ?? env.VITE_FUZZ_RUNS ?? 150);

/** The bits of every float of `arrays`, to compare a state before and after a call. */
export function bits(arrays: readonly Float32Array[]): number[][] {
  return arrays.map((a) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length)));
}

const summary = (error: unknown) => (error === null ? 'returned' : `${(error as Error).constructor?.name}: ${(error as Error).message}`);

/**
 * Calls `call(backend)` on each backend; `state(backend)` lists the object's state arrays (empty
 * once disposed). Returns the error the JS backend threw, or null.
 */
export function lockstep(label: string, call: (backend: Backend) => void, state: (backend: Backend) => readonly Float32Array[]): unknown {
  const errors = new Map<Backend, unknown>();
  for (const backend of ORDER) {
    const before = bits(state(backend));
    let error: unknown = null;
    const start = performance.now();
    try {
      call(backend);
    } catch (e) {
      error = e;
    }
    const ms = performance.now() - start;
    expect(ms, `${label} on ${backend}: call time (ms)`).toBeLessThan(CALL_MS);
    if (error !== null) expect(bits(state(backend)), `${label} on ${backend}: a rejected call wrote`).toEqual(before);
    errors.set(backend, error);
  }
  for (const backend of ORDER) expect(summary(errors.get(backend)), `${label} on ${backend}`).toBe(summary(errors.get('js')));
  return errors.get('js');
}

/** A rejected call: a TypeError or RangeError whose message starts with `method: ` and names `argument`. */
export function expectNamed(label: string, error: unknown, method: string, argument: string): void {
  expect(namesArgument(error, method, argument), `${label}: ${String(error)}`).toBe(true);
}

/** Where the JS backend's value is finite, the other's is too (the first index where not, or −1). */
export function firstNonFinite(got: ArrayLike<number>, want: ArrayLike<number>): number {
  for (let i = 0; i < want.length; i++) if (Number.isFinite(want[i]) && !Number.isFinite(got[i])) return i;
  return -1;
}

/** The first index where |got − want| exceeds tolerance(i) (NaN included), or −1. */
export function firstBeyond(got: ArrayLike<number>, want: ArrayLike<number>, tolerance: (i: number) => number): number {
  for (let i = 0; i < want.length; i++) if (!(Math.abs(got[i] - want[i]) <= tolerance(i))) return i;
  return -1;
}
