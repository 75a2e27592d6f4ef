/**
 * The float64 JS reference implementation of every model: the JS backend, and the oracle the
 * wasm backends are tested against. Importable as `spring-solver/reference`.
 * @module spring-solver/reference
 */
export * from './spring.js';
export { springTransition, type SpringTransition } from './spring-transition.js';
export * from './composite.js';
export * from './character.js';
export * from './signal.js';
export * from './pd-spring.js';
export * from './second-order.js';
export * from './substep.js';
/**
 * Quaternion algebra on `[x, y, z, w]` arrays in float64 (three.js conventions, Hamilton product).
 * @group Quaternions
 */
export * as quat from './quat.js';
export {
  quatSimpleSpringDamper,
  quatDecaySpringDamper,
  quatDamper,
  quatInertializeTransition,
  quatInertializeUpdate,
} from './quat-spring.js';
export {
  quatMul,
  quatInv,
  quatAbs,
  quatNormalize,
  quatRotate,
  quatToScaledAngleAxis,
  quatFromScaledAngleAxis,
  quatSlerp,
} from './quat-batch.js';
export {
  vec3DecaySpringDamper,
  inertializeTransition as vec3InertializeTransition,
  inertializeUpdate as vec3InertializeUpdate,
} from './inertialize.js';
export { rootAnchorApply, rootAnchorTransition, heading } from './root-anchor.js';
export type { FloatArray } from './float-array.js';
export type { Halflife } from './inertialize.js';
export type { Amount } from './quat-batch.js';
export { springStrided, type StridedOperand } from './strided-spring.js';
export { composeInstanceMatrices } from './instance-matrix.js';
export { forwardKinematics, type SkeletonArrays } from './skeleton.js';
