/**
 * An InstancedMesh on three.js's WebGPURenderer whose instances spring toward goals on the GPU:
 * the instance matrices live in a StorageInstancedBufferAttribute, and each update springs their
 * translations in the very GPUBuffer three draws from (GpuSolver.wrap, floats 12…14 of each 16),
 * and, with the options, the rotations (critical quaternion spring) and scales in GPU arrays of
 * their own, then writes the matrices' rotation·scale columns from them (T·R·S, as
 * Matrix4.compose), so that nothing about the instance transforms is uploaded per frame. The GPU
 * twin of InstancedSprings (spring-solver/three), step for step: the same springs, in the same
 * order, from the same goals. How three's buffer is reached: docs/DECISIONS.md, "WebGPU and
 * three.js".
 */
import { StaticDrawUsage, type InstancedMesh } from 'three';
import { StorageInstancedBufferAttribute, type WebGPURenderer } from 'three/webgpu';
import { type GpuArray, GpuSolver } from '../webgpu/index.js';
import type { GpuBufferLike } from '../backends/webgpu/gpu-types.js';
import { checkArgumentCount, checkOptions, describe } from '../core/validate.js';
import { checkDt } from '../core/dt.js';
import { checkFree, checkHalflife, checkInstanceOptions, hold, release } from '../three/checks.js';
import { decompose } from '../three/instanced-springs.js';

/**
 * Options of {@link GpuInstancedSprings}.
 * @group WebGPU
 */
export interface GpuInstancedSpringsOptions {
  /** Seconds for half the distance to the goal to be covered (critical springs). Default 0.25. */
  halflife?: number;
  /**
   * Also spring each instance's rotation (critical quaternion spring, angular velocity in rad/s)
   * toward its rotation goal. The matrices are then written T·R·S from the sprung rotations and
   * scales at every update, so a shear in the initial matrices is lost. Default false.
   */
  rotation?: boolean;
  /** Also spring each instance's scale toward its scale goal (written as with `rotation`). Default false. */
  scale?: boolean;
}

/**
 * Goals for {@link GpuInstancedSprings.setGoals}: for the instances from `first` on, 3 floats an
 * instance for positions and scales, 4 (x, y, z, w, unit length) for rotations. Each is optional.
 * @group WebGPU
 */
export interface InstanceGoals {
  /** Goal translations, 3 floats an instance. */
  positions?: Float32Array;
  /** Goal rotations (unit quaternions x, y, z, w), 4 floats an instance; needs the `rotation` option. */
  rotations?: Float32Array;
  /** Goal scales, 3 floats an instance; needs the `scale` option. */
  scales?: Float32Array;
}

const MATRIX = 16;
const TRANSLATION = 12;
/** Floats per instance of each goal. */
const WIDTH = { positions: 3, rotations: 4, scales: 3 } as const;

/** Three's WebGPU backend: its device, and its per-object data, where the GPUBuffer of an attribute is. */
interface WebGpuBackendLike {
  isWebGPUBackend?: boolean;
  device?: unknown;
  get(object: object): { buffer?: GpuBufferLike };
}

/** three's AttributeType.STORAGE (src/renderers/common/Constants.js), which three/webgpu does not export. */
const STORAGE_ATTRIBUTE = 3;

/**
 * `mesh`'s instances spring toward goals on the GPU, drawn by `renderer` from the buffer the
 * springs write: positions (critical spring), and with the options rotations (critical quaternion
 * spring) and scales. Set goals once with {@link GpuInstancedSprings.setGoals} (one upload), then
 * call {@link GpuInstancedSprings.update} every frame: it dispatches compute passes and uploads
 * nothing. The renderer must be initialized, run on WebGPU and share the solver's device:
 * `createGpuSolverFor(renderer)` gives such a solver (or `new WebGPURenderer({ device: gpu.device })`).
 *
 * The mesh's `instanceMatrix` becomes a StorageInstancedBufferAttribute holding the current
 * matrices; its CPU array is not kept up to date (read the GPU's with {@link GpuInstancedSprings.read}),
 * so do not set its `needsUpdate` (three would upload the stale array over the springs' state), and
 * the mesh is no longer frustum-culled (three computes instance bounds from the CPU array). Dispose
 * the springs before the mesh or the renderer: those free the buffer the springs write.
 * @example
 * ```ts
 * import { BoxGeometry, InstancedMesh, MeshBasicNodeMaterial, WebGPURenderer } from 'three/webgpu';
 * import { GpuInstancedSprings, createGpuSolverFor } from 'spring-solver/three-webgpu';
 * const renderer = new WebGPURenderer();
 * const gpu = await createGpuSolverFor(renderer); // a GpuSolver on the renderer's GPUDevice
 * const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicNodeMaterial(), 1000);
 * const springs = new GpuInstancedSprings(gpu, renderer, mesh, { halflife: 0.3, rotation: true });
 * springs.setGoals({ positions: new Float32Array(3 * 1000).fill(5) }); // one upload
 * springs.update(1 / 60); // every frame, before renderer.render: nothing uploaded
 * ```
 * @group WebGPU
 */
