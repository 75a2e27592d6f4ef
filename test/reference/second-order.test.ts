// Tests of the float64 reference of t3ssel8r's second-order dynamics
// ("Giving Personality to Procedural Animations using Math"). Node and browser: no fs.
import { describe, expect, it } from 'vitest';
import { SecondOrderDynamicsReference, type SecondOrderMethod } from '../../src/reference/second-order.js';
import { criticalTimestep, fzrToK, kToFzr } from '../../src/plain/second-order-parameters.js';
import { mulberry32 } from '../helpers/random.js';
import { spectralRadius as spectralRadiusOf } from '../helpers/closed-form.js';

/** Seeded PRNG (mulberry32) so every run sees the same cases. */
const rng = mulberry32;

const TWO_PI = 2 * Math.PI;
const METHODS: SecondOrderMethod[] = ['euler-substep', 'clamped', 'pole-zero', 'exact'];

/**
 * Literal per-channel transcription of t3ssel8r's class (float64), with the three published
 * update rules. Independent of the implementation: it recomputes k1, k2, k3 from (f, ζ, r).
 */
class Transcription {
  xp: number;
  y: number;
  yd: number;
  k1: number;
  k2: number;
  k3: number;
  poleBranch = 0; // how often the pole-matching branch ran (coverage guard)
  clampBranch = 0;
  constructor(
    readonly f: number,
    readonly z: number,
    readonly r: number,
    x0: number,
  ) {
    this.k1 = z / (Math.PI * f); // t3ssel8r: k1 = ζ/(πf)
    this.k2 = 1 / (2 * Math.PI * f * (2 * Math.PI * f)); // t3ssel8r: k2 = 1/(2πf)²
    this.k3 = (r * z) / (2 * Math.PI * f); // t3ssel8r: k3 = rζ/(2πf)
    this.xp = x0; // t3ssel8r: initialise previous input, output = x0, velocity 0
    this.y = x0;
    this.yd = 0;
  }
  update(T: number, x: number, xdGiven: number | undefined, method: 'euler-substep' | 'clamped' | 'pole-zero'): void {
    const { k1, k2, k3 } = this;
    const xd = xdGiven ?? (x - this.xp) / T; // t3ssel8r: estimate velocity
    this.xp = x;
    let y = this.y;
    let yd = this.yd;
    if (method === 'euler-substep') {
      const Tcrit = 0.8 * (Math.sqrt(4 * k2 + k1 * k1) - k1); // t3ssel8r: critical timestep × 0.8 safety
      const iterations = Math.ceil(T / Tcrit); // t3ssel8r: take extra iterations if T > Tcrit
      const h = T / iterations;
      for (let i = 0; i < iterations; i++) {
        y = y + h * yd; // t3ssel8r: integrate position by velocity
        yd = yd + (h * (x + k3 * xd - y - k1 * yd)) / k2; // t3ssel8r: integrate velocity by acceleration
      }
    } else if (method === 'clamped') {
      const k2s = Math.max(k2, (T * T) / 2 + (T * k1) / 2, T * k1); // t3ssel8r: clamp k2 for stability
      y = y + T * yd; // t3ssel8r: integrate position by velocity
      yd = yd + (T * (x + k3 * xd - y - k1 * yd)) / k2s; // t3ssel8r: integrate velocity by acceleration
    } else {
      const { f, z } = this;
      const w = 2 * Math.PI * f; // t3ssel8r: ω = 2πf
      const d = w * Math.sqrt(Math.abs(z * z - 1)); // t3ssel8r: d = ω√|ζ² − 1|
      let k1s: number;
      let k2s: number;
      if (w * T >= z) {
        this.poleBranch++;
        const t1 = Math.exp(-z * w * T); // t3ssel8r: t1 = e^{−ζωT}
        const alpha = 2 * t1 * (z <= 1 ? Math.cos(T * d) : Math.cosh(T * d)); // t3ssel8r: α
        const beta = t1 * t1; // t3ssel8r: β = t1²
        const t2 = T / (1 + beta - alpha); // t3ssel8r: t2 = T/(1 + β − α)
        k1s = (1 - beta) * t2; // t3ssel8r: k1_stable
        k2s = T * t2; // t3ssel8r: k2_stable
      } else {
        this.clampBranch++;
        k1s = k1; // t3ssel8r: k1_stable = k1 when ωT < ζ
        k2s = Math.max(k2, (T * T) / 2 + (T * k1) / 2, T * k1); // t3ssel8r: clamped k2
      }
      y = y + T * yd; // t3ssel8r: integrate position by velocity
      yd = yd + (T * (x + k3 * xd - y - k1s * yd)) / k2s; // t3ssel8r: velocity update with k1s (not k1)
    }
    this.y = y;
    this.yd = yd;
  }
}

