// Tests of the float64 PD-spring reference (Huw Bowles, "Spring dynamics for production") and of
// the substepping helpers. Runs in Node and in a browser: no fs, no Node-only APIs.
import { describe, expect, it } from 'vitest';
import { linearTransition, pdSpring, pdSpringRigidBody, type PdIntegrator } from '../../src/reference/pd-spring.js';
import { FixedStepAccumulator, substepMaxDt, substepUniform } from '../../src/reference/substep.js';
import { mulberry32 } from '../helpers/random.js';
import { spectralRadius as spectralRadiusOf } from '../helpers/closed-form.js';

/** Seeded PRNG (mulberry32) so every run sees the same cases. */
const rng = mulberry32;

const TWO_PI = 2 * Math.PI;

/** One-step map of an integrator with targets 0: columns are the images of (pos, vel) = (1, 0), (0, 1). */
function stepMatrix(integrator: PdIntegrator, omega: number, zeta: number, dt: number): [number, number, number, number] {
  const pos = new Float64Array([1, 0]);
  const vel = new Float64Array([0, 1]);
  const zero = new Float64Array(2);
  pdSpring(pos, vel, zero, zero, omega, zeta, dt, { integrator });
  return [pos[0]!, pos[1]!, vel[0]!, vel[1]!]; // [[a, b], [c, d]] row-major
}

/** Spectral radius of the 2×2 matrix [[a, b], [c, d]] given as [a, b, c, d]. */
const spectralRadius = (m: [number, number, number, number]) => spectralRadiusOf(...m);

/**
 * Independent textbook step response of x'' = ω²(g − x) + 2ζω(q − v) from (x0, v0) with constant
 * g, q: equilibrium xp = g + 2ζq/ω, then the classic regime formulas for e = x − xp.
 */
function textbook(omega: number, zeta: number, x0: number, v0: number, g: number, q: number, t: number): [number, number] {
  if (omega === 0) return [x0 + v0 * t, v0]; // no force at all when ω = 0 (2ζω = 0 too)
  const xp = g + (2 * zeta * q) / omega; // equilibrium where ω²(g − x) + 2ζω·q = 0
  const A = x0 - xp;
  const a = zeta * omega;
  if (zeta < 1) {
    // under-damped: e = e^{−at}(A cos ωd t + B sin ωd t)
    const wd = omega * Math.sqrt(1 - zeta * zeta);
    const B = (v0 + a * A) / wd;
    const ex = Math.exp(-a * t);
    const c = Math.cos(wd * t);
    const s = Math.sin(wd * t);
    return [xp + ex * (A * c + B * s), ex * (-a * (A * c + B * s) + wd * (B * c - A * s))];
  }
  if (zeta === 1) {
    // critical: e = (A + Bt)e^{−ωt}
    const B = v0 + a * A;
    const ex = Math.exp(-a * t);
    return [xp + (A + B * t) * ex, (B - a * (A + B * t)) * ex];
  }
  // over-damped: e = c1 e^{r1 t} + c2 e^{r2 t}
  const root = omega * Math.sqrt(zeta * zeta - 1);
  const r1 = -a + root;
  const r2 = -a - root;
  const c1 = (v0 - r2 * A) / (r1 - r2);
  const c2 = A - c1;
  const e1 = Math.exp(r1 * t);
  const e2 = Math.exp(r2 * t);
  return [xp + c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2];
}