export class GpuInstancedSprings {
  /** How many instances spring: `mesh.count` when constructed. */
  readonly count: number;
  /** The instance matrices three draws (16 floats an instance, column-major): its GPUBuffer, wrapped. */
  readonly matrices: GpuArray;
  /** The translations: floats 12…14 of each matrix (a view of {@link GpuInstancedSprings.matrices}). */
  readonly positions: GpuArray;
  /** Translation velocities (units/s), 3 floats an instance. */
  readonly velocities: GpuArray;
  /** Goal translations, 3 floats an instance; initially the current translations. */
  readonly goals: GpuArray;
  /** With `rotation` or `scale`: the rotations the matrices are written from (x, y, z, w); null otherwise. */
  readonly rotations: GpuArray | null;
  /** With `rotation`: goal rotations, 4 floats an instance, initially the current rotations; null otherwise. */
  readonly rotationGoals: GpuArray | null;
  /** With `rotation`: angular velocities (rad/s), 3 floats an instance; null otherwise. */
  readonly angularVelocities: GpuArray | null;
  /** With `rotation` or `scale`: the scales the matrices are written from, 3 floats an instance; null otherwise. */
  readonly scales: GpuArray | null;
  /** With `scale`: goal scales, initially the current scales; null otherwise. */
  readonly scaleGoals: GpuArray | null;
  /** With `scale`: scale velocities (1/s), 3 floats an instance; null otherwise. */
  readonly scaleVelocities: GpuArray | null;
  private h: number;
  private disposed = false;
  private readonly owned: GpuArray[] = [];

  /**
   * Moves `mesh`'s instance matrices (their current values) into a StorageInstancedBufferAttribute
   * that becomes `mesh.instanceMatrix`, has three create its GPUBuffer, and allocates the springs'
   * state on the GPU: velocities 0, goals the current translations (and rotations and scales).
   * @example
   * ```ts
   * import { BoxGeometry, InstancedMesh, MeshBasicNodeMaterial, WebGPURenderer } from 'three/webgpu';
   * import { GpuInstancedSprings, createGpuSolverFor } from 'spring-solver/three-webgpu';
   * const renderer = new WebGPURenderer();
   * const gpu = await createGpuSolverFor(renderer); // a GpuSolver on the renderer's GPUDevice
   * const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicNodeMaterial(), 100);
   * const springs = new GpuInstancedSprings(gpu, renderer, mesh, { halflife: 0.2, rotation: true, scale: true });
   * ```
   */
  constructor(
    readonly gpu: GpuSolver,
    readonly renderer: WebGPURenderer,
    readonly mesh: InstancedMesh,
    options: GpuInstancedSpringsOptions = {},
  ) {
    const method = 'GpuInstancedSprings';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['gpu', 'renderer', 'mesh', 'options']);
    if (!(gpu instanceof GpuSolver)) throw new TypeError(`${method}: gpu must be a GpuSolver from createGpuSolver, got ${describe(gpu)}`);
    gpu.checkLive(method);
    const backend = (renderer as unknown as { backend?: WebGpuBackendLike } | null)?.backend;
    if (typeof renderer !== 'object' || renderer === null || typeof backend?.get !== 'function') {
      throw new TypeError(`${method}: renderer must be a WebGPURenderer, got ${describe(renderer)}`);
    }
    if (backend.isWebGPUBackend !== true || backend.device == null) {
      throw new TypeError(
        `${method}: renderer must be initialized (await renderer.init(), or createGpuSolverFor(renderer)) and run on WebGPU; ${
          backend.isWebGPUBackend === true ? 'it has no device yet' : 'it fell back to WebGL'
        }`,
      );
    }
    if (backend.device !== gpu.device) {
      throw new TypeError(
        `${method}: renderer and gpu must share one GPUDevice: createGpuSolverFor(renderer), or new WebGPURenderer({ device: gpu.device })`,
      );
    }
    const array = mesh?.instanceMatrix?.array;
    if (!(array instanceof Float32Array) || (mesh as { isInstancedMesh?: boolean }).isInstancedMesh !== true) {
      throw new TypeError(`${method}: mesh must be an InstancedMesh, got ${describe(mesh)}`);
    }
    const { rotation, scale, halflife } = checkInstanceOptions(method, options);
    this.h = halflife;
    checkFree(method, 'mesh', mesh);
    const count = mesh.count;
    if (count < 1) throw new RangeError(`${method}: mesh.count is ${count}; it must be at least 1`);
    this.count = count;

