/**
 * Float64 reference (and JS backend) of the per-track half of three.js's AnimationMixer.update:
 * every contributing action's keyframe tracks evaluated at its clip time and accumulated into the
 * property they animate, then each property finished and compared with the last frame's value.
 * Written from three's source (r187), not from the kernel (assembly/kernels/mixer-sampling.ts):
 *   math/Interpolant.js                evaluate(t): the cached-interval search, copySampleValue_
 *   interpolants/DiscreteInterpolant   interpolate_: the previous key
 *   interpolants/LinearInterpolant     interpolate_: values0·(1 − w1) + values1·w1
 *   interpolants/CubicInterpolant      intervalChanged_ (endings, cached weights), interpolate_
 *   interpolants/QuaternionLinearInterpolant   interpolate_: Quaternion.slerpFlat per quaternion
 *   examples/jsm/loaders/GLTFLoader.js GLTFCubicSplineInterpolant (glTF's CUBICSPLINE: Hermite from
 *                                      in-tangent, vertex, out-tangent per key) and its quaternion
 *                                      variant (the same, then Quaternion.normalize)
 *   animation/PropertyMixer.js         accumulate, accumulateAdditive, apply (_lerp, _slerp, the additive ones)
 *   math/Quaternion.js                 slerpFlat, multiplyQuaternionsFlat
 * The per-action half (time, loops, fades, warps, weights, events) stays three's own code, run by
 * the caller (src/three/mixer-batch.ts), which lists here what each action contributes.
 *
 * Layout (all indices, no pointers; the kernel takes the same arrays by byte offset):
 * - action a (one contributing action of one frame): actionInts[4a …] = first record, record count,
 *   flags (bit 0 additive; bits 4–7 the ending at the start, bits 8–11 at the end: 0 zero curvature,
 *   1 zero slope, 2 wrap around), accuIndex; actionFloats[2a …] = clip time, weight.
 * - record r (one interpolant: one track of one action of one mixer): recordInts[12r …] = kind
 *   (KIND_*), first time in keys, key count, first value in keys, value size, block, cached index
 *   (three's _cachedIndex, read and written), offsetPrev, offsetNext (CubicInterpolant's), mix
 *   (MIX_*), the property's value size (the interpolant's, but three times it for a glTF cubic
 *   track: three sizes its PropertyMixer by the track's getValueSize(), three values a key, and
 *   accumulates and compares all of them); recordFloats[2r …] = weightPrev, weightNext
 *   (CubicInterpolant's).
 * - keys: every track's times and values, float64 (exact copies of three's float32 keys).
 * - block (one PropertyMixer): blocks[b] = cumulativeWeight, [b + 1] = cumulativeWeightAdditive,
 *   [b + 2 …] = its buffer (regions of valueSize: incoming, accu0, accu1, original, additive, work).
 * - apply p: applyInts[4p …] = block, value size, mix, output (−1: none; else 4 · the first float of
 *   its place in the output's arrays + 0, 1 or 2 for positions, rotations, scales); changed[p] = 1
 *   where the value differs from the other accumulator's (three then calls binding.setValue), else 0;
 *   active[p] (bytes) = 1 where the PropertyMixer is in use. An apply with an output, in use, also
 *   copies its value (the last accumulator) to its place in `output` (float32 or float64 arrays):
 *   the pose a reader gathers (src/reference/pose-gather.ts), while the block is at hand.
 * - angles: where `eulerFlags[p]` (bytes) is 1 and the value changed, a call with `angles` set
 *   computes the quaternion's XYZ Euler angles into eulers[3p …], as the `rotation` three's
 *   quaternion setter updates (onChange → Euler.setFromQuaternion): the caller writes both
 *   (src/three/object-writes.ts), and its write loop then waits on no Math call.
 * - mixer m: rows[8m …] = its first action and action count (this frame's), its first apply and apply
 *   count, its accuIndex. Mixers share only the keys: a threaded call splits by whole mixers.
 */
import { eulerXyz } from './euler.js';
import type { FloatArray } from './float-array.js';

