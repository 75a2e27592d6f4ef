// Batched quaternion helpers over n elements (quaternions x, y, z, w; vectors x, y, z), the
// formulas of quat/algebra.ts applied element by element; the float64 oracle is
// src/reference/quat-batch.ts. An input may be the very same array as the output.
import { loadQuatX4, storeQuatX4, loadVec3X4, storeVec3X4, lx, ly, lz, lw } from '../lanes/transpose-x4';
import { quatMulX4, quatRotateX4, quatLogX4, quatRelativeLogX4, quatExpX4, unitScaleX4, qx, qy, qz, qw, vecX, vecY, vecZ } from '../quat/algebra';
import { quatMulScalar, quatRotateScalar, quatLogScalar, quatExpScalar, sx, sy, sz, sw } from '../quat/algebra';
import { paramX4, lowX2, highX2 } from '../lanes/x4';
import { paramAt, readF32, writeF32 } from '../lanes/scalar';



// @ts-ignore: decorator
@inline function putQuat(p: usize, i: i32): void {
  writeF32(p, 4 * i, sx); writeF32(p, 4 * i + 1, sy); writeF32(p, 4 * i + 2, sz); writeF32(p, 4 * i + 3, sw);
}

// @ts-ignore: decorator
@inline function putVec(p: usize, i: i32): void {
  writeF32(p, 3 * i, sx); writeF32(p, 3 * i + 1, sy); writeF32(p, 3 * i + 2, sz);
}

/** out = a ⊗ b (quat_mul). */
export function quatMul(out: usize, a: usize, b: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuatX4(a, i);
      const ax = lx, ay = ly, az = lz, aw = lw;
      loadQuatX4(b, i);
      quatMulX4(ax, ay, az, aw, lx, ly, lz, lw);
      storeQuatX4(out, i, qx, qy, qz, qw);
    }
  }
  for (; i < n; i++) {
    quatMulScalar(readF32(a, 4 * i), readF32(a, 4 * i + 1), readF32(a, 4 * i + 2), readF32(a, 4 * i + 3), readF32(b, 4 * i), readF32(b, 4 * i + 1), readF32(b, 4 * i + 2), readF32(b, 4 * i + 3));
    putQuat(out, i);
  }
}

/** out = [−x, −y, −z, w] (quat_inv of a unit quaternion). */
export function quatInv(out: usize, q: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    const conjugate = f32x4(-0.0, -0.0, -0.0, 0.0);
    for (; i < n; i++) v128.store(out + (<usize>i << 4), v128.xor(v128.load(q + (<usize>i << 4)), conjugate));
  }
  for (; i < n; i++) {
    writeF32(out, 4 * i, -readF32(q, 4 * i)); writeF32(out, 4 * i + 1, -readF32(q, 4 * i + 1)); writeF32(out, 4 * i + 2, -readF32(q, 4 * i + 2));
    writeF32(out, 4 * i + 3, readF32(q, 4 * i + 3));
  }
}

/** out = q, or −q where w < 0 (quat_abs: the same rotation on the shortest arc). */
export function quatAbs(out: usize, q: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i < n; i++) {
      const v = v128.load(q + (<usize>i << 4));
      const negative = f32x4.lt(i32x4.shuffle(v, v, 3, 3, 3, 3), f32x4.splat(0));
      v128.store(out + (<usize>i << 4), v128.xor(v, v128.and(negative, f32x4.splat(-0.0))));
    }
  }
  for (; i < n; i++) {
    const s: f64 = readF32(q, 4 * i + 3) < 0 ? -1 : 1;
    for (let k = 0; k < 4; k++) writeF32(out, 4 * i + k, s * readF32(q, 4 * i + k));
  }
}

/** out = q/|q| (a zero quaternion gives NaN, as in the reference). */
export function quatNormalize(out: usize, q: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuatX4(q, i);
      // scaled by a power of two first (exact): |q|² of a tiny quaternion underflowed to 0 (q/0 = ∞)
      const scale = unitScaleX4(lx, ly, lz, lw);
      const x = f32x4.mul(lx, scale), y = f32x4.mul(ly, scale), z = f32x4.mul(lz, scale), w = f32x4.mul(lw, scale);
      const len = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.add(f32x4.mul(z, z), f32x4.mul(w, w))));
      storeQuatX4(out, i, f32x4.div(x, len), f32x4.div(y, len), f32x4.div(z, len), f32x4.div(w, len));
    }
  }
  for (; i < n; i++) {
    const x = readF32(q, 4 * i), y = readF32(q, 4 * i + 1), z = readF32(q, 4 * i + 2), w = readF32(q, 4 * i + 3);
    const len = Math.sqrt(x * x + y * y + z * z + w * w);
    writeF32(out, 4 * i, x / len); writeF32(out, 4 * i + 1, y / len); writeF32(out, 4 * i + 2, z / len); writeF32(out, 4 * i + 3, w / len);
  }
}

