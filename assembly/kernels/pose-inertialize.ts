// Inertialization update of whole poses over n bones (Motion-Matching's inertialize_pose_update):
// each bone's position offsets (off_x, off_v, 3 floats each) and rotation offsets (off_q, off_w)
// decay with the same y = 2·ln2/halflife and eydt = exp(−y·dt), computed once per bone, then
//   out_x = in_x + off_x, out_v = in_v + off_v                       (inertialize_update)
//   out_q = off_q ⊗ in_q, out_w = J(log off_q)·off_w + rotate(off_q, in_w)  (quaternion version, SO(3) Jacobian J)
// The positions' decay (decay_spring_damper_exact, "Spring-It-On") as a matrix on (x, v):
//   x' = xx·x + xv·v,  xx = eydt·(1 + y·dt), xv = eydt·dt
//   v' = vx·x + vv·v,  vx = −eydt·y·(y·dt),  vv = eydt·(1 − y·dt)     (all 0 where eydt = 0)
// The float64 oracles are src/reference/inertialize.ts (inertializeUpdate) and
// src/reference/quat-spring.ts (quatInertializeUpdate). dt = 0 only composes.
import { spreadVec3X4, spread0, spread1, spread2, loadQuatX4, loadVec3X4, storeQuatX4, storeVec3X4, lx, ly, lz, lw } from '../lanes/transpose-x4';
import { yOf, yLo, yHi, eLo, eHi, y4, e4, dampedInF32, dampingX4, springX4, nvx, nvy, nvz, rvx, rvy, rvz } from '../quat/spring-step';
import { offsetX4, composeX4, composeWithRateX4, offsetAndComposeScalar } from '../quat/compose';
import { quatLogX4, vecX, vecY, vecZ, qx, qy, qz, qw } from '../quat/algebra';
import { jacobianFromVectorX4, jx, jy, jz } from '../quat/so3-jacobian';
import { joinX4 } from '../lanes/x4';
import { paramAt, readF32, writeF32 } from '../lanes/scalar';

// Position decay coefficients of the last vectorCoefficients call (one bone, float64).
let cxx: f64 = 0;
let cxv: f64 = 0;
let cvx: f64 = 0;
let cvv: f64 = 0;

// @ts-ignore: decorator
@inline function vectorCoefficients(y: f64, e: f64, dt: f64): void {
  if (e == 0) { cxx = 0; cxv = 0; cvx = 0; cvv = 0; return; }
  const ydt = y * dt;
  cxx = e * (1 + ydt); cxv = e * dt; cvx = -e * y * ydt; cvv = e * (1 - ydt);
}

// The four coefficients of four bones (from y and eydt as quat/spring-step.ts's dampingX4 sets
// them: yl, el lanes 0, 1; yh, eh lanes 2, 3), spread over the 12 floats of their vectors: three
// f32x4 each.
// @ts-ignore: decorator
@lazy let kxx0: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kxx1: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kxx2: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kxv0: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kxv1: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kxv2: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kvx0: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kvx1: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kvx2: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kvv0: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kvv1: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy let kvv2: v128 = f32x4.splat(0);

// @ts-ignore: decorator
@inline function vectorCoefficientsX4(yLo: v128, yHi: v128, eLo: v128, eHi: v128, dt: f64): void {
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  const tdt = f64x2.splat(dt);
  const snapLo = f64x2.eq(eLo, zero), snapHi = f64x2.eq(eHi, zero);
  const ydtLo = f64x2.mul(yLo, tdt), ydtHi = f64x2.mul(yHi, tdt);
  spreadVec3X4(joinX4(v128.bitselect(zero, f64x2.mul(eLo, f64x2.add(one, ydtLo)), snapLo),
    v128.bitselect(zero, f64x2.mul(eHi, f64x2.add(one, ydtHi)), snapHi)));
  kxx0 = spread0; kxx1 = spread1; kxx2 = spread2;
  spreadVec3X4(joinX4(f64x2.mul(eLo, tdt), f64x2.mul(eHi, tdt)));
  kxv0 = spread0; kxv1 = spread1; kxv2 = spread2;
  spreadVec3X4(joinX4(v128.bitselect(zero, f64x2.neg(f64x2.mul(f64x2.mul(eLo, yLo), ydtLo)), snapLo),
    v128.bitselect(zero, f64x2.neg(f64x2.mul(f64x2.mul(eHi, yHi), ydtHi)), snapHi)));
  kvx0 = spread0; kvx1 = spread1; kvx2 = spread2;
  spreadVec3X4(joinX4(v128.bitselect(zero, f64x2.mul(eLo, f64x2.sub(one, ydtLo)), snapLo),
    v128.bitselect(zero, f64x2.mul(eHi, f64x2.sub(one, ydtHi)), snapHi)));
  kvv0 = spread0; kvv1 = spread1; kvv2 = spread2;
}

