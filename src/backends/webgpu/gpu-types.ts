/**
 * The part of the WebGPU API this package uses, declared structurally (TypeScript's DOM library
 * has no WebGPU types, and the package adds no dependency for them): a GPUDevice, GPUBuffer or
 * GPUCommandEncoder from the browser, or typed by `@webgpu/types`, fits these.
 */

/**
 * A GPUBuffer, as {@link GpuSolver.wrap} takes it (any GPUBuffer fits: its size and usage are read).
 * @group WebGPU
 */
export type GpuBufferLike = { readonly size: number; readonly usage: number };

/** A WebGPU buffer (`GPUBuffer`): the subset spring-solver/webgpu uses. */
export interface GpuBuffer {
  readonly size: number;
  readonly usage: number;
  /** GPUBuffer.mapAsync: maps the buffer for reading or writing. */
  mapAsync(mode: number, offset?: number, size?: number): Promise<unknown>;
  /** GPUBuffer.getMappedRange: the mapped bytes. */
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  /** GPUBuffer.unmap: gives the buffer back to the GPU. */
  unmap(): void;
  /** GPUBuffer.destroy: frees the buffer's memory. */
  destroy(): void;
}

/** A compute pass being recorded. */
export interface GpuComputePass {
  setPipeline(pipeline: unknown): void;
  setBindGroup(index: number, group: unknown): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}

/** A WebGPU command encoder (`GPUCommandEncoder`): the subset spring-solver/webgpu records into. */
export interface GpuCommandEncoder {
  /** GPUCommandEncoder.beginComputePass. */
  beginComputePass(descriptor?: object): GpuComputePass;
  /** GPUCommandEncoder.copyBufferToBuffer. */
  copyBufferToBuffer(source: GpuBuffer, sourceOffset: number, destination: GpuBuffer, destinationOffset: number, size: number): void;
  /** GPUCommandEncoder.finish: the command buffer to submit. */
  finish(descriptor?: object): unknown;
}

/** The device's queue. */
export interface GpuQueue {
  submit(commandBuffers: unknown[]): void;
  writeBuffer(buffer: GpuBuffer, bufferOffset: number, data: ArrayBufferView | ArrayBuffer, dataOffset?: number, size?: number): void;
  onSubmittedWorkDone(): Promise<unknown>;
}

/** A WebGPU device (`GPUDevice`): the subset spring-solver/webgpu uses. */
export interface GpuDevice {
  readonly queue: GpuQueue;
  readonly limits: { readonly maxComputeWorkgroupsPerDimension: number; readonly maxStorageBufferBindingSize: number };
  /** GPUDevice.createBuffer. */
  createBuffer(descriptor: { size: number; usage: number; mappedAtCreation?: boolean; label?: string }): GpuBuffer;
  /** GPUDevice.createShaderModule. */
  createShaderModule(descriptor: { code: string; label?: string }): unknown;
  /** GPUDevice.createComputePipeline. */
  createComputePipeline(descriptor: { layout: 'auto'; compute: { module: unknown; entryPoint: string }; label?: string }): {
    getBindGroupLayout(index: number): unknown;
  };
  /** GPUDevice.createBindGroup. */
  createBindGroup(descriptor: { layout: unknown; entries: { binding: number; resource: { buffer: GpuBuffer } }[] }): unknown;
  /** GPUDevice.createCommandEncoder. */
  createCommandEncoder(descriptor?: object): GpuCommandEncoder;
  /** GPUDevice.pushErrorScope. */
  pushErrorScope(filter: 'validation' | 'out-of-memory' | 'internal'): void;
  /** GPUDevice.popErrorScope: the first error since the matching push, or null. */
  popErrorScope(): Promise<{ message: string } | null>;
  /** GPUDevice.destroy. */
  destroy(): void;
}

/** GPUBufferUsage flags (the constants are the WebGPU specification's). */
export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
} as const;

/** GPUMapMode.READ. */
export const MAP_READ = 0x0001;
