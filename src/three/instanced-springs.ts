/**
 * An InstancedMesh whose instance matrices live in solver memory: `mesh.instanceMatrix.array`
 * is a Float32Array view from `solver.alloc`, and each update springs the translation column of
 * every matrix (floats 12…14 of 16) toward `goals`, in place, with no copy (springStrided).
 */
import { InstancedBufferAttribute, type InstancedMesh } from 'three';
import type { Solver } from '../api/solver.js';
import { describe } from '../core/validate.js';
import { prepareSpringStrided, type StridedSpringParams } from '../api/strided.js';

export interface InstancedSpringsOptions {
  /** Seconds for half the distance to the goal to be covered (critical spring). Default 0.25. */
  halflife?: number;
}

const MATRIX = 16;
const TRANSLATION = 12;

export class InstancedSprings {
  /** The instance matrices (16 floats each, column-major), in solver memory: `mesh.instanceMatrix.array`. */
  readonly matrices: Float32Array;
  /** Goal translations, 3 floats per instance; write them, then call update. Initially the current translations. */
  readonly goals: Float32Array;
  /** Translation velocities (units/s), 3 floats per instance. */
  readonly velocities: Float32Array;
  /** Seconds; may be changed between updates. */
  halflife: number;
  private disposed = false;
  private readonly step: (params: StridedSpringParams, dt: number) => void;

  /**
   * Moves `mesh`'s instance matrices into solver memory (their values are kept) and replaces
   * `mesh.instanceMatrix` by an attribute over them.
   */
  constructor(
    private readonly solver: Solver,
    readonly mesh: InstancedMesh,
    options: InstancedSpringsOptions = {},
  ) {
    const array = mesh?.instanceMatrix?.array;
    if (!(array instanceof Float32Array)) throw new TypeError(`InstancedSprings: mesh must be an InstancedMesh, got ${describe(mesh)}`);
    this.halflife = options.halflife ?? 0.25;
    const count = mesh.count;
    this.matrices = solver.alloc(count * MATRIX);
    this.goals = solver.alloc(count * 3);
    this.velocities = solver.alloc(count * 3);
    this.matrices.set(array.subarray(0, count * MATRIX));
    for (let i = 0; i < count; i++) this.goals.set(this.matrices.subarray(i * MATRIX + TRANSLATION, i * MATRIX + TRANSLATION + 3), i * 3);
    const attribute = new InstancedBufferAttribute(this.matrices, MATRIX);
    attribute.setUsage(mesh.instanceMatrix.usage);
    mesh.instanceMatrix = attribute;
    this.step = prepareSpringStrided(solver, {
      x: { array: this.matrices, offset: TRANSLATION, stride: MATRIX },
      v: { array: this.velocities },
      g: { array: this.goals },
      width: 3,
      count,
    });
  }

  /** Steps every translation by dt (s) toward its goal; marks the matrices for upload. */
  update(dt: number): void {
    if (this.disposed) throw new TypeError('InstancedSprings.update: disposed');
    this.step({ halflife: this.halflife }, dt);
    this.mesh.instanceMatrix.needsUpdate = true;
  }

  /** Gives the mesh a copy of its matrices outside solver memory and frees the solver arrays. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const copy = new InstancedBufferAttribute(this.matrices.slice(), MATRIX);
    copy.setUsage(this.mesh.instanceMatrix.usage);
    this.mesh.instanceMatrix = copy;
    if ((this.solver as { isDisposed?: () => boolean }).isDisposed?.()) return;
    this.solver.free(this.matrices);
    this.solver.free(this.goals);
    this.solver.free(this.velocities);
  }
}
