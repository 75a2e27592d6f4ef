// Quaternion springs and inertialization over n bones: Holden's "Spring-It-On" simple and decay
// spring dampers and damper (quaternion versions), and "Motion-Matching"'s
// inertialize_pose_transition / inertialize_pose_update for rotations, with the corrections of the
// float64 reference src/reference/quat-spring.ts (its oracle): shortest arc everywhere, atan2 log
// map, exact limits at halflife 0, continuity-preserving transition.
// Rotations q are x, y, z, w (16 bytes a bone), angular velocities w are x, y, z in rad/s
// (12 bytes a bone); the halflife is a parameter (pointer, stride 0 broadcast or 1 per bone).
// SIMD: four bones per step in f32x4 lanes, the spring step of quat/spring-step.ts (its scalar
// algebra in float64 pairs) and the update's output of quat/compose.ts. Tails and the scalar
// build: one bone in float64.
import { loadQuatX4, storeQuatX4, loadVec3X4, storeVec3X4, lx, ly, lz, lw } from '../lanes/transpose-x4';
import { quatMulX4, quatRotateX4, quatRelativeLogX4, quatExpX4, unitScaleX4, qx, qy, qz, qw, vecX, vecY, vecZ } from '../quat/algebra';
import { quatMulScalar, quatRotateScalar, quatLogScalar, quatExpScalar, sx, sy, sz, sw } from '../quat/algebra';
import { expX2 } from '../maths/x2';
import { paramX4, lowX2, highX2, joinX4 } from '../lanes/x4';
import { paramAt, readF32, writeF32 } from '../lanes/scalar';
import { dampingX4, springX4, springScalar, decayX4, decayScalar, storeBone, yOf, nvx, nvy, nvz, yLo, yHi, eLo, eHi, y4, e4 } from '../quat/spring-step';
import { offsetX4, composeX4, offsetAndComposeScalar } from '../quat/compose';
import { applyJacobian } from '../quat/so3-jacobian';

const LN2: f64 = 0.6931471805599453;

// The second factor of unscaleFirstX4.
// @ts-ignore: decorator
@lazy let unscaleSecond: v128 = f32x4.splat(1);

/**
 * 1/(a·b·c) for three unitScaleX4 factors, as two normal powers of two (returned, and in
 * unscaleSecond): the exponent e = −(log2 a + log2 b + log2 c) reaches ±381, beyond one float32, so
 * it is split e = e1 + e2, clamped to [−252, 254] (beyond it a product of norm ≤ 512 rounds to 0,
 * or overflows anyway). Multiplying by the first is exact, by the second rounds once.
 */
// @ts-ignore: decorator
@inline function unscaleFirstX4(a: v128, b: v128, c: v128): v128 {
  const biased = i32x4.add(i32x4.add(i32x4.shr_u(a, 23), i32x4.shr_u(b, 23)), i32x4.shr_u(c, 23)); // Σ(log2 + 127)
  const e = i32x4.min_s(i32x4.max_s(i32x4.sub(i32x4.splat(381), biased), i32x4.splat(-252)), i32x4.splat(254));
  const e1 = i32x4.shr_s(e, 1);
  unscaleSecond = i32x4.shl(i32x4.add(i32x4.sub(e, e1), i32x4.splat(127)), 23);
  return i32x4.shl(i32x4.add(e1, i32x4.splat(127)), 23);
}

// ---------------------------------------------------------------------------------------------
// Kernels

/** Decay of each rotation toward the identity (decay_spring_damper_exact, shortest arc). */
export function quatDecaySpringDamper(q: usize, w: usize, n: i32, h: usize, hStride: i32, dt: f64): void {
  if (dt == 0) return;
  const yU = yOf(paramAt(h, 0, 0)), eU = Math.exp(-yU * dt); // per-call constants (broadcast halflife)
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      decayX4(q, w, i, h, hStride, dt, yU, eU);
      storeQuatX4(q, i, qx, qy, qz, qw);
      storeVec3X4(w, i, nvx, nvy, nvz);
    }
  }
  for (; i < n; i++) {
    const y = hStride == 0 ? yU : yOf(paramAt(h, hStride, i));
    decayScalar(q, w, i, y, hStride == 0 ? eU : Math.exp(-y * dt), dt);
    storeBone(q, w, i);
  }
}