describe('pdSpring: explicit / semi-implicit / implicit reproduce the source formulas', () => {
  // Literal scalar transcription of Bowles' formulas (float64), rounded to float32 like the API.
  function transcribe(
    integrator: 'explicit' | 'semi-implicit' | 'implicit',
    pos: Float32Array,
    vel: Float32Array,
    targetPos: Float32Array,
    targetVel: Float32Array,
    uaf: number | Float32Array,
    dampingRatio: number | Float32Array,
    dt: number,
  ): [Float32Array, Float32Array] {
    const outPos = new Float32Array(pos.length);
    const outVel = new Float32Array(pos.length);
    for (let i = 0; i < pos.length; i++) {
      const w = typeof uaf === 'number' ? uaf : uaf[i]!;
      const z = typeof dampingRatio === 'number' ? dampingRatio : dampingRatio[i]!;
      const p = pos[i]!;
      const v = vel[i]!;
      const g = targetPos[i]!;
      const q = targetVel[i]!;
      let pn: number;
      let vn: number;
      if (integrator === 'explicit') {
        const F = w * w * (g - p) + 2 * z * w * (q - v); // Bowles: F = ω²(target − pos) + 2ζω(targetVel − vel)
        pn = p + v * dt; // Bowles explicit Euler: pos += vel·dt (old vel)
        vn = v + F * dt; // Bowles explicit Euler: vel += F·dt
      } else if (integrator === 'semi-implicit') {
        const F = w * w * (g - p) + 2 * z * w * (q - v); // Bowles: F = ω²(target − pos) + 2ζω(targetVel − vel)
        vn = v + F * dt; // Bowles semi-implicit Euler: vel += F·dt first
        pn = p + vn * dt; // Bowles semi-implicit Euler: pos += vel·dt (new vel)
      } else {
        const F = w * w * (g - (p + dt * v)) + 2 * z * w * (q - v); // Bowles/Tan stable PD: spring at pos + dt·vel
        vn = v + (F * dt) / (1 + dt * 2 * z * w); // Bowles/Tan stable PD: implicit damping denominator
        pn = p + vn * dt; // Bowles stable PD: pos += vel·dt
      }
      outPos[i] = pn;
      outVel[i] = vn;
    }
    return [outPos, outVel];
  }

  function randomBatch(r: () => number, n: number) {
    const pos = new Float32Array(n);
    const vel = new Float32Array(n);
    const targetPos = new Float32Array(n);
    const targetVel = new Float32Array(n);
    const uaf = new Float32Array(n);
    const zeta = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      pos[i] = (r() - 0.5) * 20;
      vel[i] = (r() - 0.5) * 100;
      targetPos[i] = (r() - 0.5) * 20;
      targetVel[i] = (r() - 0.5) * 20;
      uaf[i] = i % 17 === 0 ? 0 : r() * TWO_PI * 20;
      zeta[i] = i % 11 === 0 ? 0 : i % 13 === 0 ? 1 : r() * 4;
    }
    return { pos, vel, targetPos, targetVel, uaf, zeta };
  }

  for (const integrator of ['explicit', 'semi-implicit', 'implicit'] as const) {
    for (const paramKind of ['per-element', 'scalar'] as const) {
      it(`${integrator}, ${paramKind} parameters, 12 random steps`, () => {
        const r = rng(integrator.length * 1000 + paramKind.length);
        const b = randomBatch(r, 257);
        const uaf = paramKind === 'scalar' ? Math.fround(r() * TWO_PI * 20) : b.uaf;
        const zeta = paramKind === 'scalar' ? Math.fround(r() * 4) : b.zeta;
        for (let step = 0; step < 12; step++) {
          const dt = 1e-3 + r() * (1 / 30);
          const [ePos, eVel] = transcribe(integrator, b.pos, b.vel, b.targetPos, b.targetVel, uaf, zeta, dt);
          pdSpring(b.pos, b.vel, b.targetPos, b.targetVel, uaf, zeta, dt, { integrator });
          // Guard: the comparison below is only meaningful on finite values.
          expect(ePos.every(Number.isFinite) && eVel.every(Number.isFinite)).toBe(true);
          // Same float64 expression as the source formula, then one float32 rounding: bit-identical.
          expect(Array.from(b.pos)).toEqual(Array.from(ePos));
          expect(Array.from(b.vel)).toEqual(Array.from(eVel));
        }
      });
    }
  }

  it("'implicit' is the default integrator", () => {
    const r = rng(7);
    const a = randomBatch(r, 64);
    const bPos = a.pos.slice();
    const bVel = a.vel.slice();
    pdSpring(a.pos, a.vel, a.targetPos, a.targetVel, a.uaf, a.zeta, 1 / 60);
    pdSpring(bPos, bVel, a.targetPos, a.targetVel, a.uaf, a.zeta, 1 / 60, { integrator: 'implicit' });
    expect(Array.from(a.pos)).toEqual(Array.from(bPos));
    expect(Array.from(a.vel)).toEqual(Array.from(bVel));
  });

  it('pdSpringRigidBody writes only vel, with the stable-PD velocity change (Bowles appendix B)', () => {
    const r = rng(11);
    const b = randomBatch(r, 129);
    const dt = 1 / 50;
    const pos0 = b.pos.slice();
    const vel0 = b.vel.slice();
    const [, eVel] = transcribe('implicit', b.pos, b.vel, b.targetPos, b.targetVel, b.uaf, b.zeta, dt);
    const tp0 = b.targetPos.slice();
    const tv0 = b.targetVel.slice();
    pdSpringRigidBody(b.pos, b.vel, b.targetPos, b.targetVel, b.uaf, b.zeta, dt);
    expect(Array.from(b.pos)).toEqual(Array.from(pos0)); // pos untouched
    expect(Array.from(b.targetPos)).toEqual(Array.from(tp0));
    expect(Array.from(b.targetVel)).toEqual(Array.from(tv0));
    // Same float64 expression as the stable-PD velocity update, one float32 rounding: bit-identical.
    expect(Array.from(b.vel)).toEqual(Array.from(eVel));
    // With float64 storage, the caller's rigid-body integrator (pos += vel·dt) then completes exactly
    // the 'implicit' step (same float64 operations: bit-identical).
    const pos64 = Float64Array.from(pos0);
    const vel64 = Float64Array.from(vel0);
    const tp64 = Float64Array.from(tp0);
    const tv64 = Float64Array.from(tv0);
    const iPos = pos64.slice();
    const iVel = vel64.slice();
    pdSpring(iPos, iVel, tp64, tv64, b.uaf, b.zeta, dt, { integrator: 'implicit' });
    pdSpringRigidBody(pos64, vel64, tp64, tv64, b.uaf, b.zeta, dt);
    for (let i = 0; i < pos64.length; i++) pos64[i] = pos64[i]! + vel64[i]! * dt;
    expect(Array.from(vel64)).toEqual(Array.from(iVel));
    expect(Array.from(pos64)).toEqual(Array.from(iPos));
  });
});

