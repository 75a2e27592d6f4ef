/**
 * Properties every backend must have: dt = 0 is the identity, edge parameters stay finite and
 * give the documented limits, the decay spring never gains energy, steps compose exactly,
 * the regimes join continuously at critical damping, and zero stiffness is the exact limit.
 */
import { describe, expect, it } from 'vitest';
import type { Param } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, FUNCTIONS, callKernel, fnInfo, type FnInfo, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { SIMD_PER_M, SUBNORMAL_FLOOR } from '../helpers/tolerances.js';
import { fillState, logUniform, mulberry32, springParams, uniform } from '../helpers/random.js';

const solvers = useSolvers(4 * 1024 * 1024, LARGE_DT_ON_PURPOSE);

// Tolerances per unit of M, the sum of |terms| of x' = g + xx·(x − g) + xv·v + xq·q (or of v'):
// SIMD_PER_M bounds the float32 kernels and the float64 ones alike (test/helpers/tolerances.ts).

interface Transition {
  xx: number;
  xv: number;
  xq: number;
  vx: number;
  vv: number;
  vq: number;
}

/** The float64 transition over t of kernel `fn` with parameters p (the damper: xx = its factor). */
function transition(fn: FnInfo, p0: number, p1: number, t: number): Transition {
  if (fn.mode === null) return { xx: Math.exp((-Math.LN2 * t) / p0), xv: 0, xq: 0, vx: 0, vv: 0, vq: 0 };
  return reference.springTransition(...reference.stiffnessAndDamping(fn.mode, p0, p1), t);
}

/** M for x' and for v' (see SIMD_PER_M). */
function termSizes(m: Transition, x: number, v: number, g: number, q: number): [number, number] {
  const y = x - g;
  return [
    Math.abs(g) + Math.abs(m.xx * y) + Math.abs(m.xv * v) + Math.abs(m.xq * q),
    Math.abs(m.vx * y) + Math.abs(m.vv * v) + Math.abs(m.vq * q),
  ];
}

const paramAt = (p: Param | undefined, i: number) => (p === undefined ? 0 : typeof p === 'number' ? p : p[i]);

/** Random states for n elements (zeros for the arrays `fn` does not take). */
function randomState(fn: FnInfo, n: number, seed: number) {
  const x = new Float32Array(n);
  const v = new Float32Array(n);
  const g = new Float32Array(n);
  const q = new Float32Array(n);
  fillState(mulberry32(seed), x, fn.hasV ? v : null, fn.hasG ? g : null, fn.hasQ ? q : null);
  return { x, v, g, q };
}

/** Per-element parameter arrays for n elements from springParams. */
function randomParams(fn: FnInfo, n: number, seed: number): Float32Array[] {
  const rng = mulberry32(seed);
  const arrays = fn.params.map(() => new Float32Array(n));
  for (let i = 0; i < n; i++) springParams(rng, fn.name).forEach((value, k) => (arrays[k][i] = value));
  return arrays;
}

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

/**
 * Sweeps of a parameter across critical damping in tiny, exactly uniform steps (every value is
 * a float32, so the solver sees the same evenly spaced parameters). The tests check second
 * differences x_{k+1} − 2·x_k + x_{k−1}: a jump J between branches (the kernels switch to the
 * near-critical series at |ω²t²| = 0.01, and P's form at s·t² = 0.01) shows as |J| there.
 *
 * Smooth part (`smooth`, relative to M): along a sweep the coefficients are entire functions of
 * z = ω²t² and s. Relative to the terms, ∂/∂z of cos √z and sin √z/√z is ≤ 1/2 and ∂²/∂z² ≤ 1/12
 * for |z| ≤ 1. For ζ steps of relative size h (and for f steps, likewise), |dz/dζ| ≈ 2(a·t)²,
 * |d²z/dζ²| ≈ 6(a·t)², and s ∝ ζ^-2 contributes 6: |Δ²x| ≲ ((a·t)⁴/3 + 3(a·t)² + 6)·h²·M.
 * For the stiffness sweep z moves by h_z = t²·Δs and s is linear: ≲ (h_z²/12 + 2·(Δs/s)·h_z/6)·M.
 * The float32 kernels add ≤ 1e-6·M (SIMD_PER_M) to each of the three values: ≤ 4e-6·M in all.
 */
