// The bones' pose of many mixers gathered from a MixerBatch's PropertyMixer buffers (float64, in
// solver memory) into the flat arrays a consumer reads: an InertializedMixerGroup's input (float32)
// or a SkeletonBatch's source arrays (float64, src/three/mixer-pose.ts). What the JS loops of those
// two did value by value (InertializedMixerGroup's readMixer, MixerPose.read), in one call: per
// element (one position, quaternion or scale of one bone), the PropertyMixer's value of the last
// update when it is in use (three's apply writes buffer[(accuIndex + 1) · size …]), else the
// original value three restored (buffer[origIndex · size …]) once it has been in use, or, for a
// consumer without that rule, the element listed for its caller to read from the object. The
// layout is documented with the reference, src/reference/pose-gather.ts (indices there, byte
// offsets of the same arrays here). Float64 to float32 is f32.demote_f64 (round to nearest even, as
// a Float32Array store); float64 to float64 is copied as bits. Scalar: per element a few loads and
// a branch, and, for a value not copied by the sampler already, 3 or 4 loads from a scattered block;
// no SIMD path (docs/DECISIONS.md, "The pose in one pass").

const ROW_INTS: i32 = 4;
const ELEMENT_INTS: i32 = 4;

// @ts-ignore: decorator
@inline function ldi(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline function sti(base: usize, i: i32, v: i32): void {
  store<i32>(base + (<usize>i << 2), v);
}

/**
 * Mixers 0 … nMixers − 1 of `rows` (4 int32 a mixer: first element, element count, then the count
 * of its elements listed in `missing`, written). Mixer m's accumulator index is the int32 at
 * accu + 4 · accuStride · m (the MixerBatch's row). Each element (4 int32: the f64 index of the
 * PropertyMixer's buffer in `blocks`, its in-use flag's index in `active` (bytes), its first float
 * in its destination array, kind | (origIndex + 1) << 2 with kind 0 position, 1 quaternion, 2
 * scale and origIndex −1 for "list it") is copied into positions, rotations or scales (float32
 * when f32, else float64). seen[e] (int32) becomes 1 when element e is in use; an element not in
 * use is copied from its original value when seen, skipped when not, or, with origIndex −1,
 * listed: missing[first + j] = e for its mixer's j-th such element, and flag (an int32) set to 1.
 * copied: the values in use are already in place (the sampler copied them, MixerBatch's output):
 * only their `seen` is set. Mixers share nothing written: a threaded call splits by whole mixers.
 */
export function gatherPose(
  rows: usize, nMixers: i32, accu: usize, accuStride: i32,
  elements: usize, seen: usize, active: usize, blocks: usize,
  positions: usize, rotations: usize, scales: usize, f32: bool,
  missing: usize, flag: usize, copied: bool,
): void {
  for (let m = 0; m < nMixers; m++) {
    const row = rows + (<usize>(ROW_INTS * m) << 2);
    const first = ldi(row, 0), end = first + ldi(row, 1);
    const accuIndex = ldi(accu, accuStride * m) + 1;
    let listed = 0;
    for (let e = first; e < end; e++) {
      const el = elements + (<usize>(ELEMENT_INTS * e) << 2);
      const source = ldi(el, 0), apply = ldi(el, 1), to = ldi(el, 2), code = ldi(el, 3);
      const kind = code & 3, orig = (code >> 2) - 1;
      const size = kind == 1 ? 4 : 3;
      let region = accuIndex;
      if (load<u8>(active + <usize>apply) == 1) {
        sti(seen, e, 1);
        if (copied) continue;
      } else if (orig < 0) {
        sti(missing, first + listed, e);
        listed++;
        continue;
      } else if (ldi(seen, e) == 0) {
        continue; // never in use: the value the consumer holds stands
      } else {
        region = orig;
      }
      const from = blocks + (<usize>(source + region * size) << 3);
      const out = kind == 0 ? positions : kind == 1 ? rotations : scales;
      if (f32) {
        const o = out + (<usize>to << 2);
        store<f32>(o, <f32>load<f64>(from));
        store<f32>(o, <f32>load<f64>(from, 8), 4);
        store<f32>(o, <f32>load<f64>(from, 16), 8);
        if (size == 4) store<f32>(o, <f32>load<f64>(from, 24), 12);
      } else {
        const o = out + (<usize>to << 3);
        store<i64>(o, load<i64>(from));
        store<i64>(o, load<i64>(from, 8), 8);
        store<i64>(o, load<i64>(from, 16), 16);
        if (size == 4) store<i64>(o, load<i64>(from, 24), 24);
      }
    }
    sti(row, 2, listed);
    if (listed > 0) store<i32>(flag, 1);
  }
}
