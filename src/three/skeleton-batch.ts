/**
 * Batched forward kinematics and skinning matrices for three.js SkinnedMeshes that share one
 * skeleton layout (a crowd): what `scene.updateMatrixWorld()` (every bone's matrix and matrixWorld)
 * and the renderer's `skeleton.update()` (boneMatrices = matrixWorld · boneInverses) do bone by
 * bone, in one kernel call (assembly/kernels/skeleton.ts; reference src/reference/skeleton.ts).
 *
 * While attached, each skeleton's `boneMatrices` (and its bone texture's data) is a view into
 * solver memory that update() writes in place; the bones' own matrix updates are switched off
 * (each bone's `updateMatrixWorld` and `updateWorldMatrix` replaced by own ones that leave its
 * matrices, as three's do with matrixAutoUpdate and matrixWorldAutoUpdate false, and still visit its
 * children) and `skeleton.update` does nothing more than three's upload flag. No flag of the bones
 * changes, so a clone (SkeletonUtils.clone, which copies flags but not own functions) is a plain
 * three character. dispose() gives all of it back.
 */
import type { Bone, Object3D, Quaternion, Skeleton, SkinnedMesh, Vector3 } from 'three';
import type { Solver, SolverBase } from '../api/solver.js';
import { firstNonFinite, float64Array, forwardKinematicsCall, int32View } from '../api/skeleton-kernel.js';
import { describe } from '../core/validate.js';
import { checkArgumentCount, checkFree, checkOptions, checkSolver, hold, objectName, release } from './checks.js';
import { OwnedArrays } from '../stateful/owned-arrays.js';
import type { SkeletonArrays } from '../reference/skeleton.js';
import { RootChains } from './root-chains.js';
import { InertializedMixerGroup } from './inertialized-mixer.js';

/**
 * Where a {@link SkeletonBatch} reads the bones from, and whether it writes their matrixWorld.
 * @group Skeletons
 */
export interface SkeletonBatchOptions {
  /**
   * Where the bones' local transforms come from each update: `'objects'` (default) reads every
   * bone's position, quaternion and scale, as the mixers left them; an
   * {@link InertializedMixerGroup} (its mixer m animating mesh m) is read in solver memory
   * directly, and the group stops writing the bones: mixer → inertialization → skinning matrices
   * never goes through per-bone objects. Bones the group does not animate keep the transform they
   * had at construction (or at `refresh()`).
   */
  source?: 'objects' | InertializedMixerGroup;
  /**
   * true: update() also writes every bone's `matrixWorld` (for objects attached to bones, or
   * code that reads bone positions). Default false: the bones' matrixWorld is left as it was.
   */
  boneWorldMatrices?: boolean;
}

/** What attaching changed on one mesh, to give back at dispose. */
interface Attached {
  skeleton: Skeleton;
  boneMatrices: Float32Array | null;
}

/** How messages name bone i of meshes[m]: `meshes[4]'s bone "hip"`, or unnamed, its path (`meshes[3] > "Armature" > bone 7`). */
function boneName(meshes: readonly SkinnedMesh[], m: number, bone: Object3D, i = meshes[m]!.skeleton.bones.indexOf(bone as Bone)): string {
  return bone.name !== '' ? `meshes[${m}]'s bone ${JSON.stringify(bone.name)}` : objectName(`meshes[${m}]`, meshes[m]!, bone, `bone ${i}`);
}

/** A bone texture's side (three's Skeleton.computeBoneTexture): RGBA float pixels, 4 a matrix, a multiple of 4, ≥ 4. */
function textureSide(bones: number): number {
  return Math.max(4, Math.ceil(Math.sqrt(bones * 4) / 4) * 4);
}

/**
 * The bone matrices of a crowd of SkinnedMeshes sharing one skeleton layout, in one kernel call a
 * frame, bit-identical to three's `scene.updateMatrixWorld()` + `skeleton.update()`.
 * @example
 * ```ts
 * import type { AnimationMixer, SkinnedMesh } from 'three';
 * import { createSolver } from 'spring-solver';
 * import { SkeletonBatch } from 'spring-solver/three';
 * declare const meshes: SkinnedMesh[]; // clones of one character
 * declare const mixers: AnimationMixer[];
 * const solver = await createSolver();
 * const batch = new SkeletonBatch(solver, meshes);
 * for (const mixer of mixers) mixer.update(1 / 60); // each frame: pose the bones (dt in s),
 * batch.update(); // then every skeleton.boneMatrices at once, before renderer.render
 * ```
 * @group Skeletons
 */
