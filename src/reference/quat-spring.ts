/**
 * Batched float64 reference kernels for quaternion springs and quaternion inertialization,
 * written plainly from Daniel Holden's "Spring-It-On" (simple/decay spring dampers, damper)
 * and "Motion-Matching" (inertialize_pose_transition / inertialize_pose_update) math.
 *
 * Layout: N bones; rotations `q` are packed `[x, y, z, w]` (4N floats), angular velocities `w`
 * are packed `[x, y, z]` (3N floats) in rad/s, expressed in the same frame as the rotation's
 * output (the parent frame), i.e. `dq/dt = ½ w ⊗ q`.
 * State arrays are updated in place; arithmetic is float64, storage is whatever array is passed
 * (Float32Array for the real layout, Float64Array for exactness checks).
 *
 * Differences from the originals, on purpose:
 * - exact `Math.exp` instead of Holden's `fast_negexp` approximation;
 * - `toScaledAngleAxis` uses atan2 (accurate below 1e-6 rad) instead of acos;
 * - the decay spring takes the shortest arc (abs) like the simple spring does;
 * - `halflife <= 0` gives the exact limit (the goal, zero velocity), `dt === 0` leaves the state
 *   untouched (for every halflife, including 0), and neither produces NaN;
 * - the inertialization transition keeps the output angular velocity continuous (see below).
 */
import { abs, fromScaledAngleAxis, inv, load3, load4, mul, rotate, slerp, store3, store4, toScaledAngleAxis } from './quat.js';
import { so3Jacobian } from './so3-jacobian.js';

import type { FloatArray } from './float-array.js';
/** One halflife (seconds) for all bones, or one per bone. */
import type { Halflife } from './inertialize.js';
export type { Halflife };

function halflifeOf(halflife: Halflife, i: number): number {
  return typeof halflife === 'number' ? halflife : halflife[i]!;
}

function boneCount(q: ArrayLike<number>, w?: ArrayLike<number>): number {
  const n = q.length >> 2;
  if (q.length !== 4 * n) throw new RangeError(`rotation array length ${q.length} is not a multiple of 4`);
  if (w !== undefined && w.length !== 3 * n) {
    throw new RangeError(`angular velocity array length ${w.length} does not match ${n} bones`);
  }
  return n;
}

/**
 * Critically damped spring of each rotation toward its goal, exact for any dt
 * (simple_spring_damper_exact, quaternion version, Spring-It-On):
 * `y = 2 ln2 / halflife`, `j0 = log(abs(q ⊗ g⁻¹))`, `j1 = w + j0 y`, `eydt = exp(-y dt)`,
 * `q = exp(eydt (j0 + j1 dt)) ⊗ g`, `w = eydt (w - j1 y dt)` (logs as scaled angle axis).
 *
 * @param q rotations, 4N, updated in place
 * @param w angular velocities (rad/s), 3N, updated in place
 * @param qGoal goal rotations, 4N
 * @param halflife seconds, a number or one per bone; `<= 0` snaps to the goal with `w = 0`
 * @param dt seconds, `>= 0`; `0` leaves the state unchanged
 * @example
 * ```ts
 * import { quatSimpleSpringDamper } from 'spring-solver/reference';
 * const [q, w] = [new Float64Array([0, 0, 0, 1]), new Float64Array(3)]; // w in rad/s
 * quatSimpleSpringDamper(q, w, [0, Math.SQRT1_2, 0, Math.SQRT1_2], 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Quaternions
 */
