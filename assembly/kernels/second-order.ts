// t3ssel8r's second-order dynamics ("Giving Personality to Procedural Animations using Math"):
//   y + k1·y' + k2·y'' = x + k3·x',  k1 = ζ/(πf),  k2 = 1/(2πf)²,  k3 = r·ζ/(2πf),
// one step per channel by 'euler-substep', 'clamped', 'pole-zero' or 'exact' (each method is
// documented in the float64 reference, src/reference/second-order.ts).
//
// Every kernel takes (x, xd, xPrev, y, yd, c0 … c6, n, f, fStride, zeta, zetaStride, r, rStride,
// dt, prepare). xd = 0 means "estimate xd = (x − xPrev)/dt"; xPrev is set to x. A step is two
// parts: the method's coefficients of each channel, computed in float64 (f64x2 in the SIMD
// build), and the step itself in float32 (f32x4), written as the source writes it.
// Uniform parameters: the coefficients once per call. Per element: they are stored as float32
// in the planes c0 … c6 (n floats each) when `prepare` is 1, and only read when it is 0 (the host
// prepares when dt or the method changed). What each plane holds:
//   clamped, pole-zero: c·k1s, c = T/k2s, c·k3 (c·k1s ≤ 1 and |c·k3| ≤ 4|r|, where k1s and k3
//                       alone exceed float32 for huge ζ/f or r·ζ/f: k1s = 1e300 gave ∞·0 = NaN)
//   euler-substep:      k3, a00, a01, a10, a11 (the substeps composed, see composeSubsteps)
//   exact:              k3, C, m01, D, m10, m11, I (see the exact step in `step`)
// The SIMD part runs only while dt and 1/dt are finite in float32; otherwise every channel takes
// the float64 path.
import { springTransition, xv, vx, vv, xp } from '../spring/transition';
import { springTransitionX2, xvX2, vxX2, vvX2, xpX2 } from '../spring/transition-x2';
import { expX2, sinCosX2, cosOut } from '../maths/x2';
import { paramAt } from '../lanes/scalar';
import { storeX2, paramX2 } from '../lanes/x2';

const EULER_SUBSTEP = 0;
const CLAMPED = 1;
const POLE_ZERO = 2;
const EXACT = 3;

const PI: f64 = 3.141592653589793;
const TWO_PI: f64 = 6.283185307179586;

export function secondOrderEulerSubstep(
  x: usize, xd: usize, xPrev: usize, y: usize, yd: usize, c0: usize, c1: usize, c2: usize, c3: usize, c4: usize, c5: usize, c6: usize,
  n: i32, f: usize, fStride: i32, zeta: usize, zetaStride: i32, r: usize, rStride: i32, dt: f64, prepare: i32,
): void {
  run(EULER_SUBSTEP, x, xd, xPrev, y, yd, c0, c1, c2, c3, c4, c5, c6, n, f, fStride, zeta, zetaStride, r, rStride, dt, prepare);
}

export function secondOrderClamped(
  x: usize, xd: usize, xPrev: usize, y: usize, yd: usize, c0: usize, c1: usize, c2: usize, c3: usize, c4: usize, c5: usize, c6: usize,
  n: i32, f: usize, fStride: i32, zeta: usize, zetaStride: i32, r: usize, rStride: i32, dt: f64, prepare: i32,
): void {
  run(CLAMPED, x, xd, xPrev, y, yd, c0, c1, c2, c3, c4, c5, c6, n, f, fStride, zeta, zetaStride, r, rStride, dt, prepare);
}

export function secondOrderPoleZero(
  x: usize, xd: usize, xPrev: usize, y: usize, yd: usize, c0: usize, c1: usize, c2: usize, c3: usize, c4: usize, c5: usize, c6: usize,
  n: i32, f: usize, fStride: i32, zeta: usize, zetaStride: i32, r: usize, rStride: i32, dt: f64, prepare: i32,
): void {
  run(POLE_ZERO, x, xd, xPrev, y, yd, c0, c1, c2, c3, c4, c5, c6, n, f, fStride, zeta, zetaStride, r, rStride, dt, prepare);
}

