// The Jacobian of SO(3)'s exponential map, for the inertialization offsets (float64 oracle:
// src/reference/so3-jacobian.ts). The offset spring (decay_spring_damper_exact) moves the offset's
// rotation vector r = log(abs(q)) (scaled angle axis, q = exp(r)) with a rate ṙ = off_w; the
// angular velocity of q in the frame it maps into (dq/dt = ½ ω ⊗ q) is ω = J(r)·ṙ, with the left
// Jacobian (θ = |r|, K = [r]×, s = sin(θ/2), c = cos(θ/2)):
//   J(r)  = I + (1 − cos θ)/θ²·K + (θ − sin θ)/θ³·K²         = I + (2s²/θ²)·K + ((θ − 2sc)/θ³)·K²
//   J⁻¹(r) = I − ½·K + (1/θ² − (1 + cos θ)/(2θ sin θ))·K²    = I − ½·K + (1/θ² − c/(2θs))·K²
// s and c come from the quaternion itself (normalized), θ from the log. Below θ = 0.05 the K²
// coefficients (and J's K one) are their series (truncation < 1e-13): 1/6 − θ²/120 + θ⁴/5040,
// 1/12 + θ²/720 + θ⁴/30240, 1/2 − θ²/24 + θ⁴/720.
import { loadQuatX4, storeVec3X4, loadVec3X4, lx, ly, lz, lw } from '../lanes/transpose-x4';
import { quatLogInRangeX4, unitScaleX4, vecX, vecY, vecZ, quatLogScalar, sx, sy, sz } from './algebra';
import { readF32, writeF32 } from '../lanes/scalar';

const SERIES: f64 = 0.05;

// The result of jacobianX4 (f32x4 per component).
// @ts-ignore: decorator
@lazy export let jx: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let jy: v128 = f32x4.splat(0);
// @ts-ignore: decorator
@lazy export let jz: v128 = f32x4.splat(0);

/**
 * (jx, jy, jz) = J(r)·v (inverse: J⁻¹(r)·v) for four bones, r = log(abs(q)). The coefficients
 * use q only through ratios, so q is scaled by a power of two first (unitScaleX4): for a tiny
 * offset (|q| < 1e-19) |xyz|² underflowed and c/(2θs) was c/0 = ∞.
 */
// @ts-ignore: decorator
@inline export function jacobianX4(qx: v128, qy: v128, qz: v128, qw: v128, px: v128, py: v128, pz: v128, inverse: bool): void {
  const scale = unitScaleX4(qx, qy, qz, qw);
  const x = f32x4.mul(qx, scale), y = f32x4.mul(qy, scale), z = f32x4.mul(qz, scale), w = f32x4.mul(qw, scale);
  quatLogInRangeX4(x, y, z, w);
  jacobianOfX4(vecX, vecY, vecZ, x, y, z, w, px, py, pz, inverse);
}

/**
 * J(r)·p for four bones given a with exp(a) = ±q (the spring's new state before exp): r = a
 * wrapped into |r| ≤ π, a·(1 − 2πk/|a|) with k = round(|a|/2π). Saves the log in the update.
 */
// @ts-ignore: decorator
@inline export function jacobianFromVectorX4(ax: v128, ay: v128, az: v128, qx: v128, qy: v128, qz: v128, qw: v128, px: v128, py: v128, pz: v128): void {
  const n = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(ax, ax), f32x4.mul(ay, ay)), f32x4.mul(az, az)));
  let rx = ax, ry = ay, rz = az;
  const wrap = f32x4.gt(n, f32x4.splat(<f32>Math.PI));
  if (v128.any_true(wrap)) {
    const twoPi = f32x4.splat(<f32>(2 * Math.PI));
    const k = f32x4.sub(f32x4.splat(1), f32x4.div(f32x4.mul(twoPi, f32x4.nearest(f32x4.div(n, twoPi))), n));
    const scale = v128.bitselect(k, f32x4.splat(1), wrap);
    rx = f32x4.mul(ax, scale); ry = f32x4.mul(ay, scale); rz = f32x4.mul(az, scale);
  }
  jacobianOfX4(rx, ry, rz, qx, qy, qz, qw, px, py, pz, false);
}