export function quatSimpleSpringDamper(q: FloatArray, w: FloatArray, qGoal: ArrayLike<number>, halflife: Halflife, dt: number): void {
  const n = boneCount(q, w);
  if (qGoal.length !== 4 * n) throw new RangeError('goal array length does not match the rotations');
  if (dt === 0) return;
  for (let i = 0; i < n; i++) {
    const h = halflifeOf(halflife, i);
    const g = load4(qGoal, i);
    const y = (2 * Math.LN2) / h; // halflife_to_damping(h) / 2 = (4 ln2 / h) / 2 (Spring-It-On)
    const eydt = Math.exp(-y * dt); // fast_negexp(y dt), exact here (Spring-It-On)
    if (h <= 0 || eydt === 0) {
      // limit halflife -> 0 (or y dt so large that exp underflows): exactly at the goal, at rest
      store4(q, i, g);
      store3(w, i, [0, 0, 0]);
      continue;
    }
    const wi = load3(w, i);
    const j0 = toScaledAngleAxis(abs(mul(load4(q, i), inv(g)))); // j0 = quat_to_scaled_angle_axis(quat_abs(x * inv(x_goal)))
    const j1: [number, number, number] = [wi[0] + j0[0] * y, wi[1] + j0[1] * y, wi[2] + j0[2] * y]; // j1 = v + j0 * y
    // x = quat_from_scaled_angle_axis(eydt * (j0 + j1 * dt)) * x_goal (Spring-It-On)
    const qn = mul(fromScaledAngleAxis([eydt * (j0[0] + j1[0] * dt), eydt * (j0[1] + j1[1] * dt), eydt * (j0[2] + j1[2] * dt)]), g);
    store4(q, i, qn);
    // v = eydt * (v - j1 * y * dt) (Spring-It-On)
    store3(w, i, [eydt * (wi[0] - j1[0] * (y * dt)), eydt * (wi[1] - j1[1] * (y * dt)), eydt * (wi[2] - j1[2] * (y * dt))]);
  }
}

/**
 * Critically damped decay of each rotation toward the identity, exact for any dt
 * (decay_spring_damper_exact, quaternion version, Spring-It-On / Motion-Matching):
 * the simple spring with `g = identity`, and — unlike the original — on the shortest arc `abs(q)`.
 *
 * @param q rotations, 4N, updated in place
 * @param w angular velocities (rad/s), 3N, updated in place
 * @param halflife seconds, a number or one per bone; `<= 0` snaps to the identity with `w = 0`
 * @param dt seconds, `>= 0`; `0` leaves the state unchanged
 * @example
 * ```ts
 * import { quatDecaySpringDamper } from 'spring-solver/reference';
 * const [q, w] = [new Float64Array([0, Math.SQRT1_2, 0, Math.SQRT1_2]), new Float64Array(3)];
 * quatDecaySpringDamper(q, w, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Quaternions
 */
export function quatDecaySpringDamper(q: FloatArray, w: FloatArray, halflife: Halflife, dt: number): void {
  const n = boneCount(q, w);
  if (dt === 0) return;
  for (let i = 0; i < n; i++) {
    const h = halflifeOf(halflife, i);
    const y = (2 * Math.LN2) / h; // halflife_to_damping(h) / 2 (Spring-It-On)
    const eydt = Math.exp(-y * dt); // fast_negexp(y dt), exact here (Spring-It-On)
    if (h <= 0 || eydt === 0) {
      store4(q, i, [0, 0, 0, 1]);
      store3(w, i, [0, 0, 0]);
      continue;
    }
    const wi = load3(w, i);
    const j0 = toScaledAngleAxis(abs(load4(q, i))); // j0 = quat_to_scaled_angle_axis(x), plus abs (shortest arc)
    const j1: [number, number, number] = [wi[0] + j0[0] * y, wi[1] + j0[1] * y, wi[2] + j0[2] * y]; // j1 = v + j0 * y
    // x = quat_from_scaled_angle_axis(eydt * (j0 + j1 * dt)) (Spring-It-On)
    store4(q, i, fromScaledAngleAxis([eydt * (j0[0] + j1[0] * dt), eydt * (j0[1] + j1[1] * dt), eydt * (j0[2] + j1[2] * dt)]));
    // v = eydt * (v - j1 * y * dt) (Spring-It-On)
    store3(w, i, [eydt * (wi[0] - j1[0] * (y * dt)), eydt * (wi[1] - j1[1] * (y * dt)), eydt * (wi[2] - j1[2] * (y * dt))]);
  }
}

