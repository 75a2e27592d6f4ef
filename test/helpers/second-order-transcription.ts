/**
 * One SecondOrderDynamics update of one channel transcribed from t3ssel8r's formulas in float64,
 * for its value and (MAGNITUDE) for the magnitude of its terms, and the parity tolerances built
 * on it: shared by test/stateful/second-order-dynamics.test.ts and test/fuzz/stateful.test.ts.
 */
import type { SecondOrderMethod } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { VALUE, type Arith } from './magnitude.js';

export interface Update {
  y: number;
  yd: number;
  /** Magnitude mode: the relative tolerance that applies to y and yd (RELATIVE, or EXACT_RELATIVE). */
  relative: number;
  /** Relative error of the method's float64 coefficients (pole-zero near its double pole), else 0. */
  conditioning: number;
  /**
   * Magnitude mode: a bound of the float64 rounding of the oracles (euler-substep: its iterated
   * substeps; exact: the transcription's cancelling form below).
   */
  iterationError: number;
}

/**
 * One update of one channel, transcribed from t3ssel8r's formulas in float64, from the state
 * (xPrev, y, yd) with input x and, if given, xd.
 */
export function transcribe(
  method: SecondOrderMethod,
  f: number,
  zeta: number,
  r: number,
  dt: number,
  x: number,
  xPrev: number,
  xdGiven: number | undefined,
  y: number,
  yd: number,
  A: Arith = VALUE,
): Update {
  const w = 2 * Math.PI * f; // ω = 2πf
  const k1 = zeta / (Math.PI * f); // k1 = ζ/(πf)
  const k2 = 1 / (w * w); // k2 = 1/(2πf)²
  const k3 = (r * zeta) / w; // k3 = rζ/(2πf)
  const xdValue = xdGiven ?? (x - xPrev) / dt; // the input velocity the step uses
  [x, xPrev, y, yd] = [A.in(x), A.in(xPrev), A.in(y), A.in(yd)];
  const slope = A.sub(x, xPrev) / dt;
  const xd = xdGiven === undefined ? slope : A.in(xdGiven); // xd = (x − xPrev)/T when not given
  switch (method) {
    case 'euler-substep': {
      // Tcrit = 0.8·(√(4k2 + k1²) − k1), in the reference's cancellation-free form so that the
      // substep count ceil(T/Tcrit) is the same number.
      const tCrit = (0.8 * (4 * k2)) / (Math.sqrt(4 * k2 + k1 * k1) + k1);
      const iterations = Math.ceil(dt / tCrit);
      const h = dt / iterations;
      const sub = (y0: number, yd0: number, u: number): [number, number] => {
        for (let i = 0; i < iterations; i++) {
          y0 = y0 + h * yd0; // y += T·yd
          yd0 = yd0 + (h * (u - y0 - k1 * yd0)) / k2; // yd += T·(x + k3·xd − y − k1·yd)/k2
        }
        return [y0, yd0];
      };
      if (A === VALUE) {
        const [y1, yd1] = sub(y, yd, x + k3 * xd);
        return { y: y1, yd: yd1, relative: RELATIVE, conditioning: 0, iterationError: 0 };
      }
      // The kernels apply the substeps composed, around the fixed point y = u: with e = y − u,
      // y' = u + a00·e + a01·yd, yd' = a10·e + a11·yd; these are the magnitudes of that form.
      const [a00, a10] = sub(1, 0, 0);
      const [a01, a11] = sub(0, 1, 0);
      const u = x + Math.abs(k3) * xd;
      const e = y + u;
      // Iterating (the reference) or composing (the kernels) in float64 rounds every substep: with
      // G the largest ∞-norm of a partial product of substeps, every |y_k|, |yd_k| is below
      // B = |u| + G·(|y| + |u| + |yd|); a substep errs by ≤ 4ε·(1 + h + (h/k2)·(2 + k1))·B
      // (ε = 2^-53) and later substeps carry that by ≤ G. Twice that, for both computations.
      const gain = partialGain(iterations, h, k1, k2);
      const bound = u + gain * (y + u + yd);
      const iterationError = 2 * iterations * gain * 4 * 2 ** -53 * (1 + h + (h / k2) * (2 + k1)) * bound;
      return {
        y: u + Math.abs(a00) * e + Math.abs(a01) * yd,
        yd: Math.abs(a10) * e + Math.abs(a11) * yd,
        relative: RELATIVE,
        conditioning: 0,
        iterationError,
      };
    }
    case 'clamped':
    case 'pole-zero': {
      let k1s = k1;
      let k2s = Math.max(k2, (dt * dt) / 2 + (dt * k1) / 2, dt * k1); // k2_stable = max(k2, T²/2 + T·k1/2, T·k1)
      let conditioning = 0;
      if (method === 'pole-zero' && w * dt >= zeta) {
        const t1 = Math.exp(-zeta * w * dt); // t1 = exp(−ζωT)
        const d = w * Math.sqrt(Math.abs(zeta * zeta - 1)); // d = ω√|ζ² − 1|
        let alpha = 2 * t1 * (zeta <= 1 ? Math.cos(dt * d) : Math.cosh(dt * d)); // α = 2·t1·(cos | cosh)(T·d)
        if (!Number.isFinite(alpha)) alpha = Math.exp(-zeta * w * dt + dt * d) + Math.exp(-zeta * w * dt - dt * d);
        const beta = t1 * t1; // β = t1²
        const denom = 1 + beta - alpha;
        if (denom > 0) {
          const t2 = dt / denom; // t2 = T/(1 + β − α)
          k1s = (1 - beta) * t2; // k1_stable = (1 − β)·t2
          k2s = dt * t2; // k2_stable = T·t2
          // The SIMD kernels compute α with an absolute error ≤ 6e-14 (exp and cos errors of
          // assembly/maths/x2.ts, docs/DECISIONS.md); 1 + β − α passes it on relative to denom.
          conditioning = 6e-14 / denom;
        }
      }
      const y1 = y + dt * yd; // y += T·yd
      // yd += T·(x + k3·xd − y − k1·yd)/k2, with the stabilised k1s, k2s
      const yd1 = yd + (dt * A.sub(A.sub(x + A.in(k3) * xd, y1), A.in(k1s) * yd)) / k2s;
      return { y: y1, yd: yd1, relative: RELATIVE, conditioning, iterationError: 0 };
    }
    case 'exact': {
      // The method as derived (src/reference/second-order.ts): first-order hold
      // x(t) = xPrev + slope·t, ramp particular solution yP = u − k1·slope with u = x + k3·xd, plus
      // the homogeneous transition of the rest. Evaluated so in float64 it cancels k1·slope, a
      // term far larger than the state: its own rounding is ≤ 8·2^-53 of these terms' magnitude.
      const T = reference.linearTransition(w, zeta, dt);
      const k3xd = A.in(k3) * xd;
      const k1slope = A.in(k1) * slope;
      const e0 = A.sub(y, A.sub(xPrev + k3xd, k1slope));
      const ed0 = A.sub(yd, slope);
      const value = {
        y: A.sub(x + k3xd, k1slope) + A.in(T.xx) * e0 + A.in(T.xv) * ed0,
        yd: slope + A.in(T.vx) * e0 + A.in(T.vv) * ed0,
      };
      if (A === VALUE) return { ...value, relative: 0, conditioning: 0, iterationError: 0 };
      // The tolerance is NOT scaled by these terms (k1·slope reaches 6e4 for a state of 10, and
      // 1e-5 of it hid a lost step): it is the state and inputs (y, yd, x, xPrev, U = k3·xd) times
      // the factors by which the exact step carries each of them (exactScales).
      const scale = exactScales(f, zeta, r, dt, x, xPrev, xdValue, y, yd);
      return { ...scale, relative: EXACT_RELATIVE, conditioning: 0, iterationError: 8 * 2 ** -53 * Math.max(value.y, value.yd) };
    }
  }
}

