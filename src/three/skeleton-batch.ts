/**
 * Batched forward kinematics and skinning matrices for three.js SkinnedMeshes that share one
 * skeleton layout (a crowd): what `scene.updateMatrixWorld()` (every bone's matrix and matrixWorld)
 * and the renderer's `skeleton.update()` (boneMatrices = matrixWorld · boneInverses) do bone by
 * bone, in one kernel call (assembly/kernels/skeleton.ts; reference src/reference/skeleton.ts).
 *
 * The bones' local transforms come from a pose source (./pose-source.ts): the bones' objects, a
 * MixerBatch's buffers or an InertializedMixerGroup's output, both in solver memory.
 *
 * While attached, each skeleton's `boneMatrices` (and its bone texture's data) is a view into
 * solver memory that update() writes in place, and `skeleton.update` does nothing more than three's
 * upload flag. The bones are off three's traversal: each root bone's `updateMatrixWorld` (what the
 * renderer's `scene.updateMatrixWorld()` calls) visits no bone, only the objects attached under the
 * bones (a sword in a hand), after computing the world matrices of the bones they hang from as
 * three would (Matrix4.compose of the source's transform, then multiplyMatrices with the parent's
 * matrixWorld, in float64); every bone's `updateWorldMatrix` (getWorldPosition and the like) and a
 * direct `updateMatrixWorld` call compute that bone the same way. No flag of the bones changes, so
 * a clone (SkeletonUtils.clone, which copies flags but not own functions) is a plain three
 * character. dispose() gives all of it back.
 */
import { Quaternion, Vector3, type Bone, type DataTexture, type Object3D, type Skeleton, type SkinnedMesh } from 'three';
import type { Solver, SolverBase } from '../api/solver.js';
import { float64Array, forwardKinematicsCall, int32View } from '../api/skeleton-kernel.js';
import { describe } from '../core/validate.js';
import { checkArgumentCount, checkFree, checkOptions, checkSolver, hold, objectName, release } from './checks.js';
import { OwnedArrays } from '../stateful/owned-arrays.js';
import type { SkeletonArrays } from '../reference/skeleton.js';
import { RootChains } from './root-chains.js';
import type { InertializedMixerGroup } from './inertialized-mixer.js';
import type { MixerBatch } from './mixer-batch.js';
import { POSE_SOURCE, objectsPose, poseSourceOf, type PoseReader, type PoseRequest } from './pose-source.js';

/**
 * Where a {@link SkeletonBatch} reads the bones from, and whether it writes their matrixWorld.
 * @group Skeletons
 */
export interface SkeletonBatchOptions {
  /**
   * Where the bones' local transforms come from each update: `'objects'` (default) reads every
   * bone's position, quaternion and scale, as the mixers left them; a {@link MixerBatch} or an
   * {@link InertializedMixerGroup} (its mixer m animating mesh m) is read in solver memory
   * directly, and it stops writing the bones' position, quaternion and scale (until this
   * SkeletonBatch is disposed): mixer → (inertialization →) skinning matrices never goes through
   * per-bone objects. Bones the source does not animate keep the transform they had at
   * construction (or at `refresh()`).
   */
  source?: 'objects' | MixerBatch | InertializedMixerGroup;
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
  /** The source's reader: the arrays the kernel reads, brought up to date at each update. */
  private readonly reader: PoseReader | null = null;
  /** The bones' own objects are the source: a bone's world matrix between updates is composed from them, as three's. */
  private readonly objectsSource: boolean;
  /** The matrices the root bones hang from. */
  private readonly chains: RootChains;
  /** The kernel's arrays (their root-chain fields rewritten by chains.read). */
  private readonly arrays: SkeletonArrays;
  private readonly world: Float32Array | null;
  private readonly run: (count: number) => void;
  private readonly attached: Attached[] = [];
  /**
   * Each skeleton's bone texture (over the batch's view, made at attach if it had none), flagged for
   * upload at each update: a list of its own, which the update reads without each skeleton's object.
   */
  private readonly textures: DataTexture[] = [];
  /** The transforms of the bones the source does not give (meshes[0]'s, at construction or refresh). */
  private readonly rest: Rest;
  /** With a source that does not give every bone: its slot of each bone (−1: not animated), and whether it gives no scale. */
  private readonly fixed: { slots: readonly number[]; restScales: boolean } | null = null;
  /** Each bone's place: m · bones + its processing index k. */
  private readonly where = new Map<Object3D, number>();
  /** Per mesh, its bones as three's traversal meets them and the objects attached under them. */
  private readonly rigs: Rig[] = [];
  private disposed = false;