export class SkeletonBatch {
  /** The meshes, in order: character c is meshes[c]. */
  readonly meshes: readonly SkinnedMesh[];
  /** Bones per skeleton. */
  readonly bones: number;
  private readonly solver: SolverBase;
  private readonly owned: OwnedArrays;
  /** Per mesh, the bones in processing order (parents first). */
  private readonly ordered: Bone[][];
  private readonly group: InertializedMixerGroup | null;
  /** Every bone's position, quaternion and scale, read each update into `gathered` (objects source only). */
  private readonly transforms: { positions: Vector3[]; quaternions: Quaternion[]; scales: Vector3[] };
  private readonly gathered: { positions: Float64Array; rotations: Float64Array; scales: Float64Array } | null = null;
  /** The matrices the root bones hang from. */
  private readonly chains: RootChains;
  /** The kernel's arrays (their root-chain fields rewritten by chains.read). */
  private readonly arrays: SkeletonArrays;
  private readonly world: Float32Array | null;
  private readonly run: (count: number) => void;
  private readonly attached: Attached[] = [];
  /** The transforms of the bones the source does not give (meshes[0]'s, at construction or refresh). */
  private readonly rest: Rest;
  /** With a group source: its slot of each bone (−1: not animated), and whether it animates no scale. */
  private readonly fixed: { slots: number[]; restScales: boolean } | null = null;
  private disposed = false;