interface Sweep {
  label: string;
  fn: FnInfo;
  /** float32 parameters of point k, k = −K … K */
  at(k: number): [number, number];
  dt: number;
  /** bound on the smooth second difference, relative to M */
  smooth: number;
}
const K = 300;
const smoothBound = (at: number, h: number) => (at ** 4 / 3 + 3 * at ** 2 + 6) * h * h;
/** ζ = 1 + k·h; a·t = 2·ln2·dt/halflife. The series thresholds are at |ζ − 1| ≈ 0.005/(a·t)². */
const ratioSweep = (halflife: number, dt: number, log2h: number): Sweep => ({
  label: `damping ratio 1 ± ${K}·2^${log2h}, halflife ${halflife}, dt ${dt}`,
  fn: fnInfo('springDamperRatio'),
  at: (k) => [1 + k * 2 ** log2h, Math.fround(halflife)],
  dt,
  smooth: smoothBound((2 * Math.LN2 * dt) / halflife, 2 ** log2h),
});
const FC = Math.fround(Math.LN2 / (Math.PI * 0.25)); // critical frequency for halflife 0.25
const S0 = Math.fround(0.01);
const sweeps: Sweep[] = [
  // a·t ≈ 2.08, 4.16, 10.4: thresholds at |ζ − 1| ≈ 1.2e-3, 2.9e-4, 4.6e-5, inside ±K·h = ±2.3e-3, ±5.7e-4, ±2.9e-4.
  ratioSweep(0.5, 0.75, -17),
  ratioSweep(0.2, 0.6, -19),
  ratioSweep(0.1, 0.75, -20),
  // f = FC + k·2^-17 (relative step 8.6e-6), a·t ≈ 2.77: thresholds at |f/FC − 1| ≈ 6.5e-4, inside ±2.6e-3.
  {
    label: `frequency ${FC} ± ${K}·2^-17, halflife 0.25, dt 0.5`,
    fn: fnInfo('springDamper'),
    at: (k) => [FC + k * 2 ** -17, 0.25],
    dt: 0.5,
    smooth: smoothBound(2 * Math.LN2 * 2, 2 ** -17 / FC),
  },
  // s = S0 + k·2^-17 ∈ [0.0077, 0.0123], d = 0.2, t = 1: through critical (s = a² = 0.01) and
  // through s·t² = 0.01, where P switches between (1 − xx)/s and its Taylor series.
  {
    label: `stiffness ${S0} ± ${K}·2^-17, damping 0.2, dt 1`,
    fn: fnInfo('springDamperStiffness'),
    at: (k) => [S0 + k * 2 ** -17, Math.fround(0.2)],
    dt: 1,
    smooth: 2 ** -34 / 12 + (2 * (2 ** -17 / 0.0077) * 2 ** -17) / 6,
  },
];

