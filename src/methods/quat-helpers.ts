/**
 * Batched quaternion helpers, one element per quaternion: output first (gl-matrix style), inputs
 * after; an input may be the very same array as the output. Quaternions `[x, y, z, w]`
 * (4 floats), vectors `[x, y, z]` (3 floats), Hamilton product (three.js convention).
 * Kernels: assembly/kernels/quat-batch.ts; JS backend and oracle: src/reference/quat-batch.ts.
 */
import { checkAndRun, read, written, type Kernel, type KernelHost, type KernelName, type Param } from '../core/contract.js';
import * as reference from '../reference/quat-batch.js';

export interface QuatHelperMethods {
  /**
   * out = a ⊗ b (rotating by out applies b, then a).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [out, a, b] = [solver.alloc(4), solver.alloc(4), solver.alloc(4)];
   * a.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
   * b.set([Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
   * solver.quatMul(out, a, b); // rotate by b, then by a
   * ```
   * @group Quaternions
   */
  quatMul(out: Float32Array, a: Float32Array, b: Float32Array): void;
  /**
   * out = q⁻¹ = [−x, −y, −z, w] (unit quaternions).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [out, q] = [solver.alloc(4), solver.alloc(4)];
   * q.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
   * solver.quatInv(out, q); // [0, -0.707, 0, 0.707]
   * ```
   * @group Quaternions
   */
  quatInv(out: Float32Array, q: Float32Array): void;
  /**
   * out = q, or −q where w < 0: the same rotation, on the shortest arc.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [out, q] = [solver.alloc(4), solver.alloc(4)];
   * q.set([0, 0, 0, -1]);
   * solver.quatAbs(out, q); // [0, 0, 0, 1]: the same rotation with w ≥ 0
   * ```
   * @group Quaternions
   */
  quatAbs(out: Float32Array, q: Float32Array): void;
  /**
   * out = q / |q| (a zero quaternion gives NaN).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [out, q] = [solver.alloc(4), solver.alloc(4)];
   * q.set([0, 1, 0, 1]);
   * solver.quatNormalize(out, q); // [0, 0.707, 0, 0.707]
   * ```
   * @group Quaternions
   */
  quatNormalize(out: Float32Array, q: Float32Array): void;
  /**
   * out (3 floats an element) = v rotated by q.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [out, q, v] = [solver.alloc(3), solver.alloc(4), solver.alloc(3)];
   * q.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]); // 90° about +Y
   * v.set([1, 0, 0]);
   * solver.quatRotate(out, q, v); // [0, 0, -1]
   * ```
   * @group Quaternions
   */
  quatRotate(out: Float32Array, q: Float32Array, v: Float32Array): void;
  /**
   * out (3 floats an element) = angle·axis of abs(q) (2·log q), angle in [0, π]; accurate down to
   * tiny angles (atan2 form). Any nonzero length of q.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [out, q] = [solver.alloc(3), solver.alloc(4)];
   * q.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
   * solver.quatToScaledAngleAxis(out, q); // [0, π/2, 0]: angle (rad) times axis
   * ```
   * @group Quaternions
   */
  quatToScaledAngleAxis(out: Float32Array, q: Float32Array): void;
  /**
   * out = the unit quaternion of the scaled angle axis v (exp(v/2)). The wasm backends return the
   * representative with w ≥ 0; the JS backend returns [sin(|v|/2)·v/|v|, cos(|v|/2)], whose w is
   * negative when |v| > π: the same rotation.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [out, v] = [solver.alloc(4), solver.alloc(3)];
   * v.set([0, Math.PI / 2, 0]); // 90° about +Y, in rad
   * solver.quatFromScaledAngleAxis(out, v); // [0, 0.707, 0, 0.707]
   * ```
   * @group Quaternions
   */
  quatFromScaledAngleAxis(out: Float32Array, v: Float32Array): void;
  /**
   * out = shortest-arc slerp from a (t = 0) to ±b (t = 1): exp(t·log(abs(b ⊗ a⁻¹))) ⊗ a.
   * t is a number or one value per element, finite, ≥ 0 and ≤ 1000 (t > 1 extrapolates). The
   * float32 kernels' angle error grows as about 6e-7·t rad (the rounding of b ⊗ a⁻¹ and its log,
   * multiplied by t): 6e-4 rad at t = 1000; larger t is a RangeError.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [out, a, b] = [solver.alloc(4), solver.alloc(4), solver.alloc(4)];
   * a.set([0, 0, 0, 1]);
   * b.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
   * solver.quatSlerp(out, a, b, 0.5); // 45° about +Y
   * ```
   * @group Quaternions
   */
  quatSlerp(out: Float32Array, a: Float32Array, b: Float32Array, t: Param): void;
}

