/**
 * The WebGPU solver: arrays of float32 in GPU buffers, the exact springs as compute shaders over
 * them. Every call is checked on the CPU first (a TypeError or RangeError naming the method and
 * the argument; nothing dispatched), then recorded as one compute pass: into the app's command
 * encoder while one is set (record()), otherwise into an encoder of its own that it submits.
 *
 * What runs where (docs/DECISIONS.md, "WebGPU: what runs in float32"): with uniform parameters
 * the host computes the transition's six coefficients once per call in float64 (the reference's
 * springTransition, as the wasm kernels do) and WGSL applies them; with per-element parameters
 * WGSL computes them per element in float32 (shaders/coefficients.wgsl).
 */
import type { GpuKernel } from '../../core/contract.js';
import { checkCount, checkFloat32Number, checkNumber, describe, type ParamRule } from '../../core/validate.js';
import { checkDt } from '../../core/dt.js';
import { methodKernels, type GpuMethodName } from '../../methods/method-kernels.js';
import type { Solver } from '../../base/solver.js';
import { BufferUsage, MAP_READ, type GpuBuffer, type GpuBufferLike, type GpuCommandEncoder, type GpuDevice } from './gpu-types.js';
import {
  CALL_BYTES,
  WORKGROUP_SIZE,
  shaderSource,
  shapeKey,
  type CoefficientSource,
  type KernelBody,
  type ShaderShape,
  type SlotSource,
} from './shader-source.js';

/**
 * A parameter of a GPU call: one number for every element, or a GPU array with one value per element.
 * @group WebGPU
 */
export type GpuParam = number | GpuArray;

/**
 * Floats in a GPU buffer: `length` floats, in items of `itemSize` consecutive floats, item k
 * starting `offset + k·stride` floats into `buffer`. Made by {@link GpuSolver.alloc} (packed:
 * itemSize = stride = 1) or {@link GpuSolver.wrap} (inside a buffer the app owns).
 * @example
 * ```ts
 * import { createGpuSolver } from 'spring-solver/webgpu';
 * const gpu = await createGpuSolver();
 * const x = gpu.alloc(300); // x.buffer: a GPUBuffer of 300 floats, x.offset 0, x.stride 1
 * ```
 * @group WebGPU
 */
export class GpuArray {
  /** @internal */
  freed = false;
  /** @internal */
  constructor(
    /** @internal */ readonly solver: GpuSolver,
    /** The GPUBuffer holding the floats. */
    readonly buffer: GpuBuffer,
    /** The first float's index in the buffer (floats, not bytes). */
    readonly offset: number,
    /** How many floats (elements) the array has. */
    readonly length: number,
    /** Consecutive floats per item. */
    readonly itemSize: number,
    /** Floats from the start of one item to the next. */
    readonly stride: number,
    /** @internal */ readonly owned: boolean,
  ) {}

  /** Buffer index of element i. @internal */
  indexOf(i: number): number {
    return this.offset + Math.floor(i / this.itemSize) * this.stride + (i % this.itemSize);
  }

  /** True when the floats are consecutive. @internal */
  get packed(): boolean {
    return this.itemSize === this.stride || this.length <= this.itemSize;
  }
}

/**
 * Options of {@link GpuSolver.wrap}: where the floats lie in the buffer, in floats (4 bytes).
 * @group WebGPU
 */
export interface WrapOptions {
  /** Index of the first float (default 0). */
  offset?: number;
  /** How many floats (elements) the array has. */
  length: number;
  /** Consecutive floats per item (default 1; 3 for positions, 4 for quaternions). */
  itemSize?: number;
  /** Floats from the start of one item to the next (default itemSize; 16 for a column of instance matrices). */
  stride?: number;
}

/** An array argument of a call, as the checks see it. */
interface ArrayArg {
  name: string;
  array: unknown;
  output?: boolean;
  /** Floats per element (4 for a quaternion, 3 for an angular velocity); 1 by default. */
  width?: number;
  /** The outputs this input may be the very same array of (read whole before they are written). */
  aliases?: readonly string[];
}