describe("pdSpring 'exact' matches the textbook closed form", () => {
  // Displacements are O(1) and velocities O(max(1, ω)); 1e-9 is the brief's bound, far above the
  // ~1e-13 float64 rounding of either formula (worst: over-damped textbook at ζ = 1 + 1e-6, which
  // amplifies rounding by 1/(r1 − r2) ≈ 700/ω).
  const tolX = 1e-9;
  const cases: Array<[number, number, number]> = [];
  for (const omega of [0, 0.5, 3, TWO_PI * 2, TWO_PI * 20]) {
    for (const zeta of [0, 0.3, 1 - 1e-6, 1, 1 + 1e-6, 2.5, 4]) {
      for (const dt of [1e-4, 1 / 60, 0.37, 1]) cases.push([omega, zeta, dt]);
    }
  }

  it(`one step, ${cases.length} (ω, ζ, dt) combinations × 8 random states`, () => {
    const r = rng(2024);
    for (const [omega, zeta, dt] of cases) {
      for (let k = 0; k < 8; k++) {
        const x0 = (r() - 0.5) * 4;
        const v0 = (r() - 0.5) * 4 * Math.max(1, omega);
        const g = (r() - 0.5) * 4;
        const q = (r() - 0.5) * 4 * Math.max(1, omega);
        const pos = new Float64Array([x0]);
        const vel = new Float64Array([v0]);
        pdSpring(pos, vel, new Float64Array([g]), new Float64Array([q]), omega, zeta, dt, { integrator: 'exact' });
        const [x, v] = textbook(omega, zeta, x0, v0, g, q, dt);
        expect(Math.abs(pos[0]! - x)).toBeLessThanOrEqual(tolX);
        expect(Math.abs(vel[0]! - v)).toBeLessThanOrEqual(tolX * Math.max(1, omega)); // velocity scale ω
      }
    }
  });

  it('100-step trajectories stay on the closed form (batch with per-element parameters)', () => {
    const r = rng(99);
    const n = cases.length;
    const uaf = new Float64Array(cases.map((c) => c[0]));
    const zeta = new Float64Array(cases.map((c) => c[1]));
    const x0 = Float64Array.from({ length: n }, () => (r() - 0.5) * 4);
    const v0 = Float64Array.from({ length: n }, (_, i) => (r() - 0.5) * 4 * Math.max(1, uaf[i]!));
    const g = Float64Array.from({ length: n }, () => (r() - 0.5) * 4);
    const q = Float64Array.from({ length: n }, (_, i) => (r() - 0.5) * Math.max(1, uaf[i]!));
    const pos = x0.slice();
    const vel = v0.slice();
    const dt = 1 / 30;
    for (let step = 1; step <= 100; step++) {
      pdSpring(pos, vel, g, q, uaf, zeta, dt, { integrator: 'exact' });
      for (let i = 0; i < n; i++) {
        const [x, v] = textbook(uaf[i]!, zeta[i]!, x0[i]!, v0[i]!, g[i]!, q[i]!, step * dt);
        // 100 steps accumulate ~100 roundings (~1e-14); 1e-9 is the brief's bound.
        expect(Math.abs(pos[i]! - x)).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(vel[i]! - v)).toBeLessThanOrEqual(1e-9 * Math.max(1, uaf[i]!));
      }
    }
  });

  it('within 1e-12 of critical it matches the critical formula (where textbook formulas break down)', () => {
    for (const zeta of [1 - 1e-12, 1 + 1e-12]) {
      for (const [omega, dt] of [
        [3, 0.5],
        [TWO_PI * 20, 1 / 60],
        [TWO_PI * 20, 1],
      ] as const) {
        const pos = new Float64Array([0.7]);
        const vel = new Float64Array([-2]);
        pdSpring(pos, vel, new Float64Array([-0.4]), new Float64Array([0.3]), omega, zeta, dt, { integrator: 'exact' });
        const [x, v] = textbook(omega, 1, 0.7, -2, -0.4, 0.3, dt);
        // |∂x/∂ζ| = O(1) here, so a 1e-12 change of ζ moves x by ~1e-12; 1e-9 is the brief's bound.
        expect(Math.abs(pos[0]! - x)).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(vel[0]! - v)).toBeLessThanOrEqual(1e-9 * omega);
      }
    }
  });

  it('ω = 0 is free motion for any ζ (no force, no damping)', () => {
    for (const zeta of [0, 0.5, 1, 3]) {
      const pos = new Float64Array([1.25]);
      const vel = new Float64Array([-0.75]);
      pdSpring(pos, vel, new Float64Array([9]), new Float64Array([5]), 0, zeta, 0.8, { integrator: 'exact' });
      expect(pos[0]).toBeCloseTo(1.25 - 0.75 * 0.8, 15); // one float64 rounding of 1.25 − 0.6
      expect(vel[0]).toBe(-0.75); // vv = 1 and vx = d·xv = 0 exactly when ω = 0
    }
  });

  it('exact(dt) equals exact(dt/2) twice (semigroup), every coefficient regime', () => {
    // (ω, ζ, dt) chosen so that u = ω·dt, τ = ζu, z = u²(1 − ζ²) land in each regime of linearTransition.
    const regimeCases: Array<[number, number, number, string]> = [
      [0, 0, 1, 'taylor (ω = 0)'],
      [1, 0.7, 1, 'taylor'],
      [5, 1, 1, 'near-critical series, exactly critical'],
      [5, 1 + 1e-6, 1, 'near-critical series, ζ = 1 + 1e-6'],
      [5, 1 - 1e-6, 1, 'near-critical series, ζ = 1 − 1e-6'],
      [5, 0.3, 1, 'under-damped'],
      [2, 3, 1, 'over-damped, u² ≥ 1/4'],
      [0.4, 5, 1, 'over-damped root form, u² < 1/4'],
      [125, 4, 1, 'over-damped, large u'],
      [125, 0, 1, 'undamped, large u'],
    ];
    for (const [omega, zeta, dt] of regimeCases) {
      const a = { pos: new Float64Array([0.3]), vel: new Float64Array([1.7]) };
      const b = { pos: new Float64Array([0.3]), vel: new Float64Array([1.7]) };
      const g = new Float64Array([-0.6]);
      const q = new Float64Array([0.9]);
      pdSpring(a.pos, a.vel, g, q, omega, zeta, dt, { integrator: 'exact' });
      pdSpring(b.pos, b.vel, g, q, omega, zeta, dt / 2, { integrator: 'exact' });
      pdSpring(b.pos, b.vel, g, q, omega, zeta, dt / 2, { integrator: 'exact' });
      // Two float64 evaluations of contracting/rotating maps: rounding ~1e-15 per coefficient.
      expect(Math.abs(a.pos[0]! - b.pos[0]!)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(a.vel[0]! - b.vel[0]!)).toBeLessThanOrEqual(1e-12 * Math.max(1, omega));
    }
  });

  it('transition coefficients are continuous across the regime switches', () => {
    const keys = ['xx', 'xv', 'vx', 'vv', 'P'] as const;
    // [ω, ζ, dt] at a switch; evaluated at dt·(1 ± 1e-10) straddling it.
    const switches: Array<[number, number, number]> = [
      [2, 1, 1], // τ + √|z| = 2 (Taylor ↔ near-critical)
      [3, Math.sqrt(1 - 0.25 / 9), 1], // z = +1/4 (near-critical ↔ under-damped)
      [3, Math.sqrt(1 + 0.25 / 9), 1], // z = −1/4 (near-critical ↔ over-damped)
      [0.5, 5, 1], // u² = 1/4 in the over-damped regime (root form ↔ (1 − xx)/u²)
    ];
    for (const [omega, zeta, dt] of switches) {
      const lo = { ...linearTransition(omega, zeta, dt * (1 - 1e-10)) };
      const hi = { ...linearTransition(omega, zeta, dt * (1 + 1e-10)) };
      for (const k of keys) {
        // The coefficients are smooth with O(1)–O(ω²) derivatives in dt; a 2e-10 change of dt moves
        // them by ≲ 1e-8·scale, while a wrong branch would differ at O(1).
        const scale = Math.max(1, Math.abs(lo[k]));
        expect(Math.abs(lo[k] - hi[k]) / scale).toBeLessThanOrEqual(1e-8);
      }
    }
  });

  it('large ω·dt gives finite results (no overflow of cosh/exp)', () => {
    for (const zeta of [0, 0.5, 1, 4, 1e3]) {
      const T = linearTransition(1e4, zeta, 1);
      for (const v of Object.values(T)) expect(Number.isFinite(v)).toBe(true);
    }
  });
});