export function secondOrderExact(
  x: usize, xd: usize, xPrev: usize, y: usize, yd: usize, c0: usize, c1: usize, c2: usize, c3: usize, c4: usize, c5: usize, c6: usize,
  n: i32, f: usize, fStride: i32, zeta: usize, zetaStride: i32, r: usize, rStride: i32, dt: f64, prepare: i32,
): void {
  run(EXACT, x, xd, xPrev, y, yd, c0, c1, c2, c3, c4, c5, c6, n, f, fStride, zeta, zetaStride, r, rStride, dt, prepare);
}

// `method` is a constant at every call site: inlining folds the method branches away.
// @ts-ignore: decorator
@inline function run(
  method: i32, x: usize, xd: usize, xPrev: usize, y: usize, yd: usize, c0: usize, c1: usize, c2: usize, c3: usize, c4: usize, c5: usize, c6: usize,
  n: i32, f: usize, fStride: i32, zeta: usize, zetaStride: i32, r: usize, rStride: i32, dt: f64, prepare: i32,
): void {
  // n = 0: nothing to step, and no substep count to check (SecondOrderDynamics checks channels'
  // ceil(T/Tcrit)); the uniform coefficients would still compose them (1e9 substeps took seconds)
  if (dt == 0 || n == 0) return;
  const uniform = fStride == 0 && zetaStride == 0 && rStride == 0;
  if (uniform) coefficients(method, paramAt(f, 0, 0), paramAt(zeta, 0, 0), paramAt(r, 0, 0), dt);
  else if (prepare) prepareChannels(method, c0, c1, c2, c3, c4, c5, c6, n, f, fStride, zeta, zetaStride, r, rStride, dt);
  let i = 0;
  // In float32, dt > 3.4e38 is Infinity and dt < 2.9e-39 makes 1/dt Infinity (then y += dt·yd or
  // (x − xPrev)/dt give ∞·0 = NaN where the float64 step is finite): such dt take the scalar path.
  const dtFitsF32 = dt <= <f64>F32.MAX_VALUE && 1 / dt <= <f64>F32.MAX_VALUE;
  if (ASC_FEATURE_SIMD && dtFitsF32) {
    const dtX4 = f32x4.splat(<f32>dt);
    const invDtX4 = f32x4.splat(<f32>(1 / dt));
    if (uniform) {
      const p0 = f32x4.splat(<f32>g0), p1 = f32x4.splat(<f32>g1), p2 = f32x4.splat(<f32>g2);
      const p3 = f32x4.splat(<f32>g3), p4 = f32x4.splat(<f32>g4), p5 = f32x4.splat(<f32>g5), p6 = f32x4.splat(<f32>g6);
      for (; i + 4 <= n; i += 4) stepX4(method, x, xd, xPrev, y, yd, <usize>i << 2, p0, p1, p2, p3, p4, p5, p6, dtX4, invDtX4);
    } else {
      for (; i + 4 <= n; i += 4) {
        const off = <usize>i << 2;
        const p0 = v128.load(c0 + off), p1 = v128.load(c1 + off), p2 = v128.load(c2 + off);
        // Planes a method does not use may be absent (pointer 0): their value is never read.
        const p3 = method == EXACT || method == EULER_SUBSTEP ? v128.load(c3 + off) : p2;
        const p4 = method == EXACT || method == EULER_SUBSTEP ? v128.load(c4 + off) : p2;
        const p5 = method == EXACT ? v128.load(c5 + off) : p2;
        const p6 = method == EXACT ? v128.load(c6 + off) : p2;
        stepX4(method, x, xd, xPrev, y, yd, off, p0, p1, p2, p3, p4, p5, p6, dtX4, invDtX4);
      }
    }
  }
  for (; i < n; i++) {
    if (!uniform) loadCoefficients(method, c0, c1, c2, c3, c4, c5, c6, i);
    step(method, x, xd, xPrev, y, yd, <usize>i << 2, g0, g1, g2, g3, g4, g5, g6, dt);
  }
}

