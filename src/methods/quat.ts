/**
 * Quaternion springs and rotation inertialization (Holden, "Spring-It-On" and "Motion-Matching"),
 * one element per bone. Rotations are packed `[x, y, z, w]` (4 floats a bone, three.js / gl-matrix
 * order), angular velocities `[x, y, z]` in rad/s (3 floats a bone), in the frame the rotation
 * maps into (`dq/dt = ½ ω ⊗ q`). The halflife is a number or a Float32Array with one value per bone.
 * Kernels: assembly/kernels/quat.ts; JS backend and oracle: src/reference/quat-spring.ts, whose
 * corrections to the originals these follow (shortest arc everywhere, atan2 log map accurate
 * near the identity, exact halflife-0 limit, continuity-preserving transition).
 */
import { checkAndRun, read, written, type GpuKernel, type Kernel, type KernelHost, type Param } from '../core/contract.js';
import * as reference from '../reference/quat-spring.js';

export interface QuatMethods {
  /**
   * Critically damped spring of each rotation `q` (angular velocity `w`) toward `qGoal`, exact for
   * any dt, on the shortest arc (simple_spring_damper_exact, quaternion version). halflife 0 snaps
   * to the goal at rest; dt = 0 changes nothing.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [q, w, qGoal] = [solver.alloc(4), solver.alloc(3), solver.alloc(4)];
   * q.set([0, 0, 0, 1]); // identity, [x, y, z, w]
   * qGoal.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]); // 90° about +Y
   * solver.quatSimpleSpringDamper(q, w, qGoal, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s; w in rad/s
   * ```
   * @group Quaternions
   */
  quatSimpleSpringDamper(q: Float32Array, w: Float32Array, qGoal: Float32Array, halflife: Param, dt: number): void;
  /**
   * The same spring toward the identity (decay_spring_damper_exact, with the shortest arc).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [q, w] = [solver.alloc(4), solver.alloc(3)];
   * q.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
   * solver.quatDecaySpringDamper(q, w, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s; toward the identity
   * ```
   * @group Quaternions
   */
  quatDecaySpringDamper(q: Float32Array, w: Float32Array, halflife: Param, dt: number): void;
  /**
   * Exact damper: `q ← slerp(q, qGoal, 1 − exp(−ln2·dt/halflife))` on the shortest arc (damper_exact).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [q, qGoal] = [solver.alloc(4), solver.alloc(4)];
   * q.set([0, 0, 0, 1]);
   * qGoal.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
   * solver.quatDamper(q, qGoal, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
   * ```
   * @group Quaternions
   */
  quatDamper(q: Float32Array, qGoal: Float32Array, halflife: Param, dt: number): void;
  /**
   * Inertialization transition for rotations (inertialize_pose_transition), at a switch from the
   * animation (srcQ, srcW) to (dstQ, dstW): `offQ ← abs(offQ ⊗ srcQ ⊗ dstQ⁻¹)`,
   * `offW ← J⁻¹(r')·(J(r)·offW + rotate(offQ, srcW) − rotate(offQ', dstW))`, so that the output of
   * {@link QuatMethods.quatInertializeUpdate} (rotation and angular velocity) does not jump. offW
   * is the rate of the offset's rotation vector r = log(offQ) (what the decay spring moves); J is
   * the left Jacobian of SO(3)'s exponential map, which turns it into an angular velocity.
   * Start offQ at the identity `[0, 0, 0, 1]` and offW at 0.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [offQ, offW, srcQ, srcW, dstQ, dstW] = [solver.alloc(4), solver.alloc(3), solver.alloc(4), solver.alloc(3), solver.alloc(4), solver.alloc(3)];
   * offQ.set([0, 0, 0, 1]);
   * srcQ.set([0, 0, 0, 1]);
   * dstQ.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
   * solver.quatInertializeTransition(offQ, offW, srcQ, srcW, dstQ, dstW);
   * ```
   * @group Quaternions
   */
  quatInertializeTransition(
    offQ: Float32Array,
    offW: Float32Array,
    srcQ: Float32Array,
    srcW: Float32Array,
    dstQ: Float32Array,
    dstW: Float32Array,
  ): void;
  /**
   * Inertialization update for rotations (inertialize_pose_update): the offset decays with
   * quatDecaySpringDamper, then `outQ = offQ ⊗ inQ`, `outW = J(log offQ)·offW + rotate(offQ, inW)`.
   * outQ / outW may be the very arrays inQ / inW.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [offQ, offW, inQ, inW, outQ, outW] = [solver.alloc(4), solver.alloc(3), solver.alloc(4), solver.alloc(3), solver.alloc(4), solver.alloc(3)];
   * offQ.set([0, Math.SQRT1_2, 0, Math.SQRT1_2]);
   * inQ.set([0, 0, 0, 1]);
   * solver.quatInertializeUpdate(outQ, outW, offQ, offW, inQ, inW, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
   * ```
   * @group Quaternions
   */
  quatInertializeUpdate(
    outQ: Float32Array,
    outW: Float32Array,
    offQ: Float32Array,
    offW: Float32Array,
    inQ: Float32Array,
    inW: Float32Array,
    halflife: Param,
    dt: number,
  ): void;
}

