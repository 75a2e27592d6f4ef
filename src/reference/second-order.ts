/**
 * Plain float64 JavaScript reference of the second-order dynamics from t3ssel8r,
 * "Giving Personality to Procedural Animations using Math" (video, 2022):
 *
 *     y + k1·y' + k2·y'' = x + k3·x'
 *     k1 = ζ/(πf),  k2 = 1/(2πf)²,  k3 = r·ζ/(2πf)
 *
 * f is the natural frequency in Hz (ω = 2πf), ζ the damping ratio, r the initial response
 * (r > 1 overshoots, r < 0 anticipates). x is the input, y the output, yd = y'.
 *
 * f = 0 is rejected (k2 = 1/(2πf)² would be infinite) as are f < 0, ζ < 0 and non-finite values.
 *
 * Input velocity: `update(dt, x, xd?)` uses the caller's xd when given; otherwise
 * xd = (x − xPrev)/dt (t3ssel8r). xPrev is set to x after every update with dt > 0, whether or not
 * xd was given. dt = 0 is a no-op (no velocity estimate, y, yd and xPrev unchanged; the current y is
 * returned), so the next positive step sees the whole input change.
 *
 * Methods (all stable for ζ > 0, any dt > 0, f > 0; see the notes for ζ = 0):
 *  - 'euler-substep' semi-implicit Euler, input (x, xd) held, with ceil(dt/Tcrit) equal substeps,
 *                    Tcrit = 0.8·(√(4k2 + k1²) − k1) (see criticalTimestep).
 *  - 'clamped'       one semi-implicit Euler step with k2s = max(k2, dt²/2 + dt·k1/2, dt·k1).
 *  - 'pole-zero'     (default) one semi-implicit Euler step with k1s, k2s chosen so that the discrete
 *                    poles equal the continuous ones, e^{λ·dt}, when ω·dt ≥ ζ; otherwise the clamp.
 *                    The velocity update uses k1s (not k1). Degenerate case: at ζ = 0 with
 *                    ω·dt = 2πk the source formula gives t2 = dt/0 and k1s = 0·∞ = NaN; there we
 *                    fall back to the clamp (k1s = k1, k2s = clamped k2) — documented deviation.
 *                    Known limitation of the source method at ζ = 0: both poles lie on the unit
 *                    circle and at ω·dt = kπ (e.g. f = 30 Hz, dt = 1/60) they coincide at ±1 with a
 *                    Jordan block, so y − x grows linearly; near those points the oscillation
 *                    amplitude is bounded but scales like 1/|ω·dt − kπ|. For ζ > 0 it is exact in
 *                    its poles and converges.
 *  - 'exact'         exact discretisation with a first-order hold: over the step the input is the
 *                    linear interpolation x(t) = xPrev + (x − xPrev)·t/dt, whose derivative is the
 *                    estimated xd, so value and velocity are consistent. If the caller supplies xd,
 *                    the k3·xd term uses that value, held constant over the step. The response to an
 *                    affine input is solved in closed form (ramp particular solution
 *                    yP(t) = u(t) − k1·u'(t), u = x + k3·xd, plus the homogeneous transition shared
 *                    with the PD spring), so it is exact for any dt. Unconditionally stable.
 *
 * Bounded-but-not-convergent at ζ = 0 (k1 = 0): 'euler-substep' and 'clamped' have det = 1 and
 * distinct unit-modulus eigenvalues (bounded); 'exact' conserves the undamped energy; 'pole-zero'
 * see above.
 */

import { linearTransition, type LinearTransition } from './pd-spring.js';
import type { FloatArray } from './float-array.js';
import { criticalTimestep, fzrToK } from '../plain/second-order-parameters.js';

/**
 * @group Second-order
 */
/**
 * @group Second-order
 */
export type SecondOrderMethod = 'euler-substep' | 'clamped' | 'pole-zero' | 'exact';

/**
 * One value for every channel, or one value per channel.
 * @group Second-order
 */
export type SecondOrderParam = number | FloatArray;

