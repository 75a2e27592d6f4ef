// Batched quaternion helpers over n elements (quaternions x, y, z, w; vectors x, y, z), the
// formulas of quat-algebra.ts applied element by element; the float64 oracle is
// src/reference/quat-batch.ts. An input may be the very same array as the output.
import { loadQuat4, storeQuat4, loadVec4, storeVec4, lx, ly, lz, lw } from '../lanes/transpose-x4';
import { mulX4, rotateX4, logX4, expX4, qx, qy, qz, qw, vx, vy, vz } from '../quat/algebra';
import { mulScalar, rotateScalar, logScalar, expScalar, sx, sy, sz, sw } from '../quat/algebra';
import { paramAt, paramX4, lowX2, highX2 } from '../lanes/x4';
import { f, put } from '../lanes/scalar';



// @ts-ignore: decorator
@inline function putQuat(p: usize, i: i32): void {
  put(p, 4 * i, sx); put(p, 4 * i + 1, sy); put(p, 4 * i + 2, sz); put(p, 4 * i + 3, sw);
}

// @ts-ignore: decorator
@inline function putVec(p: usize, i: i32): void {
  put(p, 3 * i, sx); put(p, 3 * i + 1, sy); put(p, 3 * i + 2, sz);
}

/** out = a ⊗ b (quat_mul). */
export function quatMul(out: usize, a: usize, b: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuat4(a, i);
      const ax = lx, ay = ly, az = lz, aw = lw;
      loadQuat4(b, i);
      mulX4(ax, ay, az, aw, lx, ly, lz, lw);
      storeQuat4(out, i, qx, qy, qz, qw);
    }
  }
  for (; i < n; i++) {
    mulScalar(f(a, 4 * i), f(a, 4 * i + 1), f(a, 4 * i + 2), f(a, 4 * i + 3), f(b, 4 * i), f(b, 4 * i + 1), f(b, 4 * i + 2), f(b, 4 * i + 3));
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
    put(out, 4 * i, -f(q, 4 * i)); put(out, 4 * i + 1, -f(q, 4 * i + 1)); put(out, 4 * i + 2, -f(q, 4 * i + 2));
    put(out, 4 * i + 3, f(q, 4 * i + 3));
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
    const s: f64 = f(q, 4 * i + 3) < 0 ? -1 : 1;
    for (let k = 0; k < 4; k++) put(out, 4 * i + k, s * f(q, 4 * i + k));
  }
}

/** out = q/|q| (a zero quaternion gives NaN, as in the reference). */
export function quatNormalize(out: usize, q: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuat4(q, i);
      const len = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(lx, lx), f32x4.mul(ly, ly)), f32x4.add(f32x4.mul(lz, lz), f32x4.mul(lw, lw))));
      storeQuat4(out, i, f32x4.div(lx, len), f32x4.div(ly, len), f32x4.div(lz, len), f32x4.div(lw, len));
    }
  }
  for (; i < n; i++) {
    const x = f(q, 4 * i), y = f(q, 4 * i + 1), z = f(q, 4 * i + 2), w = f(q, 4 * i + 3);
    const len = Math.sqrt(x * x + y * y + z * z + w * w);
    put(out, 4 * i, x / len); put(out, 4 * i + 1, y / len); put(out, 4 * i + 2, z / len); put(out, 4 * i + 3, w / len);
  }
}

/** out = rotate(q, v) (quat_mul_vec3); out and v are 3-vectors. */
export function quatRotate(out: usize, q: usize, v: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuat4(q, i);
      const x = lx, y = ly, z = lz, w = lw;
      loadVec4(v, i);
      rotateX4(x, y, z, w, lx, ly, lz);
      storeVec4(out, i, vx, vy, vz);
    }
  }
  for (; i < n; i++) {
    rotateScalar(f(q, 4 * i), f(q, 4 * i + 1), f(q, 4 * i + 2), f(q, 4 * i + 3), f(v, 3 * i), f(v, 3 * i + 1), f(v, 3 * i + 2));
    putVec(out, i);
  }
}

/** out = log of abs(q) as a scaled angle axis (quat_to_scaled_angle_axis, atan2 form); out is a 3-vector. */
export function quatToScaledAngleAxis(out: usize, q: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuat4(q, i);
      logX4(lx, ly, lz, lw);
      storeVec4(out, i, vx, vy, vz);
    }
  }
  for (; i < n; i++) {
    logScalar(f(q, 4 * i), f(q, 4 * i + 1), f(q, 4 * i + 2), f(q, 4 * i + 3));
    putVec(out, i);
  }
}

/** out = exp(v/2), the representative with w ≥ 0 (quat_from_scaled_angle_axis); v is a 3-vector. */
export function quatFromScaledAngleAxis(out: usize, v: usize, n: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadVec4(v, i);
      expX4(lowX2(lx), highX2(lx), lowX2(ly), highX2(ly), lowX2(lz), highX2(lz));
      storeQuat4(out, i, qx, qy, qz, qw);
    }
  }
  for (; i < n; i++) {
    expScalar(f(v, 3 * i), f(v, 3 * i + 1), f(v, 3 * i + 2));
    const s: f64 = sw < 0 ? -1 : 1; // w ≥ 0, as the SIMD path gives
    put(out, 4 * i, s * sx); put(out, 4 * i + 1, s * sy); put(out, 4 * i + 2, s * sz); put(out, 4 * i + 3, s * sw);
  }
}

/** out = exp(t·log(abs(b ⊗ inv(a)))) ⊗ a: shortest-arc slerp from a (t = 0) to ±b (t = 1). */
export function quatSlerp(out: usize, a: usize, b: usize, n: i32, t: usize, tStride: i32): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuat4(a, i);
      const ax = lx, ay = ly, az = lz, aw = lw;
      loadQuat4(b, i);
      mulX4(lx, ly, lz, lw, f32x4.neg(ax), f32x4.neg(ay), f32x4.neg(az), aw); // b ⊗ inv(a)
      logX4(qx, qy, qz, qw);
      const tv = paramX4(t, tStride, i);
      const tLo = lowX2(tv), tHi = highX2(tv);
      expX4(f64x2.mul(tLo, lowX2(vx)), f64x2.mul(tHi, highX2(vx)), f64x2.mul(tLo, lowX2(vy)), f64x2.mul(tHi, highX2(vy)),
        f64x2.mul(tLo, lowX2(vz)), f64x2.mul(tHi, highX2(vz)));
      mulX4(qx, qy, qz, qw, ax, ay, az, aw);
      storeQuat4(out, i, qx, qy, qz, qw);
    }
  }
  for (; i < n; i++) {
    const ti = paramAt(t, tStride, i);
    const ax = f(a, 4 * i), ay = f(a, 4 * i + 1), az = f(a, 4 * i + 2), aw = f(a, 4 * i + 3);
    mulScalar(f(b, 4 * i), f(b, 4 * i + 1), f(b, 4 * i + 2), f(b, 4 * i + 3), -ax, -ay, -az, aw);
    logScalar(sx, sy, sz, sw);
    expScalar(ti * sx, ti * sy, ti * sz);
    mulScalar(sx, sy, sz, sw, ax, ay, az, aw);
    putQuat(out, i);
  }
}
