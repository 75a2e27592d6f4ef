/**
 * Batched float64 reference of the quaternion helpers (the JS backend of the Solver's quat*
 * helpers and the oracle of the wasm ones): the functions of ./quat.ts applied element by element.
 * Quaternions are packed `[x, y, z, w]` (4 floats), vectors `[x, y, z]` (3 floats); `n` is the
 * element count of `out`. Each element is read before it is written, so an input may be `out`.
 */
import { abs, fromScaledAngleAxis, inv, load3, load4, mul, normalize, rotate, slerp, store3, store4, toScaledAngleAxis } from './quat.js';
import type { FloatArray } from './float-array.js';

/** One slerp amount for all elements, or one per element. */
export type Amount = number | ArrayLike<number>;

/** out = a ⊗ b. */
export function quatMul(out: FloatArray, a: ArrayLike<number>, b: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, mul(load4(a, i), load4(b, i)));
}

/** out = q⁻¹ (the conjugate, for unit quaternions). */
export function quatInv(out: FloatArray, q: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, inv(load4(q, i)));
}

/** out = the representative of q with w ≥ 0. */
export function quatAbs(out: FloatArray, q: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, abs(load4(q, i)));
}

/** out = q / |q|. */
export function quatNormalize(out: FloatArray, q: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, normalize(load4(q, i)));
}

/** out (vectors) = rotate(q, v). */
export function quatRotate(out: FloatArray, q: ArrayLike<number>, v: ArrayLike<number>): void {
  for (let i = 0; i < out.length / 3; i++) store3(out, i, rotate(load4(q, i), load3(v, i)));
}

/** out (vectors) = the scaled angle axis of abs(q). */
export function quatToScaledAngleAxis(out: FloatArray, q: ArrayLike<number>): void {
  for (let i = 0; i < out.length / 3; i++) store3(out, i, toScaledAngleAxis(load4(q, i)));
}

/** out = exp(v / 2) = [sin(|v|/2) v/|v|, cos(|v|/2)] (w < 0 when |v| > π). */
export function quatFromScaledAngleAxis(out: FloatArray, v: ArrayLike<number>): void {
  for (let i = 0; i < out.length >> 2; i++) store4(out, i, fromScaledAngleAxis(load3(v, i)));
}

/** out = shortest-arc slerp from a (t = 0) to ±b (t = 1). */
export function quatSlerp(out: FloatArray, a: ArrayLike<number>, b: ArrayLike<number>, t: Amount): void {
  for (let i = 0; i < out.length >> 2; i++) {
    store4(out, i, slerp(load4(a, i), load4(b, i), typeof t === 'number' ? t : t[i]!));
  }
}