/**
 * Exponential damper of each rotation toward its goal, exact for any dt
 * (damper_exact, quaternion version, Spring-It-On): `q = slerp(q, g, 1 - exp(-ln2 dt / halflife))`,
 * shortest arc.
 *
 * @param q rotations, 4N, updated in place
 * @param qGoal goal rotations, 4N
 * @param halflife seconds, a number or one per bone; `<= 0` copies the goal
 * @param dt seconds, `>= 0`; `0` leaves the state unchanged
 * @example
 * ```ts
 * import { quatDamper } from 'spring-solver/reference';
 * const q = new Float64Array([0, 0, 0, 1]);
 * quatDamper(q, [0, Math.SQRT1_2, 0, Math.SQRT1_2], 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Quaternions
 */
export function quatDamper(q: FloatArray, qGoal: ArrayLike<number>, halflife: Halflife, dt: number): void {
  const n = boneCount(q);
  if (qGoal.length !== 4 * n) throw new RangeError('goal array length does not match the rotations');
  if (dt === 0) return;
  for (let i = 0; i < n; i++) {
    const h = halflifeOf(halflife, i);
    const g = load4(qGoal, i);
    const alpha = 1 - Math.exp((-Math.LN2 * dt) / h); // 1 - fast_negexp(ln2 dt / halflife) (Spring-It-On)
    if (h <= 0 || alpha === 1) {
      store4(q, i, g);
      continue;
    }
    store4(q, i, slerp(load4(q, i), g, alpha)); // x = quat_slerp_shortest(x, g, alpha) (Spring-It-On)
  }
}

/**
 * Inertialization transition for rotations (inertialize_pose_transition, Motion-Matching), with
 * the angular velocity corrected so that the output is continuous. `offW` is the rate of the
 * offset's rotation vector r = log(offQ) (what the decay spring moves); its angular velocity is
 * `J(r)·offW` (SO(3) Jacobian, ./so3-jacobian.ts):
 * `offQ' = abs(offQ ⊗ srcQ ⊗ dstQ⁻¹)`,
 * `offW' = J⁻¹(r')·((J(r)·offW + rotate(offQ, srcW)) - rotate(offQ', dstW))`.
 * Right after the call, `offQ' ⊗ dstQ = ±(offQ ⊗ srcQ)` and `J(r')·offW' + rotate(offQ', dstW) = J(r)·offW + rotate(offQ, srcW)`:
 * the output rotation and angular velocity do not jump. (The original sets `offW' = offW + srcW - dstW`,
 * which ignores the rotation of the offset and makes the angular velocity jump; without J, the
 * rate would be taken for the angular velocity, which is off by (J − I)·offW for large offsets.)
 *
 * @param offQ offset rotations, 4N, updated in place
 * @param offW offset angular velocities, 3N, updated in place
 * @param srcQ rotations of the animation being left, 4N
 * @param srcW its angular velocities, 3N
 * @param dstQ rotations of the animation being entered, 4N
 * @param dstW its angular velocities, 3N
 * @example
 * ```ts
 * import { quatInertializeTransition } from 'spring-solver/reference';
 * const [offQ, offW] = [new Float64Array([0, 0, 0, 1]), new Float64Array(3)];
 * quatInertializeTransition(offQ, offW, [0, 0, 0, 1], [0, 0, 0], [0, Math.SQRT1_2, 0, Math.SQRT1_2], [0, 0, 0]);
 * ```
 * @group Quaternions
 */
