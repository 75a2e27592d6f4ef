/**
 * spring-solver/embedded: the package's API with both wasm builds embedded in the JavaScript
 * (base64), for bundlers that do not copy `new URL('./x.wasm', import.meta.url)` assets (esbuild,
 * Rollup) and for single-file bundles. Costs about 160 kB of JavaScript (see docs/DECISIONS.md),
 * which the main entry 'spring-solver' does not pull in.
 * @module
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
 */
export function createSolver(options: SolverOptions = {}): Promise<Solver> {
  // Not an object: the main createSolver throws its TypeError.
  if (typeof options !== 'object' || options === null) return createSolverFromFiles(options);
  decoded ??= { simd: decodeBase64(SIMD_BASE64), scalar: decodeBase64(SCALAR_BASE64) };
  const { simd = decoded.simd, scalar = decoded.scalar } = options.wasm ?? {};
  return createSolverFromFiles({ ...options, wasm: { simd, scalar } });
}