  /**
   * Takes over the bone updates of `meshes` (SkinnedMeshes whose skeletons have the same bones,
   * parents and inverse bind matrices, e.g. clones of one character) until dispose().
   * @example
   * ```ts
   * import type { AnimationMixer, SkinnedMesh } from 'three';
   * import { createSolver } from 'spring-solver';
   * import { InertializedMixerGroup, SkeletonBatch } from 'spring-solver/three';
   * declare const meshes: SkinnedMesh[];
   * declare const mixers: AnimationMixer[]; // mixer m animates mesh m
   * const solver = await createSolver();
   * const group = new InertializedMixerGroup(solver, mixers, { halflife: 0.1 }); // halflife in s
   * // the bones straight from the group's output in solver memory, and each bone's matrixWorld too
   * const batch = new SkeletonBatch(solver, meshes, { source: group, boneWorldMatrices: true });
   * ```
   */
  constructor(solver: Solver, meshes: readonly SkinnedMesh[], options: SkeletonBatchOptions = {}) {
    const method = 'SkeletonBatch';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, ['solver', 'meshes', 'options']);
    const base = checkSolver(method, solver);
    if (!Array.isArray(meshes) || meshes.length === 0)
      throw new TypeError(`${method}: meshes must be a non-empty array of SkinnedMeshes, got ${describe(meshes)}`);
    const { source = 'objects', boneWorldMatrices: boneWorld = false } = checkOptions(method, options, ['source', 'boneWorldMatrices']);
    if (source !== 'objects' && !(source instanceof InertializedMixerGroup))
      throw new TypeError(`${method}: options.source must be 'objects' or an InertializedMixerGroup, got ${describe(source)}`);
    if (source instanceof InertializedMixerGroup) {
      source.checkUsable(`${method}: options.source`);
      if (!source.belongsTo(solver))
        throw new RangeError(
          `${method}: options.source is an InertializedMixerGroup of another solver; build it on the solver given to SkeletonBatch`,
        );
      checkFree(method, 'options.source', source);
    }
    if (typeof boneWorld !== 'boolean')
      throw new TypeError(`${method}: options.boneWorldMatrices must be a boolean, got ${describe(boneWorld)}`);
    checkMeshes(method, meshes);
    const layout = readLayout(method, meshes);
    this.meshes = [...meshes];
    this.bones = layout.order.length;
    this.solver = base;
    this.ordered = meshes.map((mesh) => layout.order.map((i) => mesh.skeleton.bones[i]!));
    const all = this.ordered.flat();
    this.transforms = { positions: all.map((b) => b.position), quaternions: all.map((b) => b.quaternion), scales: all.map((b) => b.scale) };
    this.group = source instanceof InertializedMixerGroup ? source : null;
    const count = meshes.length;
    const bones = this.bones;
    const side = textureSide(bones);
    const skinStride = side * side * 4;
    this.owned = new OwnedArrays(base);
    const alloc = (length: number): Float32Array => this.owned.alloc(length);
    try {
      const ints = (values: number[]): Int32Array => {
        const view = int32View(alloc(values.length));
        view.set(values);
        return view;
      };
      const rest = restTransforms(this.ordered[0]!, alloc);
      this.rest = rest;
      let positions: Float32Array | Float64Array, rotations: Float32Array | Float64Array, scales: Float32Array | Float64Array | null;
      let stride: number, slots: number[];
      if (this.group) {
        ({ positions, rotations, scales, stride, slots } = groupSource(method, this.group, meshes, this.ordered));
        checkRest(method, this.meshes, this.ordered, slots, scales === null);
        this.fixed = { slots, restScales: scales === null };
      } else {
        const n = count * bones;
        // float64, as three's bones hold them: a float32 copy would round each offset of the chain
        this.gathered = {
          positions: float64Array(alloc, 3 * n),
          rotations: float64Array(alloc, 4 * n),
          scales: float64Array(alloc, 3 * n),
        };
        ({ positions, rotations, scales } = this.gathered);
        stride = bones;
        slots = layout.order.map((_, k) => k);
      }
      this.chains = new RootChains(this.solver, this.owned, layout.rootParents, (m, object) =>
        objectName(`meshes[${m}]`, this.meshes[m]!, object),
      );
      this.world = boneWorld ? alloc(16 * bones * count) : null;
      const skin = alloc(skinStride * count);
      this.arrays = {
        parents: ints(layout.parents),
        slots: ints(slots),
        targets: ints(layout.order),
        positions,
        rotations,
        scales,
        sourceStride: stride,
        ...rest,
        roots: this.chains.roots,
        chain: null,
        levels: 0,
        parentless: false,
        inverseBind: layout.inverseBind(alloc),
        world: this.world,
        worldStride: 16 * bones,
        skin,
        skinStride,
      };
      this.run = forwardKinematicsCall(solver, this.arrays, bones, alloc);
      meshes.forEach((mesh, m) => this.attach(mesh, skin.subarray(m * skinStride, (m + 1) * skinStride), side));
    } catch (error) {
      this.detach();
      this.owned.release();
      throw error;
    }
    hold(
      this.attached.map((a) => a.skeleton),
      'attached to a SkeletonBatch',
    );
    hold(this.ordered.flat(), 'attached to a SkeletonBatch');
    if (this.group) {
      this.group.objectWrites = false;
      hold([this.group], 'read by a SkeletonBatch');
    }
  }

  /**
   * Computes every mesh's bone matrices: each bone's world matrix (its parent's · compose(position,
   * quaternion, scale), the root bones' parent being the object they hang from, whose matrixWorld
   * is brought up to date first) times its inverse bind matrix, written to `skeleton.boneMatrices`
   * (and the bone texture flagged for upload). Call it each frame after the mixers (or the
   * InertializedMixerGroup) have posed the bones, before rendering. A NaN or infinite transform
   * throws a RangeError naming the mesh and the bone, and nothing is written.
   * @example
   * ```ts
   * import type { InertializedMixerGroup, SkeletonBatch } from 'spring-solver/three';
   * declare const group: InertializedMixerGroup;
   * declare const batch: SkeletonBatch; // reading the group
   * group.update(1 / 60); // dt in s: the mixers and the inertialization
   * batch.update(); // then the bone matrices
   * ```
   */
  update(): void {
    const method = 'SkeletonBatch.update';
    // biome-ignore lint/complexity/noArguments: refuses a dt (update reads the bones as they stand; it takes no time step)
    checkArgumentCount(method, arguments.length, []);
    this.checkUsable(method);
    this.group?.checkUsable(`${method}: options.source`);
    if (this.gathered) this.gather(method, this.gathered);
    this.chains.read(method, this.arrays);
    this.run(this.meshes.length);
    for (const { skeleton } of this.attached) if (skeleton.boneTexture) skeleton.boneTexture.needsUpdate = true;
    if (this.world) this.writeBoneWorld(this.world);
  }

  /**
   * Reads again the transforms of the bones the group source does not animate (and their scales,
   * if it animates none), after changing them; every mesh must have the same values as meshes[0].
   * Nothing to do with the objects source, which reads every bone at every update.
   * @example
   * ```ts
   * import type { SkinnedMesh } from 'three';
   * import type { SkeletonBatch } from 'spring-solver/three';
   * declare const meshes: SkinnedMesh[];
   * declare const batch: SkeletonBatch; // reading a group that does not animate the jaw
   * for (const mesh of meshes) mesh.skeleton.getBoneByName('jaw')?.rotation.set(0.3, 0, 0);
   * batch.refresh(); // read the jaw again
   * ```
   */
  refresh(): void {
    const method = 'SkeletonBatch.refresh';
    // biome-ignore lint/complexity/noArguments: the count given, to refuse extra arguments (a rest parameter would widen the signature)
    checkArgumentCount(method, arguments.length, []);
    this.checkUsable(method);
    if (!this.fixed) return;
    checkRest(method, this.meshes, this.ordered, this.fixed.slots, this.fixed.restScales);
    readRest(this.ordered[0]!, this.rest);
  }

  /**
   * Gives the meshes back to three (their skeletons' own boneMatrices, a copy of the last values,
   * and the bones' own matrix updates) and the group its object writes; frees the solver memory.
   * Idempotent.
   * @example
   * ```ts
   * import type { SkeletonBatch } from 'spring-solver/three';
   * declare const batch: SkeletonBatch;
   * batch.dispose(); // three's renderer updates the bones itself again
   * ```
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    release(this.attached.map((a) => a.skeleton));
    release(this.ordered.flat());
    this.detach();
    if (this.group) release([this.group]);
    if (this.group && !this.solver.isDisposed()) this.group.objectWrites = true;
    this.owned.release();
  }

  private attach(mesh: SkinnedMesh, view: Float32Array, side: number): void {
    const skeleton = mesh.skeleton;
    this.attached.push({ skeleton, boneMatrices: skeleton.boneMatrices });
    view.set(skeleton.boneMatrices ?? []);
    skeleton.boneMatrices = view;
    if (skeleton.boneTexture) {
      if (skeleton.boneTexture.image.width !== side) throw new RangeError(`SkeletonBatch: a bone texture of an unexpected size`);
      skeleton.boneTexture.image.data = view;
    } else {
      // three's computeBoneTexture makes a texture over a copy; point it at the view instead
      skeleton.computeBoneTexture();
      skeleton.boneTexture!.image.data = view;
      skeleton.boneMatrices = view;
    }
    skeleton.update = markForUpload;
    for (const bone of skeleton.bones) {
      bone.updateMatrixWorld = keepMatrixWorld;
      bone.updateWorldMatrix = keepWorldMatrix;
    }
  }

  private detach(): void {
    for (const { skeleton } of this.attached) {
      const copy = skeleton.boneMatrices ? new Float32Array(skeleton.boneMatrices) : null;
      skeleton.boneMatrices = copy;
      if (skeleton.boneTexture && copy) skeleton.boneTexture.image.data = copy;
      delete (skeleton as Partial<Skeleton>).update;
      for (const bone of skeleton.bones) {
        delete (bone as Partial<Bone>).updateMatrixWorld;
        delete (bone as Partial<Bone>).updateWorldMatrix;
        bone.updateMatrix();
      }
    }
    this.attached.length = 0;
  }

  /** Every bone's position, quaternion and scale into solver memory, checked finite. */
  private gather(method: string, g: { positions: Float64Array; rotations: Float64Array; scales: Float64Array }): void {
    const { positions, quaternions, scales } = this.transforms;
    const { positions: x, rotations: q, scales: s } = g;
    // from flat lists of the bones' Vector3s and Quaternions, one pass (docs/DECISIONS.md, "Skeleton batches");
    // v − v is NaN for a NaN or infinite v: one sum says whether to look for it
    let check = 0;
    for (let i = 0; i < positions.length; i++) {
      const p = positions[i]!,
        r = quaternions[i]!,
        sc = scales[i]!;
      const px = p.x,
        py = p.y,
        pz = p.z,
        rx = r.x,
        ry = r.y,
        rz = r.z,
        rw = r.w,
        sx = sc.x,
        sy = sc.y,
        sz = sc.z;
      x[3 * i] = px;
      x[3 * i + 1] = py;
      x[3 * i + 2] = pz;
      q[4 * i] = rx;
      q[4 * i + 1] = ry;
      q[4 * i + 2] = rz;
      q[4 * i + 3] = rw;
      s[3 * i] = sx;
      s[3 * i + 1] = sy;
      s[3 * i + 2] = sz;
      check += px - px + (py - py) + (pz - pz) + (rx - rx) + (ry - ry) + (rz - rz) + (rw - rw) + (sx - sx) + (sy - sy) + (sz - sz);
    }
    if (check === 0) return;
    const fields: [string, Float64Array, number][] = [
      ['position', x, 3],
      ['quaternion', q, 4],
      ['scale', s, 3],
    ];
    for (const [name, array, width] of fields) {
      const bad = firstNonFinite(this.solver, array);
      if (bad < 0) continue;
      const element = Math.floor(bad / width);
      const m = Math.floor(element / this.bones);
      const bone = this.ordered[m]![element % this.bones]!;
      throw new RangeError(`${method}: ${boneName(this.meshes, m, bone)} has ${name} ${array[bad]}; it must be finite`);
    }
  }

  /** The world matrices (at each bone's index in its skeleton) into the bones' matrixWorld. */
  private writeBoneWorld(world: Float32Array): void {
    let i = 0;
    for (const mesh of this.meshes) {
      for (const bone of mesh.skeleton.bones) {
        const e = bone.matrixWorld.elements;
        for (let j = 0; j < 16; j++) e[j] = world[i + j]!;
        i += 16;
      }
    }
  }

  private checkUsable(method: string): void {
    if (this.disposed) throw new TypeError(`${method}: this SkeletonBatch has been disposed`);
    this.solver.checkLive(method);
  }
}

