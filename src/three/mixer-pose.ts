/**
 * A MixerBatch as a SkeletonBatch's pose source (./pose-source.ts): the bones' local transforms
 * copied at each SkeletonBatch.update from the batch's PropertyMixer buffers in solver memory
 * (float64, three's values: the blended result of the last update at (accuIndex + 1) · valueSize,
 * three's PropertyMixer.apply) into the kernel's arrays, while the batch no longer writes those
 * bones' position, quaternion and scale. Every other property is still written as three would.
 *
 * What three's bone holds after `mixer.update`, and so what is read, per bone property:
 * - animated through a property the kernel takes, whose binding is in use: the buffer's result
 *   (three writes it when it changed; when it did not, the bone already holds it);
 * - animated through a binding not in use now, through a property left to three's own code, or by
 *   a mixer the batch ran through three's code this frame: the bone itself (three wrote it);
 * - not animated by its mixer: the bone's value when read at construction, a layout change of the
 *   batch or SkeletonBatch.refresh() (nothing writes it, unless the user does).
 * At close, each bone property read from the buffers gets its value written through its binding,
 * as three's apply would have, so the objects are three's again.
 * @internal
 */
import type { Object3D, Quaternion, Vector3 } from 'three';
import { float64Array, int32View } from '../api/skeleton-kernel.js';
import { gatherPoseCall } from '../api/pose-gather-kernel.js';
import { ELEMENT_INTS, ROW_INTS, elementCode, type GatherArrays, type GatherTargets } from '../reference/pose-gather.js';
import { OwnedArrays } from '../stateful/owned-arrays.js';
import type { PropertyMixerInternals } from './mixer-bindings.js';
import { throwNonFinite, type PoseReader, type PoseRequest } from './pose-source.js';

/** The parts of a MixerBatch's mixer entry a reader reads (the batch's MixerEntry has them). */
export interface PoseEntry {
  mixer: { _accuIndex: number; _bindings: PropertyMixerInternals[] };
  /** Kernel-taken PropertyMixers, each one's block, and 1 where it is in use (a view of PoseState.active from firstApply). */
  kernel: readonly PropertyMixerInternals[];
  blocks: readonly number[];
  active: Uint8Array;
  firstApply: number;
  /** Index in `kernel` of each kernel-taken PropertyMixer. */
  index: ReadonlyMap<PropertyMixerInternals, number>;
  /** Run through three's own code this update (its state is in three's objects). */
  detached: boolean;
}

/** A MixerBatch's output (its sampler copies the values in use to a reader's arrays): see MixerBatch.setOutput. */
export interface PoseOutputs {
  setOutput(output: GatherTargets | null, places: Int32Array): void;
  wrote(output: GatherTargets): boolean;
}

/** What a reader sees of the batch at a read. */
export interface PoseState {
  /** The layout's number: the plan holds until it changes. */
  version: number;
  /** Bumped when the pose may have changed (an update of any mixer, an action started or stopped): sync() reads again. */
  changes: number;
  blocks: Float64Array;
  /** Every kernel-taken PropertyMixer's in-use flag, by apply index (solver memory). */
  active: Uint8Array;
  /** The batch's rows (rowInts a mixer): mixer m's accumulator index of its last update at rows[rowInts · m + 4]. */
  rows: Int32Array;
  rowInts: number;
  /** Whether some entry is `detached` (its mixer ran through three's code in the last update). */
  anyDetached: boolean;
  entries: readonly PoseEntry[];
}

const WIDTH = [3, 4, 3];
const PROPERTIES = ['position', 'quaternion', 'scale'] as const;

/**
 * The bone `pm` animates as a whole position, quaternion or scale (0, 1, 2), or null: any other
 * property, one component, an AnimationObjectGroup's binding.
 */
export function boneTarget(pm: PropertyMixerInternals): { object: Object3D; property: 0 | 1 | 2 } | null {
  const binding = pm.binding;
  if (binding._bindings !== undefined) return null;
  const path = binding.parsedPath;
  const property = PROPERTIES.indexOf(path?.propertyName as (typeof PROPERTIES)[number]);
  if (property < 0 || path?.propertyIndex !== undefined || pm.valueSize !== WIDTH[property]) return null;
  const object = binding.targetObject as Object3D | undefined;
  if (object === undefined || object === null || (object as { isObject3D?: boolean }).isObject3D !== true) return null;
  return { object, property: property as 0 | 1 | 2 };
}

