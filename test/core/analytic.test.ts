/**
 * The solver (every backend) and the reference against an independent closed-form solution of
 * x'' = s·(g − x) + d·(q − v), written here from the textbook (not from the library's
 * transition matrix), evaluated in float64.
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, callKernel, type Kernels, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { F64_PER_M, FLOAT32_ULP, SIMD_PER_M, SUBNORMAL_FLOOR } from '../helpers/tolerances.js';
import { fillState, mulberry32 } from '../helpers/random.js';

const EPS = Number.EPSILON / 2; // float64 unit roundoff, 2^-53

/** x(t), v(t), and the sums of |terms| each was computed from (for its rounding error bound). */
interface Exact {
  x: number;
  v: number;
  xScale: number;
  vScale: number;
}

/**
 * Textbook solution of x'' = s·(g − x) + d·(q − v), x(0) = x0, v(0) = v0, s ≥ 0, d ≥ 0.
 * s > 0: the equilibrium is c = g + d·q/s; with y = x0 − c and a = d/2,
 *   under-damped (ω² = s − a² > 0): x = c + e^{−at}(y·cos ωt + ((v0 + a·y)/ω)·sin ωt),
 *   critical (ω² = 0):               x = c + e^{−at}(y + (v0 + a·y)·t),
 *   over-damped (b² = a² − s > 0):   x = c + C1·e^{r1·t} + C2·e^{r2·t}, r1,2 = −a ± b,
 *                                    C1 = (v0 − r2·y)/2b, C2 = (r1·y − v0)/2b,
 * and v = dx/dt. s = 0: v = q + (v0 − q)·e^{−dt}, x = x0 + q·t + (v0 − q)(1 − e^{−dt})/d
 * (x = x0 + v0·t when d = 0 too).
 *
 * Near critical (|ζ − 1| ≤ 1e-6) the under/over formulas are still accurate in float64:
 * ω (or b) ≳ 1e-3·a there (≳ 3e-4·a one float32 ulp from ζ = 1), so the division by ω or 2b
 * and the cancellation of C1·e^{r1·t} + C2·e^{r2·t} cost at most a/b ≲ 3e3 times ε, and the
 * rounding of ω² = s − a² (relative 2ε·s/|ω²| ≲ 1e-10) enters cos ωt and sin(ωt)/ω only at
 * second order in ωt. Only ω² = 0 exactly needs the critical formula. The scales returned
 * bound the magnitudes summed (C1, C2 included), hence the oracle's own error.
 */
function exactSolution(s: number, d: number, x0: number, v0: number, g: number, q: number, t: number): Exact {
  if (s === 0) {
    if (d === 0) return { x: x0 + v0 * t, v: v0, xScale: Math.abs(x0) + Math.abs(v0 * t), vScale: Math.abs(v0) };
    const decay = Math.exp(-d * t);
    const oneMinusDecay = -Math.expm1(-d * t); // 1 − e^{−dt}, without cancellation for small dt
    const drift = ((v0 - q) * oneMinusDecay) / d;
    return {
      x: x0 + q * t + drift,
      v: q + (v0 - q) * decay,
      xScale: Math.abs(x0) + Math.abs(q * t) + Math.abs(drift),
      vScale: Math.abs(q) + Math.abs((v0 - q) * decay) + Math.abs(v0),
    };
  }
  const c = g + (d * q) / s;
  const y = x0 - c;
  const a = d / 2;
  const w2 = s - a * a;
  const e = Math.exp(-a * t);
  const base = Math.abs(g) + 2 * Math.abs(c) + Math.abs(x0);
  if (w2 > 0) {
    const w = Math.sqrt(w2);
    const cos = Math.cos(w * t);
    const sin = Math.sin(w * t);
    const B = (v0 + a * y) / w;
    const Bv = (s * y + a * v0) / w;
    return {
      x: c + e * (y * cos + B * sin),
      v: e * (v0 * cos - Bv * sin),
      xScale: base + e * (Math.abs(y) + (Math.abs(v0) + Math.abs(a * y)) / w),
      vScale: e * (Math.abs(v0) + (Math.abs(s * y) + Math.abs(a * v0)) / w),
    };
  }
  if (w2 === 0) {
    const B = v0 + a * y;
    return {
      x: c + e * (y + B * t),
      v: e * (v0 - a * B * t),
      xScale: base + e * (Math.abs(y) + (Math.abs(v0) + Math.abs(a * y)) * t),
      vScale: e * (Math.abs(v0) + a * (Math.abs(v0) + Math.abs(a * y)) * t),
    };
  }
  const b = Math.sqrt(-w2);
  const r2 = -(a + b);
  const r1 = -s / (a + b); // = b − a, from r1·r2 = s: no cancellation when b ≈ a
  const C1 = (v0 - r2 * y) / (2 * b);
  const C2 = (r1 * y - v0) / (2 * b);
  const e1 = Math.exp(r1 * t);
  const e2 = Math.exp(r2 * t);
  const c1Scale = (Math.abs(v0) + Math.abs(r2 * y)) / (2 * b);
  const c2Scale = (Math.abs(r1 * y) + Math.abs(v0)) / (2 * b);
  return {
    x: c + C1 * e1 + C2 * e2,
    v: r1 * C1 * e1 + r2 * C2 * e2,
    xScale: base + c1Scale * e1 + c2Scale * e2,
    vScale: Math.abs(r1) * c1Scale * e1 + Math.abs(r2) * c2Scale * e2,
  };
}