describe('euler-substep / clamped / pole-zero reproduce the source formulas', () => {
  for (const method of ['euler-substep', 'clamped', 'pole-zero'] as const) {
    it(`${method}: 12 random updates on 200 random channels (with and without given xd)`, () => {
      const r = rng(method.length * 7919);
      const n = 200;
      const f = Float32Array.from({ length: n }, () => 0.2 + r() * 19.8);
      const zeta = Float32Array.from({ length: n }, (_, i) => (i % 9 === 0 ? 0 : i % 10 === 0 ? 1 : r() * 4));
      const rr = Float32Array.from({ length: n }, () => -2 + r() * 5);
      const x0 = Float32Array.from({ length: n }, () => (r() - 0.5) * 10);
      const sys = new SecondOrderDynamicsReference(n, f, zeta, rr, x0);
      const ref = Array.from({ length: n }, (_, i) => new Transcription(f[i]!, zeta[i]!, rr[i]!, x0[i]!));
      for (let step = 0; step < 12; step++) {
        // dt spans both pole-zero branches (ω·dt ≥ ζ and ω·dt < ζ) and many substep counts.
        const dt = step % 3 === 0 ? r() : 1e-3 + r() * 0.05;
        const x = Float32Array.from({ length: n }, () => (r() - 0.5) * 10);
        const xd = step % 2 === 0 ? Float32Array.from({ length: n }, () => (r() - 0.5) * 50) : undefined;
        const out = sys.update(dt, x, xd, method);
        for (let i = 0; i < n; i++) {
          ref[i]!.update(dt, x[i]!, xd?.[i], method);
          // Same float64 operations in the same order as the source formulas: bit-identical.
          expect(sys.y[i]).toBe(ref[i]!.y);
          expect(sys.yd[i]).toBe(ref[i]!.yd);
          expect(sys.xPrev[i]).toBe(x[i]);
          expect(out[i]).toBe(Math.fround(ref[i]!.y)); // output is y rounded to float32
        }
      }
      if (method === 'pole-zero') {
        // Both branches of the source's pole-zero method were exercised.
        expect(ref.reduce((s, t) => s + t.poleBranch, 0)).toBeGreaterThan(100);
        expect(ref.reduce((s, t) => s + t.clampBranch, 0)).toBeGreaterThan(100);
      }
    });
  }

  it("'pole-zero' is the default method", () => {
    const a = new SecondOrderDynamicsReference(3, 2, 0.5, 1, new Float32Array(3));
    const b = new SecondOrderDynamicsReference(3, 2, 0.5, 1, new Float32Array(3));
    const x = new Float32Array([1, -1, 2]);
    const ya = Array.from(a.update(0.1, x));
    const yb = Array.from(b.update(0.1, x, undefined, 'pole-zero'));
    expect(ya).toEqual(yb);
  });

  it("'pole-zero' places the discrete poles at the continuous ones (uses k1s, not k1)", () => {
    // One-step map of (y − x, yd) with constant input, measured from the implementation: its trace
    // and determinant must be α = 2e^{−ζωdt}cos(ωd·dt) (cosh above ζ = 1) and β = e^{−2ζωdt}.
    for (const [f, zeta, dt] of [
      [2, 0.3, 0.2],
      [20, 0.5, 1 / 60],
      [5, 1, 0.1],
      [5, 2.5, 0.2],
      [1, 0.05, 1],
    ] as const) {
      expect(TWO_PI * f * dt).toBeGreaterThanOrEqual(zeta); // the pole-matching branch applies
      const sys = new SecondOrderDynamicsReference(2, f, zeta, 1, new Float32Array(2));
      sys.y.set([1, 0]);
      sys.yd.set([0, 1]);
      sys.update(dt, new Float32Array(2), new Float32Array(2), 'pole-zero');
      const trace = sys.y[0]! + sys.yd[1]!;
      const det = sys.y[0]! * sys.yd[1]! - sys.y[1]! * sys.yd[0]!;
      const w = TWO_PI * f;
      const wd = w * Math.sqrt(Math.abs(1 - zeta * zeta));
      const alpha = 2 * Math.exp(-zeta * w * dt) * (zeta <= 1 ? Math.cos(wd * dt) : Math.cosh(wd * dt));
      const beta = Math.exp(-2 * zeta * w * dt);
      // Entries are O(1); four products/sums in float64 → ~1e-15. With k1 in place of k1s the
      // determinant would be 1 − dt·k1/k2s, off by O(0.1).
      expect(Math.abs(trace - alpha)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(det - beta)).toBeLessThanOrEqual(1e-12);
    }
  });
});