/** Interpolant kinds. */
export const KIND_DISCRETE = 0;
export const KIND_LINEAR = 1;
export const KIND_CUBIC = 2;
export const KIND_QUATERNION = 3;
/** GLTFLoader's CUBICSPLINE interpolants: three values a key (in-tangent, vertex, out-tangent). */
export const KIND_GLTF_CUBIC = 4;
export const KIND_GLTF_CUBIC_QUATERNION = 5;
/** PropertyMixer mix functions: _lerp (numbers) or _slerp (quaternions). */
export const MIX_LERP = 0;
export const MIX_SLERP = 1;
/** Interpolant endings (three's ZeroCurvatureEnding, ZeroSlopeEnding, WrapAroundEnding). */
export const ENDING_ZERO_CURVATURE = 0;
export const ENDING_ZERO_SLOPE = 1;
export const ENDING_WRAP_AROUND = 2;

export const ACTION_INTS = 4;
export const ACTION_FLOATS = 2;
export const RECORD_INTS = 12;
export const RECORD_FLOATS = 2;
export const APPLY_INTS = 4;
export const ROW_INTS = 8;
/** Fields of a record. */
export const R_KIND = 0;
export const R_TIMES = 1;
export const R_KEYS = 2;
export const R_VALUES = 3;
export const R_SIZE = 4;
export const R_BLOCK = 5;
export const R_CACHED = 6;
export const R_OFFSET_PREV = 7;
export const R_OFFSET_NEXT = 8;
export const R_MIX = 9;
/** The property's value size (its block's regions): the interpolant's, or three times it for a glTF cubic track. */
export const R_STRIDE = 10;

/** The arrays of one call. */
export interface MixerArrays {
  actionInts: Int32Array;
  actionFloats: Float64Array;
  recordInts: Int32Array;
  recordFloats: Float64Array;
  keys: Float64Array;
  blocks: Float64Array;
  applyInts: Int32Array;
  changed: Int32Array;
  rows: Int32Array;
  active: Uint8Array;
  /** Where the applies with an output copy their value, or null (none copies this call). */
  output: MixerOutput | null;
  /** 1 where an apply's value is a quaternion whose XYZ Euler angles the caller writes. */
  eulerFlags: Uint8Array;
  /** Those angles (x, y, z), three a apply. */
  eulers: Float64Array;
  /** Whether this call computes the angles (the caller writes three's objects after it). */
  angles: boolean;
}

/** The arrays of a reader the applies copy their values to (one float type for all three). */
export interface MixerOutput {
  positions: FloatArray;
  rotations: FloatArray;
  scales: FloatArray | null;
}

/** Quaternion.slerpFlat(dst, d, src0, s0, src1, s1, t), on one array. */
function slerpFlat(b: Float64Array, d: number, s0: number, src1: Float64Array, s1: number, t: number): void {
  let x0 = b[s0]!,
    y0 = b[s0 + 1]!,
    z0 = b[s0 + 2]!,
    w0 = b[s0 + 3]!;
  let x1 = src1[s1]!,
    y1 = src1[s1 + 1]!,
    z1 = src1[s1 + 2]!,
    w1 = src1[s1 + 3]!;
  if (w0 !== w1 || x0 !== x1 || y0 !== y1 || z0 !== z1) {
    let dot = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
    if (dot < 0) {
      x1 = -x1;
      y1 = -y1;
      z1 = -z1;
      w1 = -w1;
      dot = -dot;
    }
    let s = 1 - t;
    if (dot < 0.9995) {
      const theta = Math.acos(dot);
      const sin = Math.sin(theta);
      s = Math.sin(s * theta) / sin;
      t = Math.sin(t * theta) / sin;
      x0 = x0 * s + x1 * t;
      y0 = y0 * s + y1 * t;
      z0 = z0 * s + z1 * t;
      w0 = w0 * s + w1 * t;
    } else {
      x0 = x0 * s + x1 * t;
      y0 = y0 * s + y1 * t;
      z0 = z0 * s + z1 * t;
      w0 = w0 * s + w1 * t;
      const f = 1 / Math.sqrt(x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0);
      x0 *= f;
      y0 *= f;
      z0 *= f;
      w0 *= f;
    }
  }
  b[d] = x0;
  b[d + 1] = y0;
  b[d + 2] = z0;
  b[d + 3] = w0;
}