// What the sources claim, and what is therefore tested:
//  - 'exact': unconditionally stable; converges for ζ > 0; at ζ = 0 bounded, never convergent
//    (it conserves ω²(pos − target)² + vel²).
//  - 'implicit' (stable PD): the brief lists it as stable, but its one-step map is stable only for
//    ω·dt < u* = (2ζ + 2√(ζ² + 3))/3; inside that region it converges (even at ζ = 0, by numerical
//    damping), outside it diverges. Tested on both sides of u*.
//  - 'semi-implicit': converges for ζ > 0 iff u² + 4ζu < 4; at ζ = 0 bounded-not-convergent for u < 2.
//  - 'explicit': converges iff u < 2ζ and u² − 4ζu + 4 > 0; at ζ = 0 unconditionally unstable
//    (energy × (1 + u²) per step), so only that growth is asserted there.
describe('stability and convergence to a constant target', () => {
  // Grid of the brief: f up to 20 Hz, ζ from 0 to 4, dt up to 1 s.
  const freqs = [0.5, 2, 20];
  const zetas = [0.1, 0.5, 1, 1 + 1e-6, 1.5, 4];
  const dts = [1 / 240, 1 / 60, 1 / 15, 0.25, 1];

  /**
   * Run from rest at 0 towards targetPos = 1, targetVel = 0 for enough steps that the slowest mode
   * (spectral radius ρ) decays by e^{−40}; returns the final error and the largest |pos − 1|.
   */
  function settle(integrator: PdIntegrator, omega: number, zeta: number, dt: number) {
    const rho = spectralRadius(stepMatrix(integrator, omega, zeta, dt));
    expect(rho).toBeLessThan(1);
    const steps = Math.min(400000, Math.ceil(40 / -Math.log(rho)) + 10);
    const pos = new Float64Array([0]);
    const vel = new Float64Array([0]);
    const g = new Float64Array([1]);
    const q = new Float64Array([0]);
    let maxDev = 0;
    for (let k = 0; k < steps; k++) {
      pdSpring(pos, vel, g, q, omega, zeta, dt, { integrator });
      maxDev = Math.max(maxDev, Math.abs(pos[0]! - 1));
      if (!Number.isFinite(pos[0]!) || !Number.isFinite(vel[0]!)) break;
    }
    return { posErr: Math.abs(pos[0]! - 1), velErr: Math.abs(vel[0]!), maxDev, steps };
  }

  it("'exact' converges for every (f ≤ 20 Hz, 0 < ζ ≤ 4, dt ≤ 1 s) and never overshoots more than 100%", () => {
    for (const f of freqs) {
      for (const zeta of zetas) {
        for (const dt of dts) {
          const omega = TWO_PI * f;
          const { posErr, velErr, maxDev } = settle('exact', omega, zeta, dt);
          // e^{−40} ≈ 4e-18 times a transient factor ≤ steps; 1e-9 is float64 noise × ample margin.
          expect(posErr).toBeLessThanOrEqual(1e-9);
          expect(velErr).toBeLessThanOrEqual(1e-9 * omega);
          // Energy ω²(x − 1)² + v² never increases for ζ ≥ 0, so |x − 1| ≤ 1 from rest (+ rounding).
          expect(maxDev).toBeLessThanOrEqual(1 + 1e-12);
        }
      }
    }
  });

  it("'exact' at ζ = 0 is bounded, not convergent: it conserves ω²(pos − target)² + vel²", () => {
    for (const f of freqs) {
      for (const dt of dts) {
        const omega = TWO_PI * f;
        const pos = new Float64Array([0]);
        const vel = new Float64Array([0.5]);
        const g = new Float64Array([1]);
        const q = new Float64Array([3]); // irrelevant at ζ = 0 (its coefficient 2ζω is 0)
        const energy0 = omega * omega * 1 + 0.25;
        for (let k = 0; k < 2000; k++) pdSpring(pos, vel, g, q, omega, 0, dt, { integrator: 'exact' });
        const energy = omega * omega * (pos[0]! - 1) ** 2 + vel[0]! ** 2;
        // 2000 steps of an orthogonal map in scaled coordinates: relative drift ~2000·1e-16 ≪ 1e-10.
        expect(Math.abs(energy / energy0 - 1)).toBeLessThanOrEqual(1e-10);
      }
    }
  });

  // Stable-PD ('implicit') one-step map: det = (1 − u²)/(1 + 2ζu), trace = (2 + 2ζu − 2u²)/(1 + 2ζu);
  // Jury: stable iff 3u² < 4 + 4ζu, i.e. u < u* = (2ζ + 2√(ζ² + 3))/3. It is NOT unconditionally stable.
  const implicitBound = (zeta: number) => (2 * zeta + 2 * Math.sqrt(zeta * zeta + 3)) / 3;
  // Semi-implicit Euler: stable iff u² + 4ζu < 4 (ζ > 0), i.e. u < −2ζ + 2√(ζ² + 1).
  const semiImplicitBound = (zeta: number) => -2 * zeta + 2 * Math.sqrt(zeta * zeta + 1);
  // Explicit Euler: stable iff u < 2ζ and u² − 4ζu + 4 > 0, i.e. u < 2ζ (ζ ≤ 1), u < 2ζ − 2√(ζ² − 1) (ζ > 1).
  const explicitBound = (zeta: number) => (zeta <= 1 ? 2 * zeta : 2 * zeta - 2 * Math.sqrt(zeta * zeta - 1));
  const bounds: Array<[PdIntegrator, (zeta: number) => number]> = [
    ['implicit', implicitBound],
    ['semi-implicit', semiImplicitBound],
    ['explicit', explicitBound],
  ];

  for (const [integrator, bound] of bounds) {
    it(`'${integrator}' is stable exactly below its derived bound on ω·dt`, () => {
      // ζ = 0 is only marginal for semi-implicit Euler (ρ = 1 below the bound): tested separately.
      for (const zeta of integrator === 'implicit' ? [0, 0.25, 0.5, 1, 1.5, 4] : [0.25, 0.5, 1, 1.5, 4]) {
        const uStar = bound(zeta);
        const omega = 10;
        // ±2% around the bound: the spectral radius moves by O(1%) there, far above rounding.
        expect(spectralRadius(stepMatrix(integrator, omega, zeta, (0.98 * uStar) / omega))).toBeLessThan(1);
        expect(spectralRadius(stepMatrix(integrator, omega, zeta, (1.02 * uStar) / omega))).toBeGreaterThan(1);
      }
    });

    it(`'${integrator}' converges on the grid configurations inside its stability region`, () => {
      let tested = 0;
      for (const f of freqs) {
        for (const zeta of zetas) {
          for (const dt of dts) {
            const omega = TWO_PI * f;
            if (omega * dt > 0.9 * bound(zeta)) continue; // outside the region the sources claim nothing
            tested++;
            const { posErr, velErr, maxDev } = settle(integrator, omega, zeta, dt);
            // e^{−40} decay of the slowest mode; 1e-9 leaves room for transient growth and rounding.
            expect(posErr).toBeLessThanOrEqual(1e-9);
            expect(velErr).toBeLessThanOrEqual(1e-9 * omega);
            expect(maxDev).toBeLessThanOrEqual(10); // bounded: a unit step never overshoots by 10×
          }
        }
      }
      expect(tested).toBeGreaterThanOrEqual(20); // the region test is not vacuous
    });
  }

  it("'implicit' diverges at 20 Hz, ζ = 0.5, dt = 1/60 (u = 2.09 > u* = 1.54) — documented limitation", () => {
    expect(spectralRadius(stepMatrix('implicit', TWO_PI * 20, 0.5, 1 / 60))).toBeGreaterThan(1.5);
  });

  it("'explicit' at ζ = 0 is unconditionally unstable: energy grows by exactly 1 + (ω·dt)² per step", () => {
    for (const [omega, dt] of [
      [1, 1 / 240],
      [TWO_PI * 2, 1 / 60],
      [TWO_PI * 20, 0.25],
    ] as const) {
      const pos = new Float64Array([0.2]);
      const vel = new Float64Array([-1.1]);
      const g = new Float64Array([1]);
      const q = new Float64Array([0]);
      const energy = () => omega * omega * (pos[0]! - 1) ** 2 + vel[0]! ** 2;
      for (let k = 0; k < 5; k++) {
        const before = energy();
        pdSpring(pos, vel, g, q, omega, 0, dt, { integrator: 'explicit' });
        // Identity ω²x'² + v'² = (1 + u²)(ω²x² + v²) holds exactly in real arithmetic; float64 ~1e-15.
        expect(energy() / before / (1 + (omega * dt) ** 2) - 1).toBeCloseTo(0, 12);
      }
    }
  });

  it("'semi-implicit' at ζ = 0 is bounded (det = 1, |trace| < 2) for ω·dt < 2, unstable above", () => {
    for (const u of [0.01, 0.5, 1, 1.9]) {
      const m = stepMatrix('semi-implicit', 10, 0, u / 10);
      // det of the measured map is 1 up to float64 rounding of its four entries (~1e-15).
      expect(Math.abs(m[0] * m[3] - m[1] * m[2] - 1)).toBeLessThanOrEqual(1e-12);
      // distinct eigenvalues on the unit circle (trace = 2 − u²): bounded, not convergent
      expect(Math.abs(m[0] + m[3])).toBeLessThan(2);
    }
    expect(spectralRadius(stepMatrix('semi-implicit', 10, 0, 2.04 / 10))).toBeGreaterThan(1);
  });
});

