/**
 * Float64 reference of the root re-anchoring used by the Inertializer (the JS backend and the
 * oracle of assembly/kernels/root-anchor.ts). Motion-Matching (inertialize_pose_transition /
 * inertialize_pose_update) moves the destination clip's root trajectory so that it continues from
 * where the character is, and inertializes only what is left; here the anchor is restricted to the
 * heading (rotation about +Y) and the ground position (x, z), so that a hip root never accumulates
 * tilt or height (those decay as offsets). Anchor of character c: rotation R about +Y
 * (`anchorQ`, 4 floats) and translation T with T_y = 0 (`anchorX`, 3 floats): world = R·p + T.
 * The root of character c is bone `c·bones + root` of the pose and offset arrays.
 */
import { abs, inv, load3, load4, mul, rotate, store3, store4, type Quat, type Vec3 } from './quat.js';
import type { FloatArray } from './float-array.js';
import { so3Jacobian } from './so3-jacobian.js';

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/**
 * The twist of q about +Y: normalize([0, y, 0, w]) (identity when y = w = 0).
 * @example
 * ```ts
 * import { heading } from 'spring-solver/reference';
 * const yaw = heading([0.1, Math.SQRT1_2, 0, Math.SQRT1_2]); // the rotation about +Y only
 * ```
 * @group Inertialization
 */
export function heading(q: ArrayLike<number>): Quat {
  const len = Math.hypot(q[1]!, q[3]!);
  return len > 0 ? [0, q[1]! / len, 0, q[3]! / len] : [0, 0, 0, 1];
}

/**
 * Update: the root of every character, out ← anchor(out): x ← R·x + T, v ← R·v, q ← R ⊗ q, w ← R·w.
 * @example
 * ```ts
 * import { rootAnchorApply } from 'spring-solver/reference';
 * const [x, v, q, w] = [new Float64Array(3), new Float64Array(3), new Float64Array([0, 0, 0, 1]), new Float64Array(3)];
 * // one character of one bone, its root bone 0, anchored 2 units along x
 * rootAnchorApply(x, v, q, w, [0, 0, 0, 1], [2, 0, 0], 1, 1, 0);
 * ```
 * @group Inertialization
 */
export function rootAnchorApply(
  outX: FloatArray,
  outV: FloatArray,
  outQ: FloatArray,
  outW: FloatArray,
  anchorQ: ArrayLike<number>,
  anchorX: ArrayLike<number>,
  count: number,
  bones: number,
  root: number,
): void {
  for (let c = 0; c < count; c++) {
    const i = c * bones + root;
    const R = load4(anchorQ, c);
    store3(outX, i, add(rotate(R, load3(outX, i)), load3(anchorX, c)));
    store3(outV, i, rotate(R, load3(outV, i)));
    store3(outW, i, rotate(R, load3(outW, i)));
    store4(outQ, i, mul(R, load4(outQ, i)));
  }
}

/**
 * Transition, after the vector and quaternion transitions of every bone: the root's dst + off is
 * then its output before the transition in the old anchor's space (S). With W = anchor(S), the new
 * anchor is R' = heading(W_q) ⊗ inv(heading(dst_q)), T' = W_x − R'·dst_x with T'_y = 0, and the
 * offsets become W in the new anchor's space minus dst, so that anchor'(dst + off') = W.
 * @example
 * ```ts
 * import { rootAnchorTransition } from 'spring-solver/reference';
 * const [offX, offV, offQ, offW] = [new Float64Array(3), new Float64Array(3), new Float64Array([0, 0, 0, 1]), new Float64Array(3)];
 * const [anchorQ, anchorX] = [new Float64Array([0, 0, 0, 1]), new Float64Array(3)];
 * rootAnchorTransition(offX, offV, offQ, offW, [1, 0, 0], [0, 0, 0], [0, 0, 0, 1], [0, 0, 0], anchorQ, anchorX, 1, 1, 0);
 * ```
 * @group Inertialization
 */
export function rootAnchorTransition(
  offX: FloatArray,
  offV: FloatArray,
  offQ: FloatArray,
  offW: FloatArray,
  dstX: ArrayLike<number>,
  dstV: ArrayLike<number>,
  dstQ: ArrayLike<number>,
  dstW: ArrayLike<number>,
  anchorQ: FloatArray,
  anchorX: FloatArray,
  count: number,
  bones: number,
  root: number,
): void {
  for (let c = 0; c < count; c++) {
    const i = c * bones + root;
    const R = load4(anchorQ, c);
    const T = load3(anchorX, c);
    const dq = load4(dstQ, i);
    const dx = load3(dstX, i);
    const oq = load4(offQ, i);
    // W = anchor(dst + off)
    const wq = mul(R, mul(oq, dq));
    const wx = add(rotate(R, add(dx, load3(offX, i))), T);
    const wv = rotate(R, add(load3(dstV, i), load3(offV, i)));
    const ww = rotate(R, add(so3Jacobian(oq, load3(offW, i)), rotate(oq, load3(dstW, i)))); // J·off_w: the offset's angular velocity
    // the new anchor, rounded to float32 as it is stored
    store4(anchorQ, c, mul(heading(wq), inv(heading(dq))));
    const Rn = load4(anchorQ, c);
    const t = sub(wx, rotate(Rn, dx));
    store3(anchorX, c, [t[0], 0, t[2]]);
    const Tn = load3(anchorX, c);
    const Ri = inv(Rn);
    // offsets: W in the new anchor's space, minus dst
    store3(offX, i, sub(rotate(Ri, sub(wx, Tn)), dx));
    store3(offV, i, sub(rotate(Ri, wv), load3(dstV, i)));
    store4(offQ, i, abs(mul(mul(Ri, wq), inv(dq))));
    store3(offW, i, so3Jacobian(load4(offQ, i), sub(rotate(Ri, ww), rotate(load4(offQ, i), load3(dstW, i))), true)); // back to the rate
  }
}