function expand(name: string, p: SecondOrderParam, n: number, check: (v: number) => boolean, rule: string): Float64Array {
  const out = new Float64Array(n);
  if (typeof p === 'number') {
    out.fill(p);
  } else {
    if (p.length !== n) throw new RangeError(`${name} has length ${p.length}, expected ${n}`);
    out.set(p);
  }
  for (let i = 0; i < n; i++) {
    if (!check(out[i] as number)) throw new RangeError(`${name}[${i}] must be ${rule}, got ${out[i]}`);
  }
  return out;
}

/**
 * A batch of n independent second-order systems (one per channel), state in float64.
 *
 * Public state (float64, one entry per channel; may be read, and written to reset a channel):
 * `xPrev` (last input), `y`, `yd`. Parameters `f`, `zeta`, `r` and the derived `k1`, `k2`, `k3`,
 * `tCrit` are fixed at construction. Initial state: y = x0, yd = 0, xPrev = x0 (t3ssel8r).
 * @example
 * ```ts
 * import { SecondOrderDynamicsReference } from 'spring-solver/reference';
 * const dynamics = new SecondOrderDynamicsReference(1, 2, 0.5, 2, new Float64Array(1)); // f 2 Hz, ζ 0.5, r 2
 * const y = dynamics.update(1 / 60, new Float64Array([1])); // dt 1/60 s
 * ```
 * @group Second-order
 */
export class SecondOrderDynamicsReference {
  readonly n: number;
  readonly f: Float64Array;
  readonly zeta: Float64Array;
  readonly r: Float64Array;
  readonly k1: Float64Array;
  readonly k2: Float64Array;
  readonly k3: Float64Array;
  /** criticalTimestep(k1, k2) per channel. */
  readonly tCrit: Float64Array;
  readonly xPrev: Float64Array;
  readonly y: Float64Array;
  readonly yd: Float64Array;
  private readonly out: Float32Array;
  private readonly transition: LinearTransition = { xx: 1, xv: 0, vx: 0, vv: 1, P: 0 };