type ParamSpec = [name: string, value: unknown, rule: ParamRule];

/** What a checked call runs: the kernel, its operands by slot, and the uniform values. */
interface Dispatch {
  body: KernelBody;
  coefficients: CoefficientSource;
  n: number;
  /** Operand per slot (null: absent, or a uniform parameter in `uniformParams`). */
  operands: (GpuArray | null)[];
  uniformParams: [number, number];
  coef: [number, number, number, number, number, number];
  dt: number;
}

const LN2 = Math.LN2;

/**
 * The exact springs over GPU buffers (spring-solver/webgpu), with the CPU Solver's method names
 * and argument order. Made by `createGpuSolver()`.
 * @example
 * ```ts
 * import { createGpuSolver } from 'spring-solver/webgpu';
 * const gpu = await createGpuSolver();
 * const [x, v, g] = [gpu.alloc(3), gpu.alloc(3), gpu.alloc(3)];
 * gpu.write(g, new Float32Array([1, 2, 3]));
 * gpu.simpleSpringDamper(x, v, g, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * ```
 * @group WebGPU
 */
export class GpuSolver {
  /** @internal */
  largeDtWarningDue = true;
  private disposed = false;
  private encoder: GpuCommandEncoder | null = null;
  /**
   * The descriptor of every compute pass the calls begin (the benchmark sets timestampWrites here). @internal
   */
  passDescriptor: object | undefined = undefined;
  private readonly pipelines = new Map<string, ReturnType<GpuDevice['createComputePipeline']>>();
  private readonly owned = new Set<GpuArray>();

  /** @internal */
  constructor(
    /** The GPUDevice the solver runs on (the app's own, or one it requested). */
    readonly device: GpuDevice,
    /** The adapter's name, as its GPUAdapterInfo gives it ("google swiftshader": software). */
    readonly adapter: string,
    private readonly ownsDevice: boolean,
  ) {}

  /**
   * A zeroed GPU array of `length` float32 values in a buffer of its own (usage STORAGE,
   * COPY_SRC, COPY_DST), for the springs' state, goals and per-element parameters.
   * @example
   * ```ts
   * import { createGpuSolver } from 'spring-solver/webgpu';
   * const gpu = await createGpuSolver();
   * const x = gpu.alloc(3 * 1000); // 1,000 vec3 on the GPU, zeroed
   * ```
   */
  alloc(length: number): GpuArray {
    this.checkLive('alloc');
    checkCount('alloc', 'length', length);
    const bytes = 4 * length;
    if (bytes > this.device.limits.maxStorageBufferBindingSize) {
      throw new RangeError(
        `alloc: length ${length} (${bytes} bytes) exceeds this device's maxStorageBufferBindingSize (${this.device.limits.maxStorageBufferBindingSize} bytes)`,
      );
    }
    const buffer = this.device.createBuffer({
      size: bytes,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
      label: `spring-solver alloc(${length})`,
    });
    const array = new GpuArray(this, buffer, 0, length, 1, 1, true);
    this.owned.add(array);
    return array;
  }

