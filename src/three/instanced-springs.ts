/**
 * An InstancedMesh whose instance matrices live in solver memory: `mesh.instanceMatrix.array`
 * is a Float32Array view from `solver.alloc`, and each update springs the translation column of
 * every matrix (floats 12…14 of 16) toward `goals`, in place, with no copy. Optionally the
 * rotations (quaternion springs) and scales too: the matrices are then recomposed T·R·S
 * (Matrix4.compose) from the sprung quaternions and scales at each update.
 */
import { InstancedBufferAttribute, Matrix4, Quaternion, Vector3, type InstancedMesh } from 'three';
import type { Solver, SolverBase } from '../api/solver.js';
import { describe } from '../core/validate.js';
import { checkDt } from '../core/dt.js';
import { instanceComposition, instanceTranslations } from '../api/instance-matrices.js';
import {
  checkArgumentCount,
  checkFree,
  checkHalflife,
  checkInstanceOptions,
  checkSolver,
  hold,
  holdSpan,
  release,
  releaseSpan,
  type Span,
} from './checks.js';

/**
 * @group Batched springs
 */
export interface InstancedSpringsOptions<R extends boolean = boolean, S extends boolean = boolean> {
  /** Seconds for half the distance to the goal to be covered (critical spring). Default 0.25. */
  halflife?: number;
  /**
   * Also spring each instance's rotation (a quaternion spring, angular velocity in rad/s) toward
   * `rotationGoals`. The matrices are then recomposed T·R·S from `rotations` and `scales` at every
   * update, so a shear in the initial matrices is lost. Default false.
   */
  rotation?: R;
  /** Also spring each instance's scale toward `scaleGoals` (recomposed as with `rotation`). Default false. */
  scale?: S;
}

/**
 * The type of an InstancedSprings array that exists with an option: Float32Array when the option is true, null when it is false (either when it is not known).
 * @group Batched springs
 */
export type ArrayIf<B extends boolean> = B extends true ? Float32Array : null;
/**
 * The same for the arrays that exist with either of two options (`rotations`, `scales`).
 * @group Batched springs
 */
export type ArrayIfEither<R extends boolean, S extends boolean> = R extends true ? Float32Array : ArrayIf<S>;

const MATRIX = 16;
const TRANSLATION = 12;

/**
 * `R` and `S` are the `rotation` and `scale` options as the constructor's argument gives them, so
 * that `new InstancedSprings(solver, mesh, { rotation: true }).rotationGoals` is typed Float32Array.
 * @example
 * ```ts
 * import { BoxGeometry, InstancedMesh, Matrix4, MeshNormalMaterial } from 'three';
 * import { createSolver } from 'spring-solver';
 * import { InstancedSprings } from 'spring-solver/three';
 * const solver = await createSolver();
 * const mesh = new InstancedMesh(new BoxGeometry(), new MeshNormalMaterial(), 100);
 * for (let i = 0; i < 100; i++) mesh.setMatrixAt(i, new Matrix4().makeTranslation(i, 0, 0));
 * const springs = new InstancedSprings(solver, mesh, { halflife: 0.3 }); // halflife in s
 * springs.goals.set([10, 5, 10], 42 * 3); // instance 42 heads for (10, 5, 10)
 * springs.update(1 / 60); // dt 1/60 s
 * ```
 * @group Batched springs
 */
