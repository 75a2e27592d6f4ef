/**
 * createSolver: picks the backend (SIMD, scalar wasm, JS), loads the wasm build, creates the
 * fixed memory, and checks the options.
 */
import type { Backend } from '../core/types.js';
import type { Solver } from './solver.js';
import { JsSolver } from '../backends/js-solver.js';
import { WasmSolver, createMemory, DEFAULT_MEMORY_BYTES } from '../backends/wasm/wasm-solver.js';
import { compileBuild, instantiateBuild, type WasmSource } from '../backends/wasm/load.js';
import { simdSupported, wasmSupported } from '../backends/wasm/simd-support.js';
import { checkNumber, checkOptions, describe } from '../core/validate.js';
import { silenceLargeDt } from '../core/dt.js';
import { createBestSolver, ON_FALLBACK, type OnFallback } from './fallback.js';
import type { ThreadsOption } from './threads.js';

/**
 * @group Setup
 */
export interface SolverOptions {
  /** Force a backend. Default: 'simd' when the engine supports it, else 'wasm', else 'js'. */
  backend?: Backend;
  /** Bytes available to alloc() in a wasm solver, fixed for its life. Default 64 MiB. */
  memoryBytes?: number;
  /**
   * Where to load the wasm builds from, when the default (next to this file) does not suit the
   * bundler or server. `simdThreads`: the threaded SIMD build (spring-solver.simd-threads.wasm),
   * used only with `threads` above 1; by default it is made from the SIMD build's bytes (the two
   * differ only in their memory import), so it needs no file of its own.
   */
  wasm?: { simd?: WasmSource; scalar?: WasmSource; simdThreads?: WasmSource };
  /**
   * Threads that run a large call together, on one shared memory: 1 (default: no worker, nothing
   * shared), a number, or 'auto' (the cores the platform reports, at most 8). Each call stays
   * synchronous and its results are bit-identical to one thread's; calls below a measured size
   * run on the calling thread alone. Needs the SIMD backend and SharedArrayBuffer (a browser page
   * must be cross-origin isolated: README, "Threads"). Where threads cannot run, the solver runs
   * on one thread and says why in `solver.threadsReason`, warned as `onFallback` says.
   * `solver.threads` is the number that runs. `solver.dispose()` ends the workers.
   */
  threads?: ThreadsOption;
  /**
   * Splits every call a threaded solver can split, whatever its size; 'workers': and the calling
   * thread leaves every chunk to the workers (the tests'). @internal
   */
  splitEverything?: boolean | 'workers';
  /**
   * When no backend is forced and a wasm build the engine supports fails to load (a 404, a
   * bundler that did not copy it, a Content-Security-Policy), createSolver() runs the next backend
   * and sets `solver.fallbackReason`. 'warn' (default): also console.warn the reason, once per
   * reason per page or process. 'silent': do not warn. 'throw': reject with an Error naming the
   * reason instead. A forced `backend` that fails to load always throws.
   */
  onFallback?: OnFallback;
  /**
   * dt is in seconds. A per-frame call given dt ≥ 1 s (every Solver method taking dt, a prepared
   * call's step, `Inertializer.update`, `SecondOrderDynamics.update`, `FixedStepper.advance`, the
   * spring-solver/three helpers) most likely got milliseconds (`16.7` for a 60 Hz frame instead
   * of `1 / 60`). true (default): the first such call of this solver prints one console.warn
   * naming the method and the dt, and runs normally, as every later call does. false: never warn,
   * for code that steps ≥ 1 s on purpose (the springs are exact for any dt); this also silences
   * the solver-less helpers of spring-solver/three (`spring3`, `damper`…), which share one
   * warning per page or process.
   */
  warnLargeDt?: boolean;
}

const BACKENDS: readonly Backend[] = ['simd', 'wasm', 'js'];

/**
 * Creates a solver on the requested backend, or on the best one this engine supports. If that
 * one's wasm build fails to load, it falls back to the next (scalar wasm, then JS), names the
 * failure in `solver.fallbackReason` and warns once on the console (see `onFallback`).
 * @example
 * ```ts
 * import { createSolver } from 'spring-solver';
 * const solver = await createSolver(); // 'simd' when supported, else 'wasm', else 'js'
 * const fast = await createSolver({ backend: 'js', onFallback: 'throw' }); // or force one
 * console.log(solver.backend, fast.backend);
 * ```
 * @group Setup
 */