type Arrays = (Float32Array | null)[];

/** quatSimpleSpringDamper; exported for the contract's list of method kernels (method-kernels.ts). */
export const QUAT_SIMPLE: Kernel & { gpu: GpuKernel } = {
  wasm: 'quatSimpleSpringDamper',
  js: ([q, w, g], [h], [dt]) => reference.quatSimpleSpringDamper(q!, w!, g!, h, dt),
  gpu: {
    arrays: [
      { name: 'q', width: 4, output: true },
      { name: 'w', width: 3, output: true },
      { name: 'qGoal', width: 4, aliases: ['q'] },
    ],
    params: [['halflife', 'nonNegative']],
    body: 'quat',
    slots: [0, 1, 2, 4],
    perElement: 'critical',
    // e^{−y·dt} and y = 2·ln2/halflife in float64 (the reference's); both 0 for the snap
    // (halflife 0, or e^{−y·dt} below float32's range)
    uniform([h], dt) {
      const y = (2 * Math.LN2) / h;
      const eydt = Math.exp(-y * dt);
      return h <= 0 || Math.fround(eydt) === 0 ? [0, 0] : [eydt, y];
    },
  },
};
/** quatDecaySpringDamper (CPU-only; listed in method-kernels.ts). */
export const QUAT_DECAY: Kernel = {
  wasm: 'quatDecaySpringDamper',
  js: ([q, w], [h], [dt]) => reference.quatDecaySpringDamper(q!, w!, h, dt),
};
/** quatDamper (CPU-only; listed in method-kernels.ts). */
export const QUAT_DAMPER: Kernel = {
  wasm: 'quatDamper',
  js: ([q, g], [h], [dt]) => reference.quatDamper(q!, g!, h, dt),
};
const TRANSITION: Kernel = {
  wasm: 'quatInertializeTransition',
  js: (a: Arrays) => reference.quatInertializeTransition(a[0]!, a[1]!, a[2]!, a[3]!, a[4]!, a[5]!),
};
const UPDATE: Kernel = {
  wasm: 'quatInertializeUpdate',
  js: (a: Arrays, [h], [dt]) => reference.quatInertializeUpdate(a[0]!, a[1]!, a[2]!, a[3]!, a[4]!, a[5]!, h, dt),
};

const quat = (name: string, array: Float32Array) => written(name, array, 4);
const vec = (name: string, array: Float32Array) => written(name, array, 3);

export const quatMethods: QuatMethods & ThisType<KernelHost> = {
  quatSimpleSpringDamper(q, w, qGoal, halflife, dt) {
    const arrays = [quat('q', q), vec('w', w), read('qGoal', qGoal, 4, ['q'])];
    checkAndRun(this, 'quatSimpleSpringDamper', QUAT_SIMPLE, arrays, [['halflife', halflife, 'nonNegative']], dt, [dt]);
  },

  quatDecaySpringDamper(q, w, halflife, dt) {
    checkAndRun(this, 'quatDecaySpringDamper', QUAT_DECAY, [quat('q', q), vec('w', w)], [['halflife', halflife, 'nonNegative']], dt, [dt]);
  },

  quatDamper(q, qGoal, halflife, dt) {
    checkAndRun(
      this,
      'quatDamper',
      QUAT_DAMPER,
      [quat('q', q), read('qGoal', qGoal, 4, ['q'])],
      [['halflife', halflife, 'nonNegative']],
      dt,
      [dt],
    );
  },

  quatInertializeTransition(offQ, offW, srcQ, srcW, dstQ, dstW) {
    const arrays = [
      quat('offQ', offQ),
      vec('offW', offW),
      read('srcQ', srcQ, 4, ['offQ']),
      read('srcW', srcW, 3),
      read('dstQ', dstQ, 4, ['offQ']),
      read('dstW', dstW, 3),
    ];
    checkAndRun(this, 'quatInertializeTransition', TRANSITION, arrays, [], 0, []);
  },

  quatInertializeUpdate(outQ, outW, offQ, offW, inQ, inW, halflife, dt) {
    const arrays = [
      quat('outQ', outQ),
      vec('outW', outW),
      quat('offQ', offQ),
      vec('offW', offW),
      read('inQ', inQ, 4, ['outQ']),
      read('inW', inW, 3, ['outW']),
    ]; // the offsets decay before inQ, inW are read: those may alias only the outputs
    checkAndRun(this, 'quatInertializeUpdate', UPDATE, arrays, [['halflife', halflife, 'nonNegative']], dt, [dt]);
  },
};
