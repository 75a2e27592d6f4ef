/**
 * spring-solver/webgpu: the exact springs as WebGPU compute shaders over GPU buffers, with the
 * CPU solver's names and argument order. Not a backend of createSolver: a Solver updates
 * Float32Arrays in place and synchronously, which a GPU cannot; here state lives in GPU arrays
 * (alloc, or wrap around the app's GPUBuffer), calls are recorded as compute passes, and
 * read() is asynchronous.
 * @module spring-solver/webgpu
 */
import { checkOptions, describe } from '../core/validate.js';
import { GpuSolver } from '../backends/webgpu/gpu-solver.js';
import { adapterName, requestGpuDevice } from '../backends/webgpu/device.js';
import type { GpuDevice } from '../backends/webgpu/gpu-types.js';

export { GpuArray, GpuSolver, type GpuParam, type WrapOptions } from '../backends/webgpu/gpu-solver.js';
export type { GpuBufferLike } from '../backends/webgpu/gpu-types.js';

/**
 * Options of {@link createGpuSolver}.
 * @group WebGPU
 */
export interface GpuSolverOptions {
  /** The app's GPUDevice, to share buffers with its renderer; by default the solver requests one of its own. */
  device?: GpuDevice;
  /** false: never warn of a dt ≥ 1 s (see createSolver's option of the same name). */
  warnLargeDt?: boolean;
}

/**
 * A solver running the springs on the GPU. Rejects with an Error saying why where WebGPU is
 * absent: no `navigator.gpu` (Node, an insecure page, a browser without WebGPU), no adapter, or
 * a failed device request.
 * @example
 * ```ts
 * import { createGpuSolver } from 'spring-solver/webgpu';
 * const gpu = await createGpuSolver(); // or createGpuSolver({ device }) to share the app's GPUDevice
 * const n = 3 * 1000;
 * const [x, v, g, q] = [gpu.alloc(n), gpu.alloc(n), gpu.alloc(n), gpu.alloc(n)];
 * gpu.write(g, new Float32Array(n).fill(1));
 * gpu.criticalSpringDamper(x, v, g, q, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * const positions = await gpu.read(x);
 * ```
 * @group WebGPU
 */
export async function createGpuSolver(options: GpuSolverOptions = {}): Promise<GpuSolver> {
  checkOptions('createGpuSolver', options, ['device', 'warnLargeDt']);
  let solver: GpuSolver;
  if (options.device !== undefined) {
    const device = options.device;
    if (
      typeof device !== 'object' ||
      device === null ||
      typeof (device as { createComputePipeline?: unknown }).createComputePipeline !== 'function'
    ) {
      throw new TypeError(`createGpuSolver: options.device must be a GPUDevice, got ${describe(device)}`);
    }
    // GPUDevice.adapterInfo (Chromium 132+) names the adapter of a device the app made
    solver = new GpuSolver(device, adapterName((device as { adapterInfo?: Parameters<typeof adapterName>[0] }).adapterInfo), false);
  } else {
    const { device, adapter } = await requestGpuDevice();
    solver = new GpuSolver(device, adapter, true);
  }
  if (options.warnLargeDt === false) solver.largeDtWarningDue = false;
  return solver;
}