/**
 * The gather kernel's arrays (src/reference/pose-gather.ts) for `mixers` mixers and `elements`
 * elements, in `owned` memory, reading the batch's buffers, in-use flags and accumulators of `st`.
 */
export function gatherArrays(owned: OwnedArrays, st: PoseState, mixers: number, elements: number): GatherArrays {
  const ints = (length: number): Int32Array => int32View(owned.alloc(Math.max(1, length)));
  return {
    rows: ints(ROW_INTS * mixers),
    accu: st.rows.subarray(4),
    accuStride: st.rowInts,
    elements: ints(ELEMENT_INTS * elements),
    seen: ints(elements),
    active: st.active,
    blocks: st.blocks,
    missing: ints(elements),
    flag: ints(1),
  };
}

/** The reader: arrays of count × bones elements (slot k for bone k), float64 as three's buffers. */
export class MixerPose implements PoseReader {
  readonly positions: Float64Array;
  readonly rotations: Float64Array;
  readonly scales: Float64Array;
  readonly stride: number;
  readonly slots: readonly number[];
  private readonly arrays: Float64Array[];
  private version = -1;
  /** The batch's `changes` at the last read. */
  private changes = -1;
  /** Per mesh, its elements read at each update: [first[m], first[m + 1]). */
  private first = new Int32Array(0);
  /** Per element: which array (0 positions, 1 rotations, 2 scales), its first float there, the kernel-taken PropertyMixer (index in its entry, −1: none) and its buffer's first float. */
  private kind = new Int32Array(0);
  private dst = new Int32Array(0);
  private index = new Int32Array(0);
  private base = new Int32Array(0);
  /** Per element: the bone's Vector3 or Quaternion, read when the buffer does not hold the value. */
  private objects: (Vector3 | Quaternion)[] = [];
  /**
   * The gather kernel over the kernel-taken elements (./pose-gather-kernel.ts): its arrays (in `owned`,
   * laid out again with the plan), each kernel element's element here, the elements always read
   * from their object (a property left to three) and each element's mesh.
   */
  private readonly owned: OwnedArrays;
  private gather: GatherArrays | null = null;
  private gatherCall: (to: GatherTargets, first: number, count: number, copied: boolean) => void = () => {};
  private readonly targets: GatherTargets;
  private fromKernel = new Int32Array(0);
  private fromObject = new Int32Array(0);
  private meshOf = new Int32Array(0);
  private closed = false;

  constructor(
    private readonly request: PoseRequest,
    private readonly state: () => PoseState,
    /** The batch writes the bones again (after close has written the current pose). */
    private readonly release: () => void,
    /** The batch's output (MixerBatch.setOutput, wrote): the values in use copied by its sampler. */
    private readonly outputs: PoseOutputs,
  ) {
    const count = request.bones.length;
    this.stride = request.bones[0]!.length;
    const n = count * this.stride;
    this.positions = float64Array(request.alloc, 3 * n);
    this.rotations = float64Array(request.alloc, 4 * n);
    this.scales = float64Array(request.alloc, 3 * n);
    this.arrays = [this.positions, this.rotations, this.scales];
    this.targets = { positions: this.positions, rotations: this.rotations, scales: this.scales };
    this.slots = request.bones[0]!.map((_, k) => k);
    this.owned = new OwnedArrays(request.solver);
    try {
      this.plan(request.method, state());
    } catch (error) {
      this.owned.release();
      throw error;
    }
  }