/** out = rotate(q, v) (quat_mul_vec3); out and v are 3-vectors. */
export function quatRotate(out: usize, q: usize, v: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuatX4(q, i);
      const x = lx, y = ly, z = lz, w = lw;
      loadVec3X4(v, i);
      quatRotateX4(x, y, z, w, lx, ly, lz);
      storeVec3X4(out, i, vecX, vecY, vecZ);
    }
  }
  for (; i < n; i++) {
    quatRotateScalar(readF32(q, 4 * i), readF32(q, 4 * i + 1), readF32(q, 4 * i + 2), readF32(q, 4 * i + 3), readF32(v, 3 * i), readF32(v, 3 * i + 1), readF32(v, 3 * i + 2));
    putVec(out, i);
  }
}

/** out = log of abs(q) as a scaled angle axis (quat_to_scaled_angle_axis, atan2 form); out is a 3-vector. */
export function quatToScaledAngleAxis(out: usize, q: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuatX4(q, i);
      quatLogX4(lx, ly, lz, lw);
      storeVec3X4(out, i, vecX, vecY, vecZ);
    }
  }
  for (; i < n; i++) {
    quatLogScalar(readF32(q, 4 * i), readF32(q, 4 * i + 1), readF32(q, 4 * i + 2), readF32(q, 4 * i + 3));
    putVec(out, i);
  }
}

/** out = exp(v/2), the representative with w ≥ 0 (quat_from_scaled_angle_axis); v is a 3-vector. */
export function quatFromScaledAngleAxis(out: usize, v: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadVec3X4(v, i);
      quatExpX4(lowX2(lx), highX2(lx), lowX2(ly), highX2(ly), lowX2(lz), highX2(lz));
      storeQuatX4(out, i, qx, qy, qz, qw);
    }
  }
  for (; i < n; i++) {
    quatExpScalar(readF32(v, 3 * i), readF32(v, 3 * i + 1), readF32(v, 3 * i + 2));
    const s: f64 = sw < 0 ? -1 : 1; // w ≥ 0, as the SIMD path gives
    writeF32(out, 4 * i, s * sx); writeF32(out, 4 * i + 1, s * sy); writeF32(out, 4 * i + 2, s * sz); writeF32(out, 4 * i + 3, s * sw);
  }
}

/** out = exp(t·log(abs(b ⊗ inv(a)))) ⊗ a: shortest-arc slerp from a (t = 0) to ±b (t = 1). */
export function quatSlerp(out: usize, a: usize, b: usize, n: i32, t: usize, tStride: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuatX4(a, i);
      const ax = lx, ay = ly, az = lz, aw = lw;
      loadQuatX4(b, i);
      quatRelativeLogX4(lx, ly, lz, lw, ax, ay, az, aw); // log(abs(b ⊗ inv(a)))
      const tv = paramX4(t, tStride, i);
      const tLo = lowX2(tv), tHi = highX2(tv);
      quatExpX4(f64x2.mul(tLo, lowX2(vecX)), f64x2.mul(tHi, highX2(vecX)), f64x2.mul(tLo, lowX2(vecY)), f64x2.mul(tHi, highX2(vecY)),
        f64x2.mul(tLo, lowX2(vecZ)), f64x2.mul(tHi, highX2(vecZ)));
      quatMulX4(qx, qy, qz, qw, ax, ay, az, aw);
      storeQuatX4(out, i, qx, qy, qz, qw);
    }
  }
  for (; i < n; i++) {
    const ti = paramAt(t, tStride, i);
    const ax = readF32(a, 4 * i), ay = readF32(a, 4 * i + 1), az = readF32(a, 4 * i + 2), aw = readF32(a, 4 * i + 3);
    quatMulScalar(readF32(b, 4 * i), readF32(b, 4 * i + 1), readF32(b, 4 * i + 2), readF32(b, 4 * i + 3), -ax, -ay, -az, aw);
    quatLogScalar(sx, sy, sz, sw);
    quatExpScalar(ti * sx, ti * sy, ti * sz);
    quatMulScalar(sx, sy, sz, sw, ax, ay, az, aw);
    putQuat(out, i);
  }
}
