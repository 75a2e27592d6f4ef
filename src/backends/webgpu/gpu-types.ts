/**
 * The part of the WebGPU API this package uses, declared structurally (TypeScript's DOM library
 * has no WebGPU types, and the package adds no dependency for them): a GPUDevice, GPUBuffer or
 * GPUCommandEncoder from the browser, or typed by `@webgpu/types`, fits these.
 */

/**
 * A WebGPU buffer (`GPUBuffer`): the subset spring-solver/webgpu uses.
 * @group WebGPU
 */
export interface GpuBuffer {
  readonly size: number;
  readonly usage: number;
  mapAsync(mode: number, offset?: number, size?: number): Promise<undefined | void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

/** A compute pass being recorded. */
export interface GpuComputePass {
  setPipeline(pipeline: unknown): void;
  setBindGroup(index: number, group: unknown): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}

/**
 * A WebGPU command encoder (`GPUCommandEncoder`): the subset spring-solver/webgpu records into.
 * @group WebGPU
 */
export interface GpuCommandEncoder {
  beginComputePass(descriptor?: object): GpuComputePass;
  copyBufferToBuffer(source: GpuBuffer, sourceOffset: number, destination: GpuBuffer, destinationOffset: number, size: number): void;
  finish(descriptor?: object): unknown;
}

/** The device's queue. */
export interface GpuQueue {
  submit(commandBuffers: unknown[]): void;
  writeBuffer(buffer: GpuBuffer, bufferOffset: number, data: ArrayBufferView | ArrayBuffer, dataOffset?: number, size?: number): void;
  onSubmittedWorkDone(): Promise<undefined | void>;
}

/**
 * A WebGPU device (`GPUDevice`): the subset spring-solver/webgpu uses.
 * @group WebGPU
 */
export interface GpuDevice {
  readonly queue: GpuQueue;
  readonly limits: { readonly maxComputeWorkgroupsPerDimension: number; readonly maxStorageBufferBindingSize: number };
  createBuffer(descriptor: { size: number; usage: number; mappedAtCreation?: boolean; label?: string }): GpuBuffer;
  createShaderModule(descriptor: { code: string; label?: string }): unknown;
  createComputePipeline(descriptor: { layout: 'auto'; compute: { module: unknown; entryPoint: string }; label?: string }): {
    getBindGroupLayout(index: number): unknown;
  };
  createBindGroup(descriptor: { layout: unknown; entries: { binding: number; resource: { buffer: GpuBuffer } }[] }): unknown;
  createCommandEncoder(descriptor?: object): GpuCommandEncoder;
  pushErrorScope(filter: 'validation' | 'out-of-memory' | 'internal'): void;
  popErrorScope(): Promise<{ message: string } | null>;
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
