/**
 * Holden's composite springs (double, timed, velocity): every backend against the float64
 * reference, their defining properties, limits and argument checks.
 */
import { describe, expect, it } from 'vitest';
import { SpringMode, type Param, type Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import {
  ARRAY_KINDS,
  BACKENDS,
  PARAM_MODES,
  PARITY_N,
  PARITY_STEPS,
  PARITY_TOLERANCE,
  checkParity,
  rejecter,
  drawParam,
  expectFinite,
  expectRejected,
  expectWithin,
  filled,
  type ParitySpec,
  type Step,
} from '../helpers/family-harness.js';
import { logUniform, mulberry32, uniform, type Rng } from '../helpers/random.js';
import { makeSolver, useSolvers } from '../helpers/backends.js';

type Composite = Pick<Solver, 'doubleSpringDamper' | 'timedSpringDamper' | 'velocitySpringDamper'>;

const solvers = useSolvers();

const at = (p: Param, i: number) => (typeof p === 'number' ? p : p[i]);

/** The exact critical-spring transition for halflife h over dt (the maths under test uses the same core). */
function critical(h: number, dt: number) {
  return reference.springTransition(...reference.stiffnessAndDamping(SpringMode.Critical, h, 0), dt);
}

/** Magnitudes of the terms of a simple spring step of (x, v) toward a goal of magnitude G. */
function springScales(h: number, dt: number, x: number, v: number, G: number): [number, number] {
  const m = critical(h, dt);
  return [
    G + Math.abs(m.xx) * (Math.abs(x) + G) + Math.abs(m.xv) * Math.abs(v),
    Math.abs(m.vx) * (Math.abs(x) + G) + Math.abs(m.vv) * Math.abs(v),
  ];
}

const halflife = (rng: Rng) => logUniform(rng, 0.02, 2);

/** x, xi, g in [−10, 10], v, vi in [−20, 20]. */
function springState(rng: Rng, n: number, withVi: boolean): Record<string, Float32Array> {
  const state: Record<string, Float32Array> = {
    x: filled(n, () => uniform(rng, -10, 10)),
    v: filled(n, () => uniform(rng, -20, 20)),
    xi: filled(n, () => uniform(rng, -10, 10)),
    g: filled(n, () => uniform(rng, -10, 10)),
  };
  if (withVi) state.vi = filled(n, () => uniform(rng, -20, 20));
  return state;
}

function retarget(rng: Rng, arrays: Record<string, Float32Array>): void {
  arrays.g.set(filled(arrays.g.length, () => uniform(rng, -10, 10)));
}

const DOUBLE: ParitySpec<Composite> = {
  n: PARITY_N,
  steps: PARITY_STEPS,
  start: (rng, n) => springState(rng, n, true),
  retarget,
  params: (rng, n, mode) => [drawParam(rng, n, mode, 0, () => halflife(rng), 0.02)],
  run: (impl, s, [h], dt) => impl.doubleSpringDamper(s.x, s.v, s.xi, s.vi, s.g, h, dt),
  outputs: ['x', 'v', 'xi', 'vi'],
  scales: ({ arrays: s, params: [h], dt }, out) => {
    const n = s.x.length;
    const r = { x: new Float64Array(n), v: new Float64Array(n), xi: new Float64Array(n), vi: new Float64Array(n) };
    for (let i = 0; i < n; i++) {
      const hi = at(h, i) / 2;
      [r.xi[i], r.vi[i]] = springScales(hi, dt, s.xi[i], s.vi[i], Math.abs(s.g[i]));
      // The second spring's goal is the new xi, known to its own terms' magnitude r.xi; it enters
      // twice (as the goal and in x − goal), hence 2·G.
      const G = Math.max(r.xi[i], Math.abs(out.xi[i]));
      [r.x[i], r.v[i]] = springScales(hi, dt, s.x[i], s.v[i], 2 * G);
    }
    return r;
  },
};

/** x_goal_future's magnitude for the timed spring, and xi's new one. */
function timedGoalScales(s: Record<string, Float32Array>, tg: number, h: number, app: number, dt: number, i: number): [number, number] {
  const minTime = Math.max(tg, dt);
  const vGoal = (Math.abs(s.g[i]) + Math.abs(s.xi[i])) / minTime;
  const tFuture = dt + app * h;
  return [Math.abs(s.xi[i]) + Math.abs(s.g[i]) + vGoal * tFuture, Math.abs(s.xi[i]) + vGoal * dt];
}

const TIMED: ParitySpec<Composite> = {
  n: PARITY_N,
  steps: PARITY_STEPS,
  start: (rng, n) => springState(rng, n, false),
  retarget,
  params: (rng, n, mode) => [
    drawParam(rng, n, mode, 0, () => (rng() < 0.5 ? uniform(rng, 0, 0.2) : uniform(rng, 0, 3)), 0.02),
    drawParam(rng, n, mode, 1, () => halflife(rng), 0.02),
    drawParam(rng, n, mode, 2, () => uniform(rng, 0, 4)),
  ],
  run: (impl, s, [tGoal, h, app], dt) => impl.timedSpringDamper(s.x, s.v, s.xi, s.g, tGoal, h, dt, app),
  outputs: ['x', 'v', 'xi'],
  scales: ({ arrays: s, params: [tGoal, h, app], dt }) =>
    goalSpringScales(s, h, dt, (i) => timedGoalScales(s, at(tGoal, i), at(h, i), at(app, i), dt, i)),
};

/** Scales of a simple spring toward a computed goal, plus the new xi's. */
function goalSpringScales(s: Record<string, Float32Array>, h: Param, dt: number, goal: (i: number) => [number, number]) {
  const n = s.x.length;
  const r = { x: new Float64Array(n), v: new Float64Array(n), xi: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const [G, xi] = goal(i);
    [r.x[i], r.v[i]] = springScales(at(h, i), dt, s.x[i], s.v[i], G);
    r.xi[i] = xi;
  }
  return r;
}

const VELOCITY: ParitySpec<Composite> = {
  ...TIMED,
  params: (rng, n, mode) => [
    drawParam(rng, n, mode, 0, () => uniform(rng, 0, 30), 0.02),
    drawParam(rng, n, mode, 1, () => halflife(rng), 0.02),
    drawParam(rng, n, mode, 2, () => uniform(rng, 0, 4)),
  ],
  run: (impl, s, [speed, h, app], dt) => impl.velocitySpringDamper(s.x, s.v, s.xi, s.g, speed, h, dt, app),
  scales: ({ arrays: s, params: [speed, h, app], dt }: Step) =>
    goalSpringScales(s, h, dt, (i) => {
      const base = Math.abs(s.xi[i]) + Math.abs(s.g[i]);
      return [base + at(speed, i) * (dt + at(app, i) * at(h, i)), base + at(speed, i) * dt];
    }),
};

const SPECS = { doubleSpringDamper: DOUBLE, timedSpringDamper: TIMED, velocitySpringDamper: VELOCITY };

describe.each(Object.entries(SPECS))('%s parity with the float64 reference', (name, spec) => {
  it.each(BACKENDS.flatMap((b) => ARRAY_KINDS.map((k) => [b, k] as const)))('%s backend, %s arrays', (backend, kind) => {
    PARAM_MODES.forEach((mode, m) => checkParity(solvers[backend], reference, kind, mode, 1000 + m + name.length, spec));
  });
});

describe.each(BACKENDS)('composite springs on %s', (backend) => {
  it('the double spring is two simple springs with halflife/2 (reference.simpleSpringDamper)', () => {
    const solver = solvers[backend];
    const rng = mulberry32(7);
    const n = 1001;
    for (const h of [0.05, 0.3, filled(n, () => halflife(rng))]) {
      const s = springState(rng, n, true);
      const expected = { x: s.x.slice(), v: s.v.slice(), xi: s.xi.slice(), vi: s.vi.slice() };
      const dt = 1 / 30;
      const half = typeof h === 'number' ? h / 2 : h.map((value) => value / 2); // halving a float32 is exact
      reference.simpleSpringDamper(expected.xi, expected.vi, s.g, half, dt);
      reference.simpleSpringDamper(expected.x, expected.v, expected.xi, half, dt);
      const scales = DOUBLE.scales({ arrays: s, params: [h], dt }, expected);
      solver.doubleSpringDamper(s.x, s.v, s.xi, s.vi, s.g, h, dt);
      for (const k of ['x', 'v', 'xi', 'vi'] as const) expectWithin(k, s[k], expected[k], scales[k], PARITY_TOLERANCE);
    }
  });

  it('the timed spring is within 2% of the goal distance by tGoal + 2·halflife (tGoal ≥ 2.5·halflife)', () => {
    const solver = solvers[backend];
    const dt = 1 / 60;
    // One element per (halflife, tGoal, distance); tGoal counted down by the caller.
    const cases: [number, number, number][] = [];
    for (const h of [0.05, 0.1, 0.2, 0.4])
      for (const T of [2.5 * h, 0.5, 1, 2]) for (const D of [10, -3, 0.5]) if (T >= 2.5 * h) cases.push([h, T, D]);
    for (const [h, T, D] of cases) {
      const x = new Float32Array(1),
        v = new Float32Array(1),
        xi = new Float32Array(1);
      const g = Float32Array.of(D);
      const steps = Math.ceil((T + 2 * h) / dt);
      for (let k = 0; k < steps; k++) solver.timedSpringDamper(x, v, xi, g, Math.max(T - k * dt, 0), h, dt);
      // Measured (reference): at most 1.5% when tGoal = 2.5·halflife, falling as tGoal grows.
      expect(Math.abs(x[0] - D), `h ${h}, tGoal ${T}, distance ${D}`).toBeLessThanOrEqual(0.02 * Math.abs(D));
      expect(Math.abs(xi[0] - D)).toBeLessThanOrEqual(1e-5 * Math.abs(D)); // xi arrives on time (float32 sums)
    }
  });

  it('the velocity spring moves at most 5% faster than speed once settled, and arrives', () => {
    const solver = solvers[backend];
    const dt = 1 / 60;
    for (const h of [0.05, 0.1, 0.2, 0.5]) {
      for (const speed of [0.5, 2, 8]) {
        const x = new Float32Array(1),
          v = new Float32Array(1),
          xi = new Float32Array(1);
        const g = Float32Array.of(10);
        let fastest = 0;
        const steps = Math.ceil((10 / speed + 6 * h) / dt);
        for (let k = 0; k < steps; k++) {
          solver.velocitySpringDamper(x, v, xi, g, speed, h, dt);
          if ((k + 1) * dt > 4 * h) fastest = Math.max(fastest, Math.abs(v[0])); // settled: after 4 halflives
        }
        // Measured (reference): at most 1.033·speed (h = 0.5).
        expect(fastest, `h ${h}, speed ${speed}`).toBeLessThanOrEqual(1.05 * speed);
        expect(Math.abs(x[0] - 10)).toBeLessThan(0.01);
      }
    }
  });

  it('dt = 0 leaves every array unchanged', () => {
    const solver = solvers[backend];
    const rng = mulberry32(3);
    const s = springState(rng, 37, true);
    const before = Object.fromEntries(Object.entries(s).map(([k, a]) => [k, Array.from(a)]));
    solver.doubleSpringDamper(s.x, s.v, s.xi, s.vi, s.g, 0, 0);
    solver.timedSpringDamper(s.x, s.v, s.xi, s.g, 0, 0, 0);
    solver.velocitySpringDamper(s.x, s.v, s.xi, s.g, 3, 0.1, 0);
    for (const [k, a] of Object.entries(s)) expect(Array.from(a), k).toEqual(before[k]);
  });

  it('halflife 0 gives the exact limits (snap to the goal, velocity 0), with no NaN', () => {
    const solver = solvers[backend];
    const rng = mulberry32(4);
    const n = 37;
    const dt = 1 / 60;
    const d = springState(rng, n, true);
    solver.doubleSpringDamper(d.x, d.v, d.xi, d.vi, d.g, 0, dt);
    expect(Array.from(d.xi)).toEqual(Array.from(d.g));
    expect(Array.from(d.x)).toEqual(Array.from(d.g));
    expect(Array.from(d.v).every((value) => value === 0) && Array.from(d.vi).every((value) => value === 0)).toBe(true);

    // Timed, tGoal 1 s: x lands on x_goal_future = xi + (g − xi)·dt/1, then xi moves the same.
    const t = springState(rng, n, false);
    const xiStart = t.xi.slice();
    solver.timedSpringDamper(t.x, t.v, t.xi, t.g, 1, 0, dt);
    for (let i = 0; i < n; i++) {
      const target = xiStart[i] + (t.g[i] - xiStart[i]) * dt;
      expect(Math.abs(t.x[i] - target)).toBeLessThanOrEqual(1e-6 * (Math.abs(xiStart[i]) + Math.abs(t.g[i])));
      expect(t.v[i] === 0, `v[${i}] = ${t.v[i]}`).toBe(true); // ±0
    }
    // Velocity, speed 0: xi stays, x snaps to it.
    const w = springState(rng, n, false);
    const xiBefore = Array.from(w.xi);
    solver.velocitySpringDamper(w.x, w.v, w.xi, w.g, 0, 0, dt);
    expect(Array.from(w.xi)).toEqual(xiBefore);
    expect(Array.from(w.x)).toEqual(xiBefore);
    expectFinite('limits', d.x, d.v, t.x, t.v, t.xi, w.x, w.v, w.xi);
  });

  it('tGoal 0 (arrived) settles on g without dividing by zero', () => {
    const solver = solvers[backend];
    const x = Float32Array.of(0),
      v = Float32Array.of(0),
      xi = Float32Array.of(0),
      g = Float32Array.of(5);
    for (let k = 0; k < 600; k++) solver.timedSpringDamper(x, v, xi, g, 0, 0.1, 1 / 60);
    expectFinite('tGoal 0', x, v, xi);
    expect(xi[0]).toBe(5);
    expect(Math.abs(x[0] - 5)).toBeLessThan(1e-4);
  });

  it('tGoal 0 with a dt below float32 (8e-323, 1e-40) reaches g as the reference does (fuzz counterexamples)', () => {
    // v_goal = (g − xi)/max(tGoal, dt) is beyond float32 here (SIMD gave 0/0 = NaN and ∞ for xi);
    // five elements: four SIMD lanes and the scalar tail
    const solver = solvers[backend];
    for (const [dt, xi0, g0, h, apprehension] of [
      [8e-323, 0, -2.3096130743541465e-21, 44797.375, 99.99992370605469],
      [1e-40, 0, 100, 0.1, 2],
      [1e-40, 3, -1e6, 1e-6, 0],
    ]) {
      const n = 5;
      const [x, v, xi, g] = [filled(n, () => -9.744697271329983e-10), filled(n, () => 0), filled(n, () => xi0), filled(n, () => g0)];
      const [xr, vr, xir] = [x.slice(), v.slice(), xi.slice()];
      solver.timedSpringDamper(x, v, xi, g, 0, h, dt, apprehension);
      reference.timedSpringDamper(xr, vr, xir, g, 0, Math.fround(h), dt, Math.fround(apprehension));
      expectFinite(`dt ${dt}`, x, v, xi);
      // xi' = xi + (g − xi)·1 and the spring's step over a negligible dt: float32 rounding of |x|, |xi|, |g|
      const scale = filled(n, () => Math.abs(x[0]) + Math.abs(xi0) + Math.abs(g0));
      expectWithin(`dt ${dt}: x`, x, xr, scale, PARITY_TOLERANCE);
      expectWithin(`dt ${dt}: v`, v, vr, scale, PARITY_TOLERANCE);
      expectWithin(`dt ${dt}: xi`, xi, xir, scale, PARITY_TOLERANCE);
    }
  });

  it('rejects bad arguments, naming them, and writes nothing', () => {
    const solver = solvers[backend];
    const n = 5;
    const a = () => new Float32Array(n).fill(1);
    const [x, v, xi, vi, g] = [a(), a(), a(), a(), a()];
    const all = [x, v, xi, vi, g];
    const bad = rejecter(all);
    bad(() => solver.doubleSpringDamper(x, v, xi, new Float32Array(4), g, 0.1, 0.1), RangeError, 'doubleSpringDamper', 'vi');
    bad(
      () => solver.doubleSpringDamper(x, v, xi, vi, [1, 2, 3, 4, 5] as unknown as Float32Array, 0.1, 0.1),
      TypeError,
      'doubleSpringDamper',
      'g',
    );
    bad(() => solver.doubleSpringDamper(x, v, xi, vi, g, NaN, 0.1), RangeError, 'doubleSpringDamper', 'halflife');
    bad(() => solver.doubleSpringDamper(x, v, xi, vi, g, 0.1, -1), RangeError, 'doubleSpringDamper', 'dt');
    bad(() => solver.timedSpringDamper(x, v, xi, g, -1, 0.1, 0.1), RangeError, 'timedSpringDamper', 'tGoal');
    bad(
      () => solver.timedSpringDamper(x, v, xi, g, Float32Array.of(1, 1, NaN, 1, 1), 0.1, 0.1),
      RangeError,
      'timedSpringDamper',
      'tGoal[2]',
    );
    bad(() => solver.timedSpringDamper(x, v, xi, g, 1, 0.1, 0.1, -2), RangeError, 'timedSpringDamper', 'apprehension');
    bad(() => solver.timedSpringDamper(x, v, x, g, 1, 0.1, 0.1), RangeError, 'timedSpringDamper', 'xi');
    bad(() => solver.velocitySpringDamper(x, v, xi, g, -3, 0.1, 0.1), RangeError, 'velocitySpringDamper', 'speed');
    bad(() => solver.velocitySpringDamper(x, v, xi, g, 3, new Float32Array(2), 0.1), RangeError, 'velocitySpringDamper', 'halflife');
    bad(() => solver.velocitySpringDamper(x, v, xi, g, 3, 0.1, '0.1' as unknown as number), TypeError, 'velocitySpringDamper', 'dt');
  });
});

describe('composite springs on a disposed solver', () => {
  it.each(BACKENDS)('%s: every method throws a TypeError and writes nothing', async (backend) => {
    const solver = await makeSolver(backend);
    solver.dispose();
    const arrays = Array.from({ length: 5 }, () => new Float32Array(4).fill(2));
    const [x, v, xi, vi, g] = arrays;
    expectRejected(() => solver.doubleSpringDamper(x, v, xi, vi, g, 0.1, 0.1), TypeError, 'doubleSpringDamper', 'disposed', arrays);
    expectRejected(() => solver.timedSpringDamper(x, v, xi, g, 1, 0.1, 0.1), TypeError, 'timedSpringDamper', 'disposed', arrays);
    expectRejected(() => solver.velocitySpringDamper(x, v, xi, g, 1, 0.1, 0.1), TypeError, 'velocitySpringDamper', 'disposed', arrays);
  });
});