/** PropertyMixer._mixBufferRegion: _lerp or _slerp of region dst towards region src by t. */
function mix(b: Float64Array, kind: number, dst: number, src: number, t: number, stride: number): void {
  if (kind === MIX_SLERP) {
    slerpFlat(b, dst, dst, b, src, t);
    return;
  }
  const s = 1 - t;
  for (let i = 0; i !== stride; ++i) b[dst + i] = b[dst + i]! * s + b[src + i]! * t;
}

/** PropertyMixer._mixBufferRegionAdditive: _lerpAdditive, or _slerpAdditive through the work region. */
function mixAdditive(b: Float64Array, buf: number, kind: number, dst: number, src: number, t: number, stride: number): void {
  if (kind === MIX_SLERP) {
    const work = buf + 5 * stride;
    // Quaternion.multiplyQuaternionsFlat(work, dst, src)
    const x0 = b[dst]!,
      y0 = b[dst + 1]!,
      z0 = b[dst + 2]!,
      w0 = b[dst + 3]!;
    const x1 = b[src]!,
      y1 = b[src + 1]!,
      z1 = b[src + 2]!,
      w1 = b[src + 3]!;
    b[work] = x0 * w1 + w0 * x1 + y0 * z1 - z0 * y1;
    b[work + 1] = y0 * w1 + w0 * y1 + z0 * x1 - x0 * z1;
    b[work + 2] = z0 * w1 + w0 * z1 + x0 * y1 - y0 * x1;
    b[work + 3] = w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1;
    slerpFlat(b, dst, dst, b, work, t);
    return;
  }
  for (let i = 0; i !== stride; ++i) b[dst + i] = b[dst + i]! + b[src + i]! * t;
}

/**
 * Interpolant.evaluate(t) of record r, its result in the incoming region of its block; `endings`
 * are the action's interpolant settings (used by CubicInterpolant.intervalChanged_ only).
 */
function evaluate(a: MixerArrays, r: number, t: number, endingStart: number, endingEnd: number): void {
  const ri = a.recordInts;
  const R = RECORD_INTS * r;
  const keys = a.keys;
  const times = ri[R + R_TIMES]!;
  const n = ri[R + R_KEYS]!;
  // pp[i]; undefined (outside the array) is NaN here: the times are finite, and every comparison
  // with NaN is false, as with undefined
  const pp = (i: number): number => (i >= 0 && i < n ? keys[times + i]! : Number.NaN);
  const undef = (v: number): boolean => Number.isNaN(v);
  let i1 = ri[R + R_CACHED]!,
    t1 = pp(i1),
    t0 = pp(i1 - 1);
  // biome-ignore lint/suspicious/noConfusingLabels: three's Interpolant.evaluate, transcribed with its labels
  validate_interval: {
    // biome-ignore lint/suspicious/noConfusingLabels: three's Interpolant.evaluate, transcribed with its labels
    seek: {
      let right: number;
      // biome-ignore lint/suspicious/noConfusingLabels: three's Interpolant.evaluate, transcribed with its labels
      linear_scan: {
        // biome-ignore lint/suspicious/noConfusingLabels: three's Interpolant.evaluate, transcribed with its labels
        forward_scan: if (!(t < t1)) {
          for (let giveUpAt = i1 + 2; ; ) {
            if (undef(t1)) {
              if (t < t0) break forward_scan;
              // after end
              i1 = n;
              ri[R + R_CACHED] = i1;
              copySample(a, r, i1 - 1);
              return;
            }
            if (i1 === giveUpAt) break;
            t0 = t1;
            t1 = pp(++i1);
            if (t < t1) break seek;
          }
          right = n;
          break linear_scan;
        }
        if (!(t >= t0)) {
          // looping?
          const t1global = pp(1);
          if (t < t1global) {
            i1 = 2;
            t0 = t1global;
          }
          for (let giveUpAt = i1 - 2; ; ) {
            if (undef(t0)) {
              // before start
              ri[R + R_CACHED] = 0;
              copySample(a, r, 0);
              return;
            }
            if (i1 === giveUpAt) break;
            t1 = t0;
            t0 = pp(--i1 - 1);
            if (t >= t0) break seek;
          }
          right = i1;
          i1 = 0;
          break linear_scan;
        }
        break validate_interval;
      }
      while (i1 < right) {
        const mid = (i1 + right) >>> 1;
        if (t < pp(mid)) right = mid;
        else i1 = mid + 1;
      }
      t1 = pp(i1);
      t0 = pp(i1 - 1);
      if (undef(t0)) {
        ri[R + R_CACHED] = 0;
        copySample(a, r, 0);
        return;
      }
      if (undef(t1)) {
        i1 = n;
        ri[R + R_CACHED] = i1;
        copySample(a, r, i1 - 1);
        return;
      }
    }
    ri[R + R_CACHED] = i1;
    if (ri[R + R_KIND] === KIND_CUBIC) intervalChanged(a, r, i1, t0, t1, pp, endingStart, endingEnd);
  }
  interpolate(a, r, i1, t0, t, t1);
}

