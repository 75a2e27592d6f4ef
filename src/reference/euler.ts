/** Euler angles as three.js computes them from a quaternion (float64, three's operations). */
import type { FloatArray } from './float-array.js';

/**
 * out[o…] = the XYZ Euler angles of q as three's Euler.setFromQuaternion computes them (the
 * rotation matrix of Matrix4.compose with unit scale, then setFromRotationMatrix).
 */
export function eulerXyz(x: number, y: number, z: number, w: number, out: FloatArray, o: number): void {
  const x2 = x + x,
    y2 = y + y,
    z2 = z + z;
  const xx = x * x2,
    xy = x * y2,
    xz = x * z2,
    yy = y * y2,
    yz = y * z2,
    zz = z * z2,
    wx = w * x2,
    wy = w * y2,
    wz = w * z2;
  const m11 = 1 - (yy + zz),
    m12 = xy - wz,
    m13 = xz + wy;
  out[o + 1] = Math.asin(Math.max(-1, Math.min(1, m13)));
  if (Math.abs(m13) < 0.9999999) {
    out[o] = Math.atan2(-(yz - wx), 1 - (xx + yy));
    out[o + 2] = Math.atan2(-m12, m11);
  } else {
    out[o] = Math.atan2(yz + wx, 1 - (xx + zz));
    out[o + 2] = 0;
  }
}