// ---- Coefficients, float64 ----------------------------------------------------------------

// The coefficients of one channel, in plane order (see the top of the file).
let g0: f64 = 0, g1: f64 = 0, g2: f64 = 0, g3: f64 = 0, g4: f64 = 0, g5: f64 = 0, g6: f64 = 0;

function coefficients(method: i32, f: f64, zeta: f64, r: f64, dt: f64): void {
  const w = TWO_PI * f; // t3ssel8r: ω = 2πf
  const k1 = zeta / (PI * f); // t3ssel8r: k1 = ζ/(πf)
  const k2 = 1 / (w * w); // t3ssel8r: k2 = 1/(2πf)²
  const k3 = (r * zeta) / w; // t3ssel8r: k3 = rζ/(2πf)
  if (method == EXACT) {
    springTransition(w * w, 2 * zeta * w, dt); // y'' = s·(u − y) − d·y' with s = 1/k2 = ω², d = k1/k2 = 2ζω
    const C = w * w * xp; // C = 1 − m00 = s·P, without the cancellation of 1 − m00
    // D = 1 − (k1·C + m01)/T with k1·C = (d/s)·s·P = d·P; I = C/T (derivation at the exact step)
    g0 = k3; g1 = C; g2 = xv; g3 = 1 - (2 * zeta * w * xp + xv) / dt; g4 = vx; g5 = vv; g6 = C / dt;
    return;
  }
  if (method == EULER_SUBSTEP) {
    // t3ssel8r: Tcrit = 0.8·(√(4k2 + k1²) − k1), written without the cancellation at large k1
    const tCrit = (0.8 * (4 * k2)) / (Math.sqrt(4 * k2 + k1 * k1) + k1);
    const iterations = Math.ceil(dt / tCrit); // t3ssel8r: iterations = ceil(T/Tcrit), T /= iterations
    const h = dt / iterations;
    composeSubsteps(iterations, h, h / k2, k1);
    g0 = k3;
    return;
  }
  // t3ssel8r: k2_stable = max(k2, T²/2 + T·k1/2, T·k1), k1_stable = k1
  let k2s = Math.max(k2, Math.max((dt * dt) / 2 + (dt * k1) / 2, dt * k1));
  let k1s = k1;
  if (method == POLE_ZERO && w * dt >= zeta) {
    const t1 = Math.exp(-zeta * w * dt); // t3ssel8r: t1 = exp(−ζωT)
    const d = w * Math.sqrt(Math.abs(zeta * zeta - 1)); // t3ssel8r: d = ω·√|ζ² − 1|
    // t3ssel8r: α = 2·t1·cos(T·d) (ζ ≤ 1) or 2·t1·cosh(T·d), the latter as e^{−ζωT + Td} + e^{−ζωT − Td}
    const alpha = zeta <= 1 ? 2 * t1 * Math.cos(dt * d) : Math.exp(-zeta * w * dt + dt * d) + Math.exp(-zeta * w * dt - dt * d);
    const beta = t1 * t1; // t3ssel8r: β = t1²
    const denom = 1 + beta - alpha;
    if (denom > 0) {
      // ≤ 0 only for ζ = 0, ω·T a multiple of 2π (double pole at +1): the clamp (as the reference)
      const t2 = dt / denom; // t3ssel8r: t2 = T/(1 + β − α)
      k1s = (1 - beta) * t2; // t3ssel8r: k1_stable = (1 − β)·t2
      k2s = dt * t2; // t3ssel8r: k2_stable = T·t2
    }
  }
  const c = dt / k2s;
  g0 = c * k1s; g1 = c; g2 = c * k3;
}

/**
 * t3ssel8r's substeps (h, `iterations` of them) with the input u = x + k3·xd held, composed into
 * one linear map. y = u, yd = 0 is a fixed point of every substep, so with e = y − u the map is
 * e' = a00·e + a01·yd, yd' = a10·e + a11·yd: the substeps applied to (e, yd) = (1, 0) and (0, 1).
 */
