// The XYZ Euler angles of a quaternion, as three's Euler.setFromQuaternion computes them
// (makeRotationFromQuaternion, then setFromRotationMatrix's XYZ case): what a bone's `rotation` gets
// from its quaternion's onChange. Shared by the mixer-sampling and spring-bone kernels (references:
// src/reference/euler.ts). Math.asin and Math.atan2 are the engine's own, imported (module "Math",
// beside acos and sin: docs/DECISIONS.md, "The engine's own sin"), so every engine's kernel gives the
// angles its own three.js would.

// @ts-ignore: decorator
@external("Math", "asin") declare function engineAsin(x: f64): f64;
// @ts-ignore: decorator
@external("Math", "atan2") declare function engineAtan2(y: f64, x: f64): f64;

/** e[0 … 2] (float64) = the XYZ Euler angles of the quaternion (x, y, z, w). */
export function eulerXyz(x: f64, y: f64, z: f64, w: f64, e: usize): void {
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  const m13 = xz + wy;
  store<f64>(e, engineAsin(Math.max(-1, Math.min(1, m13))), 8);
  if (Math.abs(m13) < 0.9999999) {
    store<f64>(e, engineAtan2(-(yz - wx), 1 - (xx + yy)));
    store<f64>(e, engineAtan2(-(xy - wz), 1 - (yy + zz)), 16);
  } else {
    store<f64>(e, engineAtan2(yz + wx, 1 - (xx + zz)));
    store<f64>(e, 0, 16);
  }
}
