/**
 * Writing a rotation to an Object3D the way three.js does, for less. `quaternion.set` runs the
 * object's onChange callback, Euler.setFromQuaternion: it composes a Matrix4 from the quaternion
 * (makeRotationFromQuaternion, i.e. compose with unit scale) and reads the angles back
 * (setFromRotationMatrix). For the default order XYZ this computes the same float64 operations on
 * the quaternion directly (src/reference/euler.ts, or the mixer kernel), so `rotation` gets the
 * bit-identical angles without the matrix. It writes the backing fields (`_x` … of Quaternion and
 * Euler, three.js r187); any other order goes through `quaternion.set`.
 */
import type { Euler, Object3D, Quaternion } from 'three';
import { eulerXyz } from '../reference/euler.js';

/** three r187's backing fields of Quaternion and Euler (what their setters write before onChange). */
export interface QuaternionFields {
  _x: number;
  _y: number;
  _z: number;
  _w: number;
}
export interface EulerFields {
  _x: number;
  _y: number;
  _z: number;
  _order: string;
}

/** Sets object.quaternion to a[o … o + 3] and object.rotation to the same rotation (as three's onChange would). */
export function setRotation(object: Object3D, a: Float32Array | Float64Array, o: number): void {
  setQuaternionAndEuler(object.quaternion, object.rotation, a, o);
}

/** setQuaternionAndEuler's angles, between their computation and their write. */
const angle = new Float64Array(3);

/** setRotation on an object's own quaternion and rotation (kept by a caller that writes many objects every frame). */
export function setQuaternionAndEuler(quaternion: Quaternion, rotation: Euler, a: Float32Array | Float64Array, o: number): void {
  if ((rotation as unknown as EulerFields)._order === 'XYZ') eulerXyz(a[o]!, a[o + 1]!, a[o + 2]!, a[o + 3]!, angle, 0);
  setQuaternionAndAngles(quaternion, rotation, a, o, angle, 0);
}

/**
 * setQuaternionAndEuler with the XYZ angles already computed (angles[ao …], by the mixer kernel from
 * the same quaternion with the same operations): the fields alone are written. Any other order goes
 * through `quaternion.set`, whose onChange computes it.
 */
export function setQuaternionAndAngles(
  quaternion: Quaternion,
  rotation: Euler,
  a: Float32Array | Float64Array,
  o: number,
  angles: Float64Array,
  ao: number,
): void {
  const r = rotation as unknown as EulerFields;
  if (r._order !== 'XYZ') {
    quaternion.set(a[o]!, a[o + 1]!, a[o + 2]!, a[o + 3]!);
    return;
  }
  const q = quaternion as unknown as QuaternionFields;
  q._x = a[o]!;
  q._y = a[o + 1]!;
  q._z = a[o + 2]!;
  q._w = a[o + 3]!;
  r._x = angles[ao]!;
  r._y = angles[ao + 1]!;
  r._z = angles[ao + 2]!;
}
