/**
 * Plain float64 quaternion math, written from the formulas used in Daniel Holden's
 * "Spring-It-On" and "Motion-Matching" code (quat.h), but re-derived here.
 *
 * Conventions (same as three.js):
 * - layout `[x, y, z, w]`, w is the scalar part;
 * - `mul(a, b)` is the Hamilton product; rotating a vector by `mul(a, b)` applies `b` first, then `a`;
 * - rotations are unit quaternions; `q` and `-q` are the same rotation;
 * - a "scaled angle axis" vector is `angle * axis` (radians), i.e. `2 * log(q)`.
 *
 * Every function returns a fresh plain array of float64 numbers and never mutates its inputs.
 * Inputs can be any `ArrayLike<number>` (number[], Float32Array, Float64Array, ...).
 */

/** A quaternion `[x, y, z, w]` held as float64 numbers. */
export type Quat = [number, number, number, number];
/** A 3-vector `[x, y, z]` held as float64 numbers. */
export type Vec3 = [number, number, number];
/** Anything indexable that can receive numbers (number[], Float32Array, Float64Array). */
export interface WritableArrayLike {
  length: number;
  [index: number]: number;
}

/** Below this |half angle| (or |xyz| / w ratio) the series forms are used; their truncation error is < 1e-24 relative. */
const SERIES_THRESHOLD = 1e-4;

/**
 * The identity rotation `[0, 0, 0, 1]`.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const q = quat.identity(); // [0, 0, 0, 1]
 * ```
 */
export function identity(): Quat {
  return [0, 0, 0, 1];
}

/**
 * Reads the quaternion number `i` (elements `4i .. 4i+3`) of a packed array.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const q = quat.load4(new Float32Array([0, 0, 0, 1, 0, 1, 0, 0]), 1); // [0, 1, 0, 0]
 * ```
 */
export function load4(a: ArrayLike<number>, i: number): Quat {
  const o = 4 * i;
  return [a[o]!, a[o + 1]!, a[o + 2]!, a[o + 3]!];
}

/**
 * Writes `q` as quaternion number `i` (elements `4i .. 4i+3`) of a packed array.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const rotations = new Float32Array(8);
 * quat.store4(rotations, 1, quat.identity()); // floats 4…7
 * ```
 */
export function store4(a: WritableArrayLike, i: number, q: ArrayLike<number>): void {
  const o = 4 * i;
  a[o] = q[0]!;
  a[o + 1] = q[1]!;
  a[o + 2] = q[2]!;
  a[o + 3] = q[3]!;
}

/**
 * Reads the 3-vector number `i` (elements `3i .. 3i+2`) of a packed array.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const v = quat.load3(new Float32Array([1, 2, 3, 4, 5, 6]), 1); // [4, 5, 6]
 * ```
 */
export function load3(a: ArrayLike<number>, i: number): Vec3 {
  const o = 3 * i;
  return [a[o]!, a[o + 1]!, a[o + 2]!];
}

/**
 * Writes `v` as 3-vector number `i` (elements `3i .. 3i+2`) of a packed array.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const positions = new Float32Array(6);
 * quat.store3(positions, 1, [4, 5, 6]); // floats 3…5
 * ```
 */
export function store3(a: WritableArrayLike, i: number, v: ArrayLike<number>): void {
  const o = 3 * i;
  a[o] = v[0]!;
  a[o + 1] = v[1]!;
  a[o + 2] = v[2]!;
}

/**
 * Hamilton product `a ⊗ b` (quat_mul in Holden's quat.h).
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const q = quat.mul([0, Math.SQRT1_2, 0, Math.SQRT1_2], [Math.SQRT1_2, 0, 0, Math.SQRT1_2]); // b first, then a
 * ```
 */
export function mul(a: ArrayLike<number>, b: ArrayLike<number>): Quat {
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!,
    aw = a[3]!;
  const bx = b[0]!,
    by = b[1]!,
    bz = b[2]!,
    bw = b[3]!;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/**
 * Inverse of a unit quaternion = its conjugate `[-x, -y, -z, w]` (quat_inv in Holden's quat.h).
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const q = quat.inv([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
 * ```
 */
export function inv(q: ArrayLike<number>): Quat {
  return [-q[0]!, -q[1]!, -q[2]!, q[3]!];
}

/**
 * Picks the representative with `w >= 0` (quat_abs in Holden's quat.h): same rotation, shortest arc.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const q = quat.abs([0, 0, 0, -1]); // [0, 0, 0, 1]
 * ```
 */
export function abs(q: ArrayLike<number>): Quat {
  return q[3]! < 0 ? [-q[0]!, -q[1]!, -q[2]!, -q[3]!] : [q[0]!, q[1]!, q[2]!, q[3]!];
}

/**
 * Four-component dot product.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const d = quat.dot([0, 0, 0, 1], [0, Math.SQRT1_2, 0, Math.SQRT1_2]); // 0.707
 * ```
 */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!;
}

/**
 * Euclidean length of the four components.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const l = quat.length([0, 1, 0, 1]); // √2
 * ```
 */