function composeSubsteps(iterations: f64, h: f64, hk2: f64, k1: f64): void {
  let e0: f64 = 1, yd0: f64 = 0, e1: f64 = 0, yd1: f64 = 1;
  for (let it: f64 = 0; it < iterations; it++) {
    e0 += h * yd0; // t3ssel8r: y += T·yd
    yd0 += hk2 * (-e0 - k1 * yd0); // t3ssel8r: yd += T·(x + k3·xd − y − k1·yd)/k2
    e1 += h * yd1;
    yd1 += hk2 * (-e1 - k1 * yd1);
  }
  g1 = e0; g2 = e1; g3 = yd0; g4 = yd1;
}

// @ts-ignore: decorator
@inline function loadCoefficients(method: i32, c0: usize, c1: usize, c2: usize, c3: usize, c4: usize, c5: usize, c6: usize, i: i32): void {
  const off = <usize>i << 2;
  g0 = <f64>load<f32>(c0 + off);
  g1 = <f64>load<f32>(c1 + off);
  g2 = <f64>load<f32>(c2 + off);
  if (method == EXACT || method == EULER_SUBSTEP) {
    g3 = <f64>load<f32>(c3 + off);
    g4 = <f64>load<f32>(c4 + off);
  }
  if (method == EXACT) {
    g5 = <f64>load<f32>(c5 + off);
    g6 = <f64>load<f32>(c6 + off);
  }
}

/** Per-element parameters: the coefficients of every channel, stored as float32 in the planes. */
function prepareChannels(
  method: i32, c0: usize, c1: usize, c2: usize, c3: usize, c4: usize, c5: usize, c6: usize,
  n: i32, f: usize, fStride: i32, zeta: usize, zetaStride: i32, r: usize, rStride: i32, dt: f64,
): void {
  let i = 0;
  if (ASC_FEATURE_SIMD) {
    for (; i + 2 <= n; i += 2) {
      coefficientsX2(method, paramX2(f, fStride, i), paramX2(zeta, zetaStride, i), paramX2(r, rStride, i), dt);
      storeX2(c0, i, g0X2);
      storeX2(c1, i, g1X2);
      storeX2(c2, i, g2X2);
      if (method == EXACT || method == EULER_SUBSTEP) {
        storeX2(c3, i, g3X2);
        storeX2(c4, i, g4X2);
      }
      if (method == EXACT) {
        storeX2(c5, i, g5X2);
        storeX2(c6, i, g6X2);
      }
    }
  }
  for (; i < n; i++) {
    coefficients(method, paramAt(f, fStride, i), paramAt(zeta, zetaStride, i), paramAt(r, rStride, i), dt);
    const off = <usize>i << 2;
    store<f32>(c0 + off, <f32>g0);
    store<f32>(c1 + off, <f32>g1);
    store<f32>(c2 + off, <f32>g2);
    if (method == EXACT || method == EULER_SUBSTEP) {
      store<f32>(c3 + off, <f32>g3);
      store<f32>(c4 + off, <f32>g4);
    }
    if (method == EXACT) {
      store<f32>(c5 + off, <f32>g5);
      store<f32>(c6 + off, <f32>g6);
    }
  }
}

// ---- Coefficients, two channels in f64x2 ----------------------------------------------------

// @ts-ignore: decorator
@lazy let g0X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let g1X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let g2X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let g3X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let g4X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let g5X2: v128 = f64x2.splat(0);
// @ts-ignore: decorator
@lazy let g6X2: v128 = f64x2.splat(0);