  /**
   * Takes over the bone updates of `meshes` (SkinnedMeshes whose skeletons have the same bones,
   * parents and inverse bind matrices, e.g. clones of one character) until dispose().
   * @example
   * ```ts
   * import type { AnimationMixer, SkinnedMesh } from 'three';
   * import { createSolver } from 'spring-solver';
   * import { InertializedMixerGroup, MixerBatch, SkeletonBatch } from 'spring-solver/three';
   * declare const meshes: SkinnedMesh[];
   * declare const mixers: AnimationMixer[]; // mixer m animates mesh m
   * const solver = await createSolver();
   * const sampler = new MixerBatch(solver, mixers); // every mixer.update(dt) in one kernel call
   * const group = new InertializedMixerGroup(solver, sampler, { halflife: 0.1 }); // halflife in s
   * // the bones straight from the group's output in solver memory (or { source: sampler }: the batch's buffers),
   * // and each bone's matrixWorld too
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
    const poseSource = source === 'objects' ? null : poseSourceOf(source);
    if (source !== 'objects' && poseSource === null)
      throw new TypeError(
        `${method}: options.source must be 'objects', a MixerBatch or an InertializedMixerGroup, got ${describe(source)}`,
      );
    if (typeof boneWorld !== 'boolean')
      throw new TypeError(`${method}: options.boneWorldMatrices must be a boolean, got ${describe(boneWorld)}`);
    checkMeshes(method, meshes);
    const layout = readLayout(method, meshes);
    this.meshes = [...meshes];
    this.bones = layout.order.length;
    this.solver = base;
    this.ordered = meshes.map((mesh) => layout.order.map((i) => mesh.skeleton.bones[i]!));
    this.ordered.forEach((list, m) => list.forEach((bone, k) => this.where.set(bone, m * this.bones + k)));
    const count = meshes.length;
    const bones = this.bones;
    const side = textureSide(bones);
    const skinStride = side * side * 4;
    this.owned = new OwnedArrays(base);
    const alloc = (length: number): Float32Array => this.owned.alloc(length);
    try {
      const ints = (values: readonly number[]): Int32Array => {
        const view = int32View(alloc(values.length));
        view.set(values);
        return view;
      };
      const rest = restTransforms(this.ordered[0]!, alloc);
      this.rest = rest;
      const request: PoseRequest = {
        method,
        name: 'options.source',
        solver: base,
        meshes: this.meshes,
        bones: this.ordered,
        alloc,
        boneName: (m, bone) => boneName(this.meshes, m, bone),
      };
      this.objectsSource = poseSource === null;
      this.reader = poseSource === null ? objectsPose(request) : poseSource[POSE_SOURCE](request);
      const { positions, rotations, scales, stride, slots } = this.reader;
      if (scales === null || slots.some((slot) => slot < 0)) {
        checkRest(method, this.meshes, this.ordered, slots, scales === null);
        this.fixed = { slots, restScales: scales === null };
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
      meshes.forEach((mesh, m) => this.attach(mesh, m, skin.subarray(m * skinStride, (m + 1) * skinStride), side));
    } catch (error) {
      this.detach();
      this.reader?.close();
      this.owned.release();
      throw error;
    }
    hold(
      this.attached.map((a) => a.skeleton),
      'attached to a SkeletonBatch',
    );
    hold(this.ordered.flat(), 'attached to a SkeletonBatch');
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
    this.reader!.read(method);
    this.chains.read(method, this.arrays);
    this.run(this.meshes.length);
    for (const texture of this.textures) texture.needsUpdate = true;
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
    this.reader!.refresh?.(method);
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
    // the source writes the bones again (the current pose first), then three's own updates are back
    this.reader!.close();
    this.detach();
    this.owned.release();
  }

  private attach(mesh: SkinnedMesh, m: number, view: Float32Array, side: number): void {
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
    this.textures.push(skeleton.boneTexture!);
    skeleton.update = markForUpload;
    const rig = newRig(this.ordered[m]!);
    this.rigs.push(rig);
    const functions = this.boneFunctions;
    for (const bone of skeleton.bones) {
      bone.updateMatrixWorld = functions.boneMatrixWorld;
      bone.updateWorldMatrix = functions.worldMatrix;
    }
    // a root's own function knows its rig (no lookup of the bone, which costs a cache miss a character)
    rig.walks = rig.roots.map((_, r) => () => this.updateAttached(rig, r));
    showWalks(rig);
  }

  private detach(): void {
    for (const rig of this.rigs) unwatch(rig);
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
    this.textures.length = 0;
    this.rigs.length = 0;
  }

  /**
   * The bones' matrix functions while attached (one set per batch, shared by its bones), three's
   * Object3D.updateMatrixWorld and updateWorldMatrix with the bone's local transform read from the
   * source (what the kernel read at the last update). A root bone's updateMatrixWorld, which the
   * renderer's scene.updateMatrixWorld() calls, is its own (attach): it computes only the bones that
   * objects hang from and updates those objects (docs/DECISIONS.md, "Bones off three's traversal").
   */
  private readonly boneFunctions = (() => {
    const batch = this;
    return {
      boneMatrixWorld(this: Bone): void {
        // three's: its matrices (matrixAutoUpdate: always recomputed), then its children, forced
        batch.sync('Bone.updateMatrixWorld (in a SkeletonBatch)');
        batch.composeBone(this);
        const children = this.children;
        for (let i = 0, l = children.length; i < l; i++) children[i]!.updateMatrixWorld(true);
      },
      worldMatrix(this: Bone, updateParents?: boolean, updateChildren?: boolean): void {
        if (updateParents === true && this.parent !== null) this.parent.updateWorldMatrix(true, false);
        batch.sync('Bone.updateWorldMatrix (in a SkeletonBatch)');
        batch.composeBone(this);
        if (updateChildren !== true) return;
        const children = this.children;
        for (let i = 0, l = children.length; i < l; i++) children[i]!.updateWorldMatrix(false, true, true);
      },
    };
  })();

