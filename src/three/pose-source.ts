/**
 * Where a SkeletonBatch reads its bones' local transforms: one small interface (PoseSource) that the
 * three sources implement, instead of the batch knowing each class: the bones' own objects (here),
 * a MixerBatch's buffers in solver memory (./mixer-pose.ts) and an InertializedMixerGroup's output
 * (./inertialized-mixer.ts). A source opens a PoseReader for the batch's meshes; the reader owns
 * the arrays the skeleton kernel reads (positions, rotations, scales: element c·stride + slots[k]
 * is bone k of mesh c, src/reference/skeleton.ts), brings them up to date at each update, and
 * gives back what it took (a source that stops writing the bones writes them again) at close.
 * @internal
 */
import type { Bone, Object3D, Quaternion, SkinnedMesh, Vector3 } from 'three';
import type { Solver, SolverBase } from '../api/solver.js';
import { firstNonFinite, float64Array } from '../api/skeleton-kernel.js';
import type { FloatArray } from '../reference/float-array.js';

/** The key of the method a pose source opens a reader with (a symbol: no name on the public classes). */
export const POSE_SOURCE: unique symbol = Symbol('spring-solver pose source');

/** What a SkeletonBatch asks of a source. */
export interface PoseRequest {
  /** The constructor's name for messages (`SkeletonBatch`) and the argument (`options.source`). */
  method: string;
  name: string;
  solver: SolverBase;
  meshes: readonly SkinnedMesh[];
  /** Per mesh, its bones in the batch's processing order (parents first): bone k of mesh m is bones[m][k]. */
  bones: readonly (readonly Bone[])[];
  /** Solver memory owned by the batch (freed at its dispose). */
  alloc: (length: number) => Float32Array;
  /** How messages name bone `bone` of mesh m. */
  boneName: (m: number, bone: Object3D) => string;
}

/** The arrays a SkeletonBatch's kernel reads, kept up to date by their source. */
export interface PoseReader {
  positions: FloatArray;
  rotations: FloatArray;
  /** null: every bone's rest scale (the source animates no scale). */
  scales: FloatArray | null;
  /** Elements per mesh. */
  stride: number;
  /** Per bone k (processing order): its element in a mesh's stride, or −1: its rest transform, meshes[0]'s. */
  slots: readonly number[];
  /** Brings the arrays up to date before a kernel call (a RangeError or TypeError naming `method`; nothing written then). */
  read(method: string): void;
  /**
   * Before a bone's world matrix is computed between updates (getWorldPosition, the renderer's
   * traversal of an attached object): read() again if the source's pose changed since the last
   * read. None: the arrays always hold the source's current pose (a group's output), or the batch
   * reads the bones themselves (the objects source).
   */
  sync?(method: string): void;
  /** SkeletonBatch.refresh(): read again what is read once (bones the source does not animate). */
  refresh?(method: string): void;
  /** The source gives the bones back (writes them again, where it had stopped). */
  close(): void;
}

/** A source of bones' local transforms for a SkeletonBatch: a MixerBatch or an InertializedMixerGroup. */
export interface PoseSource {
  [POSE_SOURCE](request: PoseRequest): PoseReader;
}

/** `value` as a PoseSource, or null. */
export function poseSourceOf(value: unknown): PoseSource | null {
  return typeof (value as Partial<PoseSource> | null)?.[POSE_SOURCE] === 'function' ? (value as PoseSource) : null;
}

/** Whether `solver` is the solver a source's memory lives in (a reader must be on the batch's). */
export function sameSolver(request: PoseRequest, solver: Solver, cls: string): void {
  if (solver !== request.solver)
    throw new RangeError(
      `${request.method}: ${request.name} is ${/^[AEIOU]/.test(cls) ? 'an' : 'a'} ${cls} of another solver; build it on the solver given to ${request.method}`,
    );
}

/**
 * The bones' own objects: every bone's position, quaternion and scale read at each update, in
 * float64 as three's bones hold them (a float32 copy would round each offset of the chain).
 */
export function objectsPose(request: PoseRequest): PoseReader {
  const { solver, bones, meshes } = request;
  const all = bones.flat();
  const n = all.length;
  const per = bones[0]!.length;
  const positions = float64Array(request.alloc, 3 * n);
  const rotations = float64Array(request.alloc, 4 * n);
  const scales = float64Array(request.alloc, 3 * n);
  const vectors: { positions: Vector3[]; quaternions: Quaternion[]; scales: Vector3[] } = {
    positions: all.map((b) => b.position),
    quaternions: all.map((b) => b.quaternion),
    scales: all.map((b) => b.scale),
  };
  return {
    positions,
    rotations,
    scales,
    stride: per,
    slots: bones[0]!.map((_, k) => k),
    read(method) {
      const { positions: ps, quaternions: qs, scales: ss } = vectors;
      const x = positions,
        q = rotations,
        s = scales;
      // from flat lists of the bones' Vector3s and Quaternions, one pass (docs/DECISIONS.md, "Skeleton batches");
      // v − v is NaN for a NaN or infinite v: one sum says whether to look for it
      let check = 0;
      for (let i = 0; i < ps.length; i++) {
        const p = ps[i]!,
          r = qs[i]!,
          sc = ss[i]!;
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
      if (check !== 0) throwNonFinite(method, solver, request, meshes, [positions, rotations, scales], per);
    },
    close() {},
  };
}

/**
 * A RangeError naming the mesh and the bone of the first NaN or infinite value of `arrays`
 * (positions, rotations, scales of `per` bones a mesh, element m·per + k), or nothing if none is.
 */
export function throwNonFinite(
  method: string,
  solver: SolverBase,
  request: PoseRequest,
  meshes: readonly SkinnedMesh[],
  arrays: readonly (FloatArray | null)[],
  per: number,
): void {
  const names = ['position', 'quaternion', 'scale'];
  const widths = [3, 4, 3];
  for (let f = 0; f < 3; f++) {
    const array = arrays[f];
    if (!array) continue;
    const bad = firstNonFinite(solver, array);
    if (bad < 0) continue;
    const element = Math.floor(bad / widths[f]!);
    const m = Math.floor(element / per);
    if (m >= meshes.length) continue;
    const bone = request.bones[m]![element % per]!;
    throw new RangeError(`${method}: ${request.boneName(m, bone)} has ${names[f]} ${array[bad]}; it must be finite`);
  }
}