/** Stiffness and damping of each parameterisation, from the documented formulas. */
const LN2 = Math.LN2;
const fromFrequency = (f: number, h: number): [number, number] => [(2 * Math.PI * f) ** 2, (4 * LN2) / h];
const fromRatio = (zeta: number, h: number): [number, number] => {
  const d = (4 * LN2) / h;
  return [(d / (2 * zeta)) ** 2, d];
};
const fromHalflife = (h: number): [number, number] => {
  const d = (4 * LN2) / h;
  return [(d / 2) * (d / 2), d];
};

type SpringFn =
  | 'springDamper'
  | 'springDamperStiffness'
  | 'springDamperRatio'
  | 'criticalSpringDamper'
  | 'simpleSpringDamper'
  | 'decaySpringDamper';

interface Scenario {
  fn: SpringFn;
  label: string;
  /** float32 parameters, as the solver stores them */
  p: number[];
  /** stiffness and damping implied by p */
  sd: [number, number];
}

const f32 = Math.fround;
const ONE_ABOVE = 1 + 2 ** -23; // the float32 neighbours of 1
const ONE_BELOW = 1 - 2 ** -24;

function scenarios(): Scenario[] {
  const list: Scenario[] = [];
  const add = (fn: SpringFn, label: string, p: number[], sd: (...p: number[]) => [number, number]) => {
    const pf = p.map(f32);
    list.push({ fn, label, p: pf, sd: sd(...pf) });
  };
  // Damping ratios: exactly critical, within 1e-6 and 1e-7 (relative) on both sides, the two
  // float32 neighbours of 1, and clearly under- and over-damped springs.
  const zetas = [1, 1 + 1e-6, 1 - 1e-6, 1 + 1e-7, 1 - 1e-7, ONE_ABOVE, ONE_BELOW, 0.05, 0.3, 0.7, 1.5, 5, 20];
  for (const zeta of zetas) for (const h of [0.05, 0.5, 2]) add('springDamperRatio', `ζ ${f32(zeta)}, halflife ${h}`, [zeta, h], fromRatio);
  // Frequency/halflife: zero stiffness, nearly critical (f = ln2/(π·h) rounded to float32), under, over.
  for (const [f, h] of [
    [0, 0.3],
    [LN2 / (Math.PI * 0.2), 0.2],
    [LN2 / (Math.PI * 1.5), 1.5],
    [2, 0.1],
    [0.5, 2],
    [3, 1],
    [0.05, 0.5],
  ]) {
    add('springDamper', `frequency ${f32(f)}, halflife ${h}`, [f, h], fromFrequency);
  }
  // Stiffness/damping: exactly critical, within 1e-6 of it on both sides, one ulp either side,
  // undamped oscillators, zero stiffness (with and without damping), under and over.
  const stiffness: [number, number][] = [
    [16, 8],
    [16 * (1 + 1e-6), 8],
    [16 * (1 - 1e-6), 8],
    [16 + 2 ** -19, 8],
    [16 - 2 ** -20, 8],
    [100, 0],
    [1, 0],
    [0, 3],
    [0, 0],
    [0, 0.25],
    [4, 10],
    [400, 2],
    [0.5, 20],
  ];
  for (const [s, d] of stiffness) add('springDamperStiffness', `s ${f32(s)}, d ${d}`, [s, d], (s, d) => [s, d]);
  for (const h of [0.01, 0.1, 0.5, 2]) {
    add('criticalSpringDamper', `halflife ${h}`, [h], fromHalflife);
    add('simpleSpringDamper', `halflife ${h}`, [h], fromHalflife);
    add('decaySpringDamper', `halflife ${h}`, [h], fromHalflife);
  }
  return list;
}