  /** Scratch of composeBone. */
  private readonly local = { position: new Vector3(), quaternion: new Quaternion(), scale: new Vector3() };

  /**
   * Before a bone's world matrix is computed between updates (getWorldPosition, an object attached
   * under it, the renderer's traversal): the source's arrays brought up to date if the source
   * changed since the last read (a MixerBatch updated or set in time after its last read: three's
   * bone holds that pose at once).
   */
  private sync(method: string): void {
    this.reader!.sync?.(method);
  }

  /**
   * Bone's matrix and matrixWorld as three's updateMatrix and updateMatrixWorld compute them
   * (Matrix4.compose, then multiplyMatrices with its parent's matrixWorld, or a copy without a
   * parent), from its transform as three's bone would hold it now: the bone's own position,
   * quaternion and scale with the objects source (the arrays hold them as of the last update only),
   * else the source's arrays (call sync first).
   */
  private composeBone(bone: Bone): void {
    if (this.objectsSource) {
      bone.matrix.compose(bone.position, bone.quaternion, bone.scale);
      if (bone.parent === null) bone.matrixWorld.copy(bone.matrix);
      else bone.matrixWorld.multiplyMatrices(bone.parent.matrixWorld, bone.matrix);
      bone.matrixWorldNeedsUpdate = false;
      return;
    }
    const i = this.where.get(bone)!;
    const k = i % this.bones,
      m = (i - k) / this.bones;
    const a = this.arrays;
    const slot = a.slots[k]!;
    const e = m * a.sourceStride + slot;
    const { position, quaternion, scale } = this.local;
    if (slot >= 0) {
      position.fromArray(a.positions, 3 * e);
      quaternion.fromArray(a.rotations, 4 * e);
    } else {
      position.fromArray(a.restPositions, 3 * k);
      quaternion.fromArray(a.restRotations, 4 * k);
    }
    if (a.scales !== null && slot >= 0) scale.fromArray(a.scales, 3 * e);
    else scale.fromArray(a.restScales, 3 * k);
    bone.matrix.compose(position, quaternion, scale);
    if (bone.parent === null) bone.matrixWorld.copy(bone.matrix);
    else bone.matrixWorld.multiplyMatrices(bone.parent.matrixWorld, bone.matrix);
    bone.matrixWorldNeedsUpdate = false;
  }