/**
 * The scales of the 'exact' tolerance: every input of the step (y, yd, x, xPrev and U = k3·xd, all
 * non-negative here) times the factor by which the exact step carries it into y' and yd', i.e. the
 * step's derivatives. The step is linear, so they are the float64 transcription on unit inputs:
 * y' = y + C·(U − e) + xv·yd + D·Δ and yd' = vx·(e − U) + vv·yd + I·Δ with e = y − xPrev,
 * Δ = x − xPrev. A float32 rounding of any input (or of e, Δ, U on the way) moves the result by at
 * most its relative size u times these products; y itself is carried whole (y' = y + …).
 * None of the factors is large: |C| = |1 − xx| ≤ 2, |xv| ≤ T, |D| ≤ 2, and vx, vv, I are the
 * velocity's response to the state; no k1·slope appears.
 */
function exactScales(
  f: number,
  zeta: number,
  r: number,
  dt: number,
  x: number,
  xPrev: number,
  xd: number,
  y: number,
  yd: number,
): { y: number; yd: number } {
  const unit = (y0: number, yd0: number, x0: number, xPrev0: number) => transcribe('exact', f, zeta, r, dt, x0, xPrev0, 0, y0, yd0);
  const dy = unit(1, 0, 0, 0); // ∂/∂y: (1 − C, vx)
  const dyd = unit(0, 1, 0, 0); // ∂/∂yd: (xv, vv)
  const dx = unit(0, 0, 1, 0); // ∂/∂x: (D, I)
  const C = Math.abs(1 - dy.y);
  const U = Math.abs(((r * zeta) / (2 * Math.PI * f)) * xd); // |k3·xd|
  const held = y + xPrev + U; // |e| + |U| bounded by the inputs
  return {
    y: y + C * held + Math.abs(dyd.y) * yd + Math.abs(dx.y) * (x + xPrev),
    yd: Math.abs(dy.yd) * held + Math.abs(dyd.yd) * yd + Math.abs(dx.yd) * (x + xPrev),
  };
}