    // The CPU side, once: the current matrices, their translations, rotations and scales.
    const matrices = array.slice(0, count * MATRIX);
    const translations = new Float32Array(3 * count);
    for (let i = 0; i < count; i++) translations.set(matrices.subarray(i * MATRIX + TRANSLATION, i * MATRIX + TRANSLATION + 3), 3 * i);
    const composed = rotation || scale;
    const q = composed ? new Float32Array(4 * count) : null;
    const s = composed ? new Float32Array(3 * count) : null;
    if (q && s) decompose(matrices, q, s, count);

    // three's buffer: a storage attribute (usage STORAGE, drawn through a storage binding), created
    // now as three's first render would (its attributes' update as a storage attribute: the
    // GPUBuffer, its memory in renderer.info, and freeing it on attribute.dispose())
    const attribute = new StorageInstancedBufferAttribute(matrices, MATRIX);
    attribute.setUsage(StaticDrawUsage); // DynamicDrawUsage would have three upload the CPU array every frame
    const attributes = (renderer as unknown as { _attributes?: { update(attribute: object, type: number): void } })._attributes;
    if (typeof attributes?.update !== 'function')
      throw new TypeError(`${method}: this three.js renderer keeps no attributes (three ≥ 0.187 needed)`);
    attributes.update(attribute, STORAGE_ATTRIBUTE);
    const buffer = backend.get(attribute).buffer;
    if (buffer === undefined) throw new TypeError(`${method}: three made no GPUBuffer for the instance matrices`);