/** Interpolant.copySampleValue_(index) into the incoming region (a glTF cubic key's vertex: its middle value). */
function copySample(a: MixerArrays, r: number, index: number): void {
  const R = RECORD_INTS * r;
  const stride = a.recordInts[R + R_SIZE]!;
  const kind = a.recordInts[R + R_KIND]!;
  const gltf = kind === KIND_GLTF_CUBIC || kind === KIND_GLTF_CUBIC_QUATERNION;
  const values = a.recordInts[R + R_VALUES]! + (gltf ? index * stride * 3 + stride : index * stride);
  const out = a.recordInts[R + R_BLOCK]! + 2;
  for (let i = 0; i !== stride; ++i) a.blocks[out + i] = a.keys[values + i]!;
}

/** CubicInterpolant.intervalChanged_: the neighbours' offsets and weights of the new interval, cached. */
function intervalChanged(
  a: MixerArrays,
  r: number,
  i1: number,
  t0: number,
  t1: number,
  pp: (i: number) => number,
  endingStart: number,
  endingEnd: number,
): void {
  const R = RECORD_INTS * r;
  const n = a.recordInts[R + R_KEYS]!;
  let iPrev = i1 - 2,
    iNext = i1 + 1,
    tPrev = pp(iPrev),
    tNext = pp(iNext);
  if (Number.isNaN(tPrev)) {
    if (endingStart === ENDING_ZERO_SLOPE) {
      iPrev = i1;
      tPrev = 2 * t0 - t1;
    } else if (endingStart === ENDING_WRAP_AROUND) {
      iPrev = n - 2;
      tPrev = t0 + pp(iPrev) - pp(iPrev + 1);
    } else {
      iPrev = i1;
      tPrev = t1;
    }
  }
  if (Number.isNaN(tNext)) {
    if (endingEnd === ENDING_ZERO_SLOPE) {
      iNext = i1;
      tNext = 2 * t1 - t0;
    } else if (endingEnd === ENDING_WRAP_AROUND) {
      iNext = 1;
      tNext = t1 + pp(1) - pp(0);
    } else {
      iNext = i1 - 1;
      tNext = t0;
    }
  }
  const halfDt = (t1 - t0) * 0.5;
  const stride = a.recordInts[R + R_SIZE]!;
  a.recordFloats[RECORD_FLOATS * r] = halfDt / (t0 - tPrev);
  a.recordFloats[RECORD_FLOATS * r + 1] = halfDt / (tNext - t1);
  a.recordInts[R + R_OFFSET_PREV] = iPrev * stride;
  a.recordInts[R + R_OFFSET_NEXT] = iNext * stride;
}