/** Spring of each rotation toward its goal g (simple_spring_damper_exact, shortest arc). */
export function quatSimpleSpringDamper(q: usize, w: usize, g: usize, n: i32, h: usize, hStride: i32, dt: f64): void {
  if (dt == 0) return;
  const yU = yOf(paramAt(h, 0, 0)), eU = Math.exp(-yU * dt);
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuatX4(g, i);
      const gx = lx, gy = ly, gz = lz, gw = lw;
      loadQuatX4(q, i);
      quatRelativeLogX4(lx, ly, lz, lw, gx, gy, gz, gw); // j0 = log(abs(q ⊗ inv(g)))
      const j0x = vecX, j0y = vecY, j0z = vecZ;
      loadVec3X4(w, i);
      dampingX4(h, hStride, i, dt, yU, eU);
      springX4(j0x, j0y, j0z, lx, ly, lz, y4, e4, yLo, yHi, eLo, eHi, dt);
      quatMulX4(qx, qy, qz, qw, gx, gy, gz, gw); // x = exp(…) ⊗ g
      storeQuatX4(q, i, qx, qy, qz, qw);
      storeVec3X4(w, i, nvx, nvy, nvz);
    }
  }
  for (; i < n; i++) {
    const y = hStride == 0 ? yU : yOf(paramAt(h, hStride, i));
    const gx = readF32(g, 4 * i), gy = readF32(g, 4 * i + 1), gz = readF32(g, 4 * i + 2), gw = readF32(g, 4 * i + 3);
    quatMulScalar(readF32(q, 4 * i), readF32(q, 4 * i + 1), readF32(q, 4 * i + 2), readF32(q, 4 * i + 3), -gx, -gy, -gz, gw);
    quatLogScalar(sx, sy, sz, sw);
    springScalar(sx, sy, sz, readF32(w, 3 * i), readF32(w, 3 * i + 1), readF32(w, 3 * i + 2), y, hStride == 0 ? eU : Math.exp(-y * dt), dt);
    quatMulScalar(sx, sy, sz, sw, gx, gy, gz, gw);
    storeBone(q, w, i);
  }
}

/** Damper of each rotation toward its goal (damper_exact): q = slerp(q, g, 1 − exp(−ln2·dt/halflife)). */
export function quatDamper(q: usize, g: usize, n: i32, h: usize, hStride: i32, dt: f64): void {
  if (dt == 0) return;
  const alphaU = 1 - Math.exp((-LN2 * dt) / paramAt(h, 0, 0)); // per-call constant (broadcast halflife)
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const minusLn2Dt = f64x2.splat(-LN2 * dt);
    const one = f64x2.splat(1);
    for (; i + 4 <= n; i += 4) {
      let alphaLo = f64x2.splat(alphaU), alphaHi = alphaLo;
      if (hStride != 0) {
        const hv = paramX4(h, hStride, i);
        alphaLo = f64x2.sub(one, expX2(f64x2.div(minusLn2Dt, lowX2(hv))));
        alphaHi = f64x2.sub(one, expX2(f64x2.div(minusLn2Dt, highX2(hv))));
      }
      loadQuatX4(q, i);
      const x = lx, y = ly, z = lz, ww = lw;
      loadQuatX4(g, i);
      const gx = lx, gy = ly, gz = lz, gw = lw;
      quatRelativeLogX4(gx, gy, gz, gw, x, y, z, ww); // log(abs(g ⊗ inv(q)))
      // exp(alpha · log(abs(g ⊗ inv(q)))) ⊗ q (quat_slerp_shortest)
      quatExpX4(f64x2.mul(alphaLo, lowX2(vecX)), f64x2.mul(alphaHi, highX2(vecX)),
        f64x2.mul(alphaLo, lowX2(vecY)), f64x2.mul(alphaHi, highX2(vecY)),
        f64x2.mul(alphaLo, lowX2(vecZ)), f64x2.mul(alphaHi, highX2(vecZ)));
      quatMulX4(qx, qy, qz, qw, x, y, z, ww);
      // alpha = 1 in float32 (halflife 0, or within 6e-8 of it): exactly the goal
      const done = f32x4.eq(joinX4(alphaLo, alphaHi), f32x4.splat(1));
      storeQuatX4(q, i, v128.bitselect(gx, qx, done), v128.bitselect(gy, qy, done),
        v128.bitselect(gz, qz, done), v128.bitselect(gw, qw, done));
    }
  }
  for (; i < n; i++) {
    const alpha = hStride == 0 ? alphaU : 1 - Math.exp((-LN2 * dt) / paramAt(h, hStride, i));
    const x = readF32(q, 4 * i), y = readF32(q, 4 * i + 1), z = readF32(q, 4 * i + 2), ww = readF32(q, 4 * i + 3);
    const gx = readF32(g, 4 * i), gy = readF32(g, 4 * i + 1), gz = readF32(g, 4 * i + 2), gw = readF32(g, 4 * i + 3);
    if (alpha == 1) {
      writeF32(q, 4 * i, gx); writeF32(q, 4 * i + 1, gy); writeF32(q, 4 * i + 2, gz); writeF32(q, 4 * i + 3, gw);
      continue;
    }
    quatMulScalar(gx, gy, gz, gw, -x, -y, -z, ww);
    quatLogScalar(sx, sy, sz, sw);
    quatExpScalar(alpha * sx, alpha * sy, alpha * sz);
    quatMulScalar(sx, sy, sz, sw, x, y, z, ww);
    writeF32(q, 4 * i, sx); writeF32(q, 4 * i + 1, sy); writeF32(q, 4 * i + 2, sz); writeF32(q, 4 * i + 3, sw);
  }
}