export function quatInertializeTransition(
  offQ: FloatArray,
  offW: FloatArray,
  srcQ: ArrayLike<number>,
  srcW: ArrayLike<number>,
  dstQ: ArrayLike<number>,
  dstW: ArrayLike<number>,
): void {
  const n = boneCount(offQ, offW);
  boneCountMatches(n, srcQ, srcW);
  boneCountMatches(n, dstQ, dstW);
  for (let i = 0; i < n; i++) {
    const oq = load4(offQ, i);
    const ow = so3Jacobian(oq, load3(offW, i)); // the offset's angular velocity J(r)·ṙ (./so3-jacobian.ts)
    const qn = abs(mul(mul(oq, load4(srcQ, i)), inv(load4(dstQ, i)))); // off_x = quat_abs(off_x * src_x * inv(dst_x)) (Motion-Matching)
    const rs = rotate(oq, load3(srcW, i)); // off_x * src_v: the output angular velocity before is J·off_v + rs
    const rd = rotate(qn, load3(dstW, i)); // off_x' * dst_v: the output angular velocity after is J'·off_v' + rd
    store4(offQ, i, qn);
    // off_v = J'⁻¹((J·off_v + off_x * src_v) - off_x' * dst_v) (Motion-Matching, corrected for continuity)
    store3(offW, i, so3Jacobian(load4(offQ, i), [ow[0] + rs[0] - rd[0], ow[1] + rs[1] - rd[1], ow[2] + rs[2] - rd[2]], true));
  }
}

/**
 * Inertialization update for rotations (inertialize_pose_update, Motion-Matching): decays the offset
 * with `quatDecaySpringDamper`, then `outQ = offQ ⊗ inQ`, `outW = J(log offQ)·offW + rotate(offQ, inW)`
 * (offW is the rate of the offset's rotation vector; see quatInertializeTransition).
 * `outQ`/`outW` may be the same arrays as `inQ`/`inW`.
 *
 * @param outQ output rotations, 4N, written
 * @param outW output angular velocities, 3N, written
 * @param offQ offset rotations, 4N, decayed in place
 * @param offW offset angular velocities, 3N, decayed in place
 * @param inQ rotations of the animation playing now, 4N
 * @param inW its angular velocities, 3N
 * @param halflife seconds, a number or one per bone
 * @param dt seconds, `>= 0`
 * @example
 * ```ts
 * import { quatInertializeUpdate } from 'spring-solver/reference';
 * const [offQ, offW, outQ, outW] = [new Float64Array([0, Math.SQRT1_2, 0, Math.SQRT1_2]), new Float64Array(3), new Float64Array(4), new Float64Array(3)];
 * quatInertializeUpdate(outQ, outW, offQ, offW, [0, 0, 0, 1], [0, 0, 0], 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Quaternions
 */
export function quatInertializeUpdate(
  outQ: FloatArray,
  outW: FloatArray,
  offQ: FloatArray,
  offW: FloatArray,
  inQ: ArrayLike<number>,
  inW: ArrayLike<number>,
  halflife: Halflife,
  dt: number,
): void {
  const n = boneCount(offQ, offW);
  boneCountMatches(n, outQ, outW);
  boneCountMatches(n, inQ, inW);
  quatDecaySpringDamper(offQ, offW, halflife, dt); // decay_spring_damper_exact(off_x, off_v, halflife, dt) (Motion-Matching)
  for (let i = 0; i < n; i++) {
    const oq = load4(offQ, i);
    const ow = so3Jacobian(oq, load3(offW, i)); // the offset's angular velocity J(r)·ṙ (./so3-jacobian.ts)
    const iq = load4(inQ, i);
    const r = rotate(oq, load3(inW, i));
    store4(outQ, i, mul(oq, iq)); // out_x = off_x * in_x (Motion-Matching)
    store3(outW, i, [ow[0] + r[0], ow[1] + r[1], ow[2] + r[2]]); // out_v = J·off_v + off_x * in_v (Motion-Matching, with J)
  }
}

function boneCountMatches(n: number, q: ArrayLike<number>, w: ArrayLike<number>): void {
  if (q.length !== 4 * n || w.length !== 3 * n) {
    throw new RangeError(`expected ${n} bones (${4 * n} and ${3 * n} floats), got ${q.length} and ${w.length}`);
  }
}
