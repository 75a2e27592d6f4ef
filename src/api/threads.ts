/**
 * createSolver({ threads }): how many threads, whether they can run here, and the threaded SIMD
 * solver itself (the threaded build on a shared memory, its workers started). Where threads
 * cannot run, the reason goes to `solver.threadsReason` and is warned once, as fallbacks are
 * (src/api/fallback.ts); the solver then runs on one thread, as with `threads: 1`.
 */
import { WasmSolver, createMemory } from '../backends/wasm/wasm-solver.js';
import { compileThreadedBuild, instantiateBuild, type WasmSource } from '../backends/wasm/load.js';
import { ThreadPool } from '../backends/wasm/threads/pool.js';
import { Threading } from '../backends/wasm/threads/threaded.js';
import { reportedCores } from '../backends/wasm/threads/spawn.js';
import { MAX_WORKERS } from '../backends/wasm/threads/layout.js';
import { simdSupported } from '../backends/wasm/simd-support.js';
import { describe } from '../core/validate.js';
import type { Backend } from '../core/types.js';
import type { OnFallback } from './fallback.js';
import type { SolverBase } from '../base/solver.js';

/** A thread count, or 'auto': the cores the platform reports, at most {@link AUTO_THREADS_MAX}. */
export type ThreadsOption = number | 'auto';

/** 'auto' runs at most this many threads: past it, memory bandwidth, not cores, bounds most calls (docs/DECISIONS.md, "Threads"). */
export const AUTO_THREADS_MAX = 8;

/** The most threads a solver runs (its workers and the calling thread). */
export const THREADS_MAX = MAX_WORKERS + 1;

/** How long a worker may take to start and instantiate the module. */
const START_MS = 10_000;

/** Checks the `threads` option (TypeError or RangeError naming it). */
export function checkThreads(threads: unknown): asserts threads is ThreadsOption {
  if (threads === 'auto') return;
  if (typeof threads !== 'number') throw new TypeError(`createSolver: threads must be a whole number or 'auto', got ${describe(threads)}`);
  if (!Number.isInteger(threads) || threads < 1 || threads > THREADS_MAX) {
    throw new RangeError(`createSolver: threads is ${threads}; it must be a whole number from 1 to ${THREADS_MAX}, or 'auto'`);
  }
}

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
  splitEverything: boolean,
): Promise<WasmSolver> {
  const module = await compileThreadedBuild(sources.simd, sources.simdThreads);
  const memory = createMemory(memoryBytes, true);
  const kernels = await instantiateBuild(module, memory);
  const pool = await ThreadPool.start(module, memory, threads - 1, START_MS);
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