// The same from y and eydt in float32 (dampingX4's float32 path: y·dt ≤ 0.5, so 1 ± y·dt cannot
// cancel and eydt ≥ 0.6 needs no snap); two float32 roundings more than the float64 pairs.
// @ts-ignore: decorator
@inline function vectorCoefficientsF32X4(y: v128, e: v128, dt: f64): void {
  const one = f32x4.splat(1);
  const tdt = f32x4.splat(<f32>dt);
  const ydt = f32x4.mul(y, tdt);
  spreadVec3X4(f32x4.mul(e, f32x4.add(one, ydt)));
  kxx0 = spread0; kxx1 = spread1; kxx2 = spread2;
  spreadVec3X4(f32x4.mul(e, tdt));
  kxv0 = spread0; kxv1 = spread1; kxv2 = spread2;
  spreadVec3X4(f32x4.neg(f32x4.mul(f32x4.mul(e, y), ydt)));
  kvx0 = spread0; kvx1 = spread1; kvx2 = spread2;
  spreadVec3X4(f32x4.mul(e, f32x4.sub(one, ydt)));
  kvv0 = spread0; kvv1 = spread1; kvv2 = spread2;
}

// Four floats of the positions at byte offset o: the decay (when asked), then out = in + off.
// @ts-ignore: decorator
@inline function vectorX4(
  outX: usize, outV: usize, offX: usize, offV: usize, inX: usize, inV: usize, o: usize,
  xx: v128, xv: v128, vx: v128, vv: v128, decay: bool,
): void {
  let x = v128.load(offX + o), v = v128.load(offV + o);
  if (decay) {
    const xn = f32x4.add(f32x4.mul(xx, x), f32x4.mul(xv, v));
    v = f32x4.add(f32x4.mul(vx, x), f32x4.mul(vv, v));
    x = xn;
    v128.store(offX + o, x);
    v128.store(offV + o, v);
  }
  v128.store(outX + o, f32x4.add(v128.load(inX + o), x)); // out_x = in_x + off_x
  v128.store(outV + o, f32x4.add(v128.load(inV + o), v)); // out_v = in_v + off_v
}

// The twelve floats of four bones' positions at byte offset o: decayed with their own y, eydt
// (perBone; as dampingX4 sets them, inF32 its dampedInF32) or the per-call coefficients u*, then
// out = in + off.
// @ts-ignore: decorator
@inline function positionsX4(
  outX: usize, outV: usize, offX: usize, offV: usize, inX: usize, inV: usize, o: usize, perBone: bool, inF32: bool,
  y: v128, e: v128, yl: v128, yh: v128, el: v128, eh: v128, dt: f64, uxx: v128, uxv: v128, uvx: v128, uvv: v128,
): void {
  if (perBone) {
    if (inF32) vectorCoefficientsF32X4(y, e, dt);
    else vectorCoefficientsX4(yl, yh, el, eh, dt);
    vectorX4(outX, outV, offX, offV, inX, inV, o, kxx0, kxv0, kvx0, kvv0, true);
    vectorX4(outX, outV, offX, offV, inX, inV, o + 16, kxx1, kxv1, kvx1, kvv1, true);
    vectorX4(outX, outV, offX, offV, inX, inV, o + 32, kxx2, kxv2, kvx2, kvv2, true);
  } else {
    vectorX4(outX, outV, offX, offV, inX, inV, o, uxx, uxv, uvx, uvv, true);
    vectorX4(outX, outV, offX, offV, inX, inV, o + 16, uxx, uxv, uvx, uvv, true);
    vectorX4(outX, outV, offX, offV, inX, inV, o + 32, uxx, uxv, uvx, uvv, true);
  }
}