/** interpolate_ of the record's interpolant class, into the incoming region. */
function interpolate(a: MixerArrays, r: number, i1: number, t0: number, t: number, t1: number): void {
  const R = RECORD_INTS * r;
  const ri = a.recordInts;
  const kind = ri[R + R_KIND]!;
  const stride = ri[R + R_SIZE]!;
  const values = ri[R + R_VALUES]!;
  const out = ri[R + R_BLOCK]! + 2;
  const v = a.keys;
  const b = a.blocks;
  const o1 = values + i1 * stride,
    o0 = o1 - stride;
  if (kind === KIND_DISCRETE) {
    copySample(a, r, i1 - 1);
  } else if (kind === KIND_LINEAR) {
    const weight1 = (t - t0) / (t1 - t0),
      weight0 = 1 - weight1;
    for (let i = 0; i !== stride; ++i) b[out + i] = v[o0 + i]! * weight0 + v[o1 + i]! * weight1;
  } else if (kind === KIND_QUATERNION) {
    const alpha = (t - t0) / (t1 - t0);
    // (three writes every quaternion of the value to result offset 0)
    for (let offset = o1, end = o1 + stride; offset !== end; offset += 4) {
      b[out] = v[offset - stride]!;
      b[out + 1] = v[offset - stride + 1]!;
      b[out + 2] = v[offset - stride + 2]!;
      b[out + 3] = v[offset - stride + 3]!;
      slerpFlat(b, out, out, v, offset, alpha);
    }
  } else if (kind === KIND_GLTF_CUBIC || kind === KIND_GLTF_CUBIC_QUATERNION) {
    gltfCubic(b, out, v, values, stride, i1, t0, t, t1);
    if (kind === KIND_GLTF_CUBIC_QUATERNION) normalize(b, out);
  } else {
    const oP = values + ri[R + R_OFFSET_PREV]!,
      oN = values + ri[R + R_OFFSET_NEXT]!,
      wP = a.recordFloats[RECORD_FLOATS * r]!,
      wN = a.recordFloats[RECORD_FLOATS * r + 1]!,
      p = (t - t0) / (t1 - t0),
      pp = p * p,
      ppp = pp * p;
    const sP = -wP * ppp + 2 * wP * pp - wP * p;
    const s0 = (1 + wP) * ppp + (-1.5 - 2 * wP) * pp + (-0.5 + wP) * p + 1;
    const s1 = (-1 - wN) * ppp + (1.5 + wN) * pp + 0.5 * p;
    const sN = wN * ppp - wN * pp;
    for (let i = 0; i !== stride; ++i) b[out + i] = sP * v[oP + i]! + s0 * v[o0 + i]! + s1 * v[o1 + i]! + sN * v[oN + i]!;
  }
}

/**
 * GLTFCubicSplineInterpolant.interpolate_: the Hermite spline between keys i1 − 1 and i1, each key
 * three values of `stride` (in-tangent, vertex, out-tangent), tangents scaled by the interval.
 */
function gltfCubic(
  b: Float64Array,
  out: number,
  v: Float64Array,
  values: number,
  stride: number,
  i1: number,
  t0: number,
  t: number,
  t1: number,
): void {
  const td = t1 - t0;
  const p = (t - t0) / td,
    pp = p * p,
    ppp = pp * p;
  const offset1 = values + i1 * stride * 3,
    offset0 = offset1 - stride * 3;
  const s2 = -2 * ppp + 3 * pp;
  const s3 = ppp - pp;
  const s0 = 1 - s2;
  const s1 = s3 - pp + p;
  for (let i = 0; i !== stride; i++) {
    const p0 = v[offset0 + i + stride]!; // vertex k
    const m0 = v[offset0 + i + stride * 2]! * td; // out-tangent k · (t_k+1 − t_k)
    const p1 = v[offset1 + i + stride]!; // vertex k + 1
    const m1 = v[offset1 + i]! * td; // in-tangent k + 1 · (t_k+1 − t_k)
    b[out + i] = s0 * p0 + s1 * m0 + s2 * p1 + s3 * m1;
  }
}

/** Quaternion.normalize of b[q … q + 3] (a zero quaternion becomes the identity). */
function normalize(b: Float64Array, q: number): void {
  let l = Math.sqrt(b[q]! * b[q]! + b[q + 1]! * b[q + 1]! + b[q + 2]! * b[q + 2]! + b[q + 3]! * b[q + 3]!);
  if (l === 0) {
    b[q] = 0;
    b[q + 1] = 0;
    b[q + 2] = 0;
    b[q + 3] = 1;
    return;
  }
  l = 1 / l;
  for (let i = 0; i < 4; i++) b[q + i] = b[q + i]! * l;
}

/**
 * The per-track half of a frame for mixers `first` … `first + count − 1`: each mixer's listed
 * actions' records evaluated and accumulated (normal: PropertyMixer.accumulate into
 * accu[accuIndex]; additive: accumulateAdditive), in the order listed (three's active-action order,
 * each action's tracks in clip order), then its properties finished as PropertyMixer.apply does,
 * `changed` set where three would write.
 */