describe('pdSpring API conventions', () => {
  it('per-element parameter arrays equal per-element scalar calls', () => {
    const r = rng(5);
    const n = 40;
    const uaf = Float32Array.from({ length: n }, () => r() * 100);
    const zeta = Float32Array.from({ length: n }, () => r() * 3);
    for (const integrator of ['explicit', 'semi-implicit', 'implicit', 'exact'] as const) {
      const pos = Float32Array.from({ length: n }, () => r() * 2 - 1);
      const vel = Float32Array.from({ length: n }, () => r() * 2 - 1);
      const tp = Float32Array.from({ length: n }, () => r() * 2 - 1);
      const tv = Float32Array.from({ length: n }, () => r() * 2 - 1);
      const pos2 = pos.slice();
      const vel2 = vel.slice();
      pdSpring(pos, vel, tp, tv, uaf, zeta, 1 / 60, { integrator });
      for (let i = 0; i < n; i++) {
        const p = pos2.subarray(i, i + 1);
        const v = vel2.subarray(i, i + 1);
        pdSpring(p, v, tp.subarray(i, i + 1), tv.subarray(i, i + 1), uaf[i]!, zeta[i]!, 1 / 60, { integrator });
      }
      // Identical float64 arithmetic per element: bit-identical.
      expect(Array.from(pos)).toEqual(Array.from(pos2));
      expect(Array.from(vel)).toEqual(Array.from(vel2));
    }
  });

  it('Float32Array storage rounds each step; it tracks the float64 result closely', () => {
    const p32 = new Float32Array([0.1]);
    const v32 = new Float32Array([0]);
    const p64 = new Float64Array([Math.fround(0.1)]);
    const v64 = new Float64Array([0]);
    const g32 = new Float32Array([1]);
    const g64 = new Float64Array([1]);
    const q32 = new Float32Array([0]);
    const q64 = new Float64Array([0]);
    for (let k = 0; k < 300; k++) {
      pdSpring(p32, v32, g32, q32, 12, 0.4, 1 / 60, { integrator: 'exact' });
      pdSpring(p64, v64, g64, q64, 12, 0.4, 1 / 60, { integrator: 'exact' });
      expect(p32[0]).toBe(Math.fround(p32[0]!)); // stored value is a float32
      // float32 rounding (6e-8 relative) per step, damped by the contracting map: ≤ ~1e-6 total.
      expect(Math.abs(p32[0]! - p64[0]!)).toBeLessThanOrEqual(1e-5);
    }
  });

  it('dt = 0 changes nothing for every integrator and for the rigid-body variant', () => {
    for (const integrator of ['explicit', 'semi-implicit', 'implicit', 'exact'] as const) {
      const pos = new Float32Array([0.3, -2]);
      const vel = new Float32Array([1.5, 0]);
      pdSpring(pos, vel, new Float32Array([1, 1]), new Float32Array([2, 2]), 30, 0.5, 0, { integrator });
      expect(Array.from(pos)).toEqual([Math.fround(0.3), -2]);
      expect(Array.from(vel)).toEqual([1.5, 0]);
    }
    const vel = new Float32Array([1.5]);
    pdSpringRigidBody(new Float32Array([0]), vel, new Float32Array([1]), new Float32Array([1]), 30, 0.5, 0);
    expect(vel[0]).toBe(1.5);
  });

  it('rejects bad arguments', () => {
    const a = new Float32Array(3);
    const b = new Float32Array(2);
    expect(() => pdSpring(a, b, a, a, 1, 1, 0.1)).toThrow(RangeError);
    expect(() => pdSpring(a, a, a, a, 1, 1, -0.1)).toThrow(RangeError);
    expect(() => pdSpring(a, a, a, a, 1, 1, NaN)).toThrow(RangeError);
    expect(() => pdSpring(a, a, a, a, -1, 1, 0.1)).toThrow(RangeError);
    expect(() => pdSpring(a, a, a, a, 1, -0.5, 0.1)).toThrow(RangeError);
    expect(() => pdSpring(a, a, a, a, b, 1, 0.1)).toThrow(RangeError);
    expect(() => pdSpring(a, a, a, a, 1, 1, 0.1, { integrator: 'rk4' as PdIntegrator })).toThrow(RangeError);
  });
});