  /**
   * A GPU array over floats of a buffer the app owns (an instance buffer three.js renders from,
   * say), updated in place by the calls: `length` floats, in items of `itemSize` consecutive
   * floats, item k at float `offset + k·stride`. The floats between the items are never touched.
   * The buffer needs the STORAGE usage (and COPY_SRC, COPY_DST for read() and write()).
   * @example
   * ```ts
   * import { createGpuSolver, type GpuBufferLike } from 'spring-solver/webgpu';
   * const gpu = await createGpuSolver();
   * declare const instances: GpuBufferLike; // a GPUBuffer, 16 floats per instance: a column-major matrix
   * const count = 1000;
   * // the translations: floats 12, 13, 14 of each matrix
   * const positions = gpu.wrap(instances, { offset: 12, length: 3 * count, itemSize: 3, stride: 16 });
   * ```
   */
  wrap(bufferLike: GpuBufferLike, options: WrapOptions): GpuArray {
    const buffer = bufferLike as GpuBuffer;
    this.checkLive('wrap');
    if (typeof buffer !== 'object' || buffer === null || typeof (buffer as { size?: unknown }).size !== 'number') {
      throw new TypeError(`wrap: buffer must be a GPUBuffer, got ${describe(buffer)}`);
    }
    if (typeof options !== 'object' || options === null) throw new TypeError(`wrap: options must be an object, got ${describe(options)}`);
    const length = checkCount('wrap', 'options.length', options.length);
    const offset = options.offset ?? 0;
    checkNumber('wrap', 'options.offset', offset, 'nonNegative');
    if (!Number.isInteger(offset)) throw new RangeError(`wrap: options.offset is ${offset}; it must be a whole number of floats`);
    const itemSize = options.itemSize === undefined ? 1 : checkCount('wrap', 'options.itemSize', options.itemSize);
    const stride = options.stride === undefined ? itemSize : checkCount('wrap', 'options.stride', options.stride);
    if (stride < itemSize) throw new RangeError(`wrap: options.stride is ${stride}; it must be ≥ options.itemSize (${itemSize})`);
    if (length % itemSize !== 0)
      throw new RangeError(`wrap: options.length is ${length}, which is not a multiple of options.itemSize (${itemSize})`);
    const last = offset + (length / itemSize - 1) * stride + itemSize; // floats up to the end of the last item
    if (4 * last > buffer.size) {
      throw new RangeError(`wrap: the view ends at byte ${4 * last}, past the end of the buffer (${buffer.size} bytes)`);
    }
    if ((buffer.usage & BufferUsage.STORAGE) === 0)
      throw new TypeError('wrap: buffer must have the STORAGE usage (GPUBufferUsage.STORAGE)');
    return new GpuArray(this, buffer, offset, length, itemSize, stride, false);
  }

  /**
   * Releases an array: alloc()'s buffer is destroyed; a wrapped buffer stays the app's. Later
   * calls with the array throw a TypeError.
   * @example
   * ```ts
   * import { createGpuSolver } from 'spring-solver/webgpu';
   * const gpu = await createGpuSolver();
   * const scratch = gpu.alloc(64);
   * gpu.free(scratch);
   * ```
   */
  free(array: GpuArray): void {
    this.checkLive('free');
    this.checkArray('free', 'array', array);
    array.freed = true;
    if (array.owned) {
      array.buffer.destroy();
      this.owned.delete(array);
    }
  }

  /**
   * Copies `data` (as many floats as the array has) into the array, through the device's queue:
   * it lands before any command submitted after this call, and before the commands of an
   * encoder set by record() that is submitted later.
   * @example
   * ```ts
   * import { createGpuSolver } from 'spring-solver/webgpu';
   * const gpu = await createGpuSolver();
   * const g = gpu.alloc(3);
   * gpu.write(g, new Float32Array([1, 2, 3]));
   * ```
   */
  write(array: GpuArray, data: Float32Array): void {
    this.checkLive('write');
    this.checkArray('write', 'array', array);
    if (!(data instanceof Float32Array)) throw new TypeError(`write: data must be a Float32Array, got ${describe(data)}`);
    if (data.length !== array.length)
      throw new RangeError(`write: data has length ${data.length}, expected ${array.length} (the array's length)`);
    if (array.packed) {
      this.device.queue.writeBuffer(array.buffer, 4 * array.offset, data);
      return;
    }
    // Strided: through a packed copy and the copy kernel, leaving the floats between items as they are.
    const packed = this.temporary(array.length, BufferUsage.STORAGE | BufferUsage.COPY_DST);
    this.device.queue.writeBuffer(packed.buffer, 0, data);
    const encoder = this.device.createCommandEncoder();
    const uniforms = this.encode(encoder, this.copyDispatch(array, packed));
    this.device.queue.submit([encoder.finish()]);
    packed.buffer.destroy();
    uniforms.destroy();
  }

