/**
 * spring-solver/vrm: the spring bones of many three-vrm avatars (hair, skirts, tails:
 * VRMC_springBone) in one kernel call a frame, a drop-in for `@pixiv/three-vrm-springbone`'s
 * `VRMSpringBoneManager.update`. three.js and @pixiv/three-vrm-springbone (3.5.x) are optional
 * peer dependencies: only this entry uses them.
 * @module spring-solver/vrm
 */
export { SpringBones, type SpringBonesOptions } from './spring-bones.js';
export type {
  SpringBoneManager,
  SpringBoneJoint,
  SpringBoneSettings,
  SpringBoneCollider,
  SpringBoneColliderGroup,
  SpringBoneColliderShape,
  SpringBoneVector,
} from './types.js';