export function sampleMixers(a: MixerArrays, first: number, count: number): void {
  for (let m = first; m < first + count; m++) {
    const row = ROW_INTS * m;
    accumulateActions(a, a.rows[row]!, a.rows[row + 1]!);
    applyProperties(a, a.rows[row + 2]!, a.rows[row + 3]!, a.rows[row + 4]!);
  }
}

/** Actions first … first + count − 1: their records evaluated and accumulated. */
function accumulateActions(a: MixerArrays, firstAction: number, nActions: number): void {
  const b = a.blocks;
  const ri = a.recordInts;
  for (let k = firstAction; k < firstAction + nActions; k++) {
    const first = a.actionInts[ACTION_INTS * k]!;
    const count = a.actionInts[ACTION_INTS * k + 1]!;
    const flags = a.actionInts[ACTION_INTS * k + 2]!;
    const accuIndex = a.actionInts[ACTION_INTS * k + 3]!;
    const time = a.actionFloats[ACTION_FLOATS * k]!;
    const weight = a.actionFloats[ACTION_FLOATS * k + 1]!;
    const additive = (flags & 1) !== 0;
    const endingStart = (flags >> 4) & 15;
    const endingEnd = (flags >> 8) & 15;
    for (let r = first; r < first + count; r++) {
      evaluate(a, r, time, endingStart, endingEnd);
      const R = RECORD_INTS * r;
      const block = ri[R + R_BLOCK]!;
      const stride = ri[R + R_STRIDE]!;
      const kind = ri[R + R_MIX]!;
      const buf = block + 2;
      if (additive) {
        // PropertyMixer.accumulateAdditive
        const offset = buf + 4 * stride;
        if (b[block + 1] === 0) {
          for (let i = 0; i < stride; i++) b[offset + i] = 0;
          if (kind === MIX_SLERP) b[offset + 3] = 1;
        }
        mixAdditive(b, buf, kind, offset, buf, weight, stride);
        b[block + 1] = b[block + 1]! + weight;
      } else {
        // PropertyMixer.accumulate
        const offset = buf + accuIndex * stride + stride;
        let currentWeight = b[block]!;
        if (currentWeight === 0) {
          for (let i = 0; i !== stride; ++i) b[offset + i] = b[buf + i]!;
          currentWeight = weight;
        } else {
          currentWeight += weight;
          mix(b, kind, offset, buf, weight / currentWeight, stride);
        }
        b[block] = currentWeight;
      }
    }
  }
}

/** Properties first … first + count − 1 finished (PropertyMixer.apply). */
function applyProperties(a: MixerArrays, firstApply: number, nApplies: number, accuIndex: number): void {
  const b = a.blocks;
  for (let p = firstApply; p < firstApply + nApplies; p++) {
    const block = a.applyInts[APPLY_INTS * p]!;
    const stride = a.applyInts[APPLY_INTS * p + 1]!;
    const kind = a.applyInts[APPLY_INTS * p + 2]!;
    const buf = block + 2;
    const offset = buf + accuIndex * stride + stride;
    const weight = b[block]!;
    const weightAdditive = b[block + 1]!;
    b[block] = 0;
    b[block + 1] = 0;
    if (weight < 1) mix(b, kind, offset, buf + 3 * stride, 1 - weight, stride);
    if (weightAdditive > 0) mixAdditive(b, buf, kind, offset, buf + 4 * stride, 1, stride);
    let changed = 0;
    for (let i = buf + stride, e = buf + 2 * stride; i !== e; ++i) {
      if (b[i] !== b[i + stride]) {
        changed = 1;
        break;
      }
    }
    a.changed[p] = changed;
    if (changed === 1 && a.angles && a.eulerFlags[p] === 1)
      eulerXyz(b[offset]!, b[offset + 1]!, b[offset + 2]!, b[offset + 3]!, a.eulers, 3 * p);
    const output = a.applyInts[APPLY_INTS * p + 3]!;
    if (output >= 0 && a.output !== null && a.active[p] === 1) {
      const array = output & 3,
        at = output >> 2;
      const out = array === 0 ? a.output!.positions : array === 1 ? a.output!.rotations : a.output!.scales!;
      for (let i = 0; i < stride; i++) out[at + i] = b[offset + i]!;
    }
  }
}
