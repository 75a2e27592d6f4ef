/**
 * Forward kinematics of `count` skeletons sharing one topology, as three.js computes a
 * SkinnedMesh's bones (Object3D.updateMatrixWorld, then Skeleton.update): local positions,
 * rotations and optional scales in, world matrices and skinning matrices (world · inverse bind)
 * out, column-major 4×4 like three's Matrix4.elements. One kernel call a frame
 * (assembly/kernels/skeleton.ts: float64, two characters per f64x2, bone by bone); float64 reference
 * src/reference/skeleton.ts.
 */
import { SolverBase, type Solver } from '../api/solver.js';
import { firstNonFinite, float64Array, forwardKinematicsCall, int32View } from '../api/skeleton-kernel.js';
import { checkCount, checkOptions, describe } from '../core/validate.js';
import { MAX_ALLOC_LENGTH } from '../core/limits.js';
import { OwnedArrays } from './owned-arrays.js';

/**
 * What {@link ForwardKinematics} computes: the skeleton's topology, its inverse bind matrices and
 * which arrays it keeps.
 * @group Skeletons
 */
export interface ForwardKinematicsOptions {
  /** Characters (a whole number ≥ 1). */
  count: number;
  /**
   * The parent of each bone: the index of a bone listed before it (parents first), or −1 for a
   * bone whose parent is the character's root matrix (`roots`). Its length is the bone count.
   */
  parents: ArrayLike<number>;
  /**
   * Inverse bind matrices (three's `Skeleton.boneInverses`), 16 numbers per bone, column-major, the
   * same for every character. Given: `skinningMatrices` is computed.
   */
  inverseBindMatrices?: ArrayLike<number>;
  /** true: per-character scales are read from `scales`; false (default): every scale is 1. */
  scales?: boolean;
  /** false: world matrices are not written (only skinning matrices; needs inverseBindMatrices). Default true. */
  worldMatrices?: boolean;
}

/** Largest skeleton: the kernel's scratch (48 floats a bone) must fit one alloc. */
const MAX_BONES = 65536;

/**
 * World and skinning matrices of `count` skeletons sharing one topology, in one kernel call: what
 * three's `updateMatrixWorld` and `Skeleton.update` compute bone by bone, bit for bit.
 * @example
 * ```ts
 * import { createSolver, ForwardKinematics } from 'spring-solver';
 * const solver = await createSolver();
 * // two characters of a three-bone chain (bone 0 the root, then its child, then its grandchild)
 * const fk = new ForwardKinematics(solver, { count: 2, parents: [-1, 0, 1] });
 * for (let i = 0; i < 6; i++) fk.rotations[4 * i + 3] = 1; // identity rotations (x, y, z, w)
 * fk.positions.set([0, 1, 0, 0, 0.5, 0, 0, 0.5, 0]); // character 0: each bone 0.5 above its parent
 * fk.update();
 * console.log(fk.worldMatrices![16 * 2 + 13]); // character 0's bone 2 is at y = 2
 * ```
 * @group Skeletons
 */
export class ForwardKinematics {
  readonly count: number;
  readonly bones: number;
  /** Local positions: bone b of character c at floats 3·(c·bones + b) … + 2. Solver memory, valid until dispose. */
  readonly positions: Float32Array;
  /** Local rotations (x, y, z, w; unit quaternions): bone b of character c at floats 4·(c·bones + b) … + 3. */
  readonly rotations: Float32Array;
  /** Local scales (3 floats a bone, like positions), or null when `options.scales` is false (every scale 1). */
  readonly scales: Float32Array | null;
  /**
   * Each character's root matrix (16 numbers, affine; identity at first): the parent of the bones
   * whose parent is −1, e.g. the matrixWorld of the object the skeleton hangs from. Float64, as
   * three's matrices, so that a character far from the origin loses nothing to rounding.
   */
  readonly roots: Float64Array;
  /** World matrices: bone b of character c at floats 16·(c·bones + b) … + 15; null when `options.worldMatrices` is false. */
  readonly worldMatrices: Float32Array | null;
  /** Skinning matrices (world · inverse bind), laid out like worldMatrices; null without `options.inverseBindMatrices`. */
  readonly skinningMatrices: Float32Array | null;
  private readonly solver: SolverBase;
  private readonly owned: OwnedArrays;
  private readonly run: (count: number) => void;
  private disposed = false;

