/** The functions and constants exported by assembly/index.ts (pointers are byte offsets). */
export interface KernelExports {
  heapBase(): number;
  simdEnabled(): number;
  MODE_FREQUENCY_HALFLIFE: WebAssembly.Global;
  MODE_STIFFNESS_DAMPING: WebAssembly.Global;
  MODE_RATIO_HALFLIFE: WebAssembly.Global;
  MODE_CRITICAL: WebAssembly.Global;
  damperUniform(x: number, g: number, n: number, halflife: number, dt: number): void;
  damperVarying(x: number, g: number, n: number, halflife: number, halflifeStride: number, dt: number): void;
  springUniform(x: number, v: number, g: number, q: number, n: number, mode: number, p0: number, p1: number, dt: number): void;
  springVarying(
    x: number, v: number, g: number, q: number, n: number, mode: number,
    p0: number, p0Stride: number, p1: number, p1Stride: number, dt: number,
  ): void;
  firstInvalid(p: number, n: number, positive: number): number;
  // Core springs with per-element parameters and kept coefficients (assembly/spring-per-element.ts)
  springPerElement(
    x: number, v: number, g: number, q: number, n: number, mode: number,
    p0: number, p0Stride: number, p1: number, p1Stride: number, dt: number, coef: number,
  ): void;
  springApplyKept(
    x: number, v: number, g: number, q: number, n: number, mode: number,
    p0: number, p0Stride: number, p1: number, p1Stride: number, dt: number, coef: number,
  ): void;
  keptCoefficientBytes(n: number): number;
  dataMovementFloor(x: number, v: number, g: number, q: number, n: number, keep: number): void;
  probeExp(input: number, output: number, n: number): void;
  probeSinCos(input: number, sinOutput: number, cosOutput: number, n: number): void;
  doubleSpringDamper(x: number, v: number, xi: number, vi: number, g: number, n: number, halflife: number, halflifeStride: number, dt: number): void;
  /** timedSpringDamper (kind 0, p = tGoal) and velocitySpringDamper (kind 1, p = speed). */
  leadingSpring(
    x: number, v: number, xi: number, g: number, n: number,
    p: number, pStride: number, halflife: number, halflifeStride: number, apprehension: number, apprehensionStride: number,
    dt: number, kind: number,
  ): void;
  characterUpdate(x: number, v: number, a: number, vGoal: number, n: number, halflife: number, halflifeStride: number, dt: number): void;
  characterPredict(
    x: number, v: number, a: number, vGoal: number, px: number, pv: number, pa: number, n: number,
    halflife: number, halflifeStride: number, dt: number, count: number,
  ): void;
  inertializeTransition(offX: number, offV: number, srcX: number, srcV: number, dstX: number, dstV: number, n: number): void;
  inertializeUpdate(
    outX: number, outV: number, offX: number, offV: number, inX: number, inV: number, n: number,
    halflife: number, halflifeStride: number, dt: number,
  ): void;
  extrapolate(x: number, v: number, n: number, halflife: number, halflifeStride: number, dt: number): void;
  deadBlendingTransition(extX: number, extV: number, extT: number, srcX: number, srcV: number, n: number): void;
  deadBlendingUpdate(
    outX: number, extX: number, extV: number, extT: number, inX: number, n: number,
    blendTime: number, blendTimeStride: number, decayHalflife: number, decayHalflifeStride: number, dt: number,
  ): void;
  trackingSpringUpdate(
    x: number, v: number, a: number, targetX: number, targetV: number, targetA: number, n: number,
    xGain: number, xGainStride: number, vGain: number, vGainStride: number, aGain: number, aGainStride: number,
    dt: number, gainDt: number,
  ): void;
  // PD springs (assembly/pd-spring.ts): (pos, vel, targetPos, targetVel, n, uaf, uafStride, zeta, zetaStride, dt)
  pdSpringExplicit(pos: number, vel: number, targetPos: number, targetVel: number, n: number, uaf: number, uafStride: number, zeta: number, zetaStride: number, dt: number): void;
  pdSpringSemiImplicit(pos: number, vel: number, targetPos: number, targetVel: number, n: number, uaf: number, uafStride: number, zeta: number, zetaStride: number, dt: number): void;
  pdSpringImplicit(pos: number, vel: number, targetPos: number, targetVel: number, n: number, uaf: number, uafStride: number, zeta: number, zetaStride: number, dt: number): void;
  pdSpringRigidBody(pos: number, vel: number, targetPos: number, targetVel: number, n: number, uaf: number, uafStride: number, zeta: number, zetaStride: number, dt: number): void;
  pdSpringExact(pos: number, vel: number, targetPos: number, targetVel: number, n: number, uaf: number, uafStride: number, zeta: number, zetaStride: number, dt: number): void;
  // Second-order dynamics (assembly/second-order.ts): xd = 0 estimates xd from xPrev; c0…c5 coefficient planes (per element)
  secondOrderEulerSubstep(
    x: number, xd: number, xPrev: number, y: number, yd: number, c0: number, c1: number, c2: number, c3: number, c4: number, c5: number,
    n: number, f: number, fStride: number, zeta: number, zetaStride: number, r: number, rStride: number, dt: number, prepare: number,
  ): void;
  secondOrderClamped(
    x: number, xd: number, xPrev: number, y: number, yd: number, c0: number, c1: number, c2: number, c3: number, c4: number, c5: number,
    n: number, f: number, fStride: number, zeta: number, zetaStride: number, r: number, rStride: number, dt: number, prepare: number,
  ): void;
  secondOrderPoleZero(
    x: number, xd: number, xPrev: number, y: number, yd: number, c0: number, c1: number, c2: number, c3: number, c4: number, c5: number,
    n: number, f: number, fStride: number, zeta: number, zetaStride: number, r: number, rStride: number, dt: number, prepare: number,
  ): void;
  secondOrderExact(
    x: number, xd: number, xPrev: number, y: number, yd: number, c0: number, c1: number, c2: number, c3: number, c4: number, c5: number,
    n: number, f: number, fStride: number, zeta: number, zetaStride: number, r: number, rStride: number, dt: number, prepare: number,
  ): void;
  // Quaternion springs and inertialization (assembly/quat.ts): rotations 4 floats, angular velocities 3 floats a bone
  quatSimpleSpringDamper(q: number, w: number, g: number, n: number, halflife: number, halflifeStride: number, dt: number): void;
  quatDecaySpringDamper(q: number, w: number, n: number, halflife: number, halflifeStride: number, dt: number): void;
  quatDamper(q: number, g: number, n: number, halflife: number, halflifeStride: number, dt: number): void;
  quatInertializeTransition(offQ: number, offW: number, srcQ: number, srcW: number, dstQ: number, dstW: number, n: number): void;
  quatInertializeUpdate(
    outQ: number, outW: number, offQ: number, offW: number, inQ: number, inW: number, n: number,
    halflife: number, halflifeStride: number, dt: number,
  ): void;
  // Quaternion helpers (assembly/quat-helpers.ts)
  quatMul(out: number, a: number, b: number, n: number): void;
  quatInv(out: number, q: number, n: number): void;
  quatAbs(out: number, q: number, n: number): void;
  quatNormalize(out: number, q: number, n: number): void;
  quatRotate(out: number, q: number, v: number, n: number): void;
  quatToScaledAngleAxis(out: number, q: number, n: number): void;
  quatFromScaledAngleAxis(out: number, v: number, n: number): void;
  quatSlerp(out: number, a: number, b: number, n: number, t: number, tStride: number): void;
  // Root re-anchoring of the Inertializer (assembly/root-anchor.ts): n characters of `bones` bones
  rootAnchorApply(outX: number, outV: number, outQ: number, outW: number, anchorQ: number, anchorX: number, count: number, bones: number, root: number): void;
  rootAnchorTransition(
    offX: number, offV: number, offQ: number, offW: number, dstX: number, dstV: number, dstQ: number, dstW: number,
    anchorQ: number, anchorX: number, count: number, bones: number, root: number,
  ): void;
  // Whole poses of the Inertializer (assembly/pose-inertialize.ts): positions 3 floats, rotations 4 a bone
  poseInertializeUpdate(
    outX: number, outV: number, outQ: number, outW: number, offX: number, offV: number, offQ: number, offW: number,
    inX: number, inV: number, inQ: number, inW: number, n: number, halflife: number, halflifeStride: number, dt: number,
  ): void;
  // float32 polynomial probes (assembly/math-probe-f32.ts), SIMD build only
  probeAtanF32(x: number, output: number, n: number): void;
  probeAtan2F32(y: number, x: number, output: number, n: number): void;
  probeExpF32(u: number, output: number, n: number): void;
  probeSinCosF32(r: number, sinOverXOutput: number, cosOutput: number, n: number): void;
}