describe('substepping helpers', () => {
  it('substepMaxDt: full steps of maxDt, remainder last', () => {
    const calls: number[] = [];
    expect(substepMaxDt(0.1, 0.03, (h) => calls.push(h))).toBe(4);
    expect(calls.slice(0, 3)).toEqual([0.03, 0.03, 0.03]);
    expect(calls[3]).toBeCloseTo(0.01, 15); // 0.1 − 3·0.03 in float64 (one rounding)
    calls.length = 0;
    // 0.1/0.01 is 10 up to rounding: 10 steps, no 1e-18 s sliver.
    expect(substepMaxDt(0.1, 0.01, (h) => calls.push(h))).toBe(10);
    expect(calls.reduce((s, h) => s + h, 0)).toBeCloseTo(0.1, 15); // sum of ten float64 values
    calls.length = 0;
    expect(substepMaxDt(0.004, 0.01, (h) => calls.push(h))).toBe(1);
    expect(calls).toEqual([0.004]);
    expect(substepMaxDt(0, 0.01, () => calls.push(-1))).toBe(0);
    expect(() => substepMaxDt(1, 0, () => {})).toThrow(RangeError);
  });

  it('substepUniform: ceil(dt/maxDt) equal steps', () => {
    const calls: number[] = [];
    expect(substepUniform(0.1, 0.03, (h) => calls.push(h))).toBe(4);
    expect(calls).toEqual([0.025, 0.025, 0.025, 0.025]);
    calls.length = 0;
    expect(substepUniform(0.1, 0.01, (h) => calls.push(h))).toBe(10);
    expect(substepUniform(0, 0.01, () => calls.push(-1))).toBe(0);
    expect(() => substepUniform(-1, 0.01, () => {})).toThrow(RangeError);
  });

  // Semi-implicit Euler is first order: the error of a fixed interval shrinks ∝ maxDt.
  for (const [name, helper] of [
    ['substepMaxDt', substepMaxDt],
    ['substepUniform', substepUniform],
  ] as const) {
    it(`${name}: semi-implicit converges to 'exact' with error ∝ maxDt`, () => {
      const omega = TWO_PI * 2;
      const zeta = 0.3;
      const total = 0.5;
      const g = new Float64Array([1]);
      const q = new Float64Array([0.5]);
      const ref = { pos: new Float64Array([0]), vel: new Float64Array([0]) };
      pdSpring(ref.pos, ref.vel, g, q, omega, zeta, total, { integrator: 'exact' });
      const errors: number[] = [];
      const maxDts = [0.03, 0.015, 0.0075, 0.00375, 0.001875];
      for (const maxDt of maxDts) {
        const pos = new Float64Array([0]);
        const vel = new Float64Array([0]);
        helper(total, maxDt, (h) => pdSpring(pos, vel, g, q, omega, zeta, h, { integrator: 'semi-implicit' }));
        errors.push(Math.abs(pos[0]! - ref.pos[0]!) + Math.abs(vel[0]! - ref.vel[0]!) / omega);
      }
      for (let k = 1; k < errors.length; k++) expect(errors[k]!).toBeLessThan(errors[k - 1]!);
      // Observed order from the first to the last maxDt (16× apart): 1 ± 0.2 for a first-order
      // method (the O(maxDt²) term and the varying remainder step perturb it slightly).
      const order = Math.log(errors[0]! / errors[errors.length - 1]!) / Math.log(16);
      expect(order).toBeGreaterThan(0.8);
      expect(order).toBeLessThan(1.2);
      expect(errors[errors.length - 1]!).toBeLessThan(1e-2); // and it is actually getting close
    });
  }
});

