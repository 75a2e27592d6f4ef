/**
 * spring-solver/three: springs that update three.js data in place (instance matrices and
 * buffer attributes in solver memory) and synchronous springs for a few values (cameras, UI).
 * three.js is an optional peer dependency: only this entry imports it.
 * @module spring-solver/three
 */
export { InstancedSprings, type InstancedSpringsOptions, type ArrayIf, type ArrayIfEither } from './instanced-springs.js';
export { AttributeSprings, type AttributeSpringsOptions } from './attribute-springs.js';
export {
  spring,
  springAngle,
  spring3,
  springEuler,
  springQuat,
  damper,
  damper3,
  damperQuat,
  springVelocity,
  resetSpring,
  wrapAngle,
  type Vector3Like,
} from './damp.js';
export { InertializedMixer, InertializedMixerGroup, type InertializedMixerOptions } from './inertialized-mixer.js';
export { SkeletonBatch, type SkeletonBatchOptions } from './skeleton-batch.js';
export { MixerBatch } from './mixer-batch.js';
