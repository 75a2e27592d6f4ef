/**
 * MixerBatch's writes of positions, scales and quaternions to three's objects, as one flat list
 * over the batch's mixers: for each, where its value is in the batch's buffers and the objects it
 * goes to. PropertyBinding's setter for an Object3D's position, scale or quaternion is
 * `resolvedProperty.fromArray(buffer, offset)` then `matrixWorldNeedsUpdate = true`; the list does
 * that (a quaternion's `rotation` from the kernel's angles: ./object-writes.ts). Read in order by
 * the write loop, typed arrays and arrays of references, not an object a property: the loop then
 * waits on three's objects alone (docs/DECISIONS.md, "The write loop as a flat list").
 * @internal
 */
import type { Euler, Object3D, Quaternion, Vector3 } from 'three';
import { setQuaternionAndAngles } from './object-writes.js';

/** One write: a property's apply index, the index of its accumulator 0 in the blocks, its value size, and its objects. */
export interface Write {
  apply: number;
  at: number;
  size: number;
  object: Object3D;
  /** The Vector3 written, or null for a quaternion. */
  vector: Vector3 | null;
  quaternion: Quaternion | null;
  euler: Euler | null;
}

export class ObjectWrites {
  /** Mixer m's writes are [start[m], start[m + 1]). */
  private readonly start: Int32Array;
  private readonly apply: Int32Array;
  private readonly at: Int32Array;
  private readonly size: Int32Array;
  /** A position's or scale's Vector3, or a quaternion. */
  private readonly target: (Vector3 | Quaternion)[];
  /** The rotation beside a quaternion, or null for a vector. */
  private readonly euler: (Euler | null)[];
  private readonly object: Object3D[];

  /** `perMixer[m]`: mixer m's writes, in the order of its bindings. */
  constructor(perMixer: readonly (readonly Write[])[]) {
    const all = perMixer.flat();
    this.start = new Int32Array(perMixer.length + 1);
    perMixer.forEach((list, m) => {
      this.start[m + 1] = this.start[m]! + list.length;
    });
    this.apply = Int32Array.from(all, (w) => w.apply);
    this.at = Int32Array.from(all, (w) => w.at);
    this.size = Int32Array.from(all, (w) => w.size);
    this.target = all.map((w) => (w.vector ?? w.quaternion)!);
    this.euler = all.map((w) => (w.vector === null ? w.euler : null));
    this.object = all.map((w) => w.object);
  }

  /**
   * Mixer m's writes whose property changed (`changed`) and is in use (`active`), from accumulator
   * `accuIndex` of `blocks`, the quaternions' angles from `angles` (three an apply).
   */
  write(m: number, accuIndex: number, blocks: Float64Array, changed: Int32Array, active: Uint8Array, angles: Float64Array): void {
    for (let i = this.start[m]!, end = this.start[m + 1]!; i < end; i++) {
      const p = this.apply[i]!;
      if (changed[p] === 0 || active[p] === 0) continue;
      const at = this.at[i]! + accuIndex * this.size[i]!;
      const euler = this.euler[i];
      if (!euler) (this.target[i] as Vector3).fromArray(blocks, at);
      else setQuaternionAndAngles(this.target[i] as Quaternion, euler, blocks, at, angles, 3 * p);
      this.object[i]!.matrixWorldNeedsUpdate = true;
    }
  }
}