  /**
   * Allocates the arrays for `options.count` characters of `options.parents.length` bones in the
   * solver's memory: identity rotations, unit scales, zero positions, identity roots.
   * @example
   * ```ts
   * import { createSolver, ForwardKinematics } from 'spring-solver';
   * const solver = await createSolver();
   * const inverseBindMatrices = new Float32Array(16 * 2);
   * for (const at of [0, 16]) for (let i = 0; i < 16; i += 5) inverseBindMatrices[at + i] = 1; // identities
   * const fk = new ForwardKinematics(solver, { count: 100, parents: [-1, 0], inverseBindMatrices, scales: true });
   * console.log(fk.skinningMatrices!.length); // 100 characters × 2 bones × 16
   * ```
   */
  constructor(solver: Solver, options: ForwardKinematicsOptions) {
    const method = 'ForwardKinematics';
    if (!(solver instanceof SolverBase))
      throw new TypeError(`${method}: solver must be a Solver from createSolver, got ${describe(solver)}`);
    solver.checkLive(method);
    checkOptions(method, options, ['count', 'parents', 'inverseBindMatrices', 'scales', 'worldMatrices']);
    const count = checkCount(method, 'options.count', options.count);
    const parents = checkParents(method, options.parents);
    const bones = parents.length;
    if (bones > MAX_BONES) throw new RangeError(`${method}: options.parents has ${bones} bones; at most ${MAX_BONES}`);
    if (16 * count * bones > MAX_ALLOC_LENGTH) {
      throw new RangeError(
        `${method}: options.count × bones is ${count} × ${bones}; it must be at most ${MAX_ALLOC_LENGTH / 16} (16 floats a matrix must fit one alloc)`,
      );
    }
    const inverseBind = options.inverseBindMatrices;
    if (inverseBind !== undefined) checkInverseBind(method, inverseBind, bones);
    const wantWorld = options.worldMatrices ?? true;
    if (typeof wantWorld !== 'boolean')
      throw new TypeError(`${method}: options.worldMatrices must be a boolean, got ${describe(wantWorld)}`);
    if (options.scales !== undefined && typeof options.scales !== 'boolean')
      throw new TypeError(`${method}: options.scales must be a boolean, got ${describe(options.scales)}`);
    if (!wantWorld && inverseBind === undefined)
      throw new RangeError(
        `${method}: options.worldMatrices is false and no options.inverseBindMatrices are given: nothing would be computed`,
      );
    this.count = count;
    this.bones = bones;
    this.solver = solver;
    this.owned = new OwnedArrays(solver);
    const alloc = (length: number): Float32Array => this.owned.alloc(length);
    try {
      const n = count * bones;
      this.positions = alloc(3 * n);
      this.rotations = alloc(4 * n);
      for (let i = 3; i < 4 * n; i += 4) this.rotations[i] = 1;
      this.scales = options.scales ? alloc(3 * n).fill(1) : null;
      this.roots = float64Array(alloc, 16 * count);
      for (let c = 0; c < count; c++) for (let i = 0; i < 16; i += 5) this.roots[16 * c + i] = 1;
      this.worldMatrices = wantWorld ? alloc(16 * n) : null;
      this.skinningMatrices = inverseBind !== undefined ? alloc(16 * n) : null;
      const identity = int32View(alloc(bones));
      identity.forEach((_, k) => (identity[k] = k));
      const parentsView = int32View(alloc(bones));
      parentsView.set(parents);
      const restScales = float64Array(alloc, 4 * bones).fill(1); // (also the unread rest positions and rotations)
      const bind = inverseBind !== undefined ? float64Array(alloc, 16 * bones) : null;
      bind?.set(inverseBind!);
      this.run = forwardKinematicsCall(
        solver,
        {
          parents: parentsView,
          slots: identity,
          targets: identity,
          positions: this.positions,
          rotations: this.rotations,
          scales: this.scales,
          sourceStride: bones,
          restPositions: restScales,
          restRotations: restScales,
          restScales,
          roots: this.roots,
          chain: null,
          levels: 0,
          parentless: false,
          inverseBind: bind,
          world: this.worldMatrices,
          worldStride: 16 * bones,
          skin: this.skinningMatrices,
          skinStride: 16 * bones,
        },
        bones,
        alloc,
      );
    } catch (error) {
      this.owned.release();
      throw error;
    }
  }