  /**
   * The array's values, read back from the GPU (after every command submitted so far; submit an
   * encoder set by record() first). For tests and debugging: a frame's springs need no read.
   * @example
   * ```ts
   * import { createGpuSolver } from 'spring-solver/webgpu';
   * const gpu = await createGpuSolver();
   * const x = gpu.alloc(3);
   * const values = await gpu.read(x); // Float32Array [0, 0, 0]
   * ```
   */
  async read(array: GpuArray): Promise<Float32Array> {
    this.checkLive('read');
    this.checkArray('read', 'array', array);
    const bytes = 4 * array.length;
    const staging = this.device.createBuffer({ size: bytes, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
    const encoder = this.device.createCommandEncoder();
    let packed: GpuArray | null = null;
    let uniforms: GpuBuffer | null = null;
    if (array.packed) {
      encoder.copyBufferToBuffer(array.buffer, 4 * array.offset, staging, 0, bytes);
    } else {
      packed = this.temporary(array.length, BufferUsage.STORAGE | BufferUsage.COPY_SRC);
      uniforms = this.encode(encoder, this.copyDispatch(packed, array));
      encoder.copyBufferToBuffer(packed.buffer, 0, staging, 0, bytes);
    }
    this.device.queue.submit([encoder.finish()]);
    uniforms?.destroy();
    try {
      await staging.mapAsync(MAP_READ);
      return new Float32Array(staging.getMappedRange().slice(0));
    } finally {
      staging.destroy();
      packed?.buffer.destroy();
    }
  }

  /**
   * Records the calls that follow into `encoder` (the app's GPUCommandEncoder, submitted by the
   * app, so that a frame's springs and its render are one submission), until record(null); while
   * none is set, each call submits its own. The encoder must be submitted before read() can see the results.
   * @example
   * ```ts
   * import { createGpuSolver } from 'spring-solver/webgpu';
   * const gpu = await createGpuSolver();
   * const [x, v, g] = [gpu.alloc(3), gpu.alloc(3), gpu.alloc(3)];
   * const encoder = gpu.device.createCommandEncoder();
   * gpu.record(encoder);
   * gpu.simpleSpringDamper(x, v, g, 0.1, 1 / 60); // recorded, not yet submitted
   * gpu.record(null);
   * gpu.device.queue.submit([encoder.finish()]); // with the frame's render passes
   * ```
   */
  record(encoder: GpuCommandEncoder | null): void {
    this.checkLive('record');
    if (
      encoder !== null &&
      (typeof encoder !== 'object' || typeof (encoder as { beginComputePass?: unknown }).beginComputePass !== 'function')
    ) {
      throw new TypeError(`record: encoder must be a GPUCommandEncoder or null, got ${describe(encoder)}`);
    }
    this.encoder = encoder;
  }

  /**
   * Releases the solver: destroys the buffers alloc() made (and the device, when createGpuSolver
   * requested it); every later call throws a TypeError. Wrapped buffers stay the app's.
   * @example
   * ```ts
   * import { createGpuSolver } from 'spring-solver/webgpu';
   * const gpu = await createGpuSolver();
   * gpu.dispose();
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const array of this.owned) {
      array.freed = true;
      array.buffer.destroy();
    }
    this.owned.clear();
    this.pipelines.clear();
    this.encoder = null;
    if (this.ownsDevice) this.device.destroy();
  }

  /**
   * Floats 0…11 of `count` instance matrices (16 floats each, column-major, from float 0 of
   * `matrices`) from the quaternions `q` (4 floats each) and scales `s` (3 each): the
   * rotation·scale columns of three's Matrix4.compose (the reference's composeInstanceMatrices);
   * the translations are left as they are. Checks nothing: its caller (GpuInstancedSprings,
   * spring-solver/three-webgpu) checked the arrays once. @internal
   */
  composeInstanceMatrices(matrices: GpuArray, q: GpuArray, s: GpuArray, count: number): void {
    this.run({
      body: 'compose',
      coefficients: 'none',
      n: count,
      operands: [matrices, q, s, null, null, null],
      uniformParams: [0, 0],
      coef: [0, 0, 0, 0, 0, 0],
      dt: 0,
    });
  }

  /**
   * Runs a contract kernel's GPU version (src/core/contract.ts, GpuKernel) with the arguments of
   * its method, `(arrays…, params…, dt)`: checked as the CPU solver checks them, then one pass.
   * @internal
   */
  runGpuKernel(method: string, gpu: GpuKernel, args: readonly unknown[]): void {
    const na = gpu.arrays.length;
    const arrays: ArrayArg[] = gpu.arrays.map((signature, k) => ({ ...signature, array: args[k] }));
    const params: ParamSpec[] = gpu.params.map(([name, rule], k) => [name, args[na + k], rule]);
    const dt = args[na + params.length];
    const n = this.checkCall(method, arrays, params, dt);
    if (dt === 0) return;
    const values = params.map(([, value]) => value as GpuParam);
    const uniform = values.every((value) => typeof value === 'number');
    const operands: Dispatch['operands'] = [null, null, null, null, null, null];
    const uniformParams: Dispatch['uniformParams'] = [0, 0];
    [...(args.slice(0, na) as GpuArray[]), ...values].forEach((value, k) => {
      const slot = gpu.slots[k];
      if (value instanceof GpuArray) operands[slot] = value;
      // a uniform parameter beside a per-element one travels as float32, like the CPU solvers'
      else uniformParams[slot - 4] = Math.fround(value);
    });
    const coef: Dispatch['coef'] = [0, 0, 0, 0, 0, 0];
    // float64 on the host, once per call (the reference's formulas), rounded to float32 on upload
    if (uniform) gpu.uniform(values as number[], dt as number).forEach((c, k) => (coef[k] = c));
    this.run({ body: gpu.body, coefficients: uniform ? 'uniform' : gpu.perElement, n, operands, uniformParams, coef, dt: dt as number });
  }

  /** True once dispose() has run. @internal */
  isDisposed(): boolean {
    return this.disposed;
  }

  /** @internal */
  checkLive(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this GPU solver has been disposed`);
  }

  private checkArray(method: string, name: string, array: unknown): asserts array is GpuArray {
    if (!(array instanceof GpuArray)) {
      throw new TypeError(`${method}: ${name} must be a GPU array (from this solver's alloc() or wrap()), got ${describe(array)}`);
    }
    if (array.solver !== this) throw new TypeError(`${method}: ${name} is a GPU array of another solver`);
    if (array.freed) throw new TypeError(`${method}: ${name} was freed`);
  }

  /** The call's checks, in the CPU solvers' order; returns the element count. */
  private checkCall(method: string, arrays: ArrayArg[], params: ParamSpec[], dt: unknown): number {
    this.checkLive(method);
    let n = -1;
    for (const { name, array, width = 1 } of arrays) {
      this.checkArray(method, name, array);
      if (n < 0) {
        if (array.length % width !== 0)
          throw new RangeError(`${method}: ${name} has length ${array.length}, which is not a multiple of ${width}`);
        n = array.length / width;
      } else if (array.length !== n * width) {
        throw new RangeError(
          `${method}: ${name} has length ${array.length}, expected ${n * width} (${n} elements × ${width}, as ${arrays[0].name})`,
        );
      }
    }
    const all: ArrayArg[] = [...arrays];
    for (const [name, value, rule] of params) {
      if (typeof value === 'number') {
        checkFloat32Number(method, name, value, rule);
        continue;
      }
      if (!(value instanceof GpuArray)) {
        throw new TypeError(`${method}: ${name} must be a number or a GPU array (one value per element), got ${describe(value)}`);
      }
      this.checkArray(method, name, value);
      if (value.length !== n) throw new RangeError(`${method}: ${name} has length ${value.length}, expected ${n} (one value per element)`);
      all.push({ name, array: value });
    }
    checkOverlap(method, all as (ArrayArg & { array: GpuArray })[]);
    checkDt(this, method, dt);
    return n;
  }

  private temporary(length: number, usage: number): GpuArray {
    return new GpuArray(this, this.device.createBuffer({ size: 4 * length, usage }), 0, length, 1, 1, true);
  }

  private copyDispatch(to: GpuArray, from: GpuArray): Dispatch {
    return {
      body: 'copy',
      coefficients: 'none',
      n: to.length,
      operands: [to, from, null, null, null, null],
      uniformParams: [0, 0],
      coef: [0, 0, 0, 0, 0, 0],
      dt: 0,
    };
  }

  private run(call: Dispatch): void {
    if (this.encoder !== null) {
      this.encode(this.encoder, call);
      return;
    }
    const encoder = this.device.createCommandEncoder();
    const uniforms = this.encode(encoder, call);
    this.device.queue.submit([encoder.finish()]);
    uniforms.destroy(); // freed once the submitted work is done (a recorded call's goes with the garbage)
  }

  /** Records `call` as one compute pass into `encoder`; returns the call's uniform buffer. */
  private encode(encoder: GpuCommandEncoder, call: Dispatch): GpuBuffer {
    // One binding per distinct buffer (see shader-source.ts)
    const buffers: GpuBuffer[] = [];
    const slots: SlotSource[] = call.operands.map((operand, slot) => {
      if (operand === null) return slot >= 4 && call.coefficients !== 'uniform' && call.coefficients !== 'none' ? 'uniform' : 'absent';
      let k = buffers.indexOf(operand.buffer);
      if (k < 0) k = buffers.push(operand.buffer) - 1;
      return { buffer: k };
    });
    const shape: ShaderShape = { body: call.body, coefficients: call.coefficients, slots, buffers: buffers.length };
    const pipeline = this.pipeline(shape);

    const groups = Math.ceil(call.n / WORKGROUP_SIZE);
    const maxX = this.device.limits.maxComputeWorkgroupsPerDimension;
    const x = Math.min(groups, maxX);
    const y = Math.ceil(groups / x);

    const data = new ArrayBuffer(CALL_BYTES);
    const u32 = new Uint32Array(data);
    const f32 = new Float32Array(data);
    u32[0] = call.n;
    u32[1] = x * WORKGROUP_SIZE;
    call.operands.forEach((operand, slot) => {
      const view = operand ?? { offset: 0, itemSize: 1, stride: 1 };
      u32.set([view.offset, view.itemSize, view.stride, 0], 4 + 4 * slot);
    });
    f32.set(call.coef.slice(0, 3), 28);
    f32.set(call.coef.slice(3), 32);
    const t = call.dt;
    f32.set([t, 2 * LN2 * t, 2 * Math.PI * t, LN2 * t], 36);
    f32.set(call.uniformParams, 40);
    // A uniform buffer per call: calls recorded into one encoder each keep their own values
    // until the app submits it (docs/DECISIONS.md, "WebGPU: one uniform buffer per call").
    const uniforms = this.device.createBuffer({ size: CALL_BYTES, usage: BufferUsage.UNIFORM, mappedAtCreation: true });
    new Uint8Array(uniforms.getMappedRange()).set(new Uint8Array(data));
    uniforms.unmap();

    const bindGroup = this.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: uniforms } }, ...buffers.map((buffer, k) => ({ binding: k + 1, resource: { buffer } }))],
    });
    const pass = encoder.beginComputePass(call.body === 'copy' ? undefined : this.passDescriptor);
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(x, y);
    pass.end();
    return uniforms;
  }

  private pipeline(shape: ShaderShape): ReturnType<GpuDevice['createComputePipeline']> {
    const key = shapeKey(shape);
    let pipeline = this.pipelines.get(key);
    if (pipeline === undefined) {
      const module = this.device.createShaderModule({ code: shaderSource(shape), label: `spring-solver ${key}` });
      pipeline = this.device.createComputePipeline({
        layout: 'auto',
        compute: { module, entryPoint: 'main' },
        label: `spring-solver ${key}`,
      });
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }
}

