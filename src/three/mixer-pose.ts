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
import { float64Array } from '../api/skeleton-kernel.js';
import type { PropertyMixerInternals } from './mixer-bindings.js';
import { throwNonFinite, type PoseReader, type PoseRequest } from './pose-source.js';

/** The parts of a MixerBatch's mixer entry a reader reads (the batch's MixerEntry has them). */
export interface PoseEntry {
  mixer: { _accuIndex: number; _bindings: PropertyMixerInternals[] };
  /** Kernel-taken PropertyMixers, each one's block, and 1 where it is in use. */
  kernel: readonly PropertyMixerInternals[];
  blocks: readonly number[];
  active: Uint8Array;
  /** Run through three's own code this update (its state is in three's objects). */
  detached: boolean;
}

/** What a reader sees of the batch at a read. */
export interface PoseState {
  /** The layout's number: the plan holds until it changes. */
  version: number;
  /** Bumped when the pose may have changed (an update of any mixer, an action started or stopped): sync() reads again. */
  changes: number;
  blocks: Float64Array;
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
  private closed = false;

  constructor(
    private readonly request: PoseRequest,
    private readonly state: () => PoseState,
    /** The batch writes the bones again (after close has written the current pose). */
    private readonly release: () => void,
  ) {
    const count = request.bones.length;
    this.stride = request.bones[0]!.length;
    const n = count * this.stride;
    this.positions = float64Array(request.alloc, 3 * n);
    this.rotations = float64Array(request.alloc, 4 * n);
    this.scales = float64Array(request.alloc, 3 * n);
    this.arrays = [this.positions, this.rotations, this.scales];
    this.slots = request.bones[0]!.map((_, k) => k);
    this.plan(request.method, state());
  }

  read(method: string): void {
    const st = this.state();
    if (st.version !== this.version) this.plan(method, st);
    this.changes = st.changes;
    const { blocks, entries } = st;
    const [P, R, S] = this.arrays as [Float64Array, Float64Array, Float64Array];
    const { first, kind, dst, index, base, objects } = this;
    // v − v is NaN for a NaN or infinite v: one sum says whether to look for it (values read from objects)
    let check = 0;
    for (let m = 0; m < entries.length; m++) {
      const e = entries[m]!;
      if (e.detached) {
        check += this.readMesh(m);
        continue;
      }
      const accu = e.mixer._accuIndex + 1;
      const active = e.active;
      for (let j = first[m]!, end = first[m + 1]!; j < end; j++) {
        const k = kind[j]!;
        const out = k === 0 ? P : k === 1 ? R : S;
        const d = dst[j]!;
        const kk = index[j]!;
        if (kk >= 0 && active[kk] === 1) {
          const size = k === 1 ? 4 : 3;
          const o = base[j]! + accu * size;
          out[d] = blocks[o]!;
          out[d + 1] = blocks[o + 1]!;
          out[d + 2] = blocks[o + 2]!;
          if (size === 4) out[d + 3] = blocks[o + 3]!;
          continue;
        }
        const v = objects[j]!;
        const x = v.x,
          y = v.y,
          z = v.z;
        out[d] = x;
        out[d + 1] = y;
        out[d + 2] = z;
        check += x - x + (y - y) + (z - z);
        if (k === 1) {
          const w = (v as Quaternion).w;
          out[d + 3] = w;
          check += w - w;
        }
      }
    }
    if (check !== 0) throwNonFinite(method, this.request.solver, this.request, this.request.meshes, this.arrays, this.stride);
  }

  /** A bone's world matrix asked between updates: the pose read again if the batch changed it since the last read. */
  sync(method: string): void {
    const st = this.state();
    if (st.version !== this.version || st.changes !== this.changes) this.read(method);
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
    if (check !== 0) throwNonFinite(method, request.solver, request, request.meshes, this.arrays, this.stride);
  }
}
