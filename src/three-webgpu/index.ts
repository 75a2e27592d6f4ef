/**
 * spring-solver/three-webgpu: three.js WebGPURenderer instances that spring without leaving the
 * GPU. {@link GpuInstancedSprings} is the GPU twin of spring-solver/three's InstancedSprings: an
 * InstancedMesh's positions, rotations and scales spring toward goals in compute passes over the
 * buffer three draws from (spring-solver/webgpu's kernels), with no upload per frame. An entry of
 * its own so that spring-solver/webgpu needs no three.js (docs/DECISIONS.md, "WebGPU and three.js").
 * @module spring-solver/three-webgpu
 */
export { GpuInstancedSprings, type GpuInstancedSpringsOptions, type InstanceGoals } from './gpu-instanced-springs.js';
export { createGpuSolverFor } from './renderer-solver.js';
