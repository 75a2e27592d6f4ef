// The per-track half of three.js's AnimationMixer.update for many mixers in one call: each
// contributing action's keyframe tracks evaluated at its clip time (Interpolant.evaluate: the
// cached-interval search; Discrete, Linear, Cubic and QuaternionLinear interpolate_, and
// GLTFLoader's CUBICSPLINE interpolants) and
// accumulated into their properties (PropertyMixer.accumulate / accumulateAdditive), then each
// listed property finished (PropertyMixer.apply) and flagged where its value changed. Float64, as
// three's PropertyMixer buffers. Quaternion.slerpFlat's acos and sin are the engine's own Math.acos
// and Math.sin, imported (module "Math"): V8 computes sin with glibc's algorithm, not fdlibm's, and
// AssemblyScript's (musl's, fdlibm's) differs from it by an ulp for about 1 % of arguments
// (docs/DECISIONS.md, "MixerBatch: the engine's own sin"); imported, every engine's kernel gives its
// own Math's results; so are the Euler angles' Math.asin and Math.atan2 (assembly/maths/euler-xyz.ts). The layout of the arrays is
// documented with the reference, src/reference/mixer-sampling.ts (indices there, byte offsets of
// the same arrays here). Scalar: the work is searches and branches, one track at a time.
import { eulerXyz } from '../maths/euler-xyz';

// @ts-ignore: decorator
@external("Math", "acos") declare function engineAcos(x: f64): f64;
// @ts-ignore: decorator
@external("Math", "sin") declare function engineSin(x: f64): f64;

const ACTION_INTS: i32 = 4;
const RECORD_INTS: i32 = 12;
const APPLY_INTS: i32 = 4;
const ROW_INTS: i32 = 8;
const KIND_DISCRETE: i32 = 0;
const KIND_LINEAR: i32 = 1;
const KIND_CUBIC: i32 = 2;
const KIND_GLTF_CUBIC: i32 = 4;
const KIND_GLTF_CUBIC_QUATERNION: i32 = 5;
const MIX_SLERP: i32 = 1;
const ENDING_ZERO_SLOPE: i32 = 1;
const ENDING_WRAP_AROUND: i32 = 2;