export function length(q: ArrayLike<number>): number {
  return Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
}

/**
 * `q / |q|`. A zero quaternion gives NaNs.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const q = quat.normalize([0, 1, 0, 1]);
 * ```
 */
export function normalize(q: ArrayLike<number>): Quat {
  const n = length(q);
  return [q[0]! / n, q[1]! / n, q[2]! / n, q[3]! / n];
}

/**
 * Rotates `v` by the unit quaternion `q`, i.e. the vector part of `q ⊗ (v, 0) ⊗ q*`
 * (quat_mul_vec3 in Holden's quat.h), expanded as `v + w t + u × t` with `t = 2 u × v`, `u = xyz`.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const v = quat.rotate([0, Math.SQRT1_2, 0, Math.SQRT1_2], [1, 0, 0]); // [0, 0, -1]
 * ```
 */
export function rotate(q: ArrayLike<number>, v: ArrayLike<number>): Vec3 {
  const x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  const vx = v[0]!,
    vy = v[1]!,
    vz = v[2]!;
  const tx = 2 * (y * vz - z * vy);
  const ty = 2 * (z * vx - x * vz);
  const tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}

/**
 * Scaled angle axis `angle * axis` of the shortest arc rotation of `q` (= `2 log(abs(q))`,
 * quat_to_scaled_angle_axis in Holden's quat.h, but with abs and atan2).
 *
 * The angle is `2 atan2(|xyz|, w)`, which keeps full relative precision for tiny angles,
 * unlike `2 acos(w)` (acos loses everything below ~1e-8 rad in float64 and ~3e-4 rad once w is a float32).
 * For `|xyz| / w < 1e-4` the factor `2 atan(t) / |xyz|` with `t = |xyz| / w` is evaluated by its series
 * `(2 / w)(1 - t²/3 + t⁴/5)`. The result has length in `[0, π]`. Works for non-unit `q` too
 * (the angle only depends on the ratio |xyz| / w). `q` must be nonzero.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const v = quat.toScaledAngleAxis([0, Math.SQRT1_2, 0, Math.SQRT1_2]); // [0, π/2, 0] (rad)
 * ```
 */
export function toScaledAngleAxis(q: ArrayLike<number>): Vec3 {
  let x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  if (w < 0) {
    // abs: shortest arc
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.hypot(x, y, z);
  let k: number; // angle / |xyz|
  if (s <= SERIES_THRESHOLD * w) {
    const t2 = (s / w) * (s / w);
    k = (2 / w) * (1 - t2 / 3 + (t2 * t2) / 5);
  } else {
    k = (2 * Math.atan2(s, w)) / s;
  }
  return [k * x, k * y, k * z];
}

/**
 * Unit quaternion of the scaled angle axis `v` (= `exp(v / 2)`, quat_from_scaled_angle_axis in
 * Holden's quat.h): `[sin(h) v / |v|, cos(h)]` with half angle `h = |v| / 2`;
 * for `h < 1e-4` uses the series `cos h = 1 - h²/2 + h⁴/24`, `sin(h) / (2h) = (1 - h²/6 + h⁴/120) / 2`.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const q = quat.fromScaledAngleAxis([0, Math.PI / 2, 0]);
 * ```
 */
export function fromScaledAngleAxis(v: ArrayLike<number>): Quat {
  const vx = v[0]!,
    vy = v[1]!,
    vz = v[2]!;
  const h = 0.5 * Math.hypot(vx, vy, vz);
  let c: number; // cos(h)
  let k: number; // sin(h) / |v|
  if (h < SERIES_THRESHOLD) {
    const h2 = h * h;
    c = 1 - h2 / 2 + (h2 * h2) / 24;
    k = 0.5 * (1 - h2 / 6 + (h2 * h2) / 120);
  } else {
    c = Math.cos(h);
    k = Math.sin(h) / (2 * h);
  }
  return [k * vx, k * vy, k * vz, c];
}

/**
 * Rotation angle in `[0, π]` of the shortest arc of `q` (= |toScaledAngleAxis(q)|).
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const a = quat.angle([0, Math.SQRT1_2, 0, Math.SQRT1_2]); // π/2 rad
 * ```
 */
export function angle(q: ArrayLike<number>): number {
  const v = toScaledAngleAxis(q);
  return Math.hypot(v[0], v[1], v[2]);
}

/**
 * Shortest-arc spherical interpolation from `a` (t = 0) to `b` (t = 1):
 * `exp(t log(abs(b ⊗ a⁻¹))) ⊗ a`, written with the scaled angle axis so it stays accurate for
 * nearly equal inputs. The result is in `a`'s hemisphere; at t = 1 it is `±b`.
 * @example
 * ```ts
 * import { quat } from 'spring-solver/reference';
 * const q = quat.slerp([0, 0, 0, 1], [0, Math.SQRT1_2, 0, Math.SQRT1_2], 0.5);
 * ```
 */
export function slerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): Quat {
  const d = toScaledAngleAxis(abs(mul(b, inv(a))));
  return mul(fromScaledAngleAxis([t * d[0], t * d[1], t * d[2]]), a);
}