describe('FixedStepAccumulator', () => {
  const omega = TWO_PI * 3;
  const zeta = 0.2;
  const target = new Float64Array([1, -2, 0.5]);
  const targetVel = new Float64Array([0, 1, 0]);
  const springStep = (pos: Float64Array, vel: Float64Array, dt: number) =>
    pdSpring(pos, vel, target, targetVel, omega, zeta, dt, { integrator: 'semi-implicit' });

  it('splitting a 1/30 s frame into two 1/60 s frames gives the same fixed states', () => {
    for (const fixedDt of [1 / 60, 1 / 120, 1 / 90]) {
      const a = new FixedStepAccumulator(3, fixedDt, springStep, [0, 0, 0], [0, 0, 0]);
      const b = new FixedStepAccumulator(3, fixedDt, springStep, [0, 0, 0], [0, 0, 0]);
      for (let frame = 0; frame < 90; frame++) {
        a.advance(1 / 30);
        b.advance(1 / 60);
        b.advance(1 / 60);
        expect(b.stepCount).toBe(a.stepCount);
        // Same number of identical fixed steps from the same start: bit-identical states.
        expect(Array.from(b.currPos)).toEqual(Array.from(a.currPos));
        expect(Array.from(b.currVel)).toEqual(Array.from(a.currVel));
        expect(Array.from(b.prevPos)).toEqual(Array.from(a.prevPos));
        // Accumulators differ only by summation rounding (~1e-17 s), so the interpolation agrees to ~1e-12.
        for (let i = 0; i < 3; i++) expect(Math.abs(b.pos[i]! - a.pos[i]!)).toBeLessThanOrEqual(1e-9);
      }
      expect(a.stepCount).toBe(Math.round(3 / fixedDt)); // 90 frames of 1/30 s = 3 s of fixed steps
    }
  });

  it('any frame split produces the same sequence of fixed states as stepping directly', () => {
    const r = rng(31);
    const fixedDt = 1 / 60;
    const log: number[][] = [];
    const logged = (pos: Float64Array, vel: Float64Array, dt: number) => {
      expect(dt).toBe(fixedDt); // every fixed step has exactly fixedDt
      springStep(pos, vel, dt);
      log.push([...pos, ...vel]);
    };
    const acc = new FixedStepAccumulator(3, fixedDt, logged, undefined, undefined, { maxUpdates: Infinity });
    let wall = 0;
    for (let k = 0; k < 400; k++) {
      const frame = r() * 0.05;
      wall += frame;
      acc.advance(frame);
    }
    const pos = new Float64Array(3);
    const vel = new Float64Array(3);
    for (let k = 0; k < log.length; k++) {
      springStep(pos, vel, fixedDt);
      expect(log[k]).toEqual([...pos, ...vel]); // identical arithmetic: bit-identical
    }
    // All wall time is accounted for: steps·fixedDt + accumulator = wall (summation rounding ~1e-15).
    expect(Math.abs(acc.stepCount * fixedDt + acc.accumulator - wall)).toBeLessThanOrEqual(1e-12);
    expect(acc.accumulator).toBeLessThan(fixedDt);
  });

  it('public state interpolates the last two fixed states by accumulator/fixedDt', () => {
    const acc = new FixedStepAccumulator(3, 0.1, springStep, [0, 0, 0], [0, 0, 0]);
    expect(acc.advance(0.25)).toBe(2);
    expect(acc.alpha).toBeCloseTo(0.5, 12); // (0.25 − 0.2)/0.1 with float64 rounding
    for (let i = 0; i < 3; i++) {
      const expected = acc.prevPos[i]! + (acc.currPos[i]! - acc.prevPos[i]!) * acc.alpha;
      expect(acc.pos[i]).toBe(expected); // same expression: bit-identical
      expect(acc.pos[i]).not.toBe(acc.currPos[i]); // really between, not snapped
    }
    // A zero-length frame keeps the state.
    const before = Array.from(acc.pos);
    expect(acc.advance(0)).toBe(0);
    expect(Array.from(acc.pos)).toEqual(before);
  });

  it('maxUpdates caps catch-up after a long frame and drops the excess whole steps', () => {
    const fixedDt = 1 / 60;
    const acc = new FixedStepAccumulator(3, fixedDt, springStep, undefined, undefined, { maxUpdates: 4 });
    expect(acc.advance(0.51)).toBe(4); // 30.6 steps were due
    expect(acc.stepCount).toBe(4);
    // 26 whole steps dropped, the 0.6-step fraction kept (float64 rounding of a few operations).
    expect(acc.droppedTime).toBeCloseTo(26 * fixedDt, 12);
    expect(acc.accumulator).toBeCloseTo(0.51 - 30 * fixedDt, 12);
    expect(acc.advance(fixedDt)).toBe(1); // back to normal pacing
    expect(() => new FixedStepAccumulator(1, 0, springStep)).toThrow(RangeError);
    expect(() => new FixedStepAccumulator(1, 0.1, springStep, undefined, undefined, { maxUpdates: 0 })).toThrow(RangeError);
  });
});