/** `coefficients` for two channels, each with its own f, ζ, r. */
function coefficientsX2(method: i32, f: v128, zeta: v128, r: v128, dt: f64): void {
  const one = f64x2.splat(1);
  const dtX2 = f64x2.splat(dt);
  const w = f64x2.mul(f64x2.splat(TWO_PI), f);
  let k1: v128, k2: v128;
  if (method == EULER_SUBSTEP) {
    // As `coefficients` (and the reference), so that the substep count ceil(T/Tcrit) is the same.
    k1 = f64x2.div(zeta, f64x2.mul(f64x2.splat(PI), f));
    k2 = f64x2.div(one, f64x2.mul(w, w));
  } else {
    // One division: k1 = 2ζ/ω, k2 = 1/ω² (1 ulp of float64 from the above; they enter continuously).
    const invW = f64x2.div(one, w);
    k1 = f64x2.mul(f64x2.add(zeta, zeta), invW);
    k2 = f64x2.mul(invW, invW);
  }
  const k3 = f64x2.mul(f64x2.mul(f64x2.splat(0.5), r), k1); // k3 = rζ/ω = r·k1/2
  if (method == EXACT) {
    const s = f64x2.mul(w, w);
    const d = f64x2.mul(f64x2.add(zeta, zeta), w);
    springTransitionX2(s, d, dt, true); // with P = ∫ xv (xpX2)
    const C = f64x2.mul(s, xpX2); // as in `coefficients`
    g0X2 = k3; g1X2 = C; g2X2 = xvX2;
    g3X2 = f64x2.sub(one, f64x2.div(f64x2.add(f64x2.mul(d, xpX2), xvX2), dtX2));
    g4X2 = vxX2; g5X2 = vvX2; g6X2 = f64x2.div(C, dtX2);
    return;
  }
  if (method == EULER_SUBSTEP) {
    const fourK2 = f64x2.mul(f64x2.splat(4), k2);
    const tCrit = f64x2.div(f64x2.mul(f64x2.splat(0.8), fourK2), f64x2.add(f64x2.sqrt(f64x2.add(fourK2, f64x2.mul(k1, k1))), k1));
    const iterations = f64x2.ceil(f64x2.div(dtX2, tCrit));
    const h = f64x2.div(dtX2, iterations);
    composeSubstepsX2(iterations, h, f64x2.mul(h, f64x2.mul(w, w)), k1); // h/k2 = h·ω²
    g0X2 = k3;
    return;
  }
  const clamp = f64x2.add(f64x2.splat((dt * dt) / 2), f64x2.mul(f64x2.splat(dt / 2), k1));
  let k2s = f64x2.max(k2, f64x2.max(clamp, f64x2.mul(dtX2, k1)));
  let k1s = k1;
  if (method == POLE_ZERO) {
    const wdt = f64x2.mul(w, dtX2);
    const poles = f64x2.ge(wdt, zeta);
    if (v128.any_true(poles)) {
      const zwdt = f64x2.mul(zeta, wdt);
      const t1 = expX2(f64x2.neg(zwdt));
      const Td = f64x2.mul(dtX2, f64x2.mul(w, f64x2.sqrt(f64x2.abs(f64x2.sub(f64x2.mul(zeta, zeta), one)))));
      const under = f64x2.le(zeta, one);
      let alpha = f64x2.splat(0);
      if (v128.any_true(v128.and(poles, under))) {
        sinCosX2(Td);
        let cos = cosOut;
        // sinCosX2 reduces exactly only below 2^20·π/2 rad; past it (f·T > 2.6e5 periods a step) its
        // result is not even bounded (T·d = 2.4e34 gave yd = −∞): those lanes take Math.cos
        if (v128.any_true(f64x2.ge(Td, f64x2.splat(SIN_COS_X2_MAX)))) cos = libmCosX2(Td, cos);
        alpha = v128.bitselect(f64x2.mul(f64x2.add(t1, t1), cos), alpha, under);
      }
      if (v128.any_true(v128.andnot(poles, under))) {
        const coshTerm = f64x2.add(expX2(f64x2.sub(Td, zwdt)), expX2(f64x2.neg(f64x2.add(zwdt, Td))));
        alpha = v128.bitselect(alpha, coshTerm, under);
      }
      const beta = f64x2.mul(t1, t1);
      const denom = f64x2.sub(f64x2.add(one, beta), alpha);
      const t2 = f64x2.div(dtX2, denom);
      const use = v128.and(poles, f64x2.gt(denom, f64x2.splat(0)));
      k1s = v128.bitselect(f64x2.mul(f64x2.sub(one, beta), t2), k1s, use);
      k2s = v128.bitselect(f64x2.mul(dtX2, t2), k2s, use);
    }
  }
  const c = f64x2.div(dtX2, k2s);
  g0X2 = f64x2.mul(c, k1s);
  g1X2 = c;
  g2X2 = f64x2.mul(c, k3);
}

