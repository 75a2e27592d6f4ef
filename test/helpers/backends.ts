/** The three backends, and solvers on each of them, for the tests. */
import { createSolver, type Backend, type Solver } from '../../dist/index.js';

export const BACKENDS: readonly Backend[] = ['simd', 'wasm', 'js'];

/** A solver on `backend` (memoryBytes as given, else the default 64 MiB). */
export function makeSolver(backend: Backend, memoryBytes?: number): Promise<Solver> {
  return createSolver(memoryBytes === undefined ? { backend } : { backend, memoryBytes });
}

/** True for the WebAssembly backends, whose alloc() arrays live in a fixed-capacity memory. */
export function isWasm(backend: Backend): boolean {
  return backend !== 'js';
}
