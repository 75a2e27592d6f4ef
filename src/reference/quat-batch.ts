/**
 * Batched float64 reference of the quaternion helpers (the JS backend of the Solver's quat*
 * helpers and the oracle of the wasm ones): the functions of ./quat.ts applied element by element.
 * Quaternions are packed `[x, y, z, w]` (4 floats), vectors `[x, y, z]` (3 floats); `n` is the
 * element count of `out`. Each element is read before it is written, so an input may be `out`.
 */
import { abs, fromScaledAngleAxis, inv, load3, load4, mul, normalize, rotate, slerp, store3, store4, toScaledAngleAxis } from './quat.js';
import type { FloatArray } from './float-array.js';

/**
 * One slerp amount for all elements, or one per element.
 * @group Quaternions
 */
export type Amount = number | ArrayLike<number>;

/**
 * out = a ⊗ b.
 * @example
 * ```ts
 * import { quatMul } from 'spring-solver/reference';
 * const out = new Float64Array(8); // two products
 * quatMul(out, [0, 0, 0, 1, 0, 1, 0, 0], [0, Math.SQRT1_2, 0, Math.SQRT1_2, 1, 0, 0, 0]);
 * ```
 * @group Quaternions
 */
export function quatMul(out: FloatArray, a: ArrayLike<number>, b: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, mul(load4(a, i), load4(b, i)));
}

/**
 * out = q⁻¹ (the conjugate, for unit quaternions).
 * @example
 * ```ts
 * import { quatInv } from 'spring-solver/reference';
 * const out = new Float64Array(4);
 * quatInv(out, [0, Math.SQRT1_2, 0, Math.SQRT1_2]);
 * ```
 * @group Quaternions
 */
export function quatInv(out: FloatArray, q: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, inv(load4(q, i)));
}

/**
 * out = the representative of q with w ≥ 0.
 * @example
 * ```ts
 * import { quatAbs } from 'spring-solver/reference';
 * const out = new Float64Array(4);
 * quatAbs(out, [0, 0, 0, -1]); // [0, 0, 0, 1]
 * ```
 * @group Quaternions
 */
export function quatAbs(out: FloatArray, q: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, abs(load4(q, i)));
}

/**
 * out = q / |q|.
 * @example
 * ```ts
 * import { quatNormalize } from 'spring-solver/reference';
 * const out = new Float64Array(4);
 * quatNormalize(out, [0, 1, 0, 1]);
 * ```
 * @group Quaternions
 */
export function quatNormalize(out: FloatArray, q: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, normalize(load4(q, i)));
}

/**
 * out (vectors) = rotate(q, v).
 * @example
 * ```ts
 * import { quatRotate } from 'spring-solver/reference';
 * const out = new Float64Array(3);
 * quatRotate(out, [0, Math.SQRT1_2, 0, Math.SQRT1_2], [1, 0, 0]); // [0, 0, -1]
 * ```
 * @group Quaternions
 */
export function quatRotate(out: FloatArray, q: ArrayLike<number>, v: ArrayLike<number>): void {
  for (let i = 0; i < out.length / 3; i++) store3(out, i, rotate(load4(q, i), load3(v, i)));
}

/**
 * out (vectors) = the scaled angle axis of abs(q).
 * @example
 * ```ts
 * import { quatToScaledAngleAxis } from 'spring-solver/reference';
 * const out = new Float64Array(3);
 * quatToScaledAngleAxis(out, [0, Math.SQRT1_2, 0, Math.SQRT1_2]); // [0, π/2, 0] (rad)
 * ```
 * @group Quaternions
 */
export function quatToScaledAngleAxis(out: FloatArray, q: ArrayLike<number>): void {
  for (let i = 0; i < out.length / 3; i++) store3(out, i, toScaledAngleAxis(load4(q, i)));
}

/**
 * out = exp(v / 2) = [sin(|v|/2) v/|v|, cos(|v|/2)] (w < 0 when |v| > π).
 * @example
 * ```ts
 * import { quatFromScaledAngleAxis } from 'spring-solver/reference';
 * const out = new Float64Array(4);
 * quatFromScaledAngleAxis(out, [0, Math.PI / 2, 0]);
 * ```
 * @group Quaternions
 */
export function quatFromScaledAngleAxis(out: FloatArray, v: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, fromScaledAngleAxis(load3(v, i)));
}

/**
 * out = shortest-arc slerp from a (t = 0) to ±b (t = 1).
 * @example
 * ```ts
 * import { quatSlerp } from 'spring-solver/reference';
 * const out = new Float64Array(4);
 * quatSlerp(out, [0, 0, 0, 1], [0, Math.SQRT1_2, 0, Math.SQRT1_2], 0.5);
 * ```
 * @group Quaternions
 */
export function quatSlerp(out: FloatArray, a: ArrayLike<number>, b: ArrayLike<number>, t: Amount): void {
  for (let i = 0; i < out.length >> 2; i++) {
    store4(out, i, slerp(load4(a, i), load4(b, i), typeof t === 'number' ? t : t[i]!));
  }
}
