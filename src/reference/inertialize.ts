/**
 * Batched float64 reference kernels for inertialization of vectors (positions, or any 3-vector
 * channel), written plainly from Daniel Holden's "Spring-It-On" (decay_spring_damper_exact) and
 * "Motion-Matching" (inertialize_transition / inertialize_update) math.
 *
 * Layout: N bones, packed `[x, y, z]` per bone (3N floats) for values `x` and velocities `v`.
 * State arrays are updated in place; arithmetic is float64, storage is whatever array is passed.
 * `Math.exp` is used instead of Holden's `fast_negexp`. `halflife <= 0` gives the exact limit
 * (zero offset, zero velocity); `dt === 0` leaves the state untouched, for every halflife.
 */

import type { FloatArray } from './float-array.js';
/**
 * One halflife (seconds) for all bones, or one per bone.
 * @group Inertialization
 */
export type Halflife = number | ArrayLike<number>;

function vectorCount(x: ArrayLike<number>, v: ArrayLike<number>): number {
  const n = Math.floor(x.length / 3);
  if (x.length !== 3 * n || v.length !== 3 * n) {
    throw new RangeError(`expected two arrays of 3N floats, got ${x.length} and ${v.length}`);
  }
  return n;
}

/**
 * Critically damped decay of each 3-vector toward zero, exact for any dt
 * (decay_spring_damper_exact, Spring-It-On): `y = 2 ln2 / halflife`, `j1 = v + x y`,
 * `eydt = exp(-y dt)`, `x = eydt (x + j1 dt)`, `v = eydt (v - j1 y dt)`.
 *
 * @param x values, 3N, updated in place
 * @param v velocities, 3N, updated in place
 * @param halflife seconds, a number or one per bone (N); `<= 0` snaps to zero
 * @param dt seconds, `>= 0`; `0` leaves the state unchanged
 * @example
 * ```ts
 * import { vec3DecaySpringDamper } from 'spring-solver/reference';
 * const [x, v] = [new Float64Array([1, 0, 0]), new Float64Array(3)];
 * vec3DecaySpringDamper(x, v, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Inertialization
 */
export function vec3DecaySpringDamper(x: FloatArray, v: FloatArray, halflife: Halflife, dt: number): void {
  const n = vectorCount(x, v);
  if (dt === 0) return;
  for (let i = 0; i < n; i++) {
    const h = typeof halflife === 'number' ? halflife : halflife[i]!;
    const y = (2 * Math.LN2) / h; // halflife_to_damping(h) / 2 = (4 ln2 / h) / 2 (Spring-It-On)
    const eydt = Math.exp(-y * dt); // fast_negexp(y dt), exact here (Spring-It-On)
    for (let k = 3 * i; k < 3 * i + 3; k++) {
      if (h <= 0 || eydt === 0) {
        // limit halflife -> 0 (or exp underflow): offset fully decayed
        x[k] = 0;
        v[k] = 0;
        continue;
      }
      const xk = x[k]!;
      const vk = v[k]!;
      const j1 = vk + xk * y; // j1 = v + x * y (Spring-It-On)
      x[k] = eydt * (xk + j1 * dt); // x = eydt * (x + j1 * dt) (Spring-It-On)
      v[k] = eydt * (vk - j1 * (y * dt)); // v = eydt * (v - j1 * y * dt) (Spring-It-On)
    }
  }
}

/**
 * Inertialization transition (inertialize_transition, Motion-Matching):
 * `offX = offX + srcX - dstX`, `offV = offV + srcV - dstV`, so that `dst + off` right after the
 * transition equals `src + off` right before it.
 *
 * @param offX offset values, 3N, updated in place
 * @param offV offset velocities, 3N, updated in place
 * @param srcX values of the animation being left, 3N
 * @param srcV its velocities, 3N
 * @param dstX values of the animation being entered, 3N
 * @param dstV its velocities, 3N
 * @example
 * ```ts
 * import { vec3InertializeTransition } from 'spring-solver/reference';
 * const [offX, offV] = [new Float64Array(3), new Float64Array(3)];
 * vec3InertializeTransition(offX, offV, [0, 0, 0], [0, 0, 0], [1, 0, 0], [0, 0, 0]); // src x, v; dst x, v
 * ```
 * @group Inertialization
 */
export function inertializeTransition(
  offX: FloatArray,
  offV: FloatArray,
  srcX: ArrayLike<number>,
  srcV: ArrayLike<number>,
  dstX: ArrayLike<number>,
  dstV: ArrayLike<number>,
): void {
  const n = vectorCount(offX, offV);
  if (vectorCount(srcX, srcV) !== n || vectorCount(dstX, dstV) !== n) {
    throw new RangeError('source/destination arrays do not match the offsets');
  }
  for (let k = 0; k < 3 * n; k++) {
    offX[k] = offX[k]! + srcX[k]! - dstX[k]!; // off_x = (src_x + off_x) - dst_x (Motion-Matching)
    offV[k] = offV[k]! + srcV[k]! - dstV[k]!; // off_v = (src_v + off_v) - dst_v (Motion-Matching)
  }
}

/**
 * Inertialization update (inertialize_update, Motion-Matching): decays the offset with
 * `vec3DecaySpringDamper`, then `outX = inX + offX`, `outV = inV + offV`.
 * `outX`/`outV` may be the same arrays as `inX`/`inV`.
 *
 * @param outX output values, 3N, written
 * @param outV output velocities, 3N, written
 * @param offX offset values, 3N, decayed in place
 * @param offV offset velocities, 3N, decayed in place
 * @param inX values of the animation playing now, 3N
 * @param inV its velocities, 3N
 * @param halflife seconds, a number or one per bone (N)
 * @param dt seconds, `>= 0`
 * @example
 * ```ts
 * import { vec3InertializeUpdate } from 'spring-solver/reference';
 * const [offX, offV, outX, outV] = [new Float64Array([-1, 0, 0]), new Float64Array(3), new Float64Array(3), new Float64Array(3)];
 * vec3InertializeUpdate(outX, outV, offX, offV, [1, 0, 0], [0, 0, 0], 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group Inertialization
 */
export function inertializeUpdate(
  outX: FloatArray,
  outV: FloatArray,
  offX: FloatArray,
  offV: FloatArray,
  inX: ArrayLike<number>,
  inV: ArrayLike<number>,
  halflife: Halflife,
  dt: number,
): void {
  const n = vectorCount(offX, offV);
  if (vectorCount(outX, outV) !== n || vectorCount(inX, inV) !== n) {
    throw new RangeError('input/output arrays do not match the offsets');
  }
  vec3DecaySpringDamper(offX, offV, halflife, dt); // decay_spring_damper_exact(off_x, off_v, halflife, dt) (Motion-Matching)
  for (let k = 0; k < 3 * n; k++) {
    outX[k] = inX[k]! + offX[k]!; // out_x = in_x + off_x (Motion-Matching)
    outV[k] = inV[k]! + offV[k]!; // out_v = in_v + off_v (Motion-Matching)
  }
}