  /**
   * Computes every world matrix (world = parent's world · compose(position, rotation, scale), the
   * root bones' parent being the character's root matrix) and skinning matrix (world · inverse
   * bind). Throws a RangeError naming the array, character and bone, and writes nothing, when an
   * input is NaN or infinite or a root matrix is not affine.
   * @example
   * ```ts
   * import type { ForwardKinematics } from 'spring-solver';
   * declare const fk: ForwardKinematics;
   * declare const meshWorld: ArrayLike<number>; // e.g. three's mesh.matrixWorld.elements
   * fk.roots.set(meshWorld, 16 * 0); // character 0 placed where its mesh is
   * fk.update(); // every frame, after writing positions and rotations
   * ```
   */
  update(): void {
    const method = 'ForwardKinematics.update';
    this.checkUsable(method);
    const inputs: [string, Float32Array | null, number][] = [
      ['positions', this.positions, 3],
      ['rotations', this.rotations, 4],
      ['scales', this.scales, 3],
    ];
    for (const [name, array, width] of inputs) {
      const bad = array === null ? -1 : firstNonFinite(this.solver, array);
      if (bad >= 0) {
        const element = Math.floor(bad / width);
        throw new RangeError(
          `${method}: ${name}[${bad}] (character ${Math.floor(element / this.bones)}, bone ${element % this.bones}) is ${array![bad]}; it must be finite`,
        );
      }
    }
    checkRoots(method, 'roots', this.roots, firstNonFinite(this.solver, this.roots));
    this.run(this.count);
  }

  /**
   * Returns the arrays to the solver; they must not be used afterwards. Idempotent.
   * @example
   * ```ts
   * import type { ForwardKinematics } from 'spring-solver';
   * declare const fk: ForwardKinematics;
   * fk.dispose(); // its arrays go back to the solver
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.owned.release();
  }

  private checkUsable(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this ForwardKinematics has been disposed`);
    this.solver.checkLive(method);
  }
}

/** The parents as whole numbers, each −1 or the index of an earlier bone. */
function checkParents(method: string, parents: unknown): number[] {
  if (typeof parents !== 'object' || parents === null || typeof (parents as ArrayLike<number>).length !== 'number')
    throw new TypeError(`${method}: options.parents must be an array of bone indices, got ${describe(parents)}`);
  const list = Array.from(parents as ArrayLike<unknown>);
  if (list.length === 0) throw new RangeError(`${method}: options.parents is empty; a skeleton has at least one bone`);
  list.forEach((p, k) => {
    if (p !== -1 && !(Number.isInteger(p) && (p as number) >= 0 && (p as number) < k))
      throw new RangeError(
        `${method}: options.parents[${k}] is ${String(p)}; it must be −1 or the index of an earlier bone (parents first)`,
      );
  });
  return list as number[];
}

/** The inverse bind matrices: 16 finite numbers a bone (any last row: three's invert leaves 1 ± 1 ulp there). */
function checkInverseBind(method: string, matrices: unknown, bones: number): void {
  const name = 'options.inverseBindMatrices';
  if (typeof matrices !== 'object' || matrices === null || typeof (matrices as ArrayLike<number>).length !== 'number')
    throw new TypeError(`${method}: ${name} must be an array of 16 floats a bone, got ${describe(matrices)}`);
  const m = matrices as ArrayLike<number>;
  if (m.length !== 16 * bones) throw new RangeError(`${method}: ${name} has length ${m.length}; it must be 16 × bones = ${16 * bones}`);
  for (let i = 0; i < m.length; i++) {
    if (!Number.isFinite(m[i])) throw new RangeError(`${method}: ${name}[${i}] (bone ${Math.floor(i / 16)}) is ${m[i]}; it must be finite`);
  }
}

/**
 * Matrices (16 floats each) that must be finite (`bad`: the first non-finite index, or −1) and
 * affine (last row 0 0 0 1): the kernel writes that row as constants.
 */
export function checkRoots(method: string, name: string, m: ArrayLike<number>, bad: number): void {
  if (bad >= 0) throw new RangeError(`${method}: ${name}[${bad}] (matrix ${Math.floor(bad / 16)}) is ${m[bad]}; it must be finite`);
  for (let i = 0; i < m.length; i += 16) {
    if (m[i + 3] !== 0 || m[i + 7] !== 0 || m[i + 11] !== 0 || m[i + 15] !== 1) {
      throw new RangeError(
        `${method}: ${name} matrix ${i / 16} has last row ${[m[i + 3], m[i + 7], m[i + 11], m[i + 15]].join(' ')}; it must be affine (0 0 0 1)`,
      );
    }
  }
}
