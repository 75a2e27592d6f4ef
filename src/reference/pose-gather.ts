/**
 * The reference (and JS backend) of assembly/kernels/pose-gather.ts: the bones' pose of many mixers
 * gathered from a MixerBatch's PropertyMixer buffers into the flat arrays of a consumer (an
 * InertializedMixerGroup's float32 input, a SkeletonBatch's float64 source arrays). Written from
 * what the consumers' loops did value by value, which is three's: after `mixer.update`, a
 * PropertyMixer in use (useCount > 0) holds the blended value at (accuIndex + 1) · valueSize of its
 * buffer (PropertyMixer.apply); one no longer in use holds the original value three restored at
 * origIndex · valueSize (restoreOriginalState).
 *
 * Layout (int32 unless said):
 * - rows: per mixer m, ROW_INTS: its first element, its element count, and (written) how many of its
 *   elements it listed in `missing`;
 * - accu: mixer m's accumulator index at accu[accuStride · m] (the MixerBatch's own row);
 * - elements: per element e, ELEMENT_INTS: the index of the PropertyMixer's buffer in `blocks`
 *   (float64), the index of its in-use flag in `active` (bytes, 1: in use), its first float in its
 *   destination array, and kind | (origIndex + 1) << 2 (kind 0: positions, 1: rotations, 2: scales;
 *   origIndex −1: a consumer that lists what is not in use instead of reading the original);
 * - seen: per element, 1 once it has been in use (written);
 * - missing: per mixer, from its first element, the elements it listed (written); flag[0] = 1 when
 *   any mixer listed one.
 * `copied`: the values in use are in place already (MixerBatch's sampler copied them, its output):
 * only their `seen` is set.
 * @internal
 */
import type { FloatArray } from './float-array.js';

export const ROW_INTS = 4;
export const ELEMENT_INTS = 4;

/** Kinds of an element. */
export const GATHER_POSITION = 0;
export const GATHER_ROTATION = 1;
export const GATHER_SCALE = 2;

/** The code of an element: its kind, and its PropertyMixer's original region (−1: list it when not in use). */
export function elementCode(kind: number, origIndex: number): number {
  return kind | ((origIndex + 1) << 2);
}

export interface GatherArrays {
  rows: Int32Array;
  accu: Int32Array;
  accuStride: number;
  elements: Int32Array;
  seen: Int32Array;
  active: Uint8Array;
  blocks: Float64Array;
  missing: Int32Array;
  flag: Int32Array;
}

/** The arrays written: the consumer's positions, rotations and scales (null: no scale element). */
export interface GatherTargets {
  positions: FloatArray;
  rotations: FloatArray;
  scales: FloatArray | null;
}

/** Mixers first … first + count − 1 gathered into `to` (a Float32Array target rounds as its store does). */
export function gatherPose(a: GatherArrays, to: GatherTargets, first: number, count: number, copied: boolean): void {
  const { rows, accu, elements, seen, active, blocks, missing } = a;
  for (let m = first; m < first + count; m++) {
    const row = ROW_INTS * m;
    const start = rows[row]!,
      end = start + rows[row + 1]!;
    const accuIndex = accu[a.accuStride * m]! + 1;
    let listed = 0;
    for (let e = start; e < end; e++) {
      const el = ELEMENT_INTS * e;
      const source = elements[el]!,
        apply = elements[el + 1]!,
        at = elements[el + 2]!,
        code = elements[el + 3]!;
      const kind = code & 3,
        orig = (code >> 2) - 1;
      const size = kind === GATHER_ROTATION ? 4 : 3;
      let region = accuIndex;
      if (active[apply] === 1) {
        seen[e] = 1;
        if (copied) continue;
      } else if (orig < 0) {
        missing[start + listed] = e;
        listed++;
        continue;
      } else if (seen[e] === 0) {
        continue; // never in use: the value the consumer holds stands
      } else {
        region = orig;
      }
      const from = source + region * size;
      const out = kind === GATHER_POSITION ? to.positions : kind === GATHER_ROTATION ? to.rotations : to.scales!;
      for (let i = 0; i < size; i++) out[at + i] = blocks[from + i]!;
    }
    rows[row + 2] = listed;
    if (listed > 0) a.flag[0] = 1;
  }
}