export function poseInertializeUpdate(
  outX: usize, outV: usize, outQ: usize, outW: usize, offX: usize, offV: usize, offQ: usize, offW: usize,
  inX: usize, inV: usize, inQ: usize, inW: usize, n: i32, h: usize, hStride: i32, dt: f64,
): void {
  const decay = dt > 0;
  // per-call constants (broadcast halflife)
  const yU = yOf(paramAt(h, 0, 0)), eU = Math.exp(-yU * dt);
  if (decay) vectorCoefficients(yU, eU, dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const uxx = f32x4.splat(<f32>cxx), uxv = f32x4.splat(<f32>cxv), uvx = f32x4.splat(<f32>cvx), uvv = f32x4.splat(<f32>cvv);
    const perBone = hStride != 0;
    // With a decay, two groups of four bones (a, b) per turn, stage by stage: one group's log,
    // spring, exp, Jacobian and products form one long dependency chain, and two independent
    // chains side by side let the CPU overlap them (docs/DECISIONS.md, "Inertializer update").
    if (decay) {
      for (; i + 8 <= n; i += 8) {
        const j = i + 4;
        loadQuatX4(offQ, i);
        quatLogX4(lx, ly, lz, lw); // j0 = log(abs(off_q))
        const aj0x = vecX, aj0y = vecY, aj0z = vecZ;
        loadQuatX4(offQ, j);
        quatLogX4(lx, ly, lz, lw);
        const bj0x = vecX, bj0y = vecY, bj0z = vecZ;
        dampingX4(h, hStride, i, dt, yU, eU); // y, eydt
        const ay = y4, ae = e4, ayl = yLo, ayh = yHi, ael = eLo, aeh = eHi, aF32 = dampedInF32;
        dampingX4(h, hStride, j, dt, yU, eU);
        const by = y4, be = e4, byl = yLo, byh = yHi, bel = eLo, beh = eHi, bF32 = dampedInF32;
        loadVec3X4(offW, i);
        springX4(aj0x, aj0y, aj0z, lx, ly, lz, ay, ae, ayl, ayh, ael, aeh, dt); // decay_spring_damper_exact
        const aqx = qx, aqy = qy, aqz = qz, aqw = qw, awx = nvx, awy = nvy, awz = nvz, arx = rvx, ary = rvy, arz = rvz;
        loadVec3X4(offW, j);
        springX4(bj0x, bj0y, bj0z, lx, ly, lz, by, be, byl, byh, bel, beh, dt);
        const bqx = qx, bqy = qy, bqz = qz, bqw = qw, bwx = nvx, bwy = nvy, bwz = nvz, brx = rvx, bry = rvy, brz = rvz;
        storeQuatX4(offQ, i, aqx, aqy, aqz, aqw);
        storeVec3X4(offW, i, awx, awy, awz);
        storeQuatX4(offQ, j, bqx, bqy, bqz, bqw);
        storeVec3X4(offW, j, bwx, bwy, bwz);
        positionsX4(outX, outV, offX, offV, inX, inV, <usize>i * 12, perBone, aF32, ay, ae, ayl, ayh, ael, aeh, dt, uxx, uxv, uvx, uvv);
        positionsX4(outX, outV, offX, offV, inX, inV, <usize>j * 12, perBone, bF32, by, be, byl, byh, bel, beh, dt, uxx, uxv, uvx, uvv);
        jacobianFromVectorX4(arx, ary, arz, aqx, aqy, aqz, aqw, awx, awy, awz); // J(r)·off_w
        const ajx = jx, ajy = jy, ajz = jz;
        jacobianFromVectorX4(brx, bry, brz, bqx, bqy, bqz, bqw, bwx, bwy, bwz);
        const bjx = jx, bjy = jy, bjz = jz;
        composeWithRateX4(outQ, outW, inQ, inW, i, aqx, aqy, aqz, aqw, ajx, ajy, ajz);
        composeWithRateX4(outQ, outW, inQ, inW, j, bqx, bqy, bqz, bqw, bjx, bjy, bjz);
      }
    }
    for (; i + 4 <= n; i += 4) {
      offsetX4(offQ, offW, i, h, hStride, dt, yU, eU, decay); // also sets yLo … eHi for these bones
      const o = <usize>i * 12; // four bones' vectors: three f32x4 per array
      if (decay) {
        positionsX4(outX, outV, offX, offV, inX, inV, o, perBone, dampedInF32, y4, e4, yLo, yHi, eLo, eHi, dt, uxx, uxv, uvx, uvv);
      } else {
        vectorX4(outX, outV, offX, offV, inX, inV, o, uxx, uxv, uvx, uvv, decay);
        vectorX4(outX, outV, offX, offV, inX, inV, o + 16, uxx, uxv, uvx, uvv, decay);
        vectorX4(outX, outV, offX, offV, inX, inV, o + 32, uxx, uxv, uvx, uvv, decay);
      }
      composeX4(outQ, outW, inQ, inW, i);
    }
  }
  for (; i < n; i++) {
    const y = hStride == 0 ? yU : yOf(paramAt(h, hStride, i));
    const e = hStride == 0 ? eU : Math.exp(-y * dt);
    if (decay) vectorCoefficients(y, e, dt);
    for (let k = 3 * i; k < 3 * i + 3; k++) {
      let x = readF32(offX, k), v = readF32(offV, k);
      if (decay) {
        const xn = <f64><f32>(cxx * x + cxv * v);
        v = <f64><f32>(cvx * x + cvv * v);
        x = xn;
        writeF32(offX, k, x);
        writeF32(offV, k, v);
      }
      writeF32(outX, k, readF32(inX, k) + x);
      writeF32(outV, k, readF32(inV, k) + v);
    }
    offsetAndComposeScalar(outQ, outW, offQ, offW, inQ, inW, i, y, e, dt, decay);
  }
}
