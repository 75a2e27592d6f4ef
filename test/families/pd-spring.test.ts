/**
 * Huw Bowles' PD springs (pdSpring with its four integrators, pdSpringRigidBody) on every backend:
 * parity with the float64 reference over random cases, step-by-step agreement with a direct
 * transcription of the source formulas, the closed-form step response of 'exact', convergence and
 * stability regions (with their boundaries), and argument errors.
 */
import { describe, expect, it } from 'vitest';
import type { PdIntegrator, Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, makeSolver, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { MAGNITUDE, VALUE, type Arith } from '../helpers/magnitude.js';
import { fillState, logUniform, mulberry32, uniform, type Rng } from '../helpers/random.js';
import { oscillator, spectralRadius, transitionGain } from '../helpers/closed-form.js';

type Method = PdIntegrator | 'rigid-body';
const METHODS: readonly Method[] = ['explicit', 'semi-implicit', 'implicit', 'exact', 'rigid-body'];

/** The solvers and the reference module share pdSpring / pdSpringRigidBody signatures. */
type Impl = Pick<Solver, 'pdSpring' | 'pdSpringRigidBody'>;
type P = number | Float32Array;

function step(
  impl: Impl,
  method: Method,
  pos: Float32Array,
  vel: Float32Array,
  g: Float32Array,
  q: Float32Array,
  w: P,
  z: P,
  dt: number,
): void {
  if (method === 'rigid-body') impl.pdSpringRigidBody(pos, vel, g, q, w, z, dt);
  else impl.pdSpring(pos, vel, g, q, w, z, dt, { integrator: method });
}

/**
 * One step of one element, transcribed from Bowles' article in float64: [pos', vel'].
 * 'exact' uses the reference's closed-form transition (its "formula" is the solution itself).
 */
function transcribe(
  method: Method,
  x: number,
  v: number,
  g: number,
  q: number,
  w: number,
  z: number,
  dt: number,
  A: Arith = VALUE,
): [number, number] {
  [x, v, g, q] = [A.in(x), A.in(v), A.in(g), A.in(q)];
  const s = w * w; // Bowles: ω²
  const d = 2 * z * w; // Bowles: 2ζω
  switch (method) {
    case 'explicit': {
      const F = s * A.sub(g, x) + d * A.sub(q, v); // F = ω²(targetPos − pos) + 2ζω(targetVel − vel)
      return [x + v * dt, v + F * dt]; // pos += vel·dt (old vel); vel += F·dt
    }
    case 'semi-implicit': {
      const F = s * A.sub(g, x) + d * A.sub(q, v);
      const vNew = v + F * dt; // vel += F·dt
      return [x + vNew * dt, vNew]; // pos += vel·dt (new vel)
    }
    case 'implicit':
    case 'rigid-body': {
      const F = s * A.sub(g, x + dt * v) + d * A.sub(q, v); // stable PD: F at the predicted pos + dt·vel
      const vNew = v + (F * dt) / (1 + dt * d); // vel += F·dt/(1 + dt·2ζω)
      return [method === 'implicit' ? x + vNew * dt : x, vNew]; // appendix B leaves pos to the caller
    }
    case 'exact': {
      const T = reference.linearTransition(w, z, dt);
      const e = A.sub(x, g);
      return [g + A.in(T.xx) * e + A.in(T.xv) * v + A.in(d * T.P) * q, A.in(T.vx) * e + A.in(T.vv) * v + A.in(d * T.xv) * q];
    }
  }
}

/**
 * Tolerance of a float32 backend against float64: 1e-5·M (M from the magnitude transcription).
 * The SIMD kernels evaluate the formulas in float32 with at most about 12 roundings (inputs are
 * float32 already; ω², 2ζω, dt and dt/(1 + dt·2ζω) rounded to float32 each add one relative
 * rounding to a term; products and sums one each); 'exact' rounds its six float64 coefficients to
 * float32 and applies them with ≤ 7 roundings (or, per element, computes in float64 and rounds
 * once); the scalar build computes in float64 and rounds once. With u = 2^-24, 12u·M = 7.2e-7·M,
 * plus the expected result's own rounding (u·M): 1e-5·M leaves a factor 12 for the float64
 * differences between algorithms (≤ 1e-12·M). The JS backend runs the reference itself: 0.
 * M ≥ 1e-30 on these inputs (|targetPos| is drawn in [−10, 10]); the floor 1e-30 only guards 0.
 */
const RELATIVE = 1e-5;
const FLOOR = 1e-30;

const solvers = useSolvers(8 * 1024 * 1024, LARGE_DT_ON_PURPOSE);

/** ω: 1 draw in 16 exactly 0, else log-uniform in [0.05, 300] rad/s (up to 48 Hz). */
const drawUaf = (rng: Rng) => (rng() < 1 / 16 ? 0 : logUniform(rng, 0.05, 300));
/** ζ: 1 in 16 exactly 0, 1 in 16 exactly 1 (critical), else log-uniform in [0.01, 4]. */
const drawZeta = (rng: Rng) => {
  const r = rng();
  return r < 1 / 16 ? 0 : r < 2 / 16 ? 1 : logUniform(rng, 0.01, 4);
};

type ParamMode = 'uniform' | 'per element' | 'uaf uniform' | 'dampingRatio uniform';
const PARAM_MODES: readonly ParamMode[] = ['uniform', 'per element', 'uaf uniform', 'dampingRatio uniform'];
/** Element counts, not multiples of 4; the plain arrays exceed the 16,384-float copy chunk. */
const LAYOUTS = { plain: 20_011, alloc: 10_007 } as const;
type Layout = keyof typeof LAYOUTS;

/** Uniform calls visit ζ = 0, ζ = 1, ω = 0 and random draws; dt spans [1/240, 1] s. */
const UNIFORM_CASES: [w: (rng: Rng) => number, z: (rng: Rng) => number][] = [
  [drawUaf, () => 0],
  [drawUaf, () => 1],
  [() => 0, drawZeta],
  [drawUaf, drawZeta],
  [drawUaf, drawZeta],
];

describe.each(METHODS.map((m) => [m] as const))('pdSpring %s: parity with the float64 reference', (method) => {
  const cases = BACKENDS.flatMap((b) => PARAM_MODES.flatMap((pm) => (Object.keys(LAYOUTS) as Layout[]).map((l) => [b, pm, l] as const)));
  it.each(cases)('%s backend, %s parameters, %s arrays', (backend, paramMode, layout) => {
    const solver = solvers[backend];
    const rng = mulberry32(
      METHODS.indexOf(method) * 1000 + cases.findIndex((c) => c[0] === backend && c[1] === paramMode && c[2] === layout),
    );
    const n = LAYOUTS[layout];
    const owned: Float32Array[] = [];
    const make = () => {
      if (layout === 'plain') return new Float32Array(n);
      const a = solver.alloc(n);
      owned.push(a);
      return a;
    };
    try {
      const [pos, vel, g, q, wArray, zArray] = [make(), make(), make(), make(), make(), make()];
      let worst = { ratio: 0, message: '' };
      UNIFORM_CASES.forEach(([drawW, drawZ], call) => {
        const dt = call === 0 ? 1 / 240 : call === 1 ? 1 : logUniform(rng, 1 / 240, 1);
        fillState(rng, pos, vel, g, q);
        // Numbers are rounded to float32 by the API (they travel as float32 broadcast values).
        const wUniform = Math.fround(drawW(rng));
        const zUniform = Math.fround(drawZ(rng));
        for (let i = 0; i < n; i++) {
          wArray[i] = drawUaf(rng);
          zArray[i] = drawZeta(rng);
        }
        const w: P = paramMode === 'uniform' || paramMode === 'uaf uniform' ? wUniform : wArray;
        const z: P = paramMode === 'uniform' || paramMode === 'dampingRatio uniform' ? zUniform : zArray;
        const at = (p: P, i: number) => (typeof p === 'number' ? p : p[i]);
        const [posRef, velRef] = [Float32Array.from(pos), Float32Array.from(vel)];
        step(reference, method, posRef, velRef, g, q, w, z, dt);
        const mPos = new Float64Array(n);
        const mVel = new Float64Array(n);
        for (let i = 0; i < n; i++) {
          [mPos[i], mVel[i]] = transcribe(method, pos[i], vel[i], g[i], q[i], at(w, i), at(z, i), dt, MAGNITUDE);
        }
        const posBefore = Float32Array.from(pos);
        step(solver, method, pos, vel, g, q, w, z, dt);
        for (let i = 0; i < n; i++) {
          for (const [got, want, m, name] of [
            [pos[i], posRef[i], mPos[i], 'pos'],
            [vel[i], velRef[i], mVel[i], 'vel'],
          ] as const) {
            const tolerance = backend === 'js' ? 0 : RELATIVE * m + FLOOR;
            const err = Math.abs(got - want);
            const ratio =
              err <= tolerance ? (tolerance > 0 ? err / tolerance : 0) : Number.isNaN(err) || tolerance === 0 ? Infinity : err / tolerance;
            if (ratio > worst.ratio) {
              worst = { ratio, message: `${name}[${i}] ${got} vs ${want} (M ${m}), ω ${at(w, i)}, ζ ${at(z, i)}, dt ${dt}` };
            }
          }
        }
        if (method === 'rigid-body') expect(pos, 'pdSpringRigidBody writes only vel').toEqual(posBefore);
      });
      expect(worst.ratio, worst.message).toBeLessThanOrEqual(1);
    } finally {
      for (const a of owned) solver.free(a);
    }
  });
});

describe('pdSpring: each integrator reproduces the source formulas step by step', () => {
  // Trajectories of 40 steps from one state per parameter set; every step of the solver is
  // compared with the float64 transcription (or, for 'exact', the textbook closed form) applied to
  // the solver's own float32 state before that step. Same tolerance as the parity test.
  const PARAMS: [w: number, z: number][] = [
    [2 * Math.PI, 0],
    [5, 0.3],
    [12, 1],
    [3, 2.5],
    [0.7, 0.05],
    [20, 4],
  ];
  const DTS = [1 / 60, 1 / 240, 1 / 30, 0.01];
  it.each(BACKENDS.flatMap((b) => METHODS.map((m) => [b, m] as const)))('%s backend, %s', (backend, method) => {
    const solver = solvers[backend];
    const n = PARAMS.length;
    const w = Float32Array.from(PARAMS, ([x]) => x);
    const z = Float32Array.from(PARAMS, ([, y]) => y);
    const pos = Float32Array.from(PARAMS, (_, i) => 1.5 - 0.4 * i);
    const vel = Float32Array.from(PARAMS, (_, i) => -2 + i);
    const g = Float32Array.from(PARAMS, (_, i) => 0.25 * i - 0.5);
    const q = Float32Array.from(PARAMS, (_, i) => 0.3 - 0.1 * i);
    for (let k = 0; k < 40; k++) {
      const dt = DTS[k % DTS.length];
      const before = [Float32Array.from(pos), Float32Array.from(vel)];
      step(solver, method, pos, vel, g, q, w, z, dt);
      for (let i = 0; i < n; i++) {
        const [x0, v0] = [before[0][i], before[1][i]];
        const [want, wantV] =
          method === 'exact' ? oscillator(w[i], z[i], x0, v0, g[i], q[i], dt) : transcribe(method, x0, v0, g[i], q[i], w[i], z[i], dt);
        const [mPos, mVel] = transcribe(method, x0, v0, g[i], q[i], w[i], z[i], dt, MAGNITUDE);
        expect(Math.abs(pos[i] - want), `pos[${i}] step ${k}`).toBeLessThanOrEqual(RELATIVE * mPos);
        expect(Math.abs(vel[i] - wantV), `vel[${i}] step ${k}`).toBeLessThanOrEqual(RELATIVE * mVel);
      }
    }
    // The states moved: the comparison is not between untouched arrays.
    expect(Math.abs(vel[0] - -2)).toBeGreaterThan(0.1);
  });

  it('pdSpringRigidBody followed by pos += vel·dt is the implicit integrator', () => {
    for (const solver of Object.values(solvers)) {
      const rng = mulberry32(77);
      const n = 1001;
      const [pos, vel, g, q] = [0, 0, 0, 0].map(() => new Float32Array(n));
      fillState(rng, pos, vel, g, q);
      const w = Float32Array.from({ length: n }, () => logUniform(rng, 0.1, 100));
      const z = Float32Array.from({ length: n }, () => uniform(rng, 0, 4));
      const [pos2, vel2] = [Float32Array.from(pos), Float32Array.from(vel)];
      solver.pdSpring(pos, vel, g, q, w, z, 1 / 60, { integrator: 'implicit' });
      solver.pdSpringRigidBody(pos2, vel2, g, q, w, z, 1 / 60);
      expect(vel2).toEqual(vel);
      // pos2 + vel2·dt in float64 then float32, vs the kernel's own rounding: 1e-5·M as above.
      for (let i = 0; i < n; i++) {
        const [mPos] = transcribe('implicit', pos2[i], vel2[i], g[i], q[i], w[i], z[i], 1 / 60, MAGNITUDE);
        expect(Math.abs(Math.fround(pos2[i] + vel2[i] / 60) - pos[i])).toBeLessThanOrEqual(RELATIVE * mPos);
      }
    }
  });
});

describe("pdSpring 'exact': the closed-form step response", () => {
  // Constant target (targetPos, targetVel) and parameter sets in every regime (ζ = 0, under,
  // critical, over), steps of varying dt up to 1 s.
  const PARAMS: [f: number, z: number][] = [
    [0.5, 0],
    [2, 0.3],
    [5, 1],
    [1, 2.5],
    [20, 0.05],
    [3, 4],
    [20, 1],
  ];
  const DTS = [1 / 60, 0.25, 1 / 240, 1, 0.1, 1 / 30];
  const K = 36;
  const u = 2 ** -24;

  it.each(BACKENDS.map((b) => [b] as const))('%s backend: each step, and the trajectory', (backend) => {
    const solver = solvers[backend];
    const n = PARAMS.length;
    const w = Float32Array.from(PARAMS, ([f]) => 2 * Math.PI * f);
    const z = Float32Array.from(PARAMS, ([, zeta]) => zeta);
    const [x0, v0, g0, q0] = [1.5, -2, -0.5, 0.25];
    const pos = new Float32Array(n).fill(x0);
    const vel = new Float32Array(n).fill(v0);
    const g = new Float32Array(n).fill(g0);
    const q = new Float32Array(n).fill(q0);
    let t = 0;
    // Bound of the trajectory error: each step errs by ≤ 8u·M (7 roundings + the stored result),
    // and an error made at step j is carried to step k by the exact transition over t_k − t_j,
    // whose ∞-norm in (x, v) is at most G (computed below); so |error_k| ≤ G·Σ_j 8u·M_j.
    const accumulated = [new Float64Array(n), new Float64Array(n)];
    for (let k = 0; k < K; k++) {
      const dt = DTS[k % DTS.length];
      const before = [Float32Array.from(pos), Float32Array.from(vel)];
      solver.pdSpring(pos, vel, g, q, w, z, dt, { integrator: 'exact' });
      t += dt;
      for (let i = 0; i < n; i++) {
        // One step from the stored state: the closed form to 1e-5 of the term magnitudes.
        const [mPos, mVel] = transcribe('exact', before[0][i], before[1][i], g0, q0, w[i], z[i], dt, MAGNITUDE);
        const [x1, v1] = oscillator(w[i], z[i], before[0][i], before[1][i], g0, q0, dt);
        expect(Math.abs(pos[i] - x1), `step ${k}, ${PARAMS[i]}`).toBeLessThanOrEqual(RELATIVE * mPos);
        expect(Math.abs(vel[i] - v1), `step ${k}, ${PARAMS[i]}`).toBeLessThanOrEqual(RELATIVE * mVel);
        accumulated[0][i] += 8 * u * mPos;
        accumulated[1][i] += 8 * u * mVel;
        // The whole trajectory from (x0, v0): float32 storage errors only, carried by stable transitions.
        const G = transitionGain(w[i], z[i], t);
        const [xt, vt] = oscillator(w[i], z[i], x0, v0, g0, q0, t);
        const bound = G * (accumulated[0][i] + accumulated[1][i]);
        expect(Math.abs(pos[i] - xt), `t ${t}, ${PARAMS[i]}`).toBeLessThanOrEqual(bound);
        expect(Math.abs(vel[i] - vt), `t ${t}, ${PARAMS[i]}`).toBeLessThanOrEqual(bound);
      }
    }
  });
});

/**
 * Stability regions, as documented in src/reference/pd-spring.ts (u = ω·dt), and the boundary
 * u_b(ζ) beyond which each integrator diverges.
 *  - explicit:      ζ > 0 and u < 2ζ and u² − 4ζu + 4 > 0, so u_b = 2ζ (ζ ≤ 1), 2(ζ − √(ζ² − 1)) (ζ > 1).
 *                   ζ = 0 is excluded: explicit Euler is unstable there for every dt.
 *  - semi-implicit: ζ > 0 and u² + 4ζu < 4, so u_b = 2(√(ζ² + 1) − ζ). ζ = 0 is excluded from
 *                   convergence: for u < 2 the orbit is bounded but never decays (det = 1).
 *  - implicit:      u < u* = (2ζ + 2√(ζ² + 3))/3, any ζ ≥ 0 (numerical damping converges even at ζ = 0).
 *  - exact:         every u; ζ = 0 excluded from convergence: the exact undamped spring conserves
 *                   ω²(x − g)² + v² (tested as such below).
 * pdSpringRigidBody followed by pos += vel·dt is 'implicit' (tested above), so it shares its region.
 */
function boundary(method: PdIntegrator, z: number): number {
  switch (method) {
    case 'explicit':
      return z <= 1 ? 2 * z : 2 * (z - Math.sqrt(z * z - 1));
    case 'semi-implicit':
      return 2 * (Math.sqrt(z * z + 1) - z);
    case 'implicit':
      return (2 * z + 2 * Math.sqrt(z * z + 3)) / 3;
    case 'exact':
      return Infinity;
  }
}
function converges(method: PdIntegrator, z: number, u: number): boolean {
  if (z === 0 && method !== 'implicit') return false;
  return u < boundary(method, z);
}

/** Steps of the float64 transcription from pos − g = 1, vel = 0 to |pos − g| + |vel|/ω ≤ 1e-4 (∞ beyond 12,000). */
const settleCache = new Map<string, number>();
function stepsToSettle(method: PdIntegrator, w: number, z: number, dt: number): number {
  const key = `${method} ${w} ${z} ${dt}`;
  if (!settleCache.has(key)) {
    let [x, v] = [1.25, 0];
    let k = 0;
    for (; k <= 12_000 && Math.abs(x - 0.25) + Math.abs(v) / w > 1e-4; k++) [x, v] = transcribe(method, x, v, 0.25, 0, w, z, dt);
    settleCache.set(key, k > 12_000 ? Infinity : k);
  }
  return settleCache.get(key)!;
}

/** The one-step map [[∂pos'/∂pos, ∂pos'/∂vel], [∂vel'/∂pos, ∂vel'/∂vel]] of `impl`, targets 0. */
function stepMatrix(impl: Impl, method: PdIntegrator, w: number, z: number, dt: number): [number, number, number, number] {
  const pos = new Float32Array([1, 0]);
  const vel = new Float32Array([0, 1]);
  const zero = new Float32Array(2);
  impl.pdSpring(pos, vel, zero, zero, w, z, dt, { integrator: method });
  return [pos[0], pos[1], vel[0], vel[1]];
}

describe('pdSpring: convergence inside each stability region, divergence outside', () => {
  const INTEGRATORS: readonly PdIntegrator[] = ['explicit', 'semi-implicit', 'implicit', 'exact'];
  const FREQUENCIES = [0.5, 2, 5, 20]; // Hz
  const ZETAS = [0, 0.1, 0.5, 1, 2, 4];
  const DTS = [1 / 240, 1 / 60, 1 / 30, 0.1, 0.3, 1];

  it.each(BACKENDS.flatMap((b) => INTEGRATORS.map((m) => [b, m] as const)))(
    '%s backend, %s: every grid spring inside the region reaches the target',
    (backend, method) => {
      const solver = solvers[backend];
      let included = 0;
      for (const dt of DTS) {
        // All included springs of this dt in one batch, per-element parameters.
        const inside = FREQUENCIES.flatMap((f) => ZETAS.map((z) => [2 * Math.PI * f, z] as const)).filter(([w, z]) =>
          converges(method, z, w * dt),
        );
        included += inside.length;
        // Both the float64 transcription's map and the solver's own contract (spectral radius < 1);
        // the steps to run are those after which the float64 trajectory from the test's start is
        // within 1e-4 (|pos − g| + |vel|/ω), transients included.
        const stepsFor = new Map<(typeof inside)[number], number>();
        for (const spring of inside) {
          const [wi, zi] = spring;
          const p = transcribe(method, 1, 0, 0, 0, wi, zi, dt);
          const v = transcribe(method, 0, 1, 0, 0, wi, zi, dt);
          expect(spectralRadius(p[0], v[0], p[1], v[1]), `ρ at ω ${wi}, ζ ${zi}, dt ${dt}`).toBeLessThan(1);
          expect(spectralRadius(...stepMatrix(solver, method, wi, zi, dt)), `solver ρ at ω ${wi}, ζ ${zi}, dt ${dt}`).toBeLessThan(1);
          stepsFor.set(spring, stepsToSettle(method, wi, zi, dt));
        }
        // Trajectories are run where that takes at most 12,000 steps. The only grid springs beyond
        // are 'implicit' at ζ = 0, which decays by numerical damping alone, ρ² = 1 − u² per step
        // (about 107,000 steps at u = 0.013); for them the contracting map above is the test.
        const springs = inside.filter((spring) => stepsFor.get(spring)! <= 12_000);
        for (const [wi, zi] of inside.filter((spring) => stepsFor.get(spring)! > 12_000)) {
          expect([method, zi], `slow decay at ω ${wi}, dt ${dt}`).toEqual(['implicit', 0]);
        }
        if (springs.length === 0) continue;
        const steps = Math.max(...springs.map((spring) => stepsFor.get(spring)!));
        const w = Float32Array.from(springs, ([x]) => x);
        const z = Float32Array.from(springs, ([, y]) => y);
        const n = springs.length;
        const g = new Float32Array(n).fill(0.25);
        const q = new Float32Array(n);
        const pos = new Float32Array(n).fill(1.25); // 1 from the target
        const vel = new Float32Array(n);
        let peak = 0;
        for (let k = 0; k < steps; k++) {
          solver.pdSpring(pos, vel, g, q, w, z, dt, { integrator: method });
          for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(pos[i] - 0.25));
        }
        // The float64 trajectory is within 1e-4 by now. The float32 one follows it: pos = g, vel = 0
        // is an exact fixed point in float32 too, so its rounding errors shrink with the distance
        // to it; 1e-3 of the unit distance leaves a factor 10.
        for (let i = 0; i < n; i++) {
          expect(Math.abs(pos[i] - 0.25), `pos, ω ${w[i]}, ζ ${z[i]}, dt ${dt}`).toBeLessThanOrEqual(1e-3);
          expect(Math.abs(vel[i]) / w[i], `vel/ω, ω ${w[i]}, ζ ${z[i]}, dt ${dt}`).toBeLessThanOrEqual(1e-3);
        }
        expect(peak).toBeLessThan(20); // and never diverged on the way
      }
      expect(included).toBeGreaterThan(method === 'exact' ? 100 : 20);
    },
  );

  it.each(BACKENDS.flatMap((b) => (['explicit', 'semi-implicit', 'implicit'] as const).map((m) => [b, m] as const)))(
    '%s backend, %s: the one-step map contracts just inside the boundary and expands just outside',
    (backend, method) => {
      const solver = solvers[backend];
      const dt = 1 / 60;
      for (const z of method === 'implicit' ? [0, 0.1, 0.5, 1, 2, 4] : [0.1, 0.5, 1, 2, 4]) {
        const ub = boundary(method, z);
        const inside = spectralRadius(...stepMatrix(solver, method, (0.97 * ub) / dt, z, dt));
        const outside = spectralRadius(...stepMatrix(solver, method, (1.03 * ub) / dt, z, dt));
        // In float64, |ρ − 1| ≥ 5.8e-4 at ±3% of u_b for these ζ (smallest: explicit, ζ = 0.1), far
        // above what the float32 rounding of the map's entries (~1e-7) can move it.
        expect(inside, `ζ ${z}, u ${0.97 * ub}`).toBeLessThan(1 - 1e-4);
        expect(outside, `ζ ${z}, u ${1.03 * ub}`).toBeGreaterThan(1 + 1e-4);
      }
    },
  );

  it.each(BACKENDS.map((b) => [b] as const))('%s backend: the excluded undamped cases behave as documented', (backend) => {
    const solver = solvers[backend];
    const dt = 1 / 60;
    const w = 2 * Math.PI * 2; // u = 0.209
    const energy = (x: number, v: number) => w * w * x * x + v * v;
    const one = () => [new Float32Array([1]), new Float32Array([0]), new Float32Array(1), new Float32Array(1)] as const;
    // exact: conserves ω²x² + v² (each step rounds the state: ≤ 1000 × 16u relative drift = 1e-3).
    let [pos, vel, g, q] = one();
    for (let k = 0; k < 1000; k++) solver.pdSpring(pos, vel, g, q, w, 0, dt, { integrator: 'exact' });
    expect(Math.abs(energy(pos[0], vel[0]) / energy(1, 0) - 1)).toBeLessThan(1e-3);
    // explicit: the energy grows by exactly 1 + u² per step (det of the map), so it diverges.
    [pos, vel, g, q] = one();
    for (let k = 0; k < 100; k++) solver.pdSpring(pos, vel, g, q, w, 0, dt, { integrator: 'explicit' });
    const growth = (1 + (w * dt) ** 2) ** 100;
    expect(energy(pos[0], vel[0]) / energy(1, 0) / growth).toBeCloseTo(1, 4);
    // semi-implicit, u < 2: bounded (det = 1, eigenvalues on the unit circle) but never decays.
    for (const u of [0.209, 1.9]) {
      [pos, vel, g, q] = one();
      let low = Infinity;
      let high = 0;
      for (let k = 0; k < 2000; k++) {
        solver.pdSpring(pos, vel, g, q, u / dt, 0, dt, { integrator: 'semi-implicit' });
        const amplitude = Math.hypot(pos[0], vel[0] / (u / dt));
        low = Math.min(low, amplitude);
        high = Math.max(high, amplitude);
      }
      // With y = v/ω the map is y' = y − u·x, x' = x + u·y', which keeps x² + y² − u·x·y = 1: an
      // ellipse whose radius lies in [1/√(1 + u/2), 1/√(1 − u/2)] ([0.72, 4.47] at u = 1.9). The
      // float32 state drifts off it by ≤ 2000 steps × ~4u ≈ 5e-4.
      expect(high).toBeLessThan(1 / Math.sqrt(1 - u / 2) + 1e-3);
      expect(low).toBeGreaterThan(1 / Math.sqrt(1 + u / 2) - 1e-3);
    }
    // implicit at ζ = 0 inside u* = 2/√3: converges (included in the grid above); exactly at the
    // expected decay: ρ² = det = 1 − u² per step.
    const [a, b, c, d] = stepMatrix(solver, 'implicit', w, 0, dt);
    expect(a * d - b * c).toBeCloseTo(1 - (w * dt) ** 2, 6);
  });
});