  read(method: string): void {
    const st = this.state();
    if (st.version !== this.version) this.plan(method, st);
    this.changes = st.changes;
    const g = this.gather!;
    const entries = st.entries;
    // the values in the buffers: one kernel call (the mixers run through three's code this update read from their bones)
    // (those in use already copied there by the batch's sampler, at its last update, unless something changed since)
    g.flag[0] = 0;
    let check = 0;
    const copied = this.outputs.wrote(this.targets);
    if (!st.anyDetached) this.gatherCall(this.targets, 0, entries.length, copied);
    else
      for (let m = 0; m < entries.length; m++) {
        if (entries[m]!.detached) check += this.readMesh(m);
        else this.gatherCall(this.targets, m, 1, copied);
      }
    // the others from the bones: properties left to three, and those not in use (listed by the kernel)
    const { fromObject, meshOf } = this;
    for (let i = 0; i < fromObject.length; i++) {
      const j = fromObject[i]!;
      if (st.anyDetached && entries[meshOf[j]!]!.detached) continue;
      check += this.readObject(j);
    }
    if (g.flag[0] !== 0) {
      const { rows, missing } = g;
      for (let m = 0; m < entries.length; m++) {
        if (entries[m]!.detached) continue;
        const first = rows[ROW_INTS * m]!;
        for (let i = first, end = first + rows[ROW_INTS * m + 2]!; i < end; i++) check += this.readObject(this.fromKernel[missing[i]!]!);
      }
    }
    if (check !== 0) throwNonFinite(method, this.request.solver, this.request, this.request.meshes, this.arrays, this.stride);
  }

  /** A bone's world matrix asked between updates: the pose read again if the batch changed it since the last read. */
  sync(method: string): void {
    const st = this.state();
    if (st.version !== this.version || st.changes !== this.changes) this.read(method);
  }

  /** Element j from its bone's Vector3 or Quaternion; returns the check sum (NaN: a value is not finite). */
  private readObject(j: number): number {
    const k = this.kind[j]!;
    const out = this.arrays[k]!;
    const d = this.dst[j]!;
    const v = this.objects[j]!;
    const x = v.x,
      y = v.y,
      z = v.z;
    out[d] = x;
    out[d + 1] = y;
    out[d + 2] = z;
    let check = x - x + (y - y) + (z - z);
    if (k === 1) {
      const w = (v as Quaternion).w;
      out[d + 3] = w;
      check += w - w;
    }
    return check;
  }

