/**
 * The kernels of the methods whose arguments are `(arrays…, params…, dt)`, by method name: the
 * core springs (src/base/solver.ts) and the quaternion springs. An entry with a `gpu` field is a
 * method of the GPU solver too (spring-solver/webgpu builds it from that field); one without is
 * CPU-only. test/webgpu/contract-parity.webgpu.test.ts runs every `gpu` field against `js`, and
 * test/docs/gpu-column.node.test.ts checks the README's "GPU kernel" column against this list.
 */
import { SpringMode, type ArraySignature, type GpuKernel, type KernelSpec, type Param } from '../core/contract.js';
import * as reference from '../reference/spring.js';
import { springTransition } from '../reference/spring-transition.js';
import { QUAT_DAMPER, QUAT_DECAY, QUAT_SIMPLE } from './quat.js';

/** The x, v and goal arrays of a core spring: goals may be the very array x or v (each element is read whole first). */
const X: ArraySignature = { name: 'x', output: true };
const V: ArraySignature = { name: 'v', output: true };
const G: ArraySignature = { name: 'g', aliases: ['x', 'v'] };
const Q: ArraySignature = { name: 'q', aliases: ['x', 'v'] };

/** The float64 transition's six coefficients (xx, xv, xq, vx, vv, vq) of a spring in `mode`, once per call. */
function transition(mode: SpringMode, [p0, p1 = 0]: readonly number[], dt: number): number[] {
  const m = springTransition(...reference.stiffnessAndDamping(mode, p0, p1), dt);
  return [m.xx, m.xv, m.xq, m.vx, m.vv, m.vq];
}

/** A core spring's kernel, CPU-only: the reference's spring in `mode`. */
function cpuSpring(mode: SpringMode): KernelSpec {
  return { js: ([x, v, g = null, q = null], [p0, p1 = 0], [dt]) => reference.spring(mode, x!, v!, g, q, p0, p1, dt) };
}

/** A core spring's kernel with its GPU version: `goals` of the arrays g, q; the 'spring' body. */
function gpuSpring(mode: SpringMode, goals: 0 | 1 | 2, gpu: Pick<GpuKernel, 'params' | 'perElement'>): KernelSpec & { gpu: GpuKernel } {
  const arrays = [X, V, G, Q].slice(0, 2 + goals);
  return {
    ...cpuSpring(mode),
    gpu: {
      arrays,
      params: gpu.params,
      body: 'spring',
      slots: [0, 1, 2, 3].slice(0, arrays.length).concat(gpu.params.map((_, k) => 4 + k)),
      perElement: gpu.perElement,
      uniform: (params, dt) => transition(mode, params, dt),
    },
  };
}

const HALFLIFE: Pick<GpuKernel, 'params' | 'perElement'> = { params: [['halflife', 'nonNegative']], perElement: 'critical' };

export const methodKernels = {
  damper: {
    js: ([x, g], [h], [dt]) => reference.damper(x!, g!, h as Param, dt),
    gpu: {
      arrays: [X, { name: 'g', aliases: ['x'] }],
      params: [['halflife', 'nonNegative']],
      body: 'damper',
      slots: [0, 2, 4],
      perElement: 'critical',
      // Holden's damper_exact factor exp(−ln2·dt/halflife), float64 (0 at halflife 0)
      uniform: ([h], dt) => [Math.exp((-Math.LN2 * dt) / h)],
    },
  },
  springDamper: gpuSpring(SpringMode.FrequencyHalflife, 2, {
    params: [
      ['frequency', 'nonNegative'],
      ['halflife', 'nonNegative'],
    ],
    perElement: 'frequencyHalflife',
  }),
  springDamperStiffness: gpuSpring(SpringMode.StiffnessDamping, 2, {
    params: [
      ['stiffness', 'nonNegative'],
      ['damping', 'nonNegative'],
    ],
    perElement: 'stiffnessDamping',
  }),
  springDamperRatio: gpuSpring(SpringMode.RatioHalflife, 2, {
    params: [
      ['dampingRatio', 'positive'],
      ['halflife', 'nonNegative'],
    ],
    perElement: 'ratioHalflife',
  }),
  criticalSpringDamper: gpuSpring(SpringMode.Critical, 2, HALFLIFE),
  simpleSpringDamper: gpuSpring(SpringMode.Critical, 1, HALFLIFE),
  decaySpringDamper: gpuSpring(SpringMode.Critical, 0, HALFLIFE),
  quatSimpleSpringDamper: QUAT_SIMPLE,
  quatDecaySpringDamper: QUAT_DECAY,
  quatDamper: QUAT_DAMPER,
} satisfies Record<string, KernelSpec>;

/** The methods of `methodKernels` whose kernel has a GPU version: the GPU solver's spring methods. */
export type GpuMethodName = {
  [M in keyof typeof methodKernels]: (typeof methodKernels)[M] extends { gpu: GpuKernel } ? M : never;
}[keyof typeof methodKernels];