/**
 * Independent textbook response of k2·y'' + k1·y' + y = c (constant forcing c) from (y0, yd0),
 * i.e. y'' = ω²(c − y) − 2ζω·y', via the regime formulas.
 */
function textbookConstant(f: number, zeta: number, c: number, y0: number, yd0: number, t: number): number {
  const w = TWO_PI * f;
  const A = y0 - c;
  const a = zeta * w;
  if (zeta < 1) {
    const wd = w * Math.sqrt(1 - zeta * zeta); // under-damped: e^{−at}(A cos + B sin)
    const B = (yd0 + a * A) / wd;
    return c + Math.exp(-a * t) * (A * Math.cos(wd * t) + B * Math.sin(wd * t));
  }
  if (zeta === 1) return c + (A + (yd0 + a * A) * t) * Math.exp(-a * t); // critical: (A + Bt)e^{−ωt}
  const root = w * Math.sqrt(zeta * zeta - 1); // over-damped: two exponentials
  const r1 = -a + root;
  const r2 = -a - root;
  const c1 = (yd0 - r2 * A) / (r1 - r2);
  return c + c1 * Math.exp(r1 * t) + (A - c1) * Math.exp(r2 * t);
}

/**
 * RK4 for k2·y'' + k1·y' + y = x(t) + k3·x'(t) with x(t) = x0 + b·t, advancing (y, yd) from time
 * s0 to s1 in equal steps of at most hMax.
 */
function rk4Ramp(
  k: { k1: number; k2: number; k3: number },
  x0: number,
  b: number,
  state: { y: number; yd: number },
  s0: number,
  s1: number,
  hMax: number,
): void {
  const n = Math.ceil((s1 - s0) / hMax);
  const h = (s1 - s0) / n;
  const acc = (s: number, y: number, yd: number) => (x0 + b * s + k.k3 * b - y - k.k1 * yd) / k.k2;
  let { y, yd } = state;
  for (let i = 0; i < n; i++) {
    const s = s0 + i * h;
    const a1 = acc(s, y, yd);
    const a2 = acc(s + h / 2, y + (h / 2) * yd, yd + (h / 2) * a1);
    const a3 = acc(s + h / 2, y + (h / 2) * (yd + (h / 2) * a1), yd + (h / 2) * a2);
    const a4 = acc(s + h, y + h * (yd + (h / 2) * a2), yd + h * a3);
    y += h * (yd + (h / 6) * (a1 + a2 + a3));
    yd += (h / 6) * (a1 + 2 * a2 + 2 * a3 + a4);
  }
  state.y = y;
  state.yd = yd;
}