/** A CPU method's arguments on the GPU: Float32Array → GpuArray, a Param → GpuParam, the rest as they are. */
type OnGpu<A> = { [K in keyof A]: [A[K]] extends [Float32Array] ? GpuArray : [Float32Array] extends [A[K]] ? GpuParam : A[K] };
type GpuMethod<F> = F extends (...args: infer A) => void ? (...args: OnGpu<A>) => void : never;

/**
 * The GPU solver's spring methods: every method of the kernel contract whose kernel declares a
 * GPU version (src/methods/method-kernels.ts), with the CPU {@link Solver}'s name, argument
 * order, checks and messages, on GPU arrays. A method's documentation is the Solver's.
 * @example
 * ```ts
 * import { createGpuSolver } from 'spring-solver/webgpu';
 * const gpu = await createGpuSolver();
 * const [x, v, g, q] = [gpu.alloc(3), gpu.alloc(3), gpu.alloc(3), gpu.alloc(3)];
 * gpu.criticalSpringDamper(x, v, g, q, 0.1, 1 / 60); // halflife 0.1 s, dt 1/60 s
 * gpu.springDamper(x, v, g, q, 2, 0.3, 1 / 60); // frequency 2 Hz, halflife 0.3 s
 * gpu.damper(x, g, 0.1, 1 / 60);
 * ```
 * @group WebGPU
 */