// 2^20·π/2: sinCosX2's range (assembly/maths/x2.ts).
const SIN_COS_X2_MAX: f64 = 1647099.3291652855;

/** Math.cos (full argument reduction) for the lanes of θ at or past SIN_COS_X2_MAX, `cos` elsewhere. */
function libmCosX2(theta: v128, cos: v128): v128 {
  const t0 = f64x2.extract_lane(theta, 0), t1 = f64x2.extract_lane(theta, 1);
  const c0 = t0 >= SIN_COS_X2_MAX ? Math.cos(t0) : f64x2.extract_lane(cos, 0);
  const c1 = t1 >= SIN_COS_X2_MAX ? Math.cos(t1) : f64x2.extract_lane(cos, 1);
  return f64x2.replace_lane(f64x2.splat(c0), 1, c1);
}

/** composeSubsteps for two channels; each runs its own number of substeps. */
function composeSubstepsX2(iterations: v128, h: v128, hk2: v128, k1: v128): void {
  let e0 = f64x2.splat(1), yd0 = f64x2.splat(0), e1 = f64x2.splat(0), yd1 = f64x2.splat(1);
  const count = Math.max(f64x2.extract_lane(iterations, 0), f64x2.extract_lane(iterations, 1));
  for (let it: f64 = 0; it < count; it++) {
    const active = f64x2.lt(f64x2.splat(it), iterations);
    const e0n = f64x2.add(e0, f64x2.mul(h, yd0));
    const yd0n = f64x2.sub(yd0, f64x2.mul(hk2, f64x2.add(e0n, f64x2.mul(k1, yd0))));
    const e1n = f64x2.add(e1, f64x2.mul(h, yd1));
    const yd1n = f64x2.sub(yd1, f64x2.mul(hk2, f64x2.add(e1n, f64x2.mul(k1, yd1))));
    e0 = v128.bitselect(e0n, e0, active);
    yd0 = v128.bitselect(yd0n, yd0, active);
    e1 = v128.bitselect(e1n, e1, active);
    yd1 = v128.bitselect(yd1n, yd1, active);
  }
  g1X2 = e0; g2X2 = e1; g3X2 = yd0; g4X2 = yd1;
}

// ---- The step ---------------------------------------------------------------------------------