/**
 * bone.updateMatrixWorld while attached: three's Object3D.updateMatrixWorld with matrixAutoUpdate and
 * matrixWorldAutoUpdate false (the batch computes the bone's matrices): the bone's own matrices are
 * left as they are, and its children (objects attached to the bone) are brought up to date.
 */
function keepMatrixWorld(this: Object3D, force?: boolean): void {
  if (this.matrixWorldNeedsUpdate || force) {
    this.matrixWorldNeedsUpdate = false;
    force = true;
  }
  const children = this.children;
  for (let i = 0, l = children.length; i < l; i++) children[i]!.updateMatrixWorld(force);
}

/** bone.updateWorldMatrix while attached: three's Object3D.updateWorldMatrix with the same two flags false. */
function keepWorldMatrix(this: Object3D, updateParents?: boolean, updateChildren?: boolean, force = false): void {
  if (updateParents === true && this.parent !== null) this.parent.updateWorldMatrix(true, false);
  if (this.matrixWorldNeedsUpdate || force) {
    this.matrixWorldNeedsUpdate = false;
    force = true;
  }
  if (updateChildren !== true) return;
  const children = this.children;
  for (let i = 0, l = children.length; i < l; i++) children[i]!.updateWorldMatrix(false, true, force);
}

/** skeleton.update while attached: the matrices are already written; only the upload flag. */
function markForUpload(this: Skeleton): void {
  if (this.boneTexture) this.boneTexture.needsUpdate = true;
}