describe("'exact' (first-order hold) is exact for any dt", () => {
  it('constant input: matches the textbook step response to 1e-9 (all regimes, 60 updates)', () => {
    const configs: Array<[number, number, number]> = [];
    for (const f of [0.5, 2, 20]) {
      for (const zeta of [0, 0.3, 1 - 1e-6, 1, 1 + 1e-6, 2.5, 4]) {
        for (const dt of [1e-3, 1 / 60, 0.3, 1]) configs.push([f, zeta, dt]);
      }
    }
    const r = rng(17);
    for (const [f, zeta, dt] of configs) {
      const rr = r() * 3 - 1;
      const sys = new SecondOrderDynamicsReference(1, f, zeta, rr, new Float64Array([0.75]));
      const y0 = (r() - 0.5) * 4;
      const yd0 = (r() - 0.5) * 4 * TWO_PI * f;
      sys.y[0] = y0;
      sys.yd[0] = yd0;
      const x = new Float64Array([0.75]); // equal to xPrev: zero estimated velocity, constant input
      for (let k = 1; k <= 60; k++) {
        sys.update(dt, x, undefined, 'exact');
        // O(1) displacements; the worst textbook conditioning (ζ = 1 + 1e-6) costs ~1e-13; 1e-9 is the brief's bound.
        expect(Math.abs(sys.y[0]! - textbookConstant(f, zeta, 0.75, y0, yd0, k * dt))).toBeLessThanOrEqual(1e-9);
      }
    }
  });

  it('constant given xd: equilibrium x + k3·xd, still the textbook response', () => {
    const f = 3;
    const zeta = 0.6;
    const rr = 2;
    const { k3 } = fzrToK(f, zeta, rr);
    const sys = new SecondOrderDynamicsReference(1, f, zeta, rr, new Float64Array([1]));
    for (let k = 1; k <= 40; k++) {
      sys.update(0.05, new Float64Array([1]), new Float64Array([0.4]), 'exact');
      // O(1) values, float64 rounding ~1e-15 per step; 1e-9 is the brief's bound.
      expect(Math.abs(sys.y[0]! - textbookConstant(f, zeta, 1 + k3 * 0.4, 1, 0, k * 0.05))).toBeLessThanOrEqual(1e-9);
    }
  });

  it('ramp input (x linear in time, xd estimated): matches a fine RK4 solution at every frame, even with dt = 0.5', () => {
    for (const [f, zeta, rr] of [
      [1, 0.2, 2],
      [2, 1, -1],
      [0.7, 3, 0.5],
      [4, 0, 1],
    ] as const) {
      const k = fzrToK(f, zeta, rr);
      const x0 = 0.3;
      const b = -1.7; // input slope
      for (const dt of [1 / 60, 0.5]) {
        const sys = new SecondOrderDynamicsReference(1, f, zeta, rr, new Float64Array([x0]));
        // The first frame sees x0 → x0 + b·dt, i.e. the ramp starts at t = 0 from rest (y = x0, yd = 0).
        const ref = { y: x0, yd: 0 };
        for (let i = 1; i * dt <= 2 + 1e-12; i++) {
          sys.update(dt, new Float64Array([x0 + b * i * dt]), undefined, 'exact');
          rk4Ramp(k, x0, b, ref, (i - 1) * dt, i * dt, 1e-4);
          // RK4 global error ~ (ωh)⁴·ωt with ωh ≤ 2.6e-3 → < 1e-10; 1e-9 is the brief's bound.
          expect(Math.abs(sys.y[0]! - ref.y)).toBeLessThanOrEqual(1e-9);
          expect(Math.abs(sys.yd[0]! - ref.yd)).toBeLessThanOrEqual(1e-9 * TWO_PI * f);
        }
      }
    }
  });

  it('one update of dt equals two updates of dt/2 along the same linear input', () => {
    for (const method of ['exact'] as const) {
      for (const [f, zeta] of [
        [3, 0.4],
        [3, 1],
        [0.5, 3],
        [20, 0],
      ] as const) {
        const a = new SecondOrderDynamicsReference(1, f, zeta, 1.5, new Float64Array([0]));
        const b = new SecondOrderDynamicsReference(1, f, zeta, 1.5, new Float64Array([0]));
        a.update(0.4, new Float64Array([2]), undefined, method);
        b.update(0.2, new Float64Array([1]), undefined, method);
        b.update(0.2, new Float64Array([2]), undefined, method);
        // Two float64 evaluations of the same exact map: rounding ~1e-15 on O(1)–O(10) values.
        expect(Math.abs(a.y[0]! - b.y[0]!)).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(a.yd[0]! - b.yd[0]!)).toBeLessThanOrEqual(1e-12 * TWO_PI * f);
      }
    }
  });
});