export type GpuSpringMethods = { [M in GpuMethodName]: GpuMethod<Solver[M]> };

// The methods come from the contract, one per kernel with a GPU version: declared by merging,
// defined here (nothing to mirror by hand; docs/DECISIONS.md, "WebGPU: the contract's gpu field").
export interface GpuSolver extends GpuSpringMethods {}
for (const [method, kernel] of Object.entries(methodKernels) as [string, { gpu?: GpuKernel }][]) {
  const gpu = kernel.gpu;
  if (gpu === undefined) continue;
  Object.defineProperty(GpuSolver.prototype, method, {
    value: function (this: GpuSolver, ...args: unknown[]): void {
      this.runGpuKernel(method, gpu, args);
    },
    writable: true,
    configurable: true,
  });
}

/** The floats of a view as [first, end) and, for a strided one, its items' residues modulo the stride. */
function sharesFloats(a: GpuArray, b: GpuArray): boolean {
  if (a.buffer !== b.buffer) return false;
  const end = (v: GpuArray) => v.offset + (Math.ceil(v.length / v.itemSize) - 1) * v.stride + Math.min(v.itemSize, v.length);
  if (end(a) <= b.offset || end(b) <= a.offset) return false;
  if (a.packed && b.packed) return true;
  if (a.stride !== b.stride) return true; // different strides in one range: counted as sharing (conservative)
  // Same stride: the items occupy [offset mod stride, + itemSize) of every period; disjoint when those do not meet.
  const s = a.stride;
  const ra = a.offset % s;
  const rb = b.offset % s;
  const meets = (r0: number, w0: number, r1: number) => (r1 - r0 + s) % s < w0;
  return meets(ra, a.itemSize, rb) || meets(rb, b.itemSize, ra);
}