/**
 * SkinnedMeshes with a skeleton each, none listed twice, no skeleton or bone shared between them or
 * attached to another SkeletonBatch.
 */
function checkMeshes(method: string, meshes: readonly SkinnedMesh[]): void {
  const skeletons = new Map<Skeleton, number>();
  const bones = new Map<Object3D, number>();
  meshes.forEach((mesh, m) => {
    if (!(mesh as Partial<SkinnedMesh> | null)?.isSkinnedMesh || !mesh.skeleton)
      throw new TypeError(`${method}: meshes[${m}] must be a SkinnedMesh with a skeleton, got ${describe(mesh)}`);
    if (meshes.indexOf(mesh) !== m) throw new RangeError(`${method}: meshes[${m}] is also meshes[${meshes.indexOf(mesh)}]`);
    const skeleton = mesh.skeleton;
    const shared = skeletons.get(skeleton);
    if (shared !== undefined)
      throw new RangeError(
        `${method}: meshes[${m}]'s skeleton is also meshes[${shared}]'s; give one mesh per skeleton (the meshes bound to one skeleton share its boneMatrices)`,
      );
    skeletons.set(skeleton, m);
    checkFree(method, `meshes[${m}]'s skeleton`, skeleton);
    if (!Array.isArray(skeleton.bones)) throw new TypeError(`${method}: meshes[${m}]'s skeleton.bones must be an Array of Bones`);
    skeleton.bones.forEach((bone, i) => {
      if (!bone?.isBone && !(bone as Partial<Object3D> | undefined)?.isObject3D)
        throw new TypeError(`${method}: meshes[${m}]'s skeleton.bones[${i}] is not an Object3D`);
      const k = bones.get(bone);
      if (k !== undefined && k !== m)
        throw new RangeError(`${method}: ${boneName(meshes, m, bone, i)} is also a bone of meshes[${k}]'s skeleton`);
      bones.set(bone, m);
      checkFree(method, boneName(meshes, m, bone, i), bone);
    });
  });
}