/**
 * Inertialization transition for rotations (inertialize_pose_transition, Motion-Matching, corrected
 * for continuity): offQ' = abs(offQ ⊗ srcQ ⊗ inv(dstQ)), ω' = ω + rotate(offQ, srcW) − rotate(offQ', dstW)
 * on the offsets' angular velocities ω = J(log offQ)·offW, stored back as the rotation-vector rate
 * offW' = J⁻¹(log offQ')·ω' (so3-jacobian.ts).
 */
export function quatInertializeTransition(offQ: usize, offW: usize, srcQ: usize, srcW: usize, dstQ: usize, dstW: usize, n: i32): void {
  applyJacobian(offQ, offW, n, false); // offW: the offsets' angular velocities
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuatX4(offQ, i);
      const ox = lx, oy = ly, oz = lz, ow = lw;
      loadVec3X4(srcW, i);
      quatRotateX4(ox, oy, oz, ow, lx, ly, lz); // off_x ⊗ src_v
      const rsx = vecX, rsy = vecY, rsz = vecZ;
      // off_x ⊗ src_x ⊗ inv(dst_x) on the three scaled by powers of two (unitScaleX4), then unscaled:
      // small offsets and sources gave a product that underflowed to 0 (whose log is NaN) before
      // dst_x brought it back into range. Exact scalings: bit for bit the plain product elsewhere.
      const so = unitScaleX4(ox, oy, oz, ow);
      loadQuatX4(srcQ, i);
      const ss = unitScaleX4(lx, ly, lz, lw);
      quatMulX4(f32x4.mul(ox, so), f32x4.mul(oy, so), f32x4.mul(oz, so), f32x4.mul(ow, so),
        f32x4.mul(lx, ss), f32x4.mul(ly, ss), f32x4.mul(lz, ss), f32x4.mul(lw, ss));
      const px = qx, py = qy, pz = qz, pw = qw;
      loadQuatX4(dstQ, i);
      const sd = unitScaleX4(lx, ly, lz, lw);
      const nd = f32x4.neg(sd);
      quatMulX4(px, py, pz, pw, f32x4.mul(lx, nd), f32x4.mul(ly, nd), f32x4.mul(lz, nd), f32x4.mul(lw, sd));
      const u1 = unscaleFirstX4(so, ss, sd), u2 = unscaleSecond;
      const flip = v128.and(f32x4.lt(qw, f32x4.splat(0)), f32x4.splat(-0.0)); // quat_abs
      const nx = v128.xor(f32x4.mul(f32x4.mul(qx, u1), u2), flip), ny = v128.xor(f32x4.mul(f32x4.mul(qy, u1), u2), flip);
      const nz = v128.xor(f32x4.mul(f32x4.mul(qz, u1), u2), flip), nw = v128.xor(f32x4.mul(f32x4.mul(qw, u1), u2), flip);
      storeQuatX4(offQ, i, nx, ny, nz, nw);
      loadVec3X4(dstW, i);
      quatRotateX4(nx, ny, nz, nw, lx, ly, lz); // off_x' ⊗ dst_v
      const rdx = vecX, rdy = vecY, rdz = vecZ;
      loadVec3X4(offW, i);
      // off_v = (off_v + off_x ⊗ src_v) − off_x' ⊗ dst_v
      storeVec3X4(offW, i, f32x4.sub(f32x4.add(lx, rsx), rdx), f32x4.sub(f32x4.add(ly, rsy), rdy), f32x4.sub(f32x4.add(lz, rsz), rdz));
    }
  }
  for (; i < n; i++) {
    const ox = readF32(offQ, 4 * i), oy = readF32(offQ, 4 * i + 1), oz = readF32(offQ, 4 * i + 2), ow = readF32(offQ, 4 * i + 3);
    quatRotateScalar(ox, oy, oz, ow, readF32(srcW, 3 * i), readF32(srcW, 3 * i + 1), readF32(srcW, 3 * i + 2));
    const rsx = sx, rsy = sy, rsz = sz;
    quatMulScalar(ox, oy, oz, ow, readF32(srcQ, 4 * i), readF32(srcQ, 4 * i + 1), readF32(srcQ, 4 * i + 2), readF32(srcQ, 4 * i + 3));
    quatMulScalar(sx, sy, sz, sw, -readF32(dstQ, 4 * i), -readF32(dstQ, 4 * i + 1), -readF32(dstQ, 4 * i + 2), readF32(dstQ, 4 * i + 3));
    const sign: f64 = sw < 0 ? -1 : 1;
    const nx = <f64><f32>(sign * sx), ny = <f64><f32>(sign * sy), nz = <f64><f32>(sign * sz), nw = <f64><f32>(sign * sw);
    writeF32(offQ, 4 * i, nx); writeF32(offQ, 4 * i + 1, ny); writeF32(offQ, 4 * i + 2, nz); writeF32(offQ, 4 * i + 3, nw);
    quatRotateScalar(nx, ny, nz, nw, readF32(dstW, 3 * i), readF32(dstW, 3 * i + 1), readF32(dstW, 3 * i + 2));
    writeF32(offW, 3 * i, readF32(offW, 3 * i) + rsx - sx);
    writeF32(offW, 3 * i + 1, readF32(offW, 3 * i + 1) + rsy - sy);
    writeF32(offW, 3 * i + 2, readF32(offW, 3 * i + 2) + rsz - sz);
  }
  applyJacobian(offQ, offW, n, true); // back to the rates of the new offsets' rotation vectors
}

/**
 * Inertialization update for rotations (inertialize_pose_update, Motion-Matching): decays the
 * offset (dt > 0), then outQ = offQ ⊗ inQ, outW = J(log offQ)·offW + rotate(offQ, inW) (so3-jacobian.ts).
 */
export function quatInertializeUpdate(
  outQ: usize, outW: usize, offQ: usize, offW: usize, inQ: usize, inW: usize, n: i32, h: usize, hStride: i32, dt: f64,
): void {
  const decay = dt > 0;
  const yU = yOf(paramAt(h, 0, 0)), eU = Math.exp(-yU * dt); // per-call constants (broadcast halflife)
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      offsetX4(offQ, offW, i, h, hStride, dt, yU, eU, decay);
      composeX4(outQ, outW, inQ, inW, i);
    }
  }
  for (; i < n; i++) {
    const y = hStride == 0 ? yU : yOf(paramAt(h, hStride, i));
    offsetAndComposeScalar(outQ, outW, offQ, offW, inQ, inW, i, y, hStride == 0 ? eU : Math.exp(-y * dt), dt, decay);
  }
}
