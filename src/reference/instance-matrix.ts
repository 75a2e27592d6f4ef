/**
 * Float64 reference (and JS backend) of composeInstanceMatrices: floats 0…11 of each 16-float
 * instance matrix (column-major) from a quaternion (x, y, z, w) and a scale, the rotation·scale
 * part of three.js Matrix4.compose; the translation (12…14) and float 15 are left as they are.
 */
import type { FloatArray } from './float-array.js';

/**
 * Writes floats 0…11 of `n` column-major 4×4 matrices `m` (16 floats each) from the quaternions `q`
 * (x, y, z, w) and scales `s` (3 floats each); the translations are left as they are.
 * @example
 * ```ts
 * import { composeInstanceMatrices } from 'spring-solver/reference';
 * const m = new Float32Array(16); // one column-major 4×4 matrix
 * composeInstanceMatrices(m, new Float32Array([0, 0, 0, 1]), new Float32Array([2, 2, 2]), 1); // rotation·scale
 * ```
 * @group Core springs
 */
export function composeInstanceMatrices(m: FloatArray, q: FloatArray, s: FloatArray, n: number): void {
  for (let i = 0; i < n; i++) {
    const x = q[4 * i]!,
      y = q[4 * i + 1]!,
      z = q[4 * i + 2]!,
      w = q[4 * i + 3]!;
    const sx = s[3 * i]!,
      sy = s[3 * i + 1]!,
      sz = s[3 * i + 2]!;
    const x2 = x + x,
      y2 = y + y,
      z2 = z + z;
    const xx = x * x2,
      xy = x * y2,
      xz = x * z2,
      yy = y * y2,
      yz = y * z2,
      zz = z * z2;
    const wx = w * x2,
      wy = w * y2,
      wz = w * z2;
    const a = 16 * i;
    m[a] = (1 - (yy + zz)) * sx;
    m[a + 1] = (xy + wz) * sx;
    m[a + 2] = (xz - wy) * sx;
    m[a + 3] = 0;
    m[a + 4] = (xy - wz) * sy;
    m[a + 5] = (1 - (xx + zz)) * sy;
    m[a + 6] = (yz + wx) * sy;
    m[a + 7] = 0;
    m[a + 8] = (xz + wy) * sz;
    m[a + 9] = (yz - wx) * sz;
    m[a + 10] = (1 - (xx + yy)) * sz;
    m[a + 11] = 0;
  }
}