// t3ssel8r claims all his methods stable; the exact method is stable by construction. For ζ > 0 all
// four converge for every tested (f ≤ 20 Hz, dt ≤ 1 s). ζ = 0 (k1 = 0) is bounded but never
// convergent for all four, except pole-zero at ω·dt = kπ, where the source method drifts linearly
// (documented limitation, pinned by a test below).
describe('stability: every method converges to a constant input, none diverges', () => {
  const freqs = [1, 5, 20];
  const zetas = [0.2, 0.7, 1, 1.5, 4];
  const dts = [1 / 240, 1 / 60, 1 / 15, 0.25, 1];

  /** One-step map of (y − x, yd) with a constant input, measured from the implementation. */
  function stepMatrix(method: SecondOrderMethod, f: number, zeta: number, dt: number): [number, number, number, number] {
    const sys = new SecondOrderDynamicsReference(2, f, zeta, 1, new Float32Array(2));
    sys.y.set([1, 0]);
    sys.yd.set([0, 1]);
    sys.update(dt, new Float32Array(2), undefined, method);
    return [sys.y[0]!, sys.y[1]!, sys.yd[0]!, sys.yd[1]!];
  }

  /** Spectral radius of the 2×2 matrix [[a, b], [c, d]] given as [a, b, c, d]. */
  const spectralRadius = (m: [number, number, number, number]) => spectralRadiusOf(...m);

  for (const method of METHODS) {
    it(`${method}: f ≤ 20 Hz, 0 < ζ ≤ 4, dt ≤ 1 s, r ∈ {0, 2}: unit step settles`, () => {
      for (const f of freqs) {
        for (const zeta of zetas) {
          for (const dt of dts) {
            const rho = spectralRadius(stepMatrix(method, f, zeta, dt));
            expect(rho).toBeLessThan(1);
            // Enough updates for the slowest discrete mode to decay by e^{−40}.
            const steps = Math.ceil(40 / -Math.log(rho)) + 10;
            for (const rr of [0, 2]) {
              const sys = new SecondOrderDynamicsReference(1, f, zeta, rr, new Float32Array([0]));
              const x = new Float32Array([1]);
              let maxDev = 0;
              for (let k = 0; k < steps; k++) {
                sys.update(dt, x, undefined, method);
                maxDev = Math.max(maxDev, Math.abs(sys.y[0]! - 1));
              }
              expect(Number.isFinite(maxDev)).toBe(true);
              // Bounded: the k3·xd kick of a unit step (xd = 1/dt) gives an overshoot of order
              // r·ζ·√(1 + …) ≲ 10 even at dt = 1/240; 1e3 still flags any runaway.
              expect(maxDev).toBeLessThanOrEqual(1e3);
              // e^{−40} ≈ 4e-18 decay times a transient factor ≤ steps; 1e-9 covers float64 noise.
              expect(Math.abs(sys.y[0]! - 1)).toBeLessThanOrEqual(1e-9);
              expect(Math.abs(sys.yd[0]!)).toBeLessThanOrEqual(1e-9 * TWO_PI * f);
            }
          }
        }
      }
    });
  }

  // ζ = 0 (k1 = 0) never converges: the claim is boundedness. Checked as "no growth": the largest
  // |y − x| over the second half of a long run is not above that of the first half.
  function noGrowth(method: SecondOrderMethod, f: number, dt: number): { first: number; second: number } {
    const sys = new SecondOrderDynamicsReference(1, f, 0, 1, new Float32Array([0]));
    sys.yd[0] = TWO_PI * f * 0.5; // start with some energy
    const x = new Float32Array([1]);
    const n = 20000;
    let first = 0;
    let second = 0;
    for (let k = 0; k < n; k++) {
      sys.update(dt, x, new Float32Array([0]), method);
      const dev = Math.abs(sys.y[0]! - 1);
      if (!Number.isFinite(dev)) return { first, second: Infinity };
      if (k < n / 2) first = Math.max(first, dev);
      else second = Math.max(second, dev);
    }
    return { first, second };
  }

  for (const method of METHODS) {
    it(`${method}: ζ = 0 stays bounded (no growth over 20000 updates)`, () => {
      let tested = 0;
      for (const f of freqs) {
        for (const dt of dts) {
          // pole-zero at ζ = 0: skip ω·dt = kπ (double pole at ±1, see the limitation test below).
          if (method === 'pole-zero' && Math.abs(2 * f * dt - Math.round(2 * f * dt)) < 1e-9) continue;
          tested++;
          const { first, second } = noGrowth(method, f, dt);
          // A quasi-periodic orbit sampled 10000 times per half reaches the same maximum up to
          // ~1e-6 relative; linear or exponential growth would at least double it. The 1e-9 absolute
          // term covers orbits sampled at whole periods (e.g. 'exact' at f·dt integer), where the
          // deviation is pure float64 noise (~1e-12).
          expect(second).toBeLessThanOrEqual(first * (1 + 1e-3) + 1e-9);
        }
      }
      expect(tested).toBeGreaterThanOrEqual(10);
    });
  }

  it('pole-zero, ζ = 0, ω·dt = 2πk (source formula gives 0/0): finite, falls back to the clamp', () => {
    // f·dt integer → cos(ω·dt) = 1, 1 + β − α = 0 and the literal k1s = (1 − β)·T/0 = 0·∞ = NaN.
    for (const [f, dt] of [
      [1, 1],
      [20, 0.25],
      [20, 1],
    ] as const) {
      const a = new SecondOrderDynamicsReference(1, f, 0, 1, new Float32Array([0]));
      const b = new SecondOrderDynamicsReference(1, f, 0, 1, new Float32Array([0]));
      for (let k = 0; k < 100; k++) {
        a.update(dt, new Float32Array([1]), undefined, 'pole-zero');
        b.update(dt, new Float32Array([1]), undefined, 'clamped');
        expect(a.y[0]).toBe(b.y[0]); // identical clamp arithmetic
      }
      expect(Number.isFinite(a.y[0]!)).toBe(true);
    }
  });

  it('known limitation of the source pole-zero method: ζ = 0 at ω·dt = π drifts linearly', () => {
    // f = 1 Hz, dt = 0.5 s (also 30 Hz at 60 fps): both discrete poles at −1 with a Jordan block,
    // so |y − x| grows ∝ number of updates instead of staying bounded (exact: bounded).
    const dev = (method: SecondOrderMethod, n: number) => {
      const sys = new SecondOrderDynamicsReference(1, 1, 0, 0, new Float32Array([0]));
      sys.yd[0] = 1;
      for (let k = 0; k < n; k++) sys.update(0.5, new Float32Array([0]), undefined, method);
      return Math.abs(sys.y[0]!);
    };
    // y_n = (−1)^n·(−n·dt·yd0) exactly for this map: 10× more updates → 10× larger (rounding ~1e-15).
    expect(dev('pole-zero', 1000) / dev('pole-zero', 100)).toBeCloseTo(10, 9);
    expect(dev('exact', 1000)).toBeLessThanOrEqual(1 / TWO_PI + 1e-12); // amplitude yd0/ω, bounded
  });
});

