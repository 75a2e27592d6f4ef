// The rotation part of an inertialization update (Motion-Matching's inertialize_pose_update,
// quaternion version) for four bones in lanes or one bone in float64: the offset decays
// (quat/spring-step.ts) when dt > 0, then
//   out_q = off_q ⊗ in_q,  out_w = off_w + rotate(off_q, in_w).
// Shared by quatInertializeUpdate (kernels/quat.ts) and poseInertializeUpdate (kernels/pose-inertialize.ts).
import { loadQuatX4, storeQuatX4, loadVec3X4, storeVec3X4, lx, ly, lz, lw } from '../lanes/transpose-x4';
import { quatMulX4, quatRotateX4, qx, qy, qz, qw, vecX, vecY, vecZ, quatMulScalar, quatRotateScalar, sx, sy, sz, sw } from './algebra';
import { decayX4, decayScalar, storeBone, nvx, nvy, nvz } from './spring-step';
import { readF32, writeF32 } from '../lanes/scalar';
// off_w being the rate of the offset's rotation vector and J the SO(3) Jacobian (so3-jacobian.ts).
import { jacobianX4, jacobianFromVectorX4, jx, jy, jz, jacobianScalar, jacobianFromVector, ox as jox, oy as joy, oz as joz } from './so3-jacobian';
import { rax, ray, raz, rvx, rvy, rvz } from './spring-step';

/** The offsets of bones i … i + 3 after the decay, set by offsetX4. */
// @ts-ignore: decorator
@lazy export let oqx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let oqy: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let oqz: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let oqw: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let owx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let owy: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let owz: v128 = f32x4.splat(0);

// Whether offsetX4 decayed (the spring's rotation vectors rvx … rvz are then those of oq*).
let decayed = false;

/** Decays (decay: dt > 0) and stores the offsets of bones i … i + 3, or loads them; into oq*, ow*. */
// @ts-ignore: decorator
@inline export function offsetX4(offQ: usize, offW: usize, i: i32, h: usize, hStride: i32, dt: f64, yU: f64, eU: f64, decay: bool): void {
  decayed = decay;
  if (decay) {
    decayX4(offQ, offW, i, h, hStride, dt, yU, eU); // decay_spring_damper_exact(off_x, off_v, halflife, dt)
    oqx = qx; oqy = qy; oqz = qz; oqw = qw; owx = nvx; owy = nvy; owz = nvz;
    storeQuatX4(offQ, i, oqx, oqy, oqz, oqw);
    storeVec3X4(offW, i, owx, owy, owz);
  } else {
    loadQuatX4(offQ, i);
    oqx = lx; oqy = ly; oqz = lz; oqw = lw;
    loadVec3X4(offW, i);
    owx = lx; owy = ly; owz = lz;
  }
}

/** out_q = off_q ⊗ in_q, out_w = J(log off_q)·off_w + rotate(off_q, in_w) for bones i … i + 3 (offsets from offsetX4). */
// @ts-ignore: decorator
@inline export function composeX4(outQ: usize, outW: usize, inQ: usize, inW: usize, i: i32): void {
  // the offset's angular velocity J(r)·off_w (after a decay, r from the spring's own rotation vector)
  if (decayed) jacobianFromVectorX4(rvx, rvy, rvz, oqx, oqy, oqz, oqw, owx, owy, owz);
  else jacobianX4(oqx, oqy, oqz, oqw, owx, owy, owz, false);
  composeWithRateX4(outQ, outW, inQ, inW, i, oqx, oqy, oqz, oqw, jx, jy, jz);
}

/** out_q = off_q ⊗ in_q, out_w = (ax, ay, az) + rotate(off_q, in_w) for bones i … i + 3, given a = J(r)·off_w. */
// @ts-ignore: decorator
@inline export function composeWithRateX4(
  outQ: usize, outW: usize, inQ: usize, inW: usize, i: i32, ox: v128, oy: v128, oz: v128, ow: v128, ax: v128, ay: v128, az: v128,
): void {
  loadVec3X4(inW, i);
  quatRotateX4(ox, oy, oz, ow, lx, ly, lz); // off_x ⊗ in_v
  const rx = vecX, ry = vecY, rz = vecZ;
  loadQuatX4(inQ, i);
  quatMulX4(ox, oy, oz, ow, lx, ly, lz, lw); // out_x = off_x ⊗ in_x
  storeQuatX4(outQ, i, qx, qy, qz, qw);
  storeVec3X4(outW, i, f32x4.add(ax, rx), f32x4.add(ay, ry), f32x4.add(az, rz)); // out_v = J·off_v + off_x ⊗ in_v
}

/** The decay (decay: dt > 0, with this bone's y and eydt) and the outputs of bone i, in float64. */
// @ts-ignore: decorator
@inline export function offsetAndComposeScalar(
  outQ: usize, outW: usize, offQ: usize, offW: usize, inQ: usize, inW: usize, i: i32, y: f64, e: f64, dt: f64, decay: bool,
): void {
  if (decay) {
    decayScalar(offQ, offW, i, y, e, dt);
    storeBone(offQ, offW, i);
  }
  const ox = readF32(offQ, 4 * i), oy = readF32(offQ, 4 * i + 1), oz = readF32(offQ, 4 * i + 2), ow = readF32(offQ, 4 * i + 3);
  // the offset's angular velocity J(r)·off_w (after a decay, r from the spring's own rotation vector)
  if (decay) jacobianFromVector(rax, ray, raz, ox, oy, oz, ow, readF32(offW, 3 * i), readF32(offW, 3 * i + 1), readF32(offW, 3 * i + 2));
  else jacobianScalar(ox, oy, oz, ow, readF32(offW, 3 * i), readF32(offW, 3 * i + 1), readF32(offW, 3 * i + 2), false);
  const ax = jox, ay = joy, az = joz;
  quatRotateScalar(ox, oy, oz, ow, readF32(inW, 3 * i), readF32(inW, 3 * i + 1), readF32(inW, 3 * i + 2));
  const rx = sx, ry = sy, rz = sz;
  quatMulScalar(ox, oy, oz, ow, readF32(inQ, 4 * i), readF32(inQ, 4 * i + 1), readF32(inQ, 4 * i + 2), readF32(inQ, 4 * i + 3));
  writeF32(outQ, 4 * i, sx); writeF32(outQ, 4 * i + 1, sy); writeF32(outQ, 4 * i + 2, sz); writeF32(outQ, 4 * i + 3, sw);
  writeF32(outW, 3 * i, ax + rx);
  writeF32(outW, 3 * i + 1, ay + ry);
  writeF32(outW, 3 * i + 2, az + rz);
}
