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
import { checkNumber, describe } from '../core/validate.js';

export interface SolverOptions {
  /** Force a backend. Default: 'simd' when the engine supports it, else 'wasm', else 'js'. */
  backend?: Backend;
  /** Bytes available to alloc() in a wasm solver, fixed for its life. Default 64 MiB. */
  memoryBytes?: number;
  /** Where to load the wasm builds from, when the default (next to this file) does not suit the bundler or server. */
  wasm?: { simd?: WasmSource; scalar?: WasmSource };
}

const BACKENDS: readonly Backend[] = ['simd', 'wasm', 'js'];

/** Creates a solver on the requested backend, or on the best one this engine supports. */
export async function createSolver(options: SolverOptions = {}): Promise<Solver> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`createSolver: options must be an object, got ${describe(options)}`);
  }
  const { backend, memoryBytes = DEFAULT_MEMORY_BYTES, wasm = {} } = options;
  if (backend !== undefined && !BACKENDS.includes(backend)) {
    throw new RangeError(`createSolver: backend is ${JSON.stringify(backend)}; it must be one of ${BACKENDS.join(', ')}`);
  }
  checkNumber('createSolver', 'memoryBytes', memoryBytes, 'positive');
  if (!Number.isInteger(memoryBytes) || memoryBytes > 2 ** 31) {
    throw new RangeError(`createSolver: memoryBytes is ${memoryBytes}; it must be a whole number of bytes up to 2 GiB`);
  }
  if (backend === 'js') return new JsSolver();
  if (backend === 'simd') {
    if (!simdSupported()) throw new RangeError("createSolver: backend 'simd' is not supported by this JavaScript engine");
    return createWasmSolver('simd', memoryBytes, wasm.simd);
  }
  if (backend === 'wasm') {
    if (!wasmSupported()) throw new RangeError("createSolver: backend 'wasm' is not supported: WebAssembly is missing");
    return createWasmSolver('wasm', memoryBytes, wasm.scalar);
  }
  // Best available. A build that fails to load (blocked by a Content-Security-Policy, missing
  // file) falls back to the next; `solver.backend` tells which one runs.
  if (simdSupported()) {
    try {
      return await createWasmSolver('simd', memoryBytes, wasm.simd);
    } catch {
      /* fall through to the scalar build */
    }
  }
  if (wasmSupported()) {
    try {
      return await createWasmSolver('wasm', memoryBytes, wasm.scalar);
    } catch {
      /* fall through to JS */
    }
  }
  return new JsSolver();
}

async function createWasmSolver(backend: 'simd' | 'wasm', memoryBytes: number, source?: WasmSource): Promise<WasmSolver> {
  const build = backend === 'simd' ? 'simd' : 'scalar';
  const module = await compileBuild(build, source);
  const memory = createMemory(memoryBytes);
  return new WasmSolver(backend, await instantiateBuild(module, memory), memory);
}