describe('update() conventions', () => {
  it('omitted xd equals xd = (x − xPrev)/dt, and xPrev follows x', () => {
    for (const method of METHODS) {
      const a = new SecondOrderDynamicsReference(2, new Float32Array([2, 7]), 0.6, 1.3, new Float32Array([0, 1]));
      const b = new SecondOrderDynamicsReference(2, new Float32Array([2, 7]), 0.6, 1.3, new Float32Array([0, 1]));
      const x = new Float64Array([0.5, -1]);
      const dt = 0.04;
      a.update(dt, x, undefined, method);
      b.update(dt, x, new Float64Array([(0.5 - 0) / dt, (-1 - 1) / dt]), method);
      expect(Array.from(a.y)).toEqual(Array.from(b.y)); // same numbers in: bit-identical
      expect(Array.from(a.yd)).toEqual(Array.from(b.yd));
      expect(Array.from(a.xPrev)).toEqual([0.5, -1]);
    }
  });

  it('dt = 0 is a no-op (no velocity estimate; y, yd, xPrev unchanged)', () => {
    for (const method of METHODS) {
      const sys = new SecondOrderDynamicsReference(1, 3, 0.5, 2, new Float32Array([1]));
      sys.update(0.1, new Float32Array([2]), undefined, method);
      const state = [sys.y[0], sys.yd[0], sys.xPrev[0]];
      const out = sys.update(0, new Float32Array([5]), undefined, method);
      expect([sys.y[0], sys.yd[0], sys.xPrev[0]]).toEqual(state);
      expect(out[0]).toBe(Math.fround(sys.y[0]!));
    }
  });

  it('initial state: y = x0, yd = 0, xPrev = x0; output buffer is reused', () => {
    const sys = new SecondOrderDynamicsReference(2, 1, 1, 0, new Float32Array([3, -4]));
    expect(Array.from(sys.y)).toEqual([3, -4]);
    expect(Array.from(sys.yd)).toEqual([0, 0]);
    expect(Array.from(sys.xPrev)).toEqual([3, -4]);
    const o1 = sys.update(0.1, new Float32Array([3, -4]));
    const o2 = sys.update(0.1, new Float32Array([3, -4]));
    expect(o1).toBe(o2);
  });

  it('rejects f = 0 (k2 infinite), negative ζ, bad lengths, negative dt and unknown methods', () => {
    const x0 = new Float32Array(2);
    expect(() => new SecondOrderDynamicsReference(2, 0, 1, 0, x0)).toThrow(RangeError);
    expect(() => new SecondOrderDynamicsReference(2, new Float32Array([1, 0]), 1, 0, x0)).toThrow(RangeError);
    expect(() => new SecondOrderDynamicsReference(2, -1, 1, 0, x0)).toThrow(RangeError);
    expect(() => new SecondOrderDynamicsReference(2, 1, -0.1, 0, x0)).toThrow(RangeError);
    expect(() => new SecondOrderDynamicsReference(2, 1, 1, NaN, x0)).toThrow(RangeError);
    expect(() => new SecondOrderDynamicsReference(3, 1, 1, 0, x0)).toThrow(RangeError);
    expect(() => new SecondOrderDynamicsReference(2, new Float32Array(3).fill(1), 1, 0, x0)).toThrow(RangeError);
    const sys = new SecondOrderDynamicsReference(2, 1, 1, 0, x0);
    expect(() => sys.update(-0.1, x0)).toThrow(RangeError);
    expect(() => sys.update(0.1, new Float32Array(3))).toThrow(RangeError);
    expect(() => sys.update(0.1, x0, new Float32Array(1))).toThrow(RangeError);
    expect(() => sys.update(0.1, x0, undefined, 'rk4' as SecondOrderMethod)).toThrow(RangeError);
    expect(() => fzrToK(0, 1, 1)).toThrow(RangeError);
  });
});