// @ts-ignore: decorator
@inline function ld(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline function st(base: usize, i: i32, v: f64): void {
  store<f64>(base + (<usize>i << 3), v);
}
// @ts-ignore: decorator
@inline function ldi(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline function sti(base: usize, i: i32, v: i32): void {
  store<i32>(base + (<usize>i << 2), v);
}

/** Quaternion.slerpFlat(dst, d, src0, s0, src1, s1, t) (element indices of f64 arrays). */
function slerpFlat(dst: usize, d: i32, src0: usize, s0: i32, src1: usize, s1: i32, t: f64): void {
  let x0 = ld(src0, s0), y0 = ld(src0, s0 + 1), z0 = ld(src0, s0 + 2), w0 = ld(src0, s0 + 3);
  let x1 = ld(src1, s1), y1 = ld(src1, s1 + 1), z1 = ld(src1, s1 + 2), w1 = ld(src1, s1 + 3);
  if (w0 != w1 || x0 != x1 || y0 != y1 || z0 != z1) {
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
      const theta = engineAcos(dot);
      const sin = engineSin(theta);
      s = engineSin(s * theta) / sin;
      t = engineSin(t * theta) / sin;
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
  st(dst, d, x0);
  st(dst, d + 1, y0);
  st(dst, d + 2, z0);
  st(dst, d + 3, w0);
}

/** PropertyMixer._lerp or _slerp of region dst towards region src (indices into blocks) by t. */
function mixRegion(b: usize, kind: i32, dst: i32, src: i32, t: f64, stride: i32): void {
  if (kind == MIX_SLERP) {
    slerpFlat(b, dst, b, dst, b, src, t);
    return;
  }
  const s = 1 - t;
  for (let i = 0; i != stride; ++i) st(b, dst + i, ld(b, dst + i) * s + ld(b, src + i) * t);
}

/** PropertyMixer._lerpAdditive, or _slerpAdditive (multiplyQuaternionsFlat into the work region, then slerpFlat). */
function mixAdditive(b: usize, buf: i32, kind: i32, dst: i32, src: i32, t: f64, stride: i32): void {
  if (kind == MIX_SLERP) {
    const work = buf + 5 * stride;
    const x0 = ld(b, dst), y0 = ld(b, dst + 1), z0 = ld(b, dst + 2), w0 = ld(b, dst + 3);
    const x1 = ld(b, src), y1 = ld(b, src + 1), z1 = ld(b, src + 2), w1 = ld(b, src + 3);
    st(b, work, x0 * w1 + w0 * x1 + y0 * z1 - z0 * y1);
    st(b, work + 1, y0 * w1 + w0 * y1 + z0 * x1 - x0 * z1);
    st(b, work + 2, z0 * w1 + w0 * z1 + x0 * y1 - y0 * x1);
    st(b, work + 3, w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1);
    slerpFlat(b, dst, b, dst, b, work, t);
    return;
  }
  for (let i = 0; i != stride; ++i) st(b, dst + i, ld(b, dst + i) + ld(b, src + i) * t);
}

/** Interpolant.copySampleValue_(index) of record r into its block's incoming region (a glTF cubic key's vertex: its middle value). */
function copySample(rec: usize, keys: usize, blocks: usize, index: i32): void {
  const stride = ldi(rec, 4);
  const kind = ldi(rec, 0);
  const gltf = kind == KIND_GLTF_CUBIC || kind == KIND_GLTF_CUBIC_QUATERNION;
  const values = ldi(rec, 3) + (gltf ? index * stride * 3 + stride : index * stride);
  const out = ldi(rec, 5) + 2;
  for (let i = 0; i != stride; ++i) st(blocks, out + i, ld(keys, values + i));
}

/** pp[i], or NaN for three's undefined outside the times (the times are finite). */
// @ts-ignore: decorator
@inline function key(keys: usize, times: i32, n: i32, i: i32): f64 {
  return i >= 0 && i < n ? ld(keys, times + i) : NaN;
}

/** CubicInterpolant.intervalChanged_: the neighbours' offsets and weights, cached in the record. */
function intervalChanged(rec: usize, recF: usize, keys: usize, i1: i32, t0: f64, t1: f64, endingStart: i32, endingEnd: i32): void {
  const times = ldi(rec, 1);
  const n = ldi(rec, 2);
  let iPrev = i1 - 2, iNext = i1 + 1;
  let tPrev = key(keys, times, n, iPrev), tNext = key(keys, times, n, iNext);
  if (isNaN(tPrev)) {
    if (endingStart == ENDING_ZERO_SLOPE) {
      iPrev = i1;
      tPrev = 2 * t0 - t1;
    } else if (endingStart == ENDING_WRAP_AROUND) {
      iPrev = n - 2;
      tPrev = t0 + key(keys, times, n, iPrev) - key(keys, times, n, iPrev + 1);
    } else {
      iPrev = i1;
      tPrev = t1;
    }
  }
  if (isNaN(tNext)) {
    if (endingEnd == ENDING_ZERO_SLOPE) {
      iNext = i1;
      tNext = 2 * t1 - t0;
    } else if (endingEnd == ENDING_WRAP_AROUND) {
      iNext = 1;
      tNext = t1 + key(keys, times, n, 1) - key(keys, times, n, 0);
    } else {
      iNext = i1 - 1;
      tNext = t0;
    }
  }
  const halfDt = (t1 - t0) * 0.5;
  const stride = ldi(rec, 4);
  st(recF, 0, halfDt / (t0 - tPrev));
  st(recF, 1, halfDt / (tNext - t1));
  sti(rec, 7, iPrev * stride);
  sti(rec, 8, iNext * stride);
}

/**
 * GLTFCubicSplineInterpolant.interpolate_: the Hermite spline between keys i1 − 1 and i1, each key
 * three values of `stride` (in-tangent, vertex, out-tangent), tangents scaled by the interval.
 */
function gltfCubic(b: usize, out: i32, keys: usize, values: i32, stride: i32, i1: i32, t0: f64, t: f64, t1: f64): void {
  const td = t1 - t0;
  const p = (t - t0) / td, pp = p * p, ppp = pp * p;
  const offset1 = values + i1 * stride * 3, offset0 = offset1 - stride * 3;
  const s2 = -2 * ppp + 3 * pp;
  const s3 = ppp - pp;
  const s0 = 1 - s2;
  const s1 = s3 - pp + p;
  for (let i = 0; i != stride; ++i) {
    const p0 = ld(keys, offset0 + i + stride); // vertex k
    const m0 = ld(keys, offset0 + i + stride * 2) * td; // out-tangent k · (t_k+1 − t_k)
    const p1 = ld(keys, offset1 + i + stride); // vertex k + 1
    const m1 = ld(keys, offset1 + i) * td; // in-tangent k + 1 · (t_k+1 − t_k)
    st(b, out + i, s0 * p0 + s1 * m0 + s2 * p1 + s3 * m1);
  }
}

/** Quaternion.normalize of b[q … q + 3] (a zero quaternion becomes the identity). */
function normalize(b: usize, q: i32): void {
  const x = ld(b, q), y = ld(b, q + 1), z = ld(b, q + 2), w = ld(b, q + 3);
  const l = Math.sqrt(x * x + y * y + z * z + w * w);
  if (l == 0) {
    st(b, q, 0);
    st(b, q + 1, 0);
    st(b, q + 2, 0);
    st(b, q + 3, 1);
    return;
  }
  const f = 1 / l;
  st(b, q, x * f);
  st(b, q + 1, y * f);
  st(b, q + 2, z * f);
  st(b, q + 3, w * f);
}

/** interpolate_ of the record's interpolant class, into the incoming region. */
function interpolate(rec: usize, recF: usize, keys: usize, b: usize, i1: i32, t0: f64, t: f64, t1: f64): void {
  const kind = ldi(rec, 0);
  const stride = ldi(rec, 4);
  const values = ldi(rec, 3);
  const out = ldi(rec, 5) + 2;
  const o1 = values + i1 * stride, o0 = o1 - stride;
  if (kind == KIND_DISCRETE) {
    copySample(rec, keys, b, i1 - 1);
  } else if (kind == KIND_LINEAR) {
    const weight1 = (t - t0) / (t1 - t0), weight0 = 1 - weight1;
    for (let i = 0; i != stride; ++i) st(b, out + i, ld(keys, o0 + i) * weight0 + ld(keys, o1 + i) * weight1);
  } else if (kind == KIND_CUBIC) {
    const oP = values + ldi(rec, 7), oN = values + ldi(rec, 8);
    const wP = ld(recF, 0), wN = ld(recF, 1);
    const p = (t - t0) / (t1 - t0), pp = p * p, ppp = pp * p;
    const sP = -wP * ppp + 2 * wP * pp - wP * p;
    const s0 = (1 + wP) * ppp + (-1.5 - 2 * wP) * pp + (-0.5 + wP) * p + 1;
    const s1 = (-1 - wN) * ppp + (1.5 + wN) * pp + 0.5 * p;
    const sN = wN * ppp - wN * pp;
    for (let i = 0; i != stride; ++i)
      st(b, out + i, sP * ld(keys, oP + i) + s0 * ld(keys, o0 + i) + s1 * ld(keys, o1 + i) + sN * ld(keys, oN + i));
  } else if (kind == KIND_GLTF_CUBIC || kind == KIND_GLTF_CUBIC_QUATERNION) {
    gltfCubic(b, out, keys, values, stride, i1, t0, t, t1);
    if (kind == KIND_GLTF_CUBIC_QUATERNION) normalize(b, out);
  } else {
    const alpha = (t - t0) / (t1 - t0);
    // (three writes every quaternion of the value to result offset 0)
    for (let offset = o1, end = o1 + stride; offset != end; offset += 4) slerpFlat(b, out, keys, offset - stride, keys, offset, alpha);
  }
}

/**
 * Interpolant.evaluate(t) of one record into its block's incoming region: the search from the
 * cached index (forward linear scan of two keys, the looping shortcut, a reverse scan of two keys,
 * then a binary search), three's labelled blocks as flags; first, the cached interval and the next
 * two tried directly (a forward play's cases, where three's scan ends in the same interval).
 */
function evaluate(rec: usize, recF: usize, keys: usize, b: usize, t: f64, endingStart: i32, endingEnd: i32): void {
  const times = ldi(rec, 1);
  const n = ldi(rec, 2);
  let i1 = ldi(rec, 6);
  if (<u32>(i1 - 1) < <u32>(n - 1)) {
    // (0 < i1 < n: both keys exist) the cached interval, or the next one or two: a forward play's
    // cases, with three's result (its forward scan finds the same i1, then intervalChanged_)
    const t0 = ld(keys, times + i1 - 1), t1 = ld(keys, times + i1);
    if (t < t1) {
      if (t >= t0) {
        interpolate(rec, recF, keys, b, i1, t0, t, t1);
        return;
      }
    } else if (i1 + 2 < n) {
      // the next interval [lo, hi), then the one after it
      let lo = t1;
      for (let k = 1; k <= 2; k++) {
        const hi = ld(keys, times + i1 + k);
        if (t < hi) {
          sti(rec, 6, i1 + k);
          if (ldi(rec, 0) == KIND_CUBIC) intervalChanged(rec, recF, keys, i1 + k, lo, hi, endingStart, endingEnd);
          interpolate(rec, recF, keys, b, i1 + k, lo, t, hi);
          return;
        }
        lo = hi;
      }
    }
  }
  let t1 = key(keys, times, n, i1), t0 = key(keys, times, n, i1 - 1);
  let right: i32 = 0;
  let found = false; // break seek: a new interval
  let binary = false; // break linear_scan
  let reverse = true; // the reverse check after forward_scan
  if (!(t < t1)) {
    reverse = false;
    for (let giveUpAt = i1 + 2; ; ) {
      if (isNaN(t1)) {
        if (t < t0) {
          reverse = true; // break forward_scan
          break;
        }
        sti(rec, 6, n);
        copySample(rec, keys, b, n - 1);
        return;
      }
      if (i1 == giveUpAt) {
        right = n;
        binary = true;
        break;
      }
      t0 = t1;
      t1 = key(keys, times, n, ++i1);
      if (t < t1) {
        found = true;
        break;
      }
    }
  }
  if (reverse) {
    if (!(t >= t0)) {
      const t1global = key(keys, times, n, 1);
      if (t < t1global) {
        i1 = 2;
        t0 = t1global;
      }
      for (let giveUpAt = i1 - 2; ; ) {
        if (isNaN(t0)) {
          sti(rec, 6, 0);
          copySample(rec, keys, b, 0);
          return;
        }
        if (i1 == giveUpAt) {
          right = i1;
          i1 = 0;
          binary = true;
          break;
        }
        t1 = t0;
        t0 = key(keys, times, n, --i1 - 1);
        if (t >= t0) {
          found = true;
          break;
        }
      }
    } else {
      // the interval is valid: no intervalChanged_
      interpolate(rec, recF, keys, b, i1, t0, t, t1);
      return;
    }
  }
  if (binary) {
    while (i1 < right) {
      const mid = <i32>(<u32>(i1 + right) >>> 1);
      if (t < key(keys, times, n, mid)) right = mid;
      else i1 = mid + 1;
    }
    t1 = key(keys, times, n, i1);
    t0 = key(keys, times, n, i1 - 1);
    if (isNaN(t0)) {
      sti(rec, 6, 0);
      copySample(rec, keys, b, 0);
      return;
    }
    if (isNaN(t1)) {
      sti(rec, 6, n);
      copySample(rec, keys, b, n - 1);
      return;
    }
  }
  sti(rec, 6, i1);
  if (ldi(rec, 0) == KIND_CUBIC) intervalChanged(rec, recF, keys, i1, t0, t1, endingStart, endingEnd);
  interpolate(rec, recF, keys, b, i1, t0, t, t1);
}

/**
 * Mixers 0 … nMixers − 1 of `rows` (8 int32 a mixer: first action, action count, first apply, apply
 * count, accuIndex): each mixer's actions accumulated, then its properties finished; a property in
 * use (active, a byte each) with an output copies its value to positions, rotations or scales
 * (float32 when outF32, else float64; positions 0: no output this call). Mixers share only the keys (read): a threaded call splits by
 * whole mixers.
 */
export function sampleMixers(
  rows: usize, nMixers: i32,
  actionInts: usize, actionFloats: usize,
  recordInts: usize, recordFloats: usize, keys: usize, blocks: usize,
  applyInts: usize, changed: usize,
  active: usize, positions: usize, rotations: usize, scales: usize, outF32: bool,
  eulerFlags: usize, eulers: usize,
): void {
  for (let m = 0; m < nMixers; m++) {
    const row = rows + (<usize>(ROW_INTS * m) << 2);
    const firstAction = ldi(row, 0), nActions = ldi(row, 1), firstApply = ldi(row, 2), nApplies = ldi(row, 3);
    const accuIndex = ldi(row, 4);
    accumulateActions(actionInts, actionFloats, firstAction, nActions, recordInts, recordFloats, keys, blocks);
    applyProperties(applyInts, firstApply, nApplies, accuIndex, blocks, changed, active, positions, rotations, scales, outF32, eulerFlags, eulers);
  }
}

/** Actions first … first + count − 1: their records evaluated and accumulated (PropertyMixer.accumulate / accumulateAdditive). */
function accumulateActions(
  actionInts: usize, actionFloats: usize, firstAction: i32, nActions: i32,
  recordInts: usize, recordFloats: usize, keys: usize, b: usize,
): void {
  for (let k = firstAction; k < firstAction + nActions; k++) {
    const act = actionInts + (<usize>(ACTION_INTS * k) << 2);
    const first = ldi(act, 0), count = ldi(act, 1), flags = ldi(act, 2), accuIndex = ldi(act, 3);
    const time = ld(actionFloats, 2 * k), weight = ld(actionFloats, 2 * k + 1);
    const additive = (flags & 1) != 0;
    const endingStart = (flags >> 4) & 15, endingEnd = (flags >> 8) & 15;
    for (let r = first; r < first + count; r++) {
      const rec = recordInts + (<usize>(RECORD_INTS * r) << 2);
      const recF = recordFloats + (<usize>r << 4);
      evaluate(rec, recF, keys, b, time, endingStart, endingEnd);
      const block = ldi(rec, 5), stride = ldi(rec, 10), kind = ldi(rec, 9); // stride: the property's value size
      const buf = block + 2;
      if (additive) {
        const offset = buf + 4 * stride;
        if (ld(b, block + 1) == 0) {
          for (let i = 0; i < stride; i++) st(b, offset + i, 0);
          if (kind == MIX_SLERP) st(b, offset + 3, 1);
        }
        mixAdditive(b, buf, kind, offset, buf, weight, stride);
        st(b, block + 1, ld(b, block + 1) + weight);
      } else {
        const offset = buf + accuIndex * stride + stride;
        let currentWeight = ld(b, block);
        if (currentWeight == 0) {
          for (let i = 0; i != stride; ++i) st(b, offset + i, ld(b, buf + i));
          currentWeight = weight;
        } else {
          currentWeight += weight;
          mixRegion(b, kind, offset, buf, weight / currentWeight, stride);
        }
        st(b, block, currentWeight);
      }
    }
  }
}

/**
 * Properties first … first + count − 1 finished (PropertyMixer.apply), changed[p] = 1 where three would
 * write; those in use with an output (applyInts' fourth field: 4 · place + array) copied there;
 * with eulerFlags (0: none this call), a changed quaternion flagged there gets its Euler angles.
 */
function applyProperties(
  applyInts: usize, firstApply: i32, nApplies: i32, accuIndex: i32, b: usize, changed: usize,
  active: usize, positions: usize, rotations: usize, scales: usize, outF32: bool,
  eulerFlags: usize, eulers: usize,
): void {
  for (let p = firstApply; p < firstApply + nApplies; p++) {
    const app = applyInts + (<usize>(APPLY_INTS * p) << 2);
    const block = ldi(app, 0), stride = ldi(app, 1), kind = ldi(app, 2);
    const buf = block + 2;
    const offset = buf + accuIndex * stride + stride;
    const weight = ld(b, block), weightAdditive = ld(b, block + 1);
    st(b, block, 0);
    st(b, block + 1, 0);
    if (weight < 1) mixRegion(b, kind, offset, buf + 3 * stride, 1 - weight, stride);
    if (weightAdditive > 0) mixAdditive(b, buf, kind, offset, buf + 4 * stride, 1, stride);
    let flag = 0;
    for (let i = buf + stride, e = buf + 2 * stride; i != e; ++i) {
      if (ld(b, i) != ld(b, i + stride)) {
        flag = 1;
        break;
      }
    }
    sti(changed, p, flag);
    if (flag == 1 && eulerFlags != 0 && load<u8>(eulerFlags + <usize>p) == 1) eulerXyz(ld(b, offset), ld(b, offset + 1), ld(b, offset + 2), ld(b, offset + 3), eulers + (<usize>(3 * p) << 3));
    const output = ldi(app, 3);
    if (output >= 0 && positions != 0 && load<u8>(active + <usize>p) == 1) {
      const array = output & 3, at = output >> 2;
      const out = array == 0 ? positions : array == 1 ? rotations : scales;
      const from = b + (<usize>offset << 3);
      if (outF32) {
        const o = out + (<usize>at << 2);
        for (let i = 0; i < stride; i++) store<f32>(o + (<usize>i << 2), <f32>load<f64>(from + (<usize>i << 3)));
      } else {
        const o = out + (<usize>at << 3);
        for (let i = 0; i < stride; i++) store<i64>(o + (<usize>i << 3), load<i64>(from + (<usize>i << 3)));
      }
    }
  }
}