// One channel at byte offset `off`, float64, with its coefficients p0 … p5 (plane order).
// @ts-ignore: decorator
@inline function step(
  method: i32, x: usize, xd: usize, xPrev: usize, y: usize, yd: usize, off: usize,
  p0: f64, p1: f64, p2: f64, p3: f64, p4: f64, p5: f64, p6: f64, dt: f64,
): void {
  const xi = <f64>load<f32>(x + off);
  const xPrevi = <f64>load<f32>(xPrev + off);
  const slope = (xi - xPrevi) / dt;
  const xdi = xd ? <f64>load<f32>(xd + off) : slope; // t3ssel8r: estimate the input velocity
  let yi = <f64>load<f32>(y + off);
  let ydi = <f64>load<f32>(yd + off);
  if (method == EXACT) {
    // The reference's first-order hold (src/reference/second-order.ts): with Δ = x − xPrev,
    // slope = Δ/T, U = k3·xd, the ramp solution plus the transition of its offset gives
    //   y' = x + U − k1·slope + m00·(y − xPrev − U + k1·slope) + m01·(yd − slope)
    //   yd' = slope + m10·(y − xPrev − U + k1·slope) + m11·(yd − slope).
    // Collected on e = y − xPrev, U, yd and Δ, with 1 − m00 = s·P (P = ∫₀ᵀ m01), k1·s = d and
    // 1 − m11 − d·m01 = 1 − m00 (m00 = m11 + d·m01):
    //   y' = y + C·(U − e) + m01·yd + D·Δ,   C = 1 − m00 = s·P,  D = 1 − (d·P + m01)/T
    //   yd' = m10·(e − U) + m11·yd + I·Δ,   I = C/T
    // Every coefficient is bounded (|C| ≤ 2, |m01| ≤ T, …), so no term exceeds the state and
    // inputs times a coefficient: k1·slope (up to 6e4 for a state of 10) is never formed.
    const e = yi - xPrevi;
    const u = p0 * xdi; // U = k3·xd
    yi = yi + p1 * (u - e) + p2 * ydi + p3 * (xi - xPrevi);
    ydi = p4 * (e - u) + p5 * ydi + p6 * (xi - xPrevi);
  } else if (method == EULER_SUBSTEP) {
    const u = xi + p0 * xdi; // the held input x + k3·xd
    const e = yi - u;
    yi = u + p1 * e + p2 * ydi; // the composed substeps (composeSubsteps)
    ydi = p3 * e + p4 * ydi;
  } else {
    const ck1s = p0, c = p1, ck3 = p2;
    yi += dt * ydi; // t3ssel8r: y += T·yd
    // t3ssel8r: yd += T·(x + k3·xd − y − k1·yd)/k2 with the stabilised k1s, k2s, as c·(x − y) + (c·k3)·xd − (c·k1s)·yd
    ydi += c * (xi - yi) + (ck3 * xdi - ck1s * ydi);
  }
  store<f32>(xPrev + off, <f32>xi);
  store<f32>(y + off, <f32>yi);
  store<f32>(yd + off, <f32>ydi);
}

// `step` for four channels in f32x4.
// @ts-ignore: decorator
@inline function stepX4(
  method: i32, x: usize, xd: usize, xPrev: usize, y: usize, yd: usize, off: usize,
  p0: v128, p1: v128, p2: v128, p3: v128, p4: v128, p5: v128, p6: v128, dt: v128, invDt: v128,
): void {
  const xi = v128.load(x + off);
  const xPrevi = v128.load(xPrev + off);
  const delta = f32x4.sub(xi, xPrevi);
  const slope = f32x4.mul(delta, invDt);
  const xdi = xd ? v128.load(xd + off) : slope;
  let yi = v128.load(y + off);
  let ydi = v128.load(yd + off);
  if (method == EXACT) {
    // As in `step`: y' = y + C·(U − e) + m01·yd + D·Δ, yd' = m10·(e − U) + m11·yd + I·Δ
    const e = f32x4.sub(yi, xPrevi);
    const u = f32x4.mul(p0, xdi);
    const ue = f32x4.sub(u, e);
    yi = f32x4.add(yi, f32x4.add(f32x4.add(f32x4.mul(p1, ue), f32x4.mul(p2, ydi)), f32x4.mul(p3, delta)));
    ydi = f32x4.add(f32x4.sub(f32x4.mul(p5, ydi), f32x4.mul(p4, ue)), f32x4.mul(p6, delta));
  } else if (method == EULER_SUBSTEP) {
    const u = f32x4.add(xi, f32x4.mul(p0, xdi));
    const e = f32x4.sub(yi, u);
    yi = f32x4.add(u, f32x4.add(f32x4.mul(p1, e), f32x4.mul(p2, ydi)));
    ydi = f32x4.add(f32x4.mul(p3, e), f32x4.mul(p4, ydi));
  } else {
    yi = f32x4.add(yi, f32x4.mul(dt, ydi));
    // as in `step`: yd += c·(x − y) + (c·k3)·xd − (c·k1s)·yd
    const held = f32x4.sub(f32x4.mul(p2, xdi), f32x4.mul(p0, ydi));
    ydi = f32x4.add(ydi, f32x4.add(f32x4.mul(p1, f32x4.sub(xi, yi)), held));
  }
  v128.store(xPrev + off, xi);
  v128.store(y + off, yi);
  v128.store(yd + off, ydi);
}
