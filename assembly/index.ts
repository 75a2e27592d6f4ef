// spring-solver kernels. Pointers are byte offsets into the imported memory, counts are
// element counts, parameter strides are 0 (broadcast) or 1 (per element).
export { heapBase, simdEnabled } from './kernels/memory';
export { MODE_FREQUENCY_HALFLIFE, MODE_STIFFNESS_DAMPING, MODE_RATIO_HALFLIFE, MODE_CRITICAL } from './spring/params';
export { damperUniform, damperVarying } from './kernels/damper';
export { springUniform, springVarying } from './kernels/spring';
export { firstInvalid } from './kernels/validate';
export { dataMovementFloor } from './testing/floor';
export { probeExp, probeSinCos } from './testing/probe-maths-x2';
export { doubleSpringDamper, leadingSpring } from './kernels/composite';
export { characterUpdate, characterPredict } from './kernels/character';
export { inertializeTransition, inertializeUpdate } from './kernels/inertialize';
export { extrapolate, deadBlendingTransition, deadBlendingUpdate, trackingSpringUpdate } from './kernels/signal';
export { pdSpringExplicit, pdSpringSemiImplicit, pdSpringImplicit, pdSpringRigidBody, pdSpringExact } from './kernels/pd-spring';
export { secondOrderEulerSubstep, secondOrderClamped, secondOrderPoleZero, secondOrderExact } from './kernels/second-order';
export { quatSimpleSpringDamper, quatDecaySpringDamper, quatDamper, quatInertializeTransition, quatInertializeUpdate } from './kernels/quat';
export { quatMul, quatInv, quatAbs, quatNormalize, quatRotate, quatToScaledAngleAxis, quatFromScaledAngleAxis, quatSlerp } from './kernels/quat-batch';
export { rootAnchorApply, rootAnchorTransition } from './kernels/root-anchor';
export { poseInertializeUpdate } from './kernels/pose-inertialize';
export { probeAtanF32, probeAtan2F32, probeSinCosF32, probeExpF32 } from './testing/probe-maths-x4';