const SCENARIOS = scenarios();
const DTS = [1 / 240, 1 / 60, 0.1, 0.37, 1, 2];
const STATES = 64;

type Impl = 'reference' | Backend;
const IMPLS: Impl[] = ['reference', ...BACKENDS];

/**
 * Tolerances, per element, with M the sum of |terms| of the transition written around g
 * (M = |g| + |xx·(x0 − g)| + |xv·v0| + |xq·q|, the coefficients taken from the oracle itself
 * applied to unit states) and S the oracle's own sum of |terms| (constants and their reasons:
 * test/helpers/tolerances.ts):
 * - the oracle's float64 error is ≤ ~10 roundings of ε = 2^-53 on S: 16ε·S;
 * - the float32 SIMD kernel: SIMD_PER_M·M;
 * - the float64 paths (reference, JS, scalar wasm) round once to float32: one FLOAT32_ULP of |x|,
 *   plus F64_PER_M·M for their own float64 error;
 * - SUBNORMAL_FLOOR where the result underflows.
 */
const ORACLE_PER_SCALE = 16 * EPS;

function tolerance(impl: Impl, exact: number, m: number, scale: number): number {
  const own = impl === 'simd' ? SIMD_PER_M * m : FLOAT32_ULP * Math.abs(exact) + F64_PER_M * m;
  return own + ORACLE_PER_SCALE * scale + SUBNORMAL_FLOOR;
}

const solvers = useSolvers(1024 * 1024, LARGE_DT_ON_PURPOSE);

function target(impl: Impl): Kernels {
  return impl === 'reference' ? reference : solvers[impl];
}

interface Batch {
  fn: SpringFn;
  /** per element: stiffness, damping */
  sd: [number, number][];
  params: (number | Float32Array)[];
  x: Float32Array;
  v: Float32Array;
  g: Float32Array;
  q: Float32Array;
  labels: string[];
}

/** Random states (|x|, |g| ≤ 10, |v|, |q| ≤ 20) for n elements, zero g/q where the function has none. */
function states(fn: SpringFn, n: number, seed: number) {
  const x = new Float32Array(n);
  const v = new Float32Array(n);
  const g = new Float32Array(n);
  const q = new Float32Array(n);
  fillState(
    mulberry32(seed),
    x,
    v,
    fn === 'decaySpringDamper' ? null : g,
    fn === 'springDamper' || fn === 'springDamperStiffness' || fn === 'springDamperRatio' || fn === 'criticalSpringDamper' ? q : null,
  );
  return { x, v, g, q };
}

/** Checks one batch after a step of dt; returns the worst ratio of error to tolerance, with a message. */
function check(impl: Impl, batch: Batch, dt: number): { ratio: number; message: string } {
  const { x, v, g, q, sd, labels } = batch;
  const xOut = Float32Array.from(x);
  const vOut = Float32Array.from(v);
  callKernel(target(impl), batch.fn, xOut, vOut, g, q, batch.params, dt);
  let worst = { ratio: 0, message: '' };
  for (let i = 0; i < x.length; i++) {
    const [s, d] = sd[i];
    const exact = exactSolution(s, d, x[i], v[i], g[i], q[i], dt);
    // Transition coefficients from the oracle applied to unit states (g = 0): the term sizes M.
    const ex = exactSolution(s, d, 1, 0, 0, 0, dt);
    const ev = exactSolution(s, d, 0, 1, 0, 0, dt);
    const eq = exactSolution(s, d, 0, 0, 0, 1, dt);
    const y = x[i] - g[i];
    const mx = Math.abs(g[i]) + Math.abs(ex.x * y) + Math.abs(ev.x * v[i]) + Math.abs(eq.x * q[i]);
    const mv = Math.abs(ex.v * y) + Math.abs(ev.v * v[i]) + Math.abs(eq.v * q[i]);
    for (const [what, got, want, m, scale] of [
      ['x', xOut[i], exact.x, mx, exact.xScale],
      ['v', vOut[i], exact.v, mv, exact.vScale],
    ] as const) {
      const err = Math.abs(got - want);
      const tol = tolerance(impl, want, m, scale);
      const ratio = err <= tol ? err / tol : Number.isNaN(err) ? Infinity : err / tol;
      if (ratio > worst.ratio) {
        worst = {
          ratio,
          message: `${labels[i]}, dt ${dt}: ${what} = ${got}, exact ${want} (M ${m}, x0 ${x[i]}, v0 ${v[i]}, g ${g[i]}, q ${q[i]})`,
        };
      }
    }
  }
  return worst;
}