// @ts-ignore: decorator
@inline function jacobianOfX4(rx: v128, ry: v128, rz: v128, qx: v128, qy: v128, qz: v128, qw: v128, px: v128, py: v128, pz: v128, inverse: bool): void {
  const t2 = f32x4.add(f32x4.add(f32x4.mul(rx, rx), f32x4.mul(ry, ry)), f32x4.mul(rz, rz)); // θ²
  const t = f32x4.sqrt(t2);
  const s2 = f32x4.add(f32x4.add(f32x4.mul(qx, qx), f32x4.mul(qy, qy)), f32x4.mul(qz, qz));
  const c = f32x4.abs(qw);
  const small = f32x4.lt(t, f32x4.splat(<f32>SERIES));
  const t4 = f32x4.mul(t2, t2);
  const it2 = f32x4.div(f32x4.splat(1), t2); // 1/θ² (∞ at θ = 0: those lanes take the series)
  let a: v128, b: v128;
  if (inverse) {
    a = f32x4.splat(-0.5);
    // 1/θ² − c/(2θs): c/s is the ratio of the quaternion's parts (no normalization needed)
    const exact = f32x4.sub(it2, f32x4.div(c, f32x4.mul(f32x4.add(t, t), f32x4.sqrt(s2))));
    const series = f32x4.add(f32x4.splat(<f32>(1.0 / 12)), f32x4.add(f32x4.mul(t2, f32x4.splat(<f32>(1.0 / 720))), f32x4.mul(t4, f32x4.splat(<f32>(1.0 / 30240)))));
    b = v128.bitselect(series, exact, small);
  } else {
    const in2 = f32x4.div(f32x4.splat(2), f32x4.add(s2, f32x4.mul(qw, qw))); // 2/|q|²: s = sin(θ/2)·|q|, c = cos(θ/2)·|q|
    const oneMinusCos = f32x4.mul(s2, in2); // 2 sin²(θ/2)
    const sinT = f32x4.mul(f32x4.mul(f32x4.sqrt(s2), c), in2); // 2 sin(θ/2) cos(θ/2)
    const aSeries = f32x4.add(f32x4.sub(f32x4.splat(0.5), f32x4.mul(t2, f32x4.splat(<f32>(1.0 / 24)))), f32x4.mul(t4, f32x4.splat(<f32>(1.0 / 720))));
    a = v128.bitselect(aSeries, f32x4.mul(oneMinusCos, it2), small);
    const bExact = f32x4.div(f32x4.mul(f32x4.sub(t, sinT), it2), t);
    const bSeries = f32x4.add(f32x4.sub(f32x4.splat(<f32>(1.0 / 6)), f32x4.mul(t2, f32x4.splat(<f32>(1.0 / 120)))), f32x4.mul(t4, f32x4.splat(<f32>(1.0 / 5040))));
    b = v128.bitselect(bSeries, bExact, small);
  }
  // K·p = r × p, K²·p = r × (r × p)
  const kx = f32x4.sub(f32x4.mul(ry, pz), f32x4.mul(rz, py));
  const ky = f32x4.sub(f32x4.mul(rz, px), f32x4.mul(rx, pz));
  const kz = f32x4.sub(f32x4.mul(rx, py), f32x4.mul(ry, px));
  const kkx = f32x4.sub(f32x4.mul(ry, kz), f32x4.mul(rz, ky));
  const kky = f32x4.sub(f32x4.mul(rz, kx), f32x4.mul(rx, kz));
  const kkz = f32x4.sub(f32x4.mul(rx, ky), f32x4.mul(ry, kx));
  jx = f32x4.add(px, f32x4.add(f32x4.mul(a, kx), f32x4.mul(b, kkx)));
  jy = f32x4.add(py, f32x4.add(f32x4.mul(a, ky), f32x4.mul(b, kky)));
  jz = f32x4.add(pz, f32x4.add(f32x4.mul(a, kz), f32x4.mul(b, kkz)));
}

// The result of jacobianScalar.
export let ox: f64 = 0;
export let oy: f64 = 0;
export let oz: f64 = 0;