/** The layout shared by every mesh: bones in processing order, their parents, the root parents, the inverse binds. */
function readLayout(method: string, meshes: readonly SkinnedMesh[]) {
  const first = meshes[0]!.skeleton;
  const n = first.bones.length;
  if (n === 0) throw new RangeError(`${method}: meshes[0]'s skeleton has no bones`);
  const parentIndex = (skeleton: Skeleton, m: number): number[] =>
    skeleton.bones.map((bone, i) => {
      if ((bone as { pivot?: unknown }).pivot != null)
        throw new RangeError(`${method}: ${boneName(meshes, m, bone, i)} has a pivot; SkeletonBatch does not support pivots`);
      return skeleton.bones.indexOf(bone.parent as Bone);
    });
  const parents0 = parentIndex(first, 0);
  const rootParents = meshes.map((mesh, m) => {
    const skeleton = mesh.skeleton;
    if (skeleton.bones.length !== n)
      throw new RangeError(
        `${method}: meshes[${m}]'s skeleton has ${skeleton.bones.length} bones, meshes[0]'s ${n}; they must share one layout`,
      );
    const parents = m === 0 ? parents0 : parentIndex(skeleton, m);
    let rootParent: Object3D | null | undefined;
    parents.forEach((p, i) => {
      if (p !== parents0[i])
        throw new RangeError(
          `${method}: ${boneName(meshes, m, skeleton.bones[i]!, i)} (bone ${i}) has another parent than in meshes[0]'s skeleton`,
        );
      if (p >= 0) return;
      const parent = skeleton.bones[i]!.parent;
      if (rootParent !== undefined && parent !== rootParent)
        throw new RangeError(
          `${method}: ${boneName(meshes, m, skeleton.bones[i]!, i)} hangs from ${parent ? objectName(`meshes[${m}]`, mesh, parent) : 'nothing'}, ` +
            'not a bone of the skeleton nor the object the other root bones hang from',
        );
      rootParent = parent;
    });
    for (let i = 0; i < n; i++) {
      const a = skeleton.boneInverses[i]?.elements,
        b = first.boneInverses[i]?.elements;
      if (!a || !b || a.some((v, j) => v !== b[j]))
        throw new RangeError(
          `${method}: meshes[${m}]'s inverse bind matrix of bone ${i} differs from meshes[0]'s; they must share one layout`,
        );
    }
    return rootParent ?? null;
  });
  // processing order: by depth (parents first), the skeleton's order within a depth
  const depth = (i: number): number => (parents0[i]! < 0 ? 0 : 1 + depth(parents0[i]!));
  const order = parents0.map((_, i) => i).sort((a, b) => depth(a) - depth(b) || a - b);
  const position = new Map(order.map((i, k) => [i, k]));
  const parents = order.map((i) => (parents0[i]! < 0 ? -1 : position.get(parents0[i]!)!));
  const inverseBind = (alloc: (length: number) => Float32Array): Float64Array => {
    const matrices = float64Array(alloc, 16 * n);
    order.forEach((i, k) => matrices.set(first.boneInverses[i]!.elements, 16 * k));
    const bad = matrices.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) throw new RangeError(`${method}: meshes[0]'s skeleton.boneInverses[${order[Math.floor(bad / 16)]}] is not finite`);
    return matrices;
  };
  return { order, parents, rootParents, inverseBind };
}