    const alloc = (data: Float32Array) => {
      const a = gpu.alloc(data.length);
      this.owned.push(a);
      gpu.write(a, data);
      return a;
    };
    const zeros = (length: number) => {
      const a = gpu.alloc(length); // zeroed by WebGPU
      this.owned.push(a);
      return a;
    };
    try {
      this.matrices = gpu.wrap(buffer, { length: MATRIX * count });
      this.positions = gpu.wrap(buffer, { offset: TRANSLATION, length: 3 * count, itemSize: 3, stride: MATRIX });
      this.velocities = zeros(3 * count);
      this.goals = alloc(translations);
      this.rotations = q ? alloc(q) : null;
      this.scales = s ? alloc(s) : null;
      this.rotationGoals = rotation && q ? alloc(q) : null;
      this.angularVelocities = rotation ? zeros(3 * count) : null;
      this.scaleGoals = scale && s ? alloc(s) : null;
      this.scaleVelocities = scale ? zeros(3 * count) : null;
    } catch (error) {
      for (const a of this.owned) gpu.free(a);
      attribute.dispose();
      throw error;
    }
    mesh.instanceMatrix = attribute as never;
    mesh.frustumCulled = false;
    hold([mesh], 'attached to a GpuInstancedSprings');
  }

  /**
   * Seconds (≥ 0); may be changed between updates (translations, rotations and scales alike). A
   * value that is not a finite number ≥ 0 throws here, and the halflife stays as it was.
   * @example
   * ```ts
   * import type { GpuInstancedSprings } from 'spring-solver/three-webgpu';
   * declare const springs: GpuInstancedSprings;
   * springs.halflife = 0.5; // s, from the next update
   * ```
   */
  get halflife(): number {
    return this.h;
  }

  set halflife(value: number) {
    const method = 'GpuInstancedSprings.halflife';
    this.checkLive(method);
    this.h = checkHalflife(method, 'halflife', value);
  }

  /**
   * Uploads new goals for the instances from `first` on (one queue.writeBuffer per array given):
   * `positions` and `scales` 3 floats an instance, `rotations` 4. Every array is checked (a
   * Float32Array, whole instances, within the mesh, finite values) before anything is written.
   * @example
   * ```ts
   * import type { GpuInstancedSprings } from 'spring-solver/three-webgpu';
   * declare const springs: GpuInstancedSprings;
   * springs.setGoals({ positions: new Float32Array([10, 5, 10]) }, 42); // instance 42 heads for (10, 5, 10)
   * ```
   */
  setGoals(goals: InstanceGoals, first = 0): void {
    const method = 'GpuInstancedSprings.setGoals';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['goals', 'first']);
    this.checkLive(method);
    checkOptions(method, goals, ['positions', 'rotations', 'scales'], 'goals');
    if (typeof first !== 'number') throw new TypeError(`${method}: first must be a number, got ${describe(first)}`);
    if (!Number.isInteger(first) || first < 0 || first >= this.count) {
      throw new RangeError(`${method}: first is ${first}; it must be a whole number from 0 to ${this.count - 1} (the instances)`);
    }
    const targets = { positions: this.goals, rotations: this.rotationGoals, scales: this.scaleGoals };
    const writes: [GpuArray, Float32Array][] = [];
    for (const key of ['positions', 'rotations', 'scales'] as const) {
      const data = goals[key];
      if (data === undefined) continue;
      const name = `goals.${key}`;
      const target = targets[key];
      if (target === null) {
        throw new TypeError(`${method}: ${name} needs the ${key === 'rotations' ? 'rotation' : 'scale'} option of the constructor`);
      }
      if (!(data instanceof Float32Array)) throw new TypeError(`${method}: ${name} must be a Float32Array, got ${describe(data)}`);
      const width = WIDTH[key];
      if (data.length === 0 || data.length % width !== 0) {
        throw new RangeError(
          `${method}: ${name} has length ${data.length}; it must be a positive multiple of ${width} (floats per instance)`,
        );
      }
      if (first + data.length / width > this.count) {
        throw new RangeError(
          `${method}: ${name} holds ${data.length / width} instances from instance ${first}, past the mesh's ${this.count}`,
        );
      }
      for (let k = 0; k < data.length; k++) {
        if (!Number.isFinite(data[k])) throw new RangeError(`${method}: ${name}[${k}] is ${data[k]}; goals must be finite`);
      }
      writes.push([target, data]);
    }
    for (const [target, data] of writes) {
      const width = target.length / this.count;
      this.gpu.write(this.gpu.wrap(target.buffer, { offset: first * width, length: data.length }), data);
    }
  }

  /**
   * Steps every instance by dt (s) toward its goals on the GPU, as InstancedSprings.update does on
   * the CPU: the translations in three's buffer, then the rotations and scales, then the matrices'
   * rotation·scale columns from them. Recorded into the encoder set by `gpu.record(encoder)` (so
   * that the springs and the frame's render are one submission), otherwise submitted; call it
   * before `renderer.render`. Uploads nothing (each pass has a 176-byte uniform block, made mapped).
   * @example
   * ```ts
   * import type { GpuInstancedSprings } from 'spring-solver/three-webgpu';
   * declare const springs: GpuInstancedSprings;
   * springs.update(1 / 60); // dt 1/60 s; then renderer.render(scene, camera)
   * ```
   */
  update(dt: number): void {
    const method = 'GpuInstancedSprings.update';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['dt']);
    this.checkLive(method);
    checkDt(this.gpu, method, dt);
    const h = this.h;
    const gpu = this.gpu;
    gpu.simpleSpringDamper(this.positions, this.velocities, this.goals, h, dt);
    if (this.rotations !== null && this.scales !== null) {
      if (this.angularVelocities && this.rotationGoals)
        gpu.quatSimpleSpringDamper(this.rotations, this.angularVelocities, this.rotationGoals, h, dt);
      if (this.scaleVelocities && this.scaleGoals) gpu.simpleSpringDamper(this.scales, this.scaleVelocities, this.scaleGoals, h, dt);
      if (dt > 0) gpu.composeInstanceMatrices(this.matrices, this.rotations, this.scales, this.count);
    }
  }

  /**
   * The instance matrices as the GPU has them (16 floats an instance), read back: for tests and
   * debugging (a frame needs no read). Submit an encoder set by `gpu.record` first.
   * @example
   * ```ts
   * import type { GpuInstancedSprings } from 'spring-solver/three-webgpu';
   * declare const springs: GpuInstancedSprings;
   * const matrices = await springs.read(); // Float32Array, 16 floats an instance
   * ```
   */
  read(): Promise<Float32Array> {
    const method = 'GpuInstancedSprings.read';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, []);
    this.checkLive(method);
    return this.gpu.read(this.matrices);
  }

  /**
   * Frees the springs' GPU arrays; the mesh keeps its storage attribute, and three keeps drawing
   * the last matrices (its CPU array is not updated: read() them first to keep them on the CPU).
   * @example
   * ```ts
   * import type { GpuInstancedSprings } from 'spring-solver/three-webgpu';
   * declare const springs: GpuInstancedSprings;
   * springs.dispose();
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    release([this.mesh]);
    if (this.gpu.isDisposed()) return;
    for (const a of this.owned) this.gpu.free(a);
  }

  private checkLive(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this GpuInstancedSprings has been disposed`);
    this.gpu.checkLive(method);
  }
}
