/**
 * spring-solver/embedded: the package's API with both wasm builds embedded in the JavaScript
 * (base64), for single-file bundles that should fetch or read nothing. Costs about 240 kB of
 * JavaScript (78 kB gzip; `node scripts/measure-sizes.mjs`), which the main entry 'spring-solver'
 * imports only lazily, one build at a time, when a .wasm file cannot be fetched or read.
 * Everything else is 'spring-solver' itself: its examples work with either import.
 * @module spring-solver/embedded
 */
import { createSolver as createSolverFromFiles, type SolverOptions } from './index.js';
import type { Solver } from './api/solver.js';
import { SCALAR_BASE64, SIMD_BASE64 } from './backends/wasm/embedded-builds.js';
import { decodeBase64 } from './backends/wasm/load.js';

export * from './index.js';

let decoded: { simd: Uint8Array<ArrayBuffer>; scalar: Uint8Array<ArrayBuffer> } | undefined;

/**
 * Creates a solver as `createSolver` from 'spring-solver' does, with the embedded builds as the
 * default `wasm` sources: no .wasm file is fetched or read. Options are the same.
 * @example
 * ```ts
 * import { createSolver } from 'spring-solver/embedded';
 * const solver = await createSolver(); // the wasm bytes are in the JavaScript: nothing is fetched
 * console.log(solver.backend);
 * ```
 * @group Setup
 */
export function createSolver(options: SolverOptions = {}): Promise<Solver> {
  // Not an object: the main createSolver throws its TypeError.
  if (typeof options !== 'object' || options === null) return createSolverFromFiles(options);
  decoded ??= { simd: decodeBase64(SIMD_BASE64), scalar: decodeBase64(SCALAR_BASE64) };
  const { simd = decoded.simd, scalar = decoded.scalar } = options.wasm ?? {};
  return createSolverFromFiles({ ...options, wasm: { simd, scalar } });
}