export class InstancedSprings<R extends boolean = false, S extends boolean = false> {
  /** The instance matrices (16 floats each, column-major), in solver memory: `mesh.instanceMatrix.array`. */
  readonly matrices: Float32Array;
  /** Goal translations, 3 floats per instance; write them, then call update. Initially the current translations. */
  readonly goals: Float32Array;
  /** Translation velocities (units/s), 3 floats per instance. */
  readonly velocities: Float32Array;
  /**
   * With `rotation` or `scale`: the rotations the matrices are composed from (x, y, z, w, 4
   * floats per instance), initially decomposed from the matrices; null otherwise.
   */
  readonly rotations: ArrayIfEither<R, S>;
  /** With `rotation`: goal quaternions (4 floats per instance, unit length), initially the current rotations; null otherwise. */
  readonly rotationGoals: ArrayIf<R>;
  /** With `rotation`: angular velocities (rad/s, 3 floats per instance); null otherwise. */
  readonly angularVelocities: ArrayIf<R>;
  /** With `rotation` or `scale`: the scales the matrices are composed from (3 floats per instance); null otherwise. */
  readonly scales: ArrayIfEither<R, S>;
  /** With `scale`: goal scales (3 floats per instance), initially the current scales; null otherwise. */
  readonly scaleGoals: ArrayIf<S>;
  /** With `scale`: scale velocities (1/s, 3 floats per instance); null otherwise. */
  readonly scaleVelocities: ArrayIf<S>;
  private disposed = false;
  private readonly live: SolverBase;
  private h: number;
  private readonly owned: Float32Array[] = [];
  private readonly translate: (halflife: number, dt: number) => void;
  private readonly compose: (() => void) | null;
  /** The floats of solver memory the matrices take (no AttributeSprings may spring them too). */
  private readonly span: Span;