export async function createSolver(options: SolverOptions = {}): Promise<Solver> {
  checkOptions('createSolver', options, ['backend', 'memoryBytes', 'wasm', 'threads', 'splitEverything', 'onFallback', 'warnLargeDt']);
  const { backend, memoryBytes = DEFAULT_MEMORY_BYTES, wasm = {}, onFallback = 'warn', warnLargeDt = true, threads = 1 } = options;
  checkOptions('createSolver', wasm, ['simd', 'scalar', 'simdThreads'], 'options.wasm');
  if (backend !== undefined && !BACKENDS.includes(backend)) {
    throw new RangeError(`createSolver: backend is ${JSON.stringify(backend)}; it must be one of ${BACKENDS.join(', ')}`);
  }
  if (!ON_FALLBACK.includes(onFallback)) {
    const given = typeof onFallback === 'string' ? JSON.stringify(onFallback) : describe(onFallback);
    throw new RangeError(`createSolver: onFallback is ${given}; it must be one of ${ON_FALLBACK.join(', ')}`);
  }
  if (typeof warnLargeDt !== 'boolean') {
    throw new TypeError(`createSolver: warnLargeDt must be true or false, got ${describe(warnLargeDt)}`);
  }
  checkNumber('createSolver', 'memoryBytes', memoryBytes, 'positive');
  if (!Number.isInteger(memoryBytes) || memoryBytes > 2 ** 31) {
    throw new RangeError(`createSolver: memoryBytes is ${memoryBytes}; it must be a whole number of bytes up to 2 GiB`);
  }
  checkThreads(threads);
  const pick = () => pickSolver(backend, memoryBytes, wasm, onFallback);
  // The threads' code is imported only when asked for: one thread's bundles do not carry it.
  const solver =
    threads === 1
      ? await pick()
      : await (await import('./threads.js')).threadedSolver(
          threads,
          backend,
          memoryBytes,
          wasm,
          onFallback,
          options.splitEverything ?? false,
          pick,
        );
  if (!warnLargeDt) silenceLargeDt(solver);
  return solver;
}

/** The most threads a solver runs: 64 workers and the calling thread. */
const THREADS_MAX = 65;

/** Checks the `threads` option (TypeError or RangeError naming it). */
function checkThreads(threads: unknown): asserts threads is ThreadsOption {
  if (threads === 'auto') return;
  if (typeof threads !== 'number') throw new TypeError(`createSolver: threads must be a whole number or 'auto', got ${describe(threads)}`);
  if (!Number.isInteger(threads) || threads < 1 || threads > THREADS_MAX) {
    throw new RangeError(`createSolver: threads is ${threads}; it must be a whole number from 1 to ${THREADS_MAX}, or 'auto'`);
  }
}

async function pickSolver(
  backend: Backend | undefined,
  memoryBytes: number,
  wasm: NonNullable<SolverOptions['wasm']>,
  onFallback: OnFallback,
): Promise<Solver> {
  if (backend === 'js') return new JsSolver();
  if (backend === 'simd') {
    if (!simdSupported()) throw new RangeError("createSolver: backend 'simd' is not supported by this JavaScript engine");
    return createWasmSolver('simd', memoryBytes, wasm.simd);
  }
  if (backend === 'wasm') {
    if (!wasmSupported()) throw new RangeError("createSolver: backend 'wasm' is not supported: WebAssembly is missing");
    return createWasmSolver('wasm', memoryBytes, wasm.scalar);
  }
  // Best available, never silently: see src/api/fallback.ts.
  return createBestSolver((best) => createWasmSolver(best, memoryBytes, best === 'simd' ? wasm.simd : wasm.scalar), wasm, onFallback);
}

async function createWasmSolver(backend: 'simd' | 'wasm', memoryBytes: number, source?: WasmSource): Promise<WasmSolver> {
  const build = backend === 'simd' ? 'simd' : 'scalar';
  const module = await compileBuild(build, source);
  const memory = createMemory(memoryBytes);
  return new WasmSolver(backend, await instantiateBuild(module, memory), memory);
}
