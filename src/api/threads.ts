/**
 * createSolver({ threads }) above 1: how many threads, whether they can run here, and the threaded
 * SIMD solver itself (the threaded build on a shared memory, its workers started). Where threads
 * cannot run, the reason goes to `solver.threadsReason` and is warned once, as fallbacks are
 * (src/api/fallback.ts); the solver then runs on one thread, as with `threads: 1`. Imported by
 * createSolver only then, so bundles of one-thread apps leave it (and the pool) in a lazy chunk.
 */
import { WasmSolver, createMemory } from '../backends/wasm/wasm-solver.js';
import { describeError, instantiateBuild, type WasmSource } from '../backends/wasm/load.js';
import { compileThreadedBuild } from '../backends/wasm/threaded-build.js';
import { ThreadPool } from '../backends/wasm/threads/pool.js';
import { Threading } from '../backends/wasm/threads/threaded.js';
import { reportedCores } from '../backends/wasm/threads/spawn.js';
import { simdSupported } from '../backends/wasm/simd-support.js';
import type { Backend } from '../core/types.js';
import type { OnFallback } from './fallback.js';
import type { Solver, SolverBase } from '../base/solver.js';

/**
 * A thread count, or 'auto': the cores the platform reports, at most 8 (see createSolver's `threads`).
 * @group Setup
 */
export type ThreadsOption = number | 'auto';

/** 'auto' runs at most this many threads: past it, memory bandwidth, not cores, bounds most calls (docs/DECISIONS.md, "Threads"). */
export const AUTO_THREADS_MAX = 8;

/** How long a worker may take to start and instantiate the module. */
const START_MS = 10_000;

/** The thread count asked for: 'auto' as the cores the platform reports, capped. */
export async function threadsWanted(threads: ThreadsOption): Promise<number> {
  return threads === 'auto' ? Math.min(await reportedCores(), AUTO_THREADS_MAX) : threads;
}

/** Why threads cannot run here before trying (a forced backend other than SIMD, no SIMD, no shared memory), or null. */
export function threadsUnavailable(backend: Backend | undefined): string | null {
  if (backend === 'js' || backend === 'wasm') return `threads run on the SIMD backend only, and backend '${backend}' was asked for`;
  if (!simdSupported()) return 'threads run on the SIMD backend only, which this JavaScript engine does not support';
  if (typeof SharedArrayBuffer === 'undefined' || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === false) {
    return (
      'SharedArrayBuffer is not available: the page is not cross-origin isolated (serve it with the headers ' +
      'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)'
    );
  }
  return null;
}

/** A SIMD solver on `threads` threads: the threaded build on a shared memory, threads − 1 workers started. Rejects with the reason when it cannot. */
export async function createThreadedSolver(
  threads: number,
  memoryBytes: number,
  sources: { simd?: WasmSource; simdThreads?: WasmSource },
  splitEverything: boolean | 'workers',
): Promise<WasmSolver> {
  const module = await compileThreadedBuild(sources.simd, sources.simdThreads);
  const memory = createMemory(memoryBytes, true);
  const kernels = await instantiateBuild(module, memory);
  const pool = await ThreadPool.start(module, memory, threads - 1, START_MS);
  if (splitEverything === 'workers') pool.callerClaims = false;
  return new WasmSolver('simd', kernels, memory, new Threading(pool, splitEverything ? 0 : null));
}

/** Reasons already printed by 'warn', so that each is printed once per page or process. */
const warned = new Set<string>();

/** Records why `solver` runs on one thread when `threads` were asked for, and warns once per reason as `onFallback` says. */
export function threadsFellBack(solver: SolverBase, threads: number, reason: string, onFallback: OnFallback): void {
  solver.threadsReason = reason;
  if (onFallback === 'warn' && !warned.has(reason)) {
    warned.add(reason);
    console.warn(
      `spring-solver: createSolver({ threads: ${threads} }) runs on one thread: ${reason}. ` +
        "createSolver({ onFallback: 'silent' }) hides this warning.",
    );
  }
}

/**
 * createSolver's solver when `threads` is not 1: a threaded SIMD solver when more than one thread
 * is wanted and they can run, else `pick()`'s solver with the reason recorded (or an Error, with
 * onFallback 'throw').
 */
export async function threadedSolver(
  threads: ThreadsOption,
  backend: Backend | undefined,
  memoryBytes: number,
  wasm: { simd?: WasmSource; simdThreads?: WasmSource },
  onFallback: OnFallback,
  splitEverything: boolean | 'workers',
  pick: () => Promise<Solver>,
): Promise<Solver> {
  const wanted = await threadsWanted(threads);
  if (wanted === 1) return pick();
  let reason = threadsUnavailable(backend);
  let cause: unknown;
  if (reason === null) {
    try {
      return await createThreadedSolver(wanted, memoryBytes, wasm, splitEverything);
    } catch (error) {
      cause = error;
      reason = `the threaded SIMD build failed to start: ${describeError(error)}`;
    }
  }
  if (onFallback === 'throw') throw new Error(`createSolver: ${reason} (onFallback is 'throw')`, { cause });
  const solver = await pick();
  threadsFellBack(solver as SolverBase, wanted, reason, onFallback);
  return solver;
}