  /**
   * Moves `mesh`'s instance matrices into solver memory (their values are kept) and replaces
   * `mesh.instanceMatrix` by an attribute over them.
   * @example
   * ```ts
   * import { BoxGeometry, InstancedMesh, MeshNormalMaterial } from 'three';
   * import { createSolver } from 'spring-solver';
   * import { InstancedSprings } from 'spring-solver/three';
   * const solver = await createSolver();
   * const mesh = new InstancedMesh(new BoxGeometry(), new MeshNormalMaterial(), 100);
   * const springs = new InstancedSprings(solver, mesh, { halflife: 0.3, rotation: true, scale: true });
   * springs.rotationGoals.set([0, Math.SQRT1_2, 0, Math.SQRT1_2], 7 * 4); // instance 7 turns 90° about +Y
   * springs.scaleGoals.set([2, 2, 2], 7 * 3);
   * ```
   */
  constructor(
    private readonly solver: Solver,
    readonly mesh: InstancedMesh,
    options: InstancedSpringsOptions<R, S> = {},
  ) {
    const method = 'InstancedSprings';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['solver', 'mesh', 'options']);
    this.live = checkSolver(method, solver);
    const array = mesh?.instanceMatrix?.array;
    if (!(array instanceof Float32Array)) throw new TypeError(`${method}: mesh must be an InstancedMesh, got ${describe(mesh)}`);
    const { rotation, scale, halflife } = checkInstanceOptions(method, options);
    this.h = halflife;
    checkFree(method, 'mesh', mesh);
    const count = mesh.count;
    const alloc = (length: number) => {
      const a = solver.alloc(length);
      this.owned.push(a);
      return a;
    };
    try {
      this.matrices = alloc(count * MATRIX);
      this.goals = alloc(count * 3);
      this.velocities = alloc(count * 3);
      this.matrices.set(array.subarray(0, count * MATRIX));
      for (let i = 0; i < count; i++) this.goals.set(this.matrices.subarray(i * MATRIX + TRANSLATION, i * MATRIX + TRANSLATION + 3), i * 3);
      this.translate = instanceTranslations(solver, this.matrices, this.velocities, this.goals, count);
      const optional = (on: boolean, length: number): Float32Array | null => (on ? alloc(length) : null);
      const composed = rotation || scale;
      const q = optional(composed, count * 4),
        s = optional(composed, count * 3),
        qg = optional(rotation, count * 4),
        sg = optional(scale, count * 3);
      // the option types decide which of these are null (ArrayIf<R>, ArrayIf<S>)
      this.rotations = q as ArrayIfEither<R, S>;
      this.scales = s as ArrayIfEither<R, S>;
      this.rotationGoals = qg as ArrayIf<R>;
      this.angularVelocities = optional(rotation, count * 3) as ArrayIf<R>;
      this.scaleGoals = sg as ArrayIf<S>;
      this.scaleVelocities = optional(scale, count * 3) as ArrayIf<S>;
      if (q && s) {
        decompose(this.matrices, q, s, count);
        qg?.set(q);
        sg?.set(s);
        this.compose = instanceComposition(solver, this.matrices, q, s, count);
      } else {
        this.compose = null;
      }
    } catch (error) {
      for (const a of this.owned) solver.free(a);
      throw error;
    }
    const attribute = new InstancedBufferAttribute(this.matrices, MATRIX);
    attribute.setUsage(mesh.instanceMatrix.usage);
    mesh.instanceMatrix = attribute;
    hold([mesh], 'attached to an InstancedSprings');
    this.span = matricesSpan(this.matrices);
    holdSpan(this.matrices.buffer, this.span, 'the instance matrices of an InstancedSprings');
  }

  /**
   * Seconds (≥ 0); may be changed between updates (translations, rotations and scales alike). A
   * value that is not a finite number ≥ 0 throws here, and the halflife stays as it was.
   * @example
   * ```ts
   * import type { InstancedSprings } from 'spring-solver/three';
   * declare const springs: InstancedSprings;
   * springs.halflife = 0.5; // s, from the next update
   * ```
   */
  get halflife(): number {
    return this.h;
  }

  set halflife(value: number) {
    const method = 'InstancedSprings.halflife';
    if (this.disposed) throw new TypeError(`${method}: this InstancedSprings has been disposed`);
    this.h = checkHalflife(method, 'halflife', value);
  }

  /**
   * Steps every translation (and rotation and scale, if sprung) by dt (s) toward its goal; marks the matrices for upload.
   * @example
   * ```ts
   * import type { InstancedSprings } from 'spring-solver/three';
   * declare const springs: InstancedSprings;
   * springs.update(1 / 60); // dt 1/60 s; every frame: springs, then the matrices (marked for upload)
   * ```
   */
  update(dt: number): void {
    const method = 'InstancedSprings.update';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['dt']);
    if (this.disposed) throw new TypeError(`${method}: this InstancedSprings has been disposed`);
    this.live.checkLive(method);
    const halflife = this.h;
    checkDt(this.solver, method, dt);
    this.translate(halflife, dt);
    if (this.compose !== null) {
      const q = this.rotations as Float32Array,
        w: Float32Array | null = this.angularVelocities,
        qg: Float32Array | null = this.rotationGoals;
      const s = this.scales as Float32Array,
        sv: Float32Array | null = this.scaleVelocities,
        sg: Float32Array | null = this.scaleGoals;
      if (w && qg) this.solver.quatSimpleSpringDamper(q, w, qg, halflife, dt);
      if (sv && sg) this.solver.simpleSpringDamper(s, sv, sg, halflife, dt);
      this.compose();
    }
    this.mesh.instanceMatrix.needsUpdate = true;
  }

  /**
   * Gives the mesh a copy of its matrices outside solver memory and frees the solver arrays.
   * @example
   * ```ts
   * import type { InstancedSprings } from 'spring-solver/three';
   * declare const springs: InstancedSprings;
   * springs.dispose(); // frees its solver memory; the mesh keeps its last matrices
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    release([this.mesh]);
    releaseSpan(this.matrices.buffer, this.span);
    const copy = new InstancedBufferAttribute(this.matrices.slice(), MATRIX);
    copy.setUsage(this.mesh.instanceMatrix.usage);
    this.mesh.instanceMatrix = copy;
    if ((this.solver as { isDisposed?: () => boolean }).isDisposed?.()) return;
    for (const a of this.owned) this.solver.free(a);
  }
}

/** The floats of their buffer that `matrices` takes (the whole matrices: update may compose them). */
function matricesSpan(matrices: Float32Array): Span {
  const first = matrices.byteOffset / 4;
  return { first, end: first + matrices.length, stride: MATRIX, width: MATRIX };
}

/**
 * Rotations and scales of `count` matrices (Matrix4.decompose); a rotation that is not finite (a zero
 * scale) becomes the identity. Also GpuInstancedSprings' starting state. @internal
 */
export function decompose(matrices: Float32Array, q: Float32Array, s: Float32Array, count: number): void {
  const m = new Matrix4(),
    t = new Vector3(),
    r = new Quaternion(),
    k = new Vector3();
  for (let i = 0; i < count; i++) {
    m.fromArray(matrices, i * MATRIX).decompose(t, r, k);
    if (![r.x, r.y, r.z, r.w].every(Number.isFinite)) r.identity();
    r.toArray(q, 4 * i);
    k.toArray(s, 3 * i);
  }
}