describe('pdSpring: argument errors', () => {
  const N = 7;
  function args() {
    const rng = mulberry32(5);
    const [pos, vel, g, q] = [0, 0, 0, 0].map(() => new Float32Array(N));
    fillState(rng, pos, vel, g, q);
    return { pos, vel, g, q, w: Float32Array.from({ length: N }, () => 3), z: Float32Array.from({ length: N }, () => 0.5) };
  }
  type Call = (s: Solver, a: ReturnType<typeof args>) => void;
  const BAD: [what: string, call: Call, error: typeof TypeError | typeof RangeError, pattern: RegExp][] = [
    ['vel too short', (s, a) => s.pdSpring(a.pos, a.vel.subarray(1), a.g, a.q, 3, 0.5, 0.1), RangeError, /pdSpring: vel has length 6/],
    [
      'targetPos a Float64Array',
      (s, a) => s.pdSpring(a.pos, a.vel, new Float64Array(N) as never, a.q, 3, 0.5, 0.1),
      TypeError,
      /targetPos must be a Float32Array/,
    ],
    [
      'targetVel an Array',
      (s, a) => s.pdSpring(a.pos, a.vel, a.g, [0] as never, 3, 0.5, 0.1),
      TypeError,
      /targetVel must be a Float32Array/,
    ],
    ['uaf NaN', (s, a) => s.pdSpring(a.pos, a.vel, a.g, a.q, NaN, 0.5, 0.1), RangeError, /uaf is NaN/],
    [
      'uaf negative per element',
      (s, a) => {
        a.w[3] = -1;
        s.pdSpring(a.pos, a.vel, a.g, a.q, a.w, 0.5, 0.1);
      },
      RangeError,
      /uaf\[3\] is -1/,
    ],
    ['dampingRatio negative', (s, a) => s.pdSpring(a.pos, a.vel, a.g, a.q, 3, -0.5, 0.1), RangeError, /dampingRatio is -0.5/],
    [
      'dampingRatio NaN per element',
      (s, a) => {
        a.z[6] = NaN;
        s.pdSpring(a.pos, a.vel, a.g, a.q, 3, a.z, 0.1);
      },
      RangeError,
      /dampingRatio\[6\] is NaN/,
    ],
    [
      'dampingRatio wrong length',
      (s, a) => s.pdSpring(a.pos, a.vel, a.g, a.q, 3, a.z.subarray(2), 0.1),
      RangeError,
      /dampingRatio has length 5/,
    ],
    ['dt negative', (s, a) => s.pdSpring(a.pos, a.vel, a.g, a.q, 3, 0.5, -0.1), RangeError, /dt is -0.1/],
    ['dt NaN', (s, a) => s.pdSpring(a.pos, a.vel, a.g, a.q, 3, 0.5, NaN), RangeError, /dt is NaN/],
    [
      'unknown integrator',
      (s, a) => s.pdSpring(a.pos, a.vel, a.g, a.q, 3, 0.5, 0.1, { integrator: 'rk4' as never }),
      RangeError,
      /options.integrator is 'rk4'/,
    ],
    [
      'integrator not a string',
      (s, a) => s.pdSpring(a.pos, a.vel, a.g, a.q, 3, 0.5, 0.1, { integrator: 2 as never }),
      TypeError,
      /options.integrator must be a string/,
    ],
    [
      'options not an object',
      (s, a) => s.pdSpring(a.pos, a.vel, a.g, a.q, 3, 0.5, 0.1, 'exact' as never),
      TypeError,
      /options must be an object/,
    ],
    ['pos and vel overlap', (s, a) => s.pdSpring(a.pos, a.pos, a.g, a.q, 3, 0.5, 0.1), RangeError, /pos and vel overlap/],
    [
      'rigid body: uaf Infinity',
      (s, a) => s.pdSpringRigidBody(a.pos, a.vel, a.g, a.q, Infinity, 0.5, 0.1),
      RangeError,
      /pdSpringRigidBody: uaf is Infinity/,
    ],
    [
      'rigid body: pos too long',
      (s, a) => s.pdSpringRigidBody(new Float32Array(N + 1), a.vel, a.g, a.q, 3, 0.5, 0.1),
      RangeError,
      /pdSpringRigidBody: vel has length 7/,
    ],
  ];

  it.each(BACKENDS.flatMap((b) => BAD.map(([what, call, error, pattern]) => [b, what, call, error, pattern] as const)))(
    '%s backend: %s',
    (backend, _what, call, error, pattern) => {
      const solver = solvers[backend];
      const a = args();
      const snapshot = [a.pos, a.vel, a.g, a.q].map((x) => Float32Array.from(x));
      let thrown: unknown;
      try {
        call(solver, a);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(error);
      expect((thrown as Error).message).toMatch(pattern);
      expect([a.pos, a.vel, a.g, a.q]).toEqual(snapshot); // nothing written
    },
  );

  it.each(BACKENDS.map((b) => [b] as const))('%s backend: dt = 0 writes nothing; a disposed solver throws a TypeError', async (backend) => {
    const solver = await makeSolver(backend, 1024 * 1024);
    const a = args();
    const snapshot = [a.pos, a.vel].map((x) => Float32Array.from(x));
    for (const integrator of ['explicit', 'semi-implicit', 'implicit', 'exact'] as const) {
      solver.pdSpring(a.pos, a.vel, a.g, a.q, a.w, a.z, 0, { integrator });
    }
    solver.pdSpringRigidBody(a.pos, a.vel, a.g, a.q, 3, 0.5, 0);
    expect([a.pos, a.vel]).toEqual(snapshot);
    solver.dispose();
    expect(() => solver.pdSpring(a.pos, a.vel, a.g, a.q, 3, 0.5, 0.1)).toThrow(TypeError);
    expect(() => solver.pdSpringRigidBody(a.pos, a.vel, a.g, a.q, 3, 0.5, 0.1)).toThrow(/pdSpringRigidBody: this solver has been disposed/);
    expect([a.pos, a.vel]).toEqual(snapshot);
  });
});