describe.each(IMPLS.map((impl) => [impl] as const))('%s', (impl) => {
  describe.each(SCENARIOS.map((sc) => [sc.fn, sc.label, sc] as const))('%s, %s (uniform parameters)', (_fn, _label, sc) => {
    it.each(DTS.map((dt) => [dt] as const))('matches the closed form after dt = %f', (dt) => {
      const { x, v, g, q } = states(sc.fn, STATES + 3, SCENARIOS.indexOf(sc) + 1);
      const batch: Batch = {
        fn: sc.fn,
        sd: Array(x.length).fill(sc.sd),
        params: sc.p,
        x,
        v,
        g,
        q,
        labels: Array(x.length).fill(`${sc.fn} ${sc.label}`),
      };
      const worst = check(impl, batch, dt);
      expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
    });
  });

  // All scenarios of a function in one call with per-element parameters (the SIMD kernel then
  // computes a transition per element, with neighbouring lanes in different regimes).
  const fns = [...new Set(SCENARIOS.map((sc) => sc.fn))];
  describe.each(fns.map((fn) => [fn] as const))('%s, every scenario at once (per-element parameters)', (fn) => {
    it.each(DTS.map((dt) => [dt] as const))('matches the closed form after dt = %f', (dt) => {
      const list = SCENARIOS.filter((sc) => sc.fn === fn);
      const perScenario = 13; // odd, so scenarios straddle SIMD lanes
      const n = list.length * perScenario;
      const { x, v, g, q } = states(fn, n, 1000 + fns.indexOf(fn));
      const arity = list[0].p.length;
      const params = Array.from({ length: arity }, () => new Float32Array(n));
      const sd: [number, number][] = [];
      const labels: string[] = [];
      for (let i = 0; i < n; i++) {
        const sc = list[i % list.length]; // interleaved: neighbours differ
        for (let k = 0; k < arity; k++) params[k][i] = sc.p[k];
        sd.push(sc.sd);
        labels.push(`${fn} ${sc.label} (element ${i})`);
      }
      const worst = check(impl, { fn, sd, params, x, v, g, q, labels }, dt);
      expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
    });
  });

  describe('damper', () => {
    it.each([0.01, 0.1, 0.5, 2].flatMap((h) => DTS.map((dt) => [h, dt] as const)))(
      'halflife %f matches x = g + (x0 − g)·2^(−dt/halflife) after dt = %f',
      (h, dt) => {
        const { x, g } = states('simpleSpringDamper', STATES + 3, 77);
        const halflife = f32(h);
        const out = Float32Array.from(x);
        target(impl).damper(out, g, halflife, dt);
        const factor = 2 ** (-dt / halflife);
        let worst = { ratio: 0, message: '' };
        for (let i = 0; i < x.length; i++) {
          const exact = g[i] + (x[i] - g[i]) * factor;
          const m = Math.abs(g[i]) + Math.abs((x[i] - g[i]) * factor);
          const err = Math.abs(out[i] - exact);
          // Oracle: 3 roundings on its terms (≤ 4ε·m), tolerances as for the springs.
          const tol = tolerance(impl, exact, m, m);
          const ratio = Number.isNaN(err) ? Infinity : err / tol;
          if (ratio > worst.ratio) worst = { ratio, message: `element ${i}: got ${out[i]}, exact ${exact}` };
        }
        expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
      },
    );
  });
});

describe('the scenarios', () => {
  it('include exact critical damping and damping within 1e-6 of critical on both sides', () => {
    // Relative distance of ω² = s − a² from 0, |ω²|/a² ≈ 2|ζ − 1|.
    const offsets = SCENARIOS.filter((sc) => sc.sd[1] > 0).map((sc) => (sc.sd[0] - (sc.sd[1] / 2) ** 2) / (sc.sd[1] / 2) ** 2);
    expect(offsets.filter((o) => o === 0).length).toBeGreaterThanOrEqual(10);
    expect(offsets.some((o) => o > 0 && o <= 2e-6)).toBe(true);
    expect(offsets.some((o) => o < 0 && o >= -2e-6)).toBe(true);
    expect(offsets.some((o) => o > 0 && o <= 3e-7)).toBe(true);
    expect(offsets.some((o) => o < 0 && o >= -3e-7)).toBe(true);
  });

  it('include zero damping and zero stiffness', () => {
    expect(SCENARIOS.some((sc) => sc.sd[1] === 0 && sc.sd[0] > 0)).toBe(true);
    expect(SCENARIOS.some((sc) => sc.sd[0] === 0 && sc.sd[1] > 0)).toBe(true);
  });
});