/** True when two views are the very same floats in the same order. */
function identical(a: GpuArray, b: GpuArray): boolean {
  return (
    a.buffer === b.buffer &&
    a.offset === b.offset &&
    a.length === b.length &&
    (a.packed && b.packed ? true : a.itemSize === b.itemSize && a.stride === b.stride)
  );
}

/**
 * Outputs may share no float with another array, except an input that is the very same view as
 * an output it lists in `aliases` (each invocation reads its element whole before writing it).
 */
function checkOverlap(method: string, args: (ArrayArg & { array: GpuArray })[]): void {
  for (let i = 0; i < args.length; i++) {
    for (let j = i + 1; j < args.length; j++) {
      const a = args[i];
      const b = args[j];
      if (!a.output && !b.output) continue;
      if (!sharesFloats(a.array, b.array)) continue;
      const [input, output] = a.output ? [b, a] : [a, b];
      const allowed = input.aliases ?? [];
      if (!input.output && identical(a.array, b.array) && allowed.includes(output.name)) continue;
      throw new RangeError(
        `${method}: ${a.name} and ${b.name} overlap in GPU memory; ` +
          (a.output && b.output
            ? 'outputs must be distinct floats'
            : allowed.length === 0
              ? `${input.name} must not share floats with an output`
              : `${input.name} may only be the very same array as ${allowed.join(' or ')}`),
      );
    }
  }
}