/** The largest ∞-norm of A^j, j ≤ iterations, A the substep map of (e, yd) = (y − u, yd). */
function partialGain(iterations: number, h: number, k1: number, k2: number): number {
  let [a, b, c, d] = [1, 0, 0, 1];
  let gain = 1;
  for (let j = 0; j < iterations; j++) {
    const [e0, e1] = [a + h * c, b + h * d]; // y += T·yd, on both columns
    [c, d] = [c + (h * (-e0 - k1 * c)) / k2, d + (h * (-e1 - k1 * d)) / k2]; // yd += T·(u − y − k1·yd)/k2
    [a, b] = [e0, e1];
    gain = Math.max(gain, Math.abs(a) + Math.abs(b), Math.abs(c) + Math.abs(d));
  }
  return gain;
}

/**
 * Tolerance of the wasm backends: (1e-5 + conditioning)·M, M from the magnitude transcription.
 * The kernels compute each channel's coefficients in float64, round them to float32 (one relative
 * rounding per term) and step in float32 (SIMD: ≤ 12 roundings, among them 1/T and the product
 * (x − xPrev)·(1/T)) or float64 (scalar build): ≤ 14u·M ≈ 8.3e-7·M with u = 2^-24, plus the
 * expected value's own rounding u·M. 1e-5 leaves a factor 11 for the differences between the
 * float64 algorithms (≤ 1e-12·M, e.g. 'exact' uses the library's transition, the reference its
 * own; euler-substep composes its substeps, the reference iterates them). Pole-zero adds the
 * conditioning of 1 + β − α (above; it exceeds 1e-5 only within 6e-9 of the double pole at
 * ζ = 0, ω·T = 2πk, a set the random draws do not hit). Euler-substep adds the float64 rounding of
 * its iterated substeps (iterationError above): where the result decays to ~1e-30 from inputs of
 * size 10, the reference's own float64 residue (~1e-13) dominates. JS runs the reference itself: exact.
 */
export const RELATIVE = 1e-5;
/**
 * 'exact' is held to float32 rounding of its scales (exactScales): the SIMD step rounds U = k3·xd
 * at most 5 times (x − xPrev, 1/T, their product, k3, k3·xd), then ≤ 3 more times through
 * U − e, its coefficient and the product, and ≤ 3 sums; the other terms fewer. 12 roundings of
 * u = 2^-24: 7.2e-7 of the scales. The float64 oracles differ by < 1e-15 of the same scales.
 */
export const EXACT_RELATIVE = 12 * 2 ** -24;
/** Absolute floor of the tolerances (results that decay to ~0). */
export const FLOOR = 1e-30;