  /** Reads again the bone properties no mixer animates (after the user changed them). */
  refresh(method: string): void {
    this.plan(method, this.state());
    let check = 0;
    for (let m = 0; m < this.request.bones.length; m++) check += this.readMesh(m);
    if (check !== 0) throwNonFinite(method, this.request.solver, this.request, this.request.meshes, this.arrays, this.stride);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.request.solver.isDisposed()) {
      this.owned.release();
      this.release();
      return;
    }
    // the bones get the value three would have written (the batch skipped it): through their bindings' own setters
    const { blocks, entries } = this.state();
    for (let m = 0; m < entries.length; m++) {
      const e = entries[m]!;
      if (e.detached) continue;
      const accu = e.mixer._accuIndex + 1;
      for (let j = this.first[m]!; j < this.first[m + 1]!; j++) {
        const kk = this.index[j]!;
        if (kk < 0 || e.active[kk] !== 1) continue;
        const pm = e.kernel[kk]!;
        pm.binding.setValue(blocks, this.base[j]! + accu * pm.valueSize);
      }
    }
    this.owned.release();
    this.gather = null;
    this.release();
  }

  /** Every bone property of mesh m from the bone itself; returns the check sum (NaN: a value is not finite). */
  private readMesh(m: number): number {
    const bones = this.request.bones[m]!;
    let check = 0;
    for (let k = 0; k < bones.length; k++) {
      const bone = bones[k]!;
      const e = m * this.stride + k;
      const p = bone.position,
        q = bone.quaternion,
        s = bone.scale;
      this.positions.set([p.x, p.y, p.z], 3 * e);
      this.rotations.set([q.x, q.y, q.z, q.w], 4 * e);
      this.scales.set([s.x, s.y, s.z], 3 * e);
      check += p.x - p.x + (p.y - p.y) + (p.z - p.z) + (q.x - q.x) + (q.y - q.y) + (q.z - q.z) + (q.w - q.w);
      check += s.x - s.x + (s.y - s.y) + (s.z - s.z);
    }
    return check;
  }

  /**
   * The gather kernel's plan for the elements just planned: per mesh, its kernel-taken elements (a
   * kernel element each, listed back when not in use), the others read from their bones.
   */
  private planGather(st: PoseState): void {
    const { first, index, base, kind, dst } = this;
    const count = this.request.bones.length;
    const fromKernel: number[] = [],
      fromObject: number[] = [];
    const meshOf = new Int32Array(kind.length);
    for (let m = 0; m < count; m++)
      for (let j = first[m]!; j < first[m + 1]!; j++) {
        meshOf[j] = m;
        (index[j]! >= 0 ? fromKernel : fromObject).push(j);
      }
    this.owned.release();
    const g = gatherArrays(this.owned, st, count, fromKernel.length);
    const places = new Int32Array(3 * fromKernel.length);
    let e = 0;
    for (let m = 0; m < count; m++) {
      g.rows[ROW_INTS * m] = e;
      for (let j = first[m]!; j < first[m + 1]!; j++) {
        if (index[j]! < 0) continue;
        const entry = st.entries[m]!;
        const apply = entry.firstApply + index[j]!;
        g.elements.set([base[j]!, apply, dst[j]!, elementCode(kind[j]!, -1)], ELEMENT_INTS * e);
        places.set([apply, dst[j]!, kind[j]!], 3 * e);
        e++;
      }
      g.rows[ROW_INTS * m + 1] = e - g.rows[ROW_INTS * m]!;
    }
    this.outputs.setOutput(this.targets, places);
    this.gather = g;
    this.gatherCall = gatherPoseCall(this.request.solver, g, false);
    this.fromKernel = Int32Array.from(fromKernel);
    this.fromObject = Int32Array.from(fromObject);
    this.meshOf = meshOf;
  }

  /**
   * The elements read at each update, for the batch's layout as it is: per mesh m, each property
   * of its bones that mixer m animates (in a buffer the kernel takes, or left to three); the
   * others read once, now. A RangeError when mixer m animates another mesh's bones.
   */
  private plan(method: string, st: PoseState): void {
    const { request } = this;
    const { bones, name } = request;
    const owner = new Map<Object3D, [number, number]>();
    bones.forEach((list, m) => list.forEach((bone, k) => owner.set(bone, [m, k])));
    const kind: number[] = [],
      dst: number[] = [],
      index: number[] = [],
      base: number[] = [],
      objects: (Vector3 | Quaternion)[] = [];
    const first = new Int32Array(bones.length + 1);
    let check = 0;
    st.entries.forEach((e, m) => {
      first[m] = kind.length;
      const kernelIndex = new Map(e.kernel.map((pm, kk) => [pm, kk]));
      const seen = new Set<number>();
      for (const pm of e.mixer._bindings) {
        const target = boneTarget(pm);
        const at = target ? owner.get(target.object) : undefined;
        if (!target || at === undefined) continue; // not a bone of the meshes: written by the batch as three would
        if (at[0] !== m)
          throw new RangeError(
            `${method}: ${name}'s mixers[${m}] animates ${request.boneName(at[0], target.object)}, not a bone of meshes[${m}]; ` +
              'mixer m must animate mesh m (give the MixerBatch its mixers in the order of the meshes)',
          );
        const p = target.property;
        const key = 3 * at[1] + p;
        if (seen.has(key)) continue;
        seen.add(key);
        const kk = kernelIndex.get(pm) ?? -1;
        kind.push(p);
        dst.push(WIDTH[p]! * (m * this.stride + at[1]));
        index.push(kk);
        base.push(kk >= 0 ? e.blocks[kk]! + 2 : 0);
        objects.push(p === 0 ? target.object.position : p === 1 ? target.object.quaternion : target.object.scale);
      }
      // the rest of the mesh: its bones' values now (the elements above are read at every update)
      check += this.readMesh(m);
    });
    first[bones.length] = kind.length;
    this.first = first;
    this.kind = Int32Array.from(kind);
    this.dst = Int32Array.from(dst);
    this.index = Int32Array.from(index);
    this.base = Int32Array.from(base);
    this.objects = objects;
    this.version = st.version;
    this.planGather(st);
    if (check !== 0) throwNonFinite(method, request.solver, request, request.meshes, this.arrays, this.stride);
  }
}
