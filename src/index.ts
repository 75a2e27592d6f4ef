/**
 * spring-solver: exact, batched springs and dampers (Holden's "Spring-It-On" family) on
 * SIMD WebAssembly, scalar WebAssembly, or a float64 JS reference.
 * The BVH parser is at `spring-solver/bvh`, the float64 reference at `spring-solver/reference`.
 * @module spring-solver
 */
export type { Backend, Param } from './core/types.js';
export { SpringMode } from './core/types.js';
export type { Solver } from './api/solver.js';
export type { PreparedCall, PrepareOptions, PrepareArgs, PreparableMethod } from './api/prepare.js';
export type { WasmSource } from './backends/wasm/load.js';
export type { ThreadsOption } from './api/threads.js';
export { simdSupported, wasmSupported } from './backends/wasm/simd-support.js';
export { Inertializer, type InertializerOptions, type Pose } from './stateful/inertializer.js';
export type { PdIntegrator, PdSpringOptions } from './methods/pd-spring.js';
export type { SubstepMode, SubstepOptions } from './methods/substep.js';
export { FixedStepper, type FixedStepFunction, type FixedStepperOptions } from './stateful/fixed-stepper.js';
export { SecondOrderDynamics, type SecondOrderDynamicsOptions, type SecondOrderMethod } from './stateful/second-order-dynamics.js';
export { ForwardKinematics, type ForwardKinematicsOptions } from './stateful/forward-kinematics.js';
export * from './plain/index.js';
export { createSolver, type SolverOptions } from './api/create-solver.js';
export type { OnFallback } from './api/fallback.js';
export { springStrided, type Strided, type StridedItems, type StridedSpringParams } from './api/strided.js';