/** (ox, oy, oz) = J(r)·p (inverse: J⁻¹(r)·p) for one bone in float64, r = log(abs(q)). */
export function jacobianScalar(qx: f64, qy: f64, qz: f64, qw: f64, px: f64, py: f64, pz: f64, inverse: bool): void {
  quatLogScalar(qx, qy, qz, qw);
  jacobianOf(sx, sy, sz, qx, qy, qz, qw, px, py, pz, inverse);
}

/**
 * The same with the rotation vector given: a vector a with exp(a) = ±q (the spring's new state
 * before exp), r = log(abs(q)) = a wrapped into |r| ≤ π: a·(1 − 2πk/|a|), k = round(|a|/2π).
 * Saves the log (an atan2) in the update.
 */
export function jacobianFromVector(ax: f64, ay: f64, az: f64, qx: f64, qy: f64, qz: f64, qw: f64, px: f64, py: f64, pz: f64): void {
  const n = Math.sqrt(ax * ax + ay * ay + az * az);
  let k = 1.0;
  if (n > Math.PI) k = 1 - (2 * Math.PI * Math.round(n / (2 * Math.PI))) / n;
  jacobianOf(k * ax, k * ay, k * az, qx, qy, qz, qw, px, py, pz, false);
}

/** (ox, oy, oz) = J(r)·p (or J⁻¹), r = log(abs(q)) given, q for sin and cos of θ/2. */
// @ts-ignore: decorator
@inline function jacobianOf(rx: f64, ry: f64, rz: f64, qx: f64, qy: f64, qz: f64, qw: f64, px: f64, py: f64, pz: f64, inverse: bool): void {
  const t2 = rx * rx + ry * ry + rz * rz;
  const t = Math.sqrt(t2);
  const s2 = qx * qx + qy * qy + qz * qz;
  const c = Math.abs(qw);
  const t4 = t2 * t2;
  let a: f64, b: f64;
  if (inverse) {
    a = -0.5;
    b = t < SERIES ? 1.0 / 12 + t2 / 720 + t4 / 30240 : 1 / t2 - c / (2 * t * Math.sqrt(s2));
  } else if (t < SERIES) {
    a = 0.5 - t2 / 24 + t4 / 720;
    b = 1.0 / 6 - t2 / 120 + t4 / 5040;
  } else {
    const n2 = s2 + qw * qw;
    a = (2 * s2) / n2 / t2;
    b = (t - (2 * Math.sqrt(s2) * c) / n2) / (t2 * t);
  }
  const kx = ry * pz - rz * py, ky = rz * px - rx * pz, kz = rx * py - ry * px;
  const kkx = ry * kz - rz * ky, kky = rz * kx - rx * kz, kkz = rx * ky - ry * kx;
  ox = px + a * kx + b * kkx;
  oy = py + a * ky + b * kky;
  oz = pz + a * kz + b * kkz;
}

/** w ← J(log q)·w (inverse: J⁻¹(log q)·w) for bones [0, n), in place. */
export function applyJacobian(q: usize, w: usize, n: i32, inverse: bool): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 4 <= n; i += 4) {
      loadQuatX4(q, i);
      const qx = lx, qy = ly, qz = lz, qw = lw;
      loadVec3X4(w, i);
      jacobianX4(qx, qy, qz, qw, lx, ly, lz, inverse);
      storeVec3X4(w, i, jx, jy, jz);
    }
  }
  for (; i < n; i++) jacobianBone(q, w, i, inverse);
}

/** w_i ← J(log q_i)·w_i (or J⁻¹) for bone i, in float64. */
export function jacobianBone(q: usize, w: usize, i: i32, inverse: bool): void {
  jacobianScalar(readF32(q, 4 * i), readF32(q, 4 * i + 1), readF32(q, 4 * i + 2), readF32(q, 4 * i + 3), readF32(w, 3 * i), readF32(w, 3 * i + 1), readF32(w, 3 * i + 2), inverse);
  writeF32(w, 3 * i, ox); writeF32(w, 3 * i + 1, oy); writeF32(w, 3 * i + 2, oz);
}