/** A helper kernel: the operands are the checked arrays; `t` is the only parameter (slerp). */
function kernel(wasm: KernelName, js: (a: Float32Array[], t: Param) => void): Kernel {
  return { wasm, js: (arrays, params) => js(arrays as Float32Array[], params[0]) };
}

const MUL = kernel('quatMul', ([out, a, b]) => reference.quatMul(out, a, b));
const INV = kernel('quatInv', ([out, q]) => reference.quatInv(out, q));
const ABS = kernel('quatAbs', ([out, q]) => reference.quatAbs(out, q));
const NORMALIZE = kernel('quatNormalize', ([out, q]) => reference.quatNormalize(out, q));
const ROTATE = kernel('quatRotate', ([out, q, v]) => reference.quatRotate(out, q, v));
const TO_SCALED = kernel('quatToScaledAngleAxis', ([out, q]) => reference.quatToScaledAngleAxis(out, q));
const FROM_SCALED = kernel('quatFromScaledAngleAxis', ([out, v]) => reference.quatFromScaledAngleAxis(out, v));
const SLERP = kernel('quatSlerp', ([out, a, b], t) => reference.quatSlerp(out, a, b, t));

/** An input of the helpers, which may be the very array `out` where the kernel reads it whole first. */
const q4 = (name: string, array: Float32Array, aliases = ['out']) => read(name, array, 4, aliases);
const v3 = (name: string, array: Float32Array, aliases = ['out']) => read(name, array, 3, aliases);

export const quatHelperMethods: QuatHelperMethods & ThisType<KernelHost> = {
  quatMul(out, a, b) {
    checkAndRun(this, 'quatMul', MUL, [written('out', out, 4), q4('a', a), q4('b', b)], [], 0, []);
  },
  quatInv(out, q) {
    checkAndRun(this, 'quatInv', INV, [written('out', out, 4), q4('q', q)], [], 0, []);
  },
  quatAbs(out, q) {
    checkAndRun(this, 'quatAbs', ABS, [written('out', out, 4), q4('q', q)], [], 0, []);
  },
  quatNormalize(out, q) {
    checkAndRun(this, 'quatNormalize', NORMALIZE, [written('out', out, 4), q4('q', q)], [], 0, []);
  },
  quatRotate(out, q, v) {
    checkAndRun(this, 'quatRotate', ROTATE, [written('out', out, 3), q4('q', q), v3('v', v)], [], 0, []);
  },
  quatToScaledAngleAxis(out, q) {
    checkAndRun(this, 'quatToScaledAngleAxis', TO_SCALED, [written('out', out, 3), q4('q', q)], [], 0, []);
  },
  quatFromScaledAngleAxis(out, v) {
    checkAndRun(this, 'quatFromScaledAngleAxis', FROM_SCALED, [written('out', out, 4), v3('v', v)], [], 0, []);
  },
  quatSlerp(out, a, b, t) {
    checkSlerpAmount(t);
    checkAndRun(this, 'quatSlerp', SLERP, [written('out', out, 4), q4('a', a), q4('b', b)], [['t', t, 'nonNegative']], 0, []);
  },
};

/** The largest slerp amount t accepted (see quatSlerp). */
const SLERP_T_MAX = 1000;

/**
 * A RangeError, before anything is written, for a t that is otherwise valid (finite, ≥ 0: checked
 * with the rest by checkAndRun) but above SLERP_T_MAX: past it, the float32 result departs from
 * the float64 one by more than 6e-4 rad, and at t = 1e30 it was NaN.
 */
function checkSlerpAmount(t: unknown): void {
  const tooLarge = (v: number) => v > SLERP_T_MAX && v < Infinity;
  if (typeof t === 'number' && tooLarge(t)) {
    throw new RangeError(`quatSlerp: t is ${t}; it must be ≤ ${SLERP_T_MAX} (float32 error ≈ 6e-7·t rad)`);
  }
  if (t instanceof Float32Array) {
    const bad = t.findIndex(tooLarge);
    if (bad >= 0 && t.every((v) => v >= 0 && v < Infinity)) {
      throw new RangeError(`quatSlerp: t[${bad}] is ${t[bad]}; it must be ≤ ${SLERP_T_MAX} (float32 error ≈ 6e-7·t rad)`);
    }
  }
}