describe.each(BACKENDS.map((b) => [b] as const))('%s backend', (backend) => {
  const solver = () => solvers[backend];

  describe('dt = 0', () => {
    // Signed zeros, subnormals, huge values and ordinary ones: all must come back bit for bit.
    const special = [-0, 0, 1e-40, -3e-39, 1e30, -1e30, 3.4e38, -3.4e38, 1, -1];
    it.each(FUNCTIONS.map((fn) => [fn.name, fn] as const))('%s leaves the state bit-for-bit unchanged', (_name, fn) => {
      const n = 23;
      const rng = mulberry32(5);
      for (const where of ['plain', 'alloc'] as const) {
        const make = () => (where === 'alloc' ? solver().alloc(n) : new Float32Array(n));
        const [x, v, g, q] = [make(), make(), make(), make()];
        const parameterSets: Param[][] = [
          springParams(rng, fn.name), // uniform
          randomParams(fn, n, 6), // per element
          fn.params.map((name) => (name === 'dampingRatio' ? 1 : 0)), // halflife / frequency / stiffness / damping 0
        ];
        for (const params of parameterSets) {
          for (const a of [x, v, g, q])
            for (let i = 0; i < n; i++)
              a[i] = i < special.length ? special[(i + [x, v, g, q].indexOf(a)) % special.length] : uniform(rng, -10, 10);
          const before = [x, v].map(bits);
          callKernel(solver(), fn.name, x, v, g, q, params, 0);
          expect(bits(x), `${where} x, parameters ${params.map(String)}`).toEqual(before[0]);
          expect(bits(v), `${where} v`).toEqual(before[1]);
        }
        if (where === 'alloc') for (const a of [x, v, g, q]) solver().free(a);
      }
    });
  });

  describe('edge parameters', () => {
    /** Each parameter's values: zero where allowed, tiny, ordinary and huge. */
    const grid: Record<string, number[]> = {
      halflife: [0, 1e-3, 0.1, 10, 1e3],
      frequency: [0, 0.01, 1, 100],
      stiffness: [0, 1e-4, 1, 1e4],
      damping: [0, 1e-4, 1, 1e3],
      dampingRatio: [1e-3, 0.05, 1, 20, 1e3],
    };
    const combos = (fn: FnInfo): number[][] =>
      fn.params.reduce<number[][]>((acc, name) => acc.flatMap((c) => grid[name].map((value) => [...c, value])), [[]]);

    it.each(FUNCTIONS.map((fn) => [fn.name, fn] as const))('%s: zero parameters and dt up to 1000 give no NaN or Inf', (_name, fn) => {
      const list = combos(fn);
      const n = 7; // a SIMD body of 4 and a scalar tail of 3
      for (const dt of [1 / 60, 2, 1000]) {
        // One call per combination (uniform parameters) …
        for (const p of list) {
          const { x, v, g, q } = randomState(fn, n, 11);
          callKernel(solver(), fn.name, x, v, g, q, p, dt);
          for (let i = 0; i < n; i++) {
            expect(Number.isFinite(x[i]) && Number.isFinite(v[i]), `${fn.params} = ${p}, dt ${dt}: x ${x[i]}, v ${v[i]}`).toBe(true);
          }
        }
        // … and all of them at once (per-element parameters, neighbouring lanes differ).
        const m = list.length * 3;
        const { x, v, g, q } = randomState(fn, m, 12);
        const params = fn.params.map((_, k) => Float32Array.from({ length: m }, (_, i) => list[i % list.length][k]));
        callKernel(solver(), fn.name, x, v, g, q, params, dt);
        for (let i = 0; i < m; i++) {
          const p = list[i % list.length];
          expect(Number.isFinite(x[i]) && Number.isFinite(v[i]), `per element ${fn.params} = ${p}, dt ${dt}: x ${x[i]}, v ${v[i]}`).toBe(
            true,
          );
        }
      }
    });

    // spring-transition.ts: halflife 0 is d = ∞. With s finite (springDamper) v snaps to q and
    // x moves at q (x' = x + q·dt); with s = ∞ too (critical, simple, decay, damping-ratio
    // springs) the state snaps to (g, 0). The damper snaps x to g.
    it.each(FUNCTIONS.filter((fn) => fn.params.includes('halflife')).map((fn) => [fn.name, fn] as const))(
      '%s: halflife 0 gives the documented limit',
      (_name, fn) => {
        const n = 11;
        for (const dt of [1 / 60, 2, 1000]) {
          for (const perElement of [false, true]) {
            const { x, v, g, q } = randomState(fn, n, 13);
            const rng = mulberry32(14);
            const values = fn.params.map((name) =>
              name === 'halflife' ? 0 : name === 'frequency' ? logUniform(rng, 0.01, 10) : logUniform(rng, 0.05, 20),
            );
            const params: Param[] = perElement ? values.map((value) => new Float32Array(n).fill(value)) : values;
            const x0 = Float32Array.from(x);
            callKernel(solver(), fn.name, x, v, g, q, params, dt);
            for (let i = 0; i < n; i++) {
              const where = `dt ${dt}, ${perElement ? 'per-element' : 'uniform'}, element ${i}`;
              if (fn.name === 'damper') {
                expect(x[i], where).toBe(g[i]);
              } else if (fn.name === 'springDamper') {
                expect(v[i], where).toBe(q[i]);
                // x' = g + 1·(x − g) + 0·v + dt·q: float32 roundings of its terms (SIMD_PER_M).
                const m = Math.abs(g[i]) + Math.abs(x0[i] - g[i]) + Math.abs(dt * q[i]);
                expect(Math.abs(x[i] - (x0[i] + dt * q[i])), where).toBeLessThanOrEqual(SIMD_PER_M * m);
              } else {
                expect(x[i], where).toBe(g[i]);
                expect(v[i] === 0, `${where}: v = ${v[i]}`).toBe(true); // +0 or −0
              }
            }
          }
        }
      },
    );
  });

  describe('the decay spring', () => {
    it('never gains energy E = v²/2 + s·x²/2 (s = d²/4) over many steps', () => {
      const rng = mulberry32(21);
      // Groups of springs, each stepped 120 times with random dt: one with per-element
      // halflives, four with one uniform halflife each (the uniform kernels).
      const groups: { halflife: Param; n: number }[] = [
        { halflife: Float32Array.from({ length: 4099 }, () => logUniform(rng, 0.05, 5)), n: 4099 },
        ...[0.05, 0.3, 1, 5].map((h) => ({ halflife: h, n: 1031 })),
      ];
      let worst = { ratio: 0, message: '' };
      let springs = 0;
      let lost = 0;
      for (const { halflife, n } of groups) {
        const x = new Float32Array(n);
        const v = new Float32Array(n);
        fillState(rng, x, v, null, null);
        const s = Float64Array.from({ length: n }, (_, i) => ((4 * Math.LN2) / paramAt(halflife, i) / 2) ** 2);
        const energy = Float64Array.from({ length: n }, (_, i) => v[i] ** 2 / 2 + (s[i] * x[i] ** 2) / 2);
        const e0 = energy.slice();
        for (let step = 0; step < 120; step++) {
          const dt = logUniform(rng, 1 / 240, 0.5);
          solver().decaySpringDamper(x, v, halflife, dt);
          for (let i = 0; i < n; i++) {
            const e = v[i] ** 2 / 2 + (s[i] * x[i] ** 2) / 2;
            // In the scaled coordinates (√s·x, v) the exact step is a contraction (dE/dt = −d·v²)
            // with every coefficient ≤ 1 in magnitude ((1 ± a·t)·e^{−a·t}, a·t·e^{−a·t}); the
            // SIMD kernel's ≤ 3 roundings of 2^-24 per term move the vector by ≤ 6·2^-24 of its
            // norm, so E may grow by ≤ 12·2^-24 ≈ 7.2e-7 relative (float64 kernels: 2·2^-24).
            // We allow 2e-6. Below FLT_MIN rounding is absolute (≤ 2^-149 per operation on
            // |x|, |v| < 1.2e-38): E moves by ≤ 1e-74·(1 + s).
            const tol = 2e-6 * energy[i] + 1e-74 * (1 + s[i]);
            const ratio = Number.isNaN(e) ? Infinity : (e - energy[i]) / tol;
            if (ratio > worst.ratio)
              worst = { ratio, message: `halflife ${paramAt(halflife, i)}, step ${step}, element ${i}: E ${energy[i]} → ${e}` };
            energy[i] = e;
          }
        }
        springs += n;
        for (let i = 0; i < n; i++) if (energy[i] < 0.5 * e0[i]) lost++;
      }
      expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
      // Not vacuous: most springs did lose energy.
      expect(lost).toBeGreaterThan(springs / 2);
    });
  });

  describe('composition', () => {
    it.each(FUNCTIONS.map((fn) => [fn.name, fn] as const))('%s: two steps of dt equal one step of 2·dt', (_name, fn) => {
      const n = 1027;
      const rng = mulberry32(31);
      let worst = { ratio: 0, message: '' };
      for (const perElement of [true, false]) {
        for (const dt of [1 / 240, 1 / 60, 0.1, 0.37, 1]) {
          const params: Param[] = perElement ? randomParams(fn, n, 32) : springParams(rng, fn.name);
          const { x, v, g, q } = randomState(fn, n, 33);
          const [x0, v0] = [Float32Array.from(x), Float32Array.from(v)];
          callKernel(solver(), fn.name, x, v, g, q, params, dt);
          const [x1, v1] = [Float32Array.from(x), Float32Array.from(v)];
          callKernel(solver(), fn.name, x, v, g, q, params, dt);
          const [xOnce, vOnce] = [Float32Array.from(x0), Float32Array.from(v0)];
          callKernel(solver(), fn.name, xOnce, vOnce, g, q, params, 2 * dt);
          for (let i = 0; i < n; i++) {
            const p0 = paramAt(params[0], i);
            const p1 = paramAt(params[1], i);
            const t1 = transition(fn, p0, p1, dt);
            const t2 = transition(fn, p0, p1, 2 * dt);
            // Exactly T(dt)·T(dt) = T(2·dt); the two results differ by the rounding of the second
            // step (M2), of the single step (M3), and the first step's (M1) carried through T(dt).
            const [m1x, m1v] = termSizes(t1, x0[i], v0[i], g[i], q[i]);
            const [m2x, m2v] = termSizes(t1, x1[i], v1[i], g[i], q[i]);
            const [m3x, m3v] = termSizes(t2, x0[i], v0[i], g[i], q[i]);
            const tolX = SIMD_PER_M * (Math.abs(t1.xx) * m1x + Math.abs(t1.xv) * m1v + m2x + m3x) + SUBNORMAL_FLOOR;
            const tolV = SIMD_PER_M * (Math.abs(t1.vx) * m1x + Math.abs(t1.vv) * m1v + m2v + m3v) + SUBNORMAL_FLOOR;
            for (const [what, twice, once, tol] of [
              ['x', x[i], xOnce[i], tolX],
              ['v', v[i], vOnce[i], tolV],
            ] as const) {
              const err = Math.abs(twice - once);
              const ratio = Number.isNaN(err) ? Infinity : err / tol;
              if (ratio > worst.ratio) {
                worst = {
                  ratio,
                  message: `${perElement ? 'per-element' : 'uniform'} ${fn.params} = ${p0}, ${p1}, dt ${dt}, element ${i}: ${what} twice ${twice}, once ${once}`,
                };
              }
            }
          }
        }
      }
      expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
    });
  });

  describe('continuity at critical damping', () => {
    it.each(sweeps.map((sw) => [sw.label, sw] as const))('%s: no jumps', (_label, sw) => {
      const points = 2 * K + 1;
      const states = 6;
      const { x, v, g, q } = randomState(sw.fn, states, 41);
      // Per-element parameters: point k of state j at j·points + k (neighbouring lanes differ
      // slightly, and straddle the branch thresholds together).
      const n = states * points;
      const params = [new Float32Array(n), new Float32Array(n)];
      const [X, V, G, Q] = [x, v, g, q].map((a) => Float32Array.from({ length: n }, (_, i) => a[Math.floor(i / points)]));
      for (let i = 0; i < n; i++) [params[0][i], params[1][i]] = sw.at((i % points) - K);
      const [X0, V0] = [X.slice(), V.slice()];
      callKernel(solver(), sw.fn.name, X, V, G, Q, params, sw.dt);
      // Uniform parameters: one call per point, on the 6 states (4 SIMD lanes and a scalar tail).
      const XU = new Float32Array(n);
      const VU = new Float32Array(n);
      for (let k = 0; k < points; k++) {
        const [xs, vs] = [x.slice(), v.slice()];
        const p = sw.at(k - K);
        callKernel(solver(), sw.fn.name, xs, vs, g, q, p, sw.dt);
        for (let j = 0; j < states; j++) [XU[j * points + k], VU[j * points + k]] = [xs[j], vs[j]];
      }
      // Exact (float64) values and term sizes at every point.
      const exact = [new Float64Array(n), new Float64Array(n)];
      const m = [new Float64Array(n), new Float64Array(n)];
      for (let i = 0; i < n; i++) {
        const t = transition(sw.fn, params[0][i], params[1][i], sw.dt);
        const y = X0[i] - G[i];
        exact[0][i] = G[i] + t.xx * y + t.xv * V0[i] + t.xq * Q[i];
        exact[1][i] = t.vx * y + t.vv * V0[i] + t.vq * Q[i];
        [m[0][i], m[1][i]] = termSizes(t, X0[i], V0[i], G[i], Q[i]);
      }
      let worst = { ratio: 0, message: '' };
      for (const [kind, results] of [
        ['per-element', [X, V]],
        ['uniform', [XU, VU]],
      ] as const) {
        for (let c = 0; c < 2; c++) {
          for (let j = 0; j < states; j++) {
            for (let k = 1; k < points - 1; k++) {
              const i = j * points + k;
              const d2 = (a: ArrayLike<number>) => a[i + 1] - 2 * a[i] + a[i - 1];
              const mMax = Math.max(m[c][i - 1], m[c][i], m[c][i + 1]);
              const tol = (sw.smooth + 4 * SIMD_PER_M) * mMax + SUBNORMAL_FLOOR;
              const err = Math.abs(d2(results[c]));
              const ratio = Number.isNaN(err) ? Infinity : err / tol;
              if (ratio > worst.ratio) {
                worst = {
                  ratio,
                  message: `${kind} ${'xv'[c]}, state ${j}, point ${k - K}: second difference ${d2(results[c])} (exact ${d2(exact[c])}, M ${mMax})`,
                };
              }
            }
          }
        }
      }
      expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
    });
  });

  describe('zero stiffness', () => {
    // s = 0: v = q + (v0 − q)·e^{−dt}, x = x0 + q·t + (v0 − q)(1 − e^{−dt})/d (x0 + v0·t at d = 0).
    const cases: [string, (d: number) => [number, number], number[]][] = [
      ['springDamperStiffness', (d) => [0, d], [0, 1e-6, 0.01, 1, 10, 1000]],
      // frequency 0, d = 4·ln2/halflife
      [
        'springDamper',
        (d) => [0, (4 * Math.LN2) / d],
        [(4 * Math.LN2) / 1e6, (4 * Math.LN2) / 100, 4 * Math.LN2, (4 * Math.LN2) / 0.1, (4 * Math.LN2) / 1e-3],
      ],
    ];
    it.each(cases)('%s with q ≠ 0 is the exact limit, without huge values', (name, paramsOf, dampings) => {
      const fn = fnInfo(name as 'springDamper');
      for (const dt of [1 / 240, 1 / 60, 2, 1000]) {
        for (const perElement of [false, true]) {
          const n = dampings.length * 5;
          const { x, v, g, q } = randomState(fn, n, 51);
          for (let i = 0; i < n; i++) if (q[i] === 0) q[i] = 1;
          const p = dampings.map((d) => paramsOf(d).map(Math.fround));
          const [x0, v0] = [Float32Array.from(x), Float32Array.from(v)];
          if (perElement) {
            const params = [0, 1].map((k) => Float32Array.from({ length: n }, (_, i) => p[i % p.length][k]));
            callKernel(solver(), fn.name, x, v, g, q, params, dt);
          } else {
            // One uniform call per damping, on that damping's elements (a strided copy).
            for (let c = 0; c < p.length; c++) {
              const idx = Array.from({ length: n }, (_, i) => i).filter((i) => i % p.length === c);
              const sub = [x, v, g, q].map((a) => Float32Array.from(idx, (i) => a[i]));
              callKernel(solver(), fn.name, sub[0], sub[1], sub[2], sub[3], p[c], dt);
              idx.forEach((i, j) => ([x[i], v[i]] = [sub[0][j], sub[1][j]]));
            }
          }
          for (let i = 0; i < n; i++) {
            const d = reference.stiffnessAndDamping(fn.mode!, p[i % p.length][0], p[i % p.length][1])[1];
            const decay = Math.exp(-d * dt);
            const xv = d === 0 ? dt : -Math.expm1(-d * dt) / d; // (1 − e^{−dt})/d
            const xq = dt - xv;
            const xe = x0[i] + q[i] * dt + (v0[i] - q[i]) * xv;
            const ve = q[i] + (v0[i] - q[i]) * decay;
            // Terms of the kernels' x' = g + 1·(x0 − g) + xv·v0 + xq·q and v' = e^{−dt}·v0 + (1 − e^{−dt})·q.
            const mx = Math.abs(g[i]) + Math.abs(x0[i] - g[i]) + Math.abs(xv * v0[i]) + Math.abs(xq * q[i]);
            const mv = Math.abs(decay * v0[i]) + Math.abs((1 - decay) * q[i]);
            const where = `${perElement ? 'per-element' : 'uniform'} d ${d}, dt ${dt}, element ${i}: x ${x[i]} (exact ${xe}), v ${v[i]} (exact ${ve})`;
            expect(Math.abs(x[i] - xe), where).toBeLessThanOrEqual(SIMD_PER_M * mx + SUBNORMAL_FLOOR);
            expect(Math.abs(v[i] - ve), where).toBeLessThanOrEqual(SIMD_PER_M * mv + SUBNORMAL_FLOOR);
          }
        }
      }
    });
  });
});