/** Bone k's transform at construction (meshes[0]'s bones, processing order): used where the source has none. */
type Rest = { restPositions: Float64Array; restRotations: Float64Array; restScales: Float64Array };

function restTransforms(bones: Bone[], alloc: (length: number) => Float32Array): Rest {
  const rest = {
    restPositions: float64Array(alloc, 3 * bones.length),
    restRotations: float64Array(alloc, 4 * bones.length),
    restScales: float64Array(alloc, 3 * bones.length),
  };
  readRest(bones, rest);
  return rest;
}

function readRest(bones: Bone[], { restPositions, restRotations, restScales }: Rest): void {
  bones.forEach((bone, k) => {
    bone.position.toArray(restPositions, 3 * k);
    bone.quaternion.toArray(restRotations, 4 * k);
    bone.scale.toArray(restScales, 3 * k);
  });
}

/** The group's output as the source: each bone's slot (the same for every mixer), or −1 for a bone the group does not animate. */
function groupSource(method: string, group: InertializedMixerGroup, meshes: readonly SkinnedMesh[], ordered: Bone[][]) {
  const pose = group.outputPose;
  if (pose.objects.length !== ordered.length)
    throw new RangeError(
      `${method}: options.source has ${pose.objects.length} mixers for ${ordered.length} meshes; mixer m must animate mesh m`,
    );
  // each mixer animates bones of its own mesh (or none), else the mixers are in another order than the meshes
  const owner = new Map<Object3D, number>();
  ordered.forEach((bones, m) => {
    for (const bone of bones) owner.set(bone, m);
  });
  pose.objects.forEach((objects, m) => {
    const other = objects.map((o) => owner.get(o)).find((k) => k !== undefined && k !== m);
    if (other !== undefined)
      throw new RangeError(
        `${method}: options.source's mixers[${m}] animates meshes[${other}]'s bones, not meshes[${m}]'s; mixer m must animate mesh m ` +
          '(give the group its mixers in the order of the meshes)',
      );
  });
  const slots = ordered[0]!.map((_, k) => {
    const slot = pose.objects[0]!.indexOf(ordered[0]![k]!);
    ordered.forEach((bones, m) => {
      if (pose.objects[m]!.indexOf(bones[k]!) !== slot)
        throw new RangeError(
          `${method}: options.source's mixers[${m}] animates ${boneName(meshes, m, bones[k]!)} at another place than mixers[0] does ` +
            "meshes[0]'s; the mixers must animate the same bones in the same order (clips of one skeleton)",
        );
    });
    return slot;
  });
  return { positions: pose.positions, rotations: pose.rotations, scales: pose.scales, stride: group.bones, slots };
}

/** Bones the group does not animate (and every scale, when it animates none) read meshes[0]'s values: the others must equal them. */
function checkRest(method: string, meshes: readonly SkinnedMesh[], ordered: Bone[][], slots: number[], restScales: boolean): void {
  const first = ordered[0]!;
  ordered.forEach((bones, m) => {
    bones.forEach((bone, k) => {
      const same = (name: 'position' | 'quaternion' | 'scale') => bone[name].equals(first[k]![name] as never);
      const fixed: ('position' | 'quaternion' | 'scale')[] =
        slots[k]! < 0 ? ['position', 'quaternion', 'scale'] : restScales ? ['scale'] : [];
      for (const name of fixed) {
        if (!same(name))
          throw new RangeError(
            `${method}: ${boneName(meshes, m, bone)} has another ${name} than meshes[0]'s, and options.source does not animate it`,
          );
      }
    });
  });
}