  /**
   * @param n    number of channels
   * @param f    natural frequency in Hz, > 0 (f = 0 is rejected: k2 would be infinite)
   * @param zeta damping ratio, ≥ 0
   * @param r    initial response, finite
   * @param x0   initial input (and output) per channel, length n
   * @throws RangeError on invalid parameters or lengths
   * @example
   * ```ts
   * import { SecondOrderDynamicsReference } from 'spring-solver/reference';
   * // 3 channels, f = 1.5 Hz, ζ = 1, r = 0, starting at (0, 0, 0)
   * const dynamics = new SecondOrderDynamicsReference(3, 1.5, 1, 0, new Float64Array(3));
   * ```
   */
  constructor(n: number, f: SecondOrderParam, zeta: SecondOrderParam, r: SecondOrderParam, x0: FloatArray) {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
    if (x0.length !== n) throw new RangeError(`x0 has length ${x0.length}, expected ${n}`);
    this.n = n;
    this.f = expand('f', f, n, (v) => v > 0 && Number.isFinite(v), 'finite and > 0 (f = 0 makes k2 infinite)');
    this.zeta = expand('zeta', zeta, n, (v) => v >= 0 && Number.isFinite(v), 'finite and >= 0');
    this.r = expand('r', r, n, (v) => Number.isFinite(v), 'finite');
    this.k1 = new Float64Array(n);
    this.k2 = new Float64Array(n);
    this.k3 = new Float64Array(n);
    this.tCrit = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = fzrToK(this.f[i] as number, this.zeta[i] as number, this.r[i] as number);
      this.k1[i] = k.k1;
      this.k2[i] = k.k2;
      this.k3[i] = k.k3;
      this.tCrit[i] = criticalTimestep(k.k1, k.k2);
    }
    this.xPrev = Float64Array.from(x0);
    this.y = Float64Array.from(x0);
    this.yd = new Float64Array(n);
    this.out = new Float32Array(n);
  }

  /**
   * Advance every channel by dt with input x (and optionally its velocity xd).
   * @returns y rounded to float32. The array is owned by this object and overwritten by the next
   *          update; copy it to keep it.
   * @throws RangeError on negative/non-finite dt, wrong lengths or an unknown method
   * @example
   * ```ts
   * import { SecondOrderDynamicsReference } from 'spring-solver/reference';
   * const dynamics = new SecondOrderDynamicsReference(1, 2, 0.5, 2, new Float64Array(1));
   * const y = dynamics.update(1 / 60, new Float64Array([1]), undefined, 'pole-zero'); // dt 1/60 s
   * ```
   */
  update(dt: number, x: FloatArray, xd?: FloatArray, method: SecondOrderMethod = 'pole-zero'): Float32Array {
    const n = this.n;
    if (!(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`dt must be finite and >= 0, got ${dt}`);
    if (x.length !== n) throw new RangeError(`x has length ${x.length}, expected ${n}`);
    if (xd !== undefined && xd.length !== n) throw new RangeError(`xd has length ${xd.length}, expected ${n}`);
    if (method !== 'euler-substep' && method !== 'clamped' && method !== 'pole-zero' && method !== 'exact') {
      throw new RangeError(`unknown method '${String(method)}'`);
    }
    if (dt > 0) {
      for (let i = 0; i < n; i++) {
        const xi = x[i] as number;
        // t3ssel8r: estimate the input velocity when it is not given
        const xdi = xd !== undefined ? (xd[i] as number) : (xi - (this.xPrev[i] as number)) / dt;
        switch (method) {
          case 'euler-substep':
            this.stepEulerSubstep(i, dt, xi, xdi);
            break;
          case 'clamped':
            this.stepClamped(i, dt, xi, xdi);
            break;
          case 'pole-zero':
            this.stepPoleZero(i, dt, xi, xdi);
            break;
          case 'exact':
            this.stepExact(i, dt, xi, xdi);
            break;
        }
        this.xPrev[i] = xi;
      }
    }
    const out = this.out;
    for (let i = 0; i < n; i++) out[i] = this.y[i] as number;
    return out;
  }

  private stepEulerSubstep(i: number, dt: number, x: number, xd: number): void {
    const k1 = this.k1[i] as number;
    const k2 = this.k2[i] as number;
    const k3 = this.k3[i] as number;
    // t3ssel8r: iterations = ceil(T / Tcrit), T /= iterations
    const iterations = Math.ceil(dt / (this.tCrit[i] as number));
    const h = dt / iterations;
    let y = this.y[i] as number;
    let yd = this.yd[i] as number;
    for (let it = 0; it < iterations; it++) {
      y = y + h * yd; // t3ssel8r: integrate position by velocity
      yd = yd + (h * (x + k3 * xd - y - k1 * yd)) / k2; // t3ssel8r: integrate velocity by acceleration
    }
    this.y[i] = y;
    this.yd[i] = yd;
  }

  private stepClamped(i: number, dt: number, x: number, xd: number): void {
    const k1 = this.k1[i] as number;
    // t3ssel8r: k2_stable = max(k2, T²/2 + T·k1/2, T·k1)
    const k2s = Math.max(this.k2[i] as number, (dt * dt) / 2 + (dt * k1) / 2, dt * k1);
    this.semiImplicitStep(i, dt, x, xd, k1, k2s);
  }

  private stepPoleZero(i: number, dt: number, x: number, xd: number): void {
    const f = this.f[i] as number;
    const zeta = this.zeta[i] as number;
    const k1 = this.k1[i] as number;
    const w = 2 * Math.PI * f; // t3ssel8r: ω = 2πf
    const d = w * Math.sqrt(Math.abs(zeta * zeta - 1)); // t3ssel8r: d = ω·√|ζ² − 1|
    let k1s = k1;
    let k2s = NaN;
    if (w * dt >= zeta) {
      // t3ssel8r pole matching (used when the system is fast relative to dt)
      const t1 = Math.exp(-zeta * w * dt); // t3ssel8r: t1 = exp(−ζω·T)
      // t3ssel8r: α = 2·t1·(ζ ≤ 1 ? cos(T·d) : cosh(T·d))
      let alpha = 2 * t1 * (zeta <= 1 ? Math.cos(dt * d) : Math.cosh(dt * d));
      // overflow guard (not in the source): t1·cosh = (e^{−ζωT + Td} + e^{−ζωT − Td})/2
      if (!Number.isFinite(alpha)) alpha = Math.exp(-zeta * w * dt + dt * d) + Math.exp(-zeta * w * dt - dt * d);
      const beta = t1 * t1; // t3ssel8r: β = t1²
      const denom = 1 + beta - alpha;
      if (denom > 0) {
        const t2 = dt / denom; // t3ssel8r: t2 = T/(1 + β − α)
        k1s = (1 - beta) * t2; // t3ssel8r: k1_stable = (1 − β)·t2
        k2s = dt * t2; // t3ssel8r: k2_stable = T·t2
      }
      // denom ≤ 0 only for ζ = 0 with ω·dt a multiple of 2π (double pole at +1): fall through to clamp.
    }
    if (Number.isNaN(k2s)) {
      // t3ssel8r: k1_stable = k1, k2_stable = max(k2, T²/2 + T·k1/2, T·k1)
      k1s = k1;
      k2s = Math.max(this.k2[i] as number, (dt * dt) / 2 + (dt * k1) / 2, dt * k1);
    }
    this.semiImplicitStep(i, dt, x, xd, k1s, k2s);
  }

  /** One semi-implicit Euler step of y + k1s·y' + k2s·y'' = x + k3·xd. */
  private semiImplicitStep(i: number, dt: number, x: number, xd: number, k1s: number, k2s: number): void {
    const k3 = this.k3[i] as number;
    const y = (this.y[i] as number) + dt * (this.yd[i] as number); // t3ssel8r: y += T·yd
    const yd = this.yd[i] as number;
    this.y[i] = y;
    // t3ssel8r: yd += T·(x + k3·xd − y − k1·yd)/k2, with the stabilised k1s, k2s
    this.yd[i] = yd + (dt * (x + k3 * xd - y - k1s * yd)) / k2s;
  }

  private stepExact(i: number, dt: number, x: number, xd: number): void {
    const k3 = this.k3[i] as number;
    const w = 2 * Math.PI * (this.f[i] as number); // ω = 2πf, so k2 = 1/ω², k1 = 2ζ/ω
    const T = linearTransition(w, this.zeta[i] as number, dt, this.transition);
    const xPrev = this.xPrev[i] as number;
    const y = this.y[i] as number;
    const yd = this.yd[i] as number;
    // First-order hold: x(t) = xPrev + slope·t over the step, slope = (x − xPrev)/dt; forcing
    // u(t) = x(t) + k3·xd. Ramp particular solution of k2·y'' + k1·y' + y = u(t):
    // yP(t) = u(t) − k1·slope, yP' = slope; the rest decays by the homogeneous transition:
    //   y(dt) = x + k3·xd − k1·slope + xx·(y − xPrev − k3·xd + k1·slope) + xv·(yd − slope)
    //   y'(dt) = slope + vx·(y − xPrev − k3·xd + k1·slope) + vv·(yd − slope).
    // Written so, k1·slope cancels between terms far larger than the state (k1·|Δx|/dt, 1.5e4 for
    // f = 0.1 Hz, ζ = 4, dt = 1/60, Δx = 20). Collected on e = y − xPrev, U = k3·xd, yd and
    // Δ = x − xPrev instead, with 1 − xx = s·P (P = ∫₀^dt xv, s = ω²), k1·s = d = 2ζω and
    // 1 − vv − d·xv = 1 − xx, every coefficient is bounded and no k1·slope is formed:
    //   y(dt) = y + C·(U − e) + xv·yd + D·Δ,   C = 1 − xx = s·P,  D = 1 − (d·P + xv)/dt
    //   y'(dt) = vx·(e − U) + vv·yd + I·Δ,   I = C/dt
    const C = w * w * T.P;
    const D = 1 - (2 * (this.zeta[i] as number) * w * T.P + T.xv) / dt;
    const e = y - xPrev;
    const U = k3 * xd;
    const delta = x - xPrev;
    this.y[i] = y + C * (U - e) + T.xv * yd + D * delta;
    this.yd[i] = T.vx * (e - U) + T.vv * yd + (C / dt) * delta;
  }
}