describe('the float64 reference at critical damping', () => {
  it.each(sweeps.map((sw) => [sw.label, sw] as const))('%s: the sweep crosses the branch thresholds', (_label, sw) => {
    // ω²t² at both ends of the sweep, and s·t² for the stiffness sweep (not vacuous).
    const z = (k: number) => {
      const [s, d] = reference.stiffnessAndDamping(sw.fn.mode!, ...sw.at(k));
      return (s - (d / 2) ** 2) * sw.dt ** 2;
    };
    if (sw.fn.name === 'springDamperStiffness') {
      const st2 = (k: number) => sw.at(k)[0] * sw.dt ** 2;
      expect(st2(-K)).toBeLessThan(0.01);
      expect(st2(K)).toBeGreaterThan(0.01);
      expect(z(-K)).toBeLessThan(0);
      expect(z(K)).toBeGreaterThan(0);
    } else {
      // Larger ζ (or lower frequency) is more damped: z < −0.01 at one end, > 0.01 at the other.
      expect(Math.min(z(-K), z(K))).toBeLessThan(-0.01);
      expect(Math.max(z(-K), z(K))).toBeGreaterThan(0.01);
    }
  });

  it.each(sweeps.map((sw) => [sw.label, sw] as const))('%s: no jumps beyond the smooth bound', (_label, sw) => {
    // The sweep's parameters are float32 values, evenly spaced.
    for (let k = -K; k <= K; k++) expect(sw.at(k).map(Math.fround), `point ${k}`).toEqual(sw.at(k));
    const { x, v, g, q } = randomState(sw.fn, 6, 41);
    let worst = { ratio: 0, message: '' };
    for (let j = 0; j < x.length; j++) {
      const values: number[][] = [];
      const sizes: number[][] = [];
      for (let k = -K; k <= K; k++) {
        const t = transition(sw.fn, ...sw.at(k), sw.dt);
        const y = x[j] - g[j];
        values.push([g[j] + t.xx * y + t.xv * v[j] + t.xq * q[j], t.vx * y + t.vv * v[j] + t.vq * q[j]]);
        sizes.push(termSizes(t, x[j], v[j], g[j], q[j]));
      }
      for (let k = 1; k < values.length - 1; k++) {
        for (let c = 0; c < 2; c++) {
          const d2 = values[k + 1][c] - 2 * values[k][c] + values[k - 1][c];
          const m = Math.max(sizes[k - 1][c], sizes[k][c], sizes[k + 1][c]);
          // sw.smooth bounds the exact second difference; float64 rounding adds ≲ 1e-15·M.
          const ratio = Number.isNaN(d2) ? Infinity : Math.abs(d2) / ((sw.smooth + 1e-15) * m + 1e-300);
          if (ratio > worst.ratio) worst = { ratio, message: `${'xv'[c]}, state ${j}, point ${k - K}: second difference ${d2}, M ${m}` };
        }
      }
    }
    expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
  });
});

