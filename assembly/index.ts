// spring-solver kernels. Pointers are byte offsets into the imported memory, counts are
// element counts, parameter strides are 0 (broadcast) or 1 (per element).
export { heapBase, simdEnabled } from './memory';
export { MODE_FREQUENCY_HALFLIFE, MODE_STIFFNESS_DAMPING, MODE_RATIO_HALFLIFE, MODE_CRITICAL } from './spring-params';
export { damperUniform, damperVarying } from './damper';
export { springUniform, springVarying } from './spring';
export { firstInvalid } from './validate';
export { dataMovementFloor } from './floor';
export { probeExp, probeSinCos } from './math-probe';
export { doubleSpringDamper, leadingSpring } from './composite';
export { characterUpdate, characterPredict } from './character';
export { inertializeTransition, inertializeUpdate } from './inertialize';
export { extrapolate, deadBlendingTransition, deadBlendingUpdate, trackingSpringUpdate } from './signal';
export { pdSpringExplicit, pdSpringSemiImplicit, pdSpringImplicit, pdSpringRigidBody, pdSpringExact } from './pd-spring';
export { secondOrderEulerSubstep, secondOrderClamped, secondOrderPoleZero, secondOrderExact } from './second-order';
export { quatSimpleSpringDamper, quatDecaySpringDamper, quatDamper, quatInertializeTransition, quatInertializeUpdate } from './quat';
export { quatMul, quatInv, quatAbs, quatNormalize, quatRotate, quatToScaledAngleAxis, quatFromScaledAngleAxis, quatSlerp } from './quat-helpers';
export { rootAnchorApply, rootAnchorTransition } from './root-anchor';
export { poseInertializeUpdate } from './pose-inertialize';
export { probeAtanF32, probeAtan2F32, probeSinCosF32, probeExpF32 } from './math-probe-f32';
export { springPerElement, springApplyKept, keptCoefficientBytes } from './spring-per-element';
