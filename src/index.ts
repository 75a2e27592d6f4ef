/**
 * spring-solver: exact, batched springs and dampers (Holden's "Spring-It-On" family) on
 * SIMD WebAssembly, scalar WebAssembly, or a float64 JS reference.
 * @module
 */
import type { Backend } from './types.js';
import type { Solver } from './solver.js';
import { JsSolver } from './js-solver.js';
import { WasmSolver, createMemory, DEFAULT_MEMORY_BYTES } from './wasm/wasm-solver.js';
import { compileBuild, instantiateBuild, type WasmSource } from './wasm/load.js';
import { simdSupported, wasmSupported } from './wasm/simd-support.js';
import { checkNumber, describe } from './validate.js';

export type { Backend, Param } from './types.js';
export { SpringMode } from './types.js';
export type { Solver } from './solver.js';
export type { WasmSource } from './wasm/load.js';
export { simdSupported, wasmSupported } from './wasm/simd-support.js';
export * from './conversions.js';
export { Inertializer, type InertializerOptions, type Pose } from './inertializer.js';
export type { PdIntegrator, PdSpringOptions } from './methods/pd-spring.js';
export type { SubstepMode, SubstepOptions } from './substep.js';
export { FixedStepper, type FixedStepFunction, type FixedStepperOptions } from './fixed-stepper.js';
export { SecondOrderDynamics, type SecondOrderDynamicsOptions, type SecondOrderMethod } from './second-order-dynamics.js';
export { fzrToK, kToFzr, criticalTimestep, type KCoefficients, type FzrParameters } from './reference/second-order.js';
export * from './plain.js';
export { parseBvh, bvhLocalRotations, bvhLocalPositions, bvhVelocities, type Bvh, type BvhVelocities } from './bvh.js';

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
export { springStrided, type Strided, type StridedItems, type StridedSpringParams } from './strided.js';