describe('parameter conversions', () => {
  it('fzrToK is the source formula', () => {
    const { k1, k2, k3 } = fzrToK(2, 0.5, 2);
    // Closed-form values; float64 rounding of a few operations → 1e-15 relative.
    expect(k1).toBeCloseTo(0.5 / (Math.PI * 2), 15); // t3ssel8r: k1 = ζ/(πf)
    expect(k2).toBeCloseTo(1 / (16 * Math.PI * Math.PI), 15); // t3ssel8r: k2 = 1/(2πf)²
    expect(k3).toBeCloseTo((2 * 0.5) / (4 * Math.PI), 15); // t3ssel8r: k3 = rζ/(2πf)
  });

  it('round trips f, ζ, r → k → f, ζ, r and k → f, ζ, r → k', () => {
    const r = rng(3);
    for (let i = 0; i < 1000; i++) {
      const f = 0.01 + r() * 100;
      const zeta = 1e-3 + r() * 10;
      const rr = (r() - 0.5) * 10;
      const k = fzrToK(f, zeta, rr);
      const back = kToFzr(k.k1, k.k2, k.k3);
      // Each direction is a handful of float64 ops (sqrt, ×, ÷): a few ulps, 1e-14 relative is ample.
      expect(Math.abs(back.f / f - 1)).toBeLessThanOrEqual(1e-14);
      expect(Math.abs(back.zeta / zeta - 1)).toBeLessThanOrEqual(1e-14);
      expect(Math.abs(back.r - rr)).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(rr)));
      const k2 = fzrToK(back.f, back.zeta, back.r);
      expect(Math.abs(k2.k1 / k.k1 - 1)).toBeLessThanOrEqual(1e-14);
      expect(Math.abs(k2.k2 / k.k2 - 1)).toBeLessThanOrEqual(1e-14);
      expect(Math.abs(k2.k3 - k.k3)).toBeLessThanOrEqual(1e-14 * Math.max(1e-300, Math.abs(k.k3)));
    }
  });

  it('ζ = 0 leaves r undetermined: r = 0 when k3 = 0, error otherwise', () => {
    const k = fzrToK(3, 0, 5);
    expect(k.k1).toBe(0);
    expect(k.k3).toBe(0);
    const back = kToFzr(k.k1, k.k2, k.k3);
    expect(back.zeta).toBe(0);
    expect(back.r).toBe(0);
    expect(Math.abs(back.f / 3 - 1)).toBeLessThanOrEqual(1e-15); // sqrt + two divisions
    expect(() => kToFzr(0, 1, 0.5)).toThrow(RangeError);
    expect(() => kToFzr(1, 0, 0.5)).toThrow(RangeError);
  });

  it('criticalTimestep is 0.8·(√(4k2 + k1²) − k1)', () => {
    const r = rng(8);
    for (let i = 0; i < 200; i++) {
      const { k1, k2 } = fzrToK(0.1 + r() * 20, r() * 4, 1);
      const literal = 0.8 * (Math.sqrt(4 * k2 + k1 * k1) - k1);
      // The literal form loses ~log10(4ζ²+1) digits to cancellation (≤ 2 for ζ ≤ 4): 1e-13 relative.
      expect(Math.abs(criticalTimestep(k1, k2) / literal - 1)).toBeLessThanOrEqual(1e-13);
    }
    expect(() => criticalTimestep(1, 0)).toThrow(RangeError);
  });

  it('Tcrit/0.8 is exactly the stability limit of one semi-implicit Euler step', () => {
    for (const [f, zeta] of [
      [1, 0.1],
      [5, 0.7],
      [20, 1],
      [2, 4],
    ] as const) {
      const { k1, k2 } = fzrToK(f, zeta, 0);
      const hMax = criticalTimestep(k1, k2) / 0.8;
      // Semi-implicit map for y + k1·y' + k2·y'' = 0: [[1, h], [−h/k2, 1 − h²/k2 − h·k1/k2]].
      const rho = (h: number) => {
        const a = 1;
        const b = h;
        const c = -h / k2;
        const d = 1 - (h * h) / k2 - (h * k1) / k2;
        const tr = a + d;
        const det = a * d - b * c;
        const disc = tr * tr - 4 * det;
        return disc >= 0 ? Math.max(Math.abs((tr + Math.sqrt(disc)) / 2), Math.abs((tr - Math.sqrt(disc)) / 2)) : Math.sqrt(det);
      };
      // ±1e-3 around the limit moves the eigenvalue at −1 by ~1e-3, far above rounding.
      expect(rho(hMax * (1 - 1e-3))).toBeLessThan(1);
      expect(rho(hMax * (1 + 1e-3))).toBeGreaterThan(1);
    }
  });
});