  /**
   * A root bone's part of the renderer's traversal: the objects attached under its bones (found
   * again when a bone's children changed), each after the bones it hangs from, forced as three
   * forces the children of a bone (whose matrix it always recomputes).
   */
  private updateAttached(rig: Rig, r: number): void {
    if (rigChanged(rig)) {
      findAttached(rig);
      showWalks(rig);
    }
    const path = rig.paths[r]!;
    if (path.length > 0) this.sync('Bone.updateMatrixWorld (in a SkeletonBatch)');
    for (let j = 0; j < path.length; j++) this.composeBone(path[j]!);
    const attached = rig.attached[r]!;
    for (let j = 0; j < attached.length; j++) attached[j]!.updateMatrixWorld(true);
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

/** One mesh's bones as three's traversal meets them: its root bones, and under each the objects attached to its bones. */
interface Rig {
  /** The mesh's bones, processing order. */
  bones: readonly Bone[];
  /** Set by the bones' `childadded` and `childremoved` events (the listener) since findAttached. */
  changed: boolean;
  listener: () => void;
  roots: Bone[];
  /** Per root: the objects attached under its bones (children of a bone that are not bones of the skeleton), and the bone each hangs from. */
  attached: Object3D[][];
  parents: Object3D[][];
  /** Per root: the bones the attached objects hang from and their ancestors, parents first. */
  paths: Bone[][];
  /** Per root: its updateMatrixWorld while objects hang under its bones or a bone's children changed (updateAttached). */
  walks: (() => void)[];
}

function newRig(bones: readonly Bone[]): Rig {
  const set = new Set<Object3D>(bones);
  const roots = bones.filter((bone) => !set.has(bone.parent as Object3D));
  const rig: Rig = { bones, changed: false, listener: () => {}, roots, attached: [], parents: [], paths: [], walks: [] };
  rig.listener = () => {
    rig.changed = true;
    showWalks(rig);
  };
  // three's add, attach, remove, removeFromParent and clear fire these on the parent (docs/DECISIONS.md, "Bones off three's traversal")
  for (const bone of bones) {
    bone.addEventListener('childadded', rig.listener);
    bone.addEventListener('childremoved', rig.listener);
  }
  findAttached(rig);
  return rig;
}

/** The rig's bones no longer tell it of their children. */
function unwatch(rig: Rig): void {
  for (const bone of rig.bones) {
    bone.removeEventListener('childadded', rig.listener);
    bone.removeEventListener('childremoved', rig.listener);
  }
}

/**
 * Each root's function in the renderer's traversal: its walk (updateAttached) where objects hang
 * under its bones or the rig changed, else one shared function that does nothing. A crowd's rigs
 * mostly have nothing attached, and a call that reads no rig spares each character the cache misses
 * of its rig's arrays (docs/DECISIONS.md, "Bones off three's traversal"); a child added under any
 * bone flags the rig and puts every root's walk back.
 */
function showWalks(rig: Rig): void {
  for (let r = 0; r < rig.roots.length; r++) {
    const walk = rig.walks[r];
    if (walk !== undefined) rig.roots[r]!.updateMatrixWorld = rig.changed || rig.attached[r]!.length > 0 ? walk : nothingAttached;
  }
}

/** A root bone's part of the renderer's traversal when nothing hangs under its rig's bones: none (the bones are off the walk). */
function nothingAttached(): void {}

/** Whether a bone's children changed since findAttached (an object attached or removed). */
function rigChanged(rig: Rig): boolean {
  if (rig.changed) return true;
  for (let r = 0; r < rig.attached.length; r++) {
    const attached = rig.attached[r]!,
      parents = rig.parents[r]!;
    for (let j = 0; j < attached.length; j++) if (attached[j]!.parent !== parents[j]) return true;
  }
  return false;
}

/** The objects attached under each root's bones, in three's traversal order, and the bones to compute first. */
function findAttached(rig: Rig): void {
  const set = new Set<Object3D>(rig.bones);
  rig.changed = false;
  rig.attached = [];
  rig.parents = [];
  rig.paths = [];
  for (const root of rig.roots) {
    const attached: Object3D[] = [],
      parents: Object3D[] = [];
    const needed = new Set<Object3D>();
    const visit = (bone: Object3D): void => {
      for (const child of bone.children) {
        if (set.has(child)) {
          visit(child);
          continue;
        }
        attached.push(child);
        parents.push(bone);
        for (let o: Object3D | null = bone; o !== null && set.has(o); o = o.parent) needed.add(o);
      }
    };
    visit(root);
    rig.attached.push(attached);
    rig.parents.push(parents);
    // processing order is parents first
    rig.paths.push(rig.bones.filter((bone) => needed.has(bone)) as Bone[]);
  }
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

/** Bones the source does not animate (and every scale, when it animates none) read meshes[0]'s values: the others must equal them. */
function checkRest(method: string, meshes: readonly SkinnedMesh[], ordered: Bone[][], slots: readonly number[], restScales: boolean): void {
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