describe('per-element phases beyond the SIMD range reduction', () => {
  // ωt up to 2·√1e14·1000 = 2e10 rad: past 2^20·π/2 the f64x2 sin/cos would lose the quadrant,
  // so the SIMD kernel must hand such pairs to the scalar transition (Math.sin/cos).
  it.each(BACKENDS.map((b) => [b] as const))('%s: matches the reference at ωt ≈ 1e10 rad', (backend) => {
    const solver = solvers[backend];
    const n = 9; // two SIMD blocks and a tail
    const stiffness = new Float32Array(n).map((_, i) => 1e14 * (1 + i / 7));
    const damping = new Float32Array(n).map((_, i) => (i % 3) * 1e-3);
    const x = new Float32Array(n).fill(1);
    const v = new Float32Array(n).fill(0.5);
    const g = new Float32Array(n);
    const q = new Float32Array(n);
    const xr = x.slice();
    const vr = v.slice();
    solver.springDamperStiffness(x, v, g, q, stiffness, damping, 1000);
    reference.springDamperStiffness(xr, vr, g, q, stiffness, damping, 1000);
    for (let i = 0; i < n; i++) {
      // M = |xx·x| + |xv·v| ≤ 1 + 0.5/ω and |vx·x| + |vv·v| ≤ ω + 0.5: float32 rounding of the
      // scalar-path coefficients and arithmetic, ≤ 6·2^-24 of M each (SIMD_PER_M bounds it).
      const omega = Math.sqrt(stiffness[i]);
      expect(Math.abs(x[i] - xr[i])).toBeLessThanOrEqual(SIMD_PER_M * (1 + 0.5 / omega));
      expect(Math.abs(v[i] - vr[i])).toBeLessThanOrEqual(SIMD_PER_M * (omega + 0.5));
    }
  });
});
