/**
 * A GpuSolver on a WebGPURenderer's own GPUDevice, so that the springs write the buffers the
 * renderer draws: the renderer is initialized if it is not, and where it fell back to WebGL (no
 * WebGPU) the promise rejects with the reason, as createGpuSolver does.
 */
import type { WebGPURenderer } from 'three/webgpu';
import { createGpuSolver, type GpuSolver } from '../webgpu/index.js';
import type { GpuDevice } from '../backends/webgpu/gpu-types.js';
import { checkOptions, describe } from '../core/validate.js';

/**
 * A GpuSolver on `renderer`'s GPUDevice (after `await renderer.init()`, which it calls). Rejects
 * with an Error saying why where the renderer runs without WebGPU (three falls back to WebGL when
 * the browser has none): keep a CPU path, as with createGpuSolver.
 * @example
 * ```ts
 * import { WebGPURenderer } from 'three/webgpu';
 * import { createGpuSolverFor } from 'spring-solver/three-webgpu';
 * const renderer = new WebGPURenderer();
 * const gpu = await createGpuSolverFor(renderer); // gpu.device is the renderer's
 * ```
 * @group WebGPU
 */
export async function createGpuSolverFor(renderer: WebGPURenderer, options: { warnLargeDt?: boolean } = {}): Promise<GpuSolver> {
  const method = 'createGpuSolverFor';
  checkOptions(method, options, ['warnLargeDt']);
  if (typeof renderer !== 'object' || renderer === null || typeof (renderer as { init?: unknown }).init !== 'function') {
    throw new TypeError(`${method}: renderer must be a WebGPURenderer, got ${describe(renderer)}`);
  }
  try {
    await renderer.init();
  } catch (error) {
    throw new Error(`${method}: WebGPU is not available: renderer.init() failed: ${(error as Error).message}`);
  }
  const backend = renderer.backend as { isWebGPUBackend?: boolean; device?: GpuDevice };
  if (backend.isWebGPUBackend !== true || backend.device == null) {
    throw new Error(`${method}: WebGPU is not available: the renderer fell back to WebGL (the browser exposes no WebGPU adapter)`);
  }
  return createGpuSolver({ device: backend.device, warnLargeDt: options.warnLargeDt });
}
