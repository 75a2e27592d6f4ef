/**
 * Inertialization of values (Holden, "Motion-Matching": inertialize_transition /
 * inertialize_update), element by element: a vec3 is three elements. Kernels:
 * assembly/kernels/inertialize.ts. The JS backend runs the core reference decay spring
 * (src/reference/spring.ts) per element; src/reference/inertialize.ts is the vec3 reference the
 * tests check every backend against.
 */
import { checkAndRun, read, written, type Kernel, type KernelHost, type Param } from '../core/contract.js';
import { decaySpringDamper } from '../reference/spring.js';

export interface InertializeMethods {
  /**
   * Holden's inertialize_transition: at a switch from the source animation (srcX, srcV) to the
   * destination (dstX, dstV), the offset absorbs the jump: off = (src + off) − dst for values and
   * velocities, so dst + off right after equals src + off right before. offX, offV are updated
   * in place (start them at 0).
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [offX, offV] = [solver.alloc(3), solver.alloc(3)];
   * const [srcX, srcV, dstX, dstV] = [solver.alloc(3), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * solver.inertializeTransition(offX, offV, srcX, srcV, dstX, dstV); // at the switch from src to dst
   * ```
   * @group Inertialization
   */
  inertializeTransition(
    offX: Float32Array,
    offV: Float32Array,
    srcX: Float32Array,
    srcV: Float32Array,
    dstX: Float32Array,
    dstV: Float32Array,
  ): void;
  /**
   * Holden's inertialize_update: the offset (offX, offV) decays toward 0 with the exact critical
   * decay spring (decay_spring_damper_exact, halflife in s; 0 clears it at once; dt = 0 keeps
   * it), then outX = inX + offX, outV = inV + offV for the animation playing now (inX, inV).
   * outX / outV may be the very arrays inX / inV.
   * @example
   * ```ts
   * import { createSolver } from 'spring-solver';
   * const solver = await createSolver();
   * const [offX, offV, inX, inV] = [solver.alloc(3).fill(-1), solver.alloc(3), solver.alloc(3).fill(1), solver.alloc(3)];
   * const [outX, outV] = [solver.alloc(3), solver.alloc(3)];
   * solver.inertializeUpdate(outX, outV, offX, offV, inX, inV, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
   * ```
   * @group Inertialization
   */
  inertializeUpdate(
    outX: Float32Array,
    outV: Float32Array,
    offX: Float32Array,
    offV: Float32Array,
    inX: Float32Array,
    inV: Float32Array,
    halflife: Param,
    dt: number,
  ): void;
}

const TRANSITION: Kernel = {
  wasm: 'inertializeTransition',
  js: ([offX, offV, srcX, srcV, dstX, dstV], _params, _scalars, n) => {
    for (let i = 0; i < n; i++) {
      offX![i] = srcX![i] + offX![i] - dstX![i]; // off_x = (src_x + off_x) − dst_x
      offV![i] = srcV![i] + offV![i] - dstV![i]; // off_v = (src_v + off_v) − dst_v
    }
  },
};

const UPDATE: Kernel = {
  wasm: 'inertializeUpdate',
  js: ([outX, outV, offX, offV, inX, inV], [halflife], [dt], n) => {
    decaySpringDamper(offX!, offV!, halflife, dt); // decay_spring_damper_exact(off_x, off_v, halflife, dt)
    for (let i = 0; i < n; i++) {
      outX![i] = inX![i] + offX![i]; // out_x = in_x + off_x
      outV![i] = inV![i] + offV![i]; // out_v = in_v + off_v
    }
  },
};

export const inertializeMethods: InertializeMethods & ThisType<KernelHost> = {
  inertializeTransition(offX, offV, srcX, srcV, dstX, dstV) {
    // offX is written before srcV, dstV are read: the velocities may alias only offV.
    const arrays = [
      written('offX', offX),
      written('offV', offV),
      read('srcX', srcX, 1, ['offX', 'offV']),
      read('srcV', srcV, 1, ['offV']),
      read('dstX', dstX, 1, ['offX', 'offV']),
      read('dstV', dstV, 1, ['offV']),
    ];
    checkAndRun(this, 'inertializeTransition', TRANSITION, arrays, [], 0, []);
  },

  inertializeUpdate(outX, outV, offX, offV, inX, inV, halflife, dt) {
    const arrays = [
      written('outX', outX),
      written('outV', outV),
      written('offX', offX),
      written('offV', offV),
      read('inX', inX, 1, ['outX', 'outV']),
      read('inV', inV, 1, ['outV']),
    ]; // the offsets decay before inX, inV are read, and outX is written before inV is read
    checkAndRun(this, 'inertializeUpdate', UPDATE, arrays, [['halflife', halflife, 'nonNegative']], dt, [dt]);
  },
};
