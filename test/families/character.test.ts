/**
 * Holden's spring character controller (characterUpdate, characterPredict): every backend
 * against the float64 reference, against numerical integration, limits and argument checks.
 */
import { describe, expect, it } from 'vitest';
import type { Param, Solver } from '../../dist/index.js';
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
} from '../helpers/family-harness.js';
import { makeSolver, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import { logUniform, mulberry32, uniform, type Rng } from '../helpers/random.js';

type Character = Pick<Solver, 'characterUpdate' | 'characterPredict'>;

const solvers = useSolvers(undefined, LARGE_DT_ON_PURPOSE);

const at = (p: Param, i: number) => (typeof p === 'number' ? p : p[i]);
const halflife = (rng: Rng) => logUniform(rng, 0.02, 2);

/** x in [−10, 10], v and vGoal in [−8, 8] (units/s), a in [−40, 40]. */
function characterState(rng: Rng, n: number): Record<string, Float32Array> {
  return {
    x: filled(n, () => uniform(rng, -10, 10)),
    v: filled(n, () => uniform(rng, -8, 8)),
    a: filled(n, () => uniform(rng, -40, 40)),
    vGoal: filled(n, () => uniform(rng, -8, 8)),
  };
}

/** Magnitudes of the terms of x', v', a' of element i after time t (the reference's transition, in absolute values). */
function termScales(s: Record<string, Float32Array>, h: number, t: number, i: number): [number, number, number] {
  const m = reference.characterTransition(h, t);
  const j0 = Math.abs(s.v[i]) + Math.abs(s.vGoal[i]);
  const a = Math.abs(s.a[i]);
  const vg = Math.abs(s.vGoal[i]);
  return [
    Math.abs(s.x[i]) + vg * t + Math.abs(m.cx0) * j0 + Math.abs(m.cxa) * a,
    vg + Math.abs(m.cv0) * j0 + Math.abs(m.cva) * a,
    Math.abs(m.ca0) * j0 + Math.abs(m.caa) * a,
  ];
}

const UPDATE: ParitySpec<Character> = {
  n: PARITY_N,
  steps: PARITY_STEPS,
  start: characterState,
  retarget: (rng, s) => s.vGoal.set(filled(s.vGoal.length, () => uniform(rng, -8, 8))),
  params: (rng, n, mode) => [drawParam(rng, n, mode, 0, () => halflife(rng), 0.02)],
  run: (impl, s, [h], dt) => impl.characterUpdate(s.x, s.v, s.a, s.vGoal, h, dt),
  outputs: ['x', 'v', 'a'],
  scales: ({ arrays: s, params: [h], dt }) => {
    const n = s.x.length;
    const r = { x: new Float64Array(n), v: new Float64Array(n), a: new Float64Array(n) };
    for (let i = 0; i < n; i++) [r.x[i], r.v[i], r.a[i]] = termScales(s, at(h, i), dt, i);
    return r;
  },
};

/** characterPredict of `count` samples for n characters; the outputs start as NaN so an unwritten sample fails. */
function predictSpec(n: number, count: number): ParitySpec<Character> {
  return {
    n,
    steps: 1,
    start: (rng, size) => ({
      ...characterState(rng, size),
      px: new Float32Array(size * count).fill(NaN),
      pv: new Float32Array(size * count).fill(NaN),
      pa: new Float32Array(size * count).fill(NaN),
    }),
    retarget: () => {},
    params: UPDATE.params,
    dt: (rng) => uniform(rng, 0, 0.3),
    run: (impl, s, [h], dt) => impl.characterPredict(s.px, s.pv, s.pa, s.x, s.v, s.a, s.vGoal, h, dt, count),
    outputs: ['px', 'pv', 'pa', 'x', 'v', 'a'], // the state is read only: x, v, a must come back as they were
    scales: ({ arrays: s, params: [h], dt }) => {
      const r = {
        px: new Float64Array(n * count),
        pv: new Float64Array(n * count),
        pa: new Float64Array(n * count),
        x: new Float64Array(n),
        v: new Float64Array(n),
        a: new Float64Array(n), // 0: unchanged exactly
      };
      for (let c = 0; c < n; c++) {
        for (let k = 0; k < count; k++) {
          const o = c * count + k; // character-major
          [r.px[o], r.pv[o], r.pa[o]] = termScales(s, at(h, c), k * dt, c);
        }
      }
      return r;
    },
  };
}

/** characterPredict into new arrays: [px, pv, pa], character-major. */
function predicted(solver: Character, s: Record<string, Float32Array>, h: Param, dt: number, count: number): Float32Array[] {
  const [px, pv, pa] = [0, 0, 0].map(() => new Float32Array(s.x.length * count));
  solver.characterPredict(px, pv, pa, s.x, s.v, s.a, s.vGoal, h, dt, count);
  return [px, pv, pa];
}

const PAIRS = BACKENDS.flatMap((b) => ARRAY_KINDS.map((k) => [b, k] as const));

describe('characterUpdate parity with the float64 reference', () => {
  it.each(PAIRS)('%s backend, %s arrays', (backend, kind) => {
    PARAM_MODES.forEach((mode, m) => checkParity(solvers[backend], reference, kind, mode, 2000 + m, UPDATE));
  });
});

describe('characterPredict parity with the float64 reference', () => {
  // count 7: blocks of four samples with an overlapping last block; 3: the scalar path; 16: whole blocks.
  // 3001 characters × 7 samples cross the 16384-float copy chunk of plain arrays.
  it.each(PAIRS)('%s backend, %s arrays', (backend, kind) => {
    for (const [n, count] of [
      [3001, 7],
      [3335, 3],
      [1001, 16],
    ]) {
      PARAM_MODES.forEach((mode, m) => checkParity(solvers[backend], reference, kind, mode, 3000 + 10 * count + m, predictSpec(n, count)));
    }
  });
});

/** RK4 in float64 of x' = v, v' = a, a' = y²·(vGoal − v) − 2y·a (the critical velocity spring) over time t. */
function integrate(x: number, v: number, a: number, vGoal: number, h: number, t: number, step = 1e-4): [number, number, number] {
  const y = (2 * Math.LN2) / h;
  const f = (s: number[]) => [s[1], s[2], y * y * (vGoal - s[1]) - 2 * y * s[2]];
  let s = [x, v, a];
  const steps = Math.ceil(t / step);
  const dt = t / steps;
  for (let k = 0; k < steps; k++) {
    const k1 = f(s);
    const k2 = f(s.map((q, j) => q + (dt / 2) * k1[j]));
    const k3 = f(s.map((q, j) => q + (dt / 2) * k2[j]));
    const k4 = f(s.map((q, j) => q + dt * k3[j]));
    s = s.map((q, j) => q + (dt / 6) * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]));
  }
  return s as [number, number, number];
}

describe.each(BACKENDS)('character controller on %s', (backend) => {
  it('characterPredict at time k·dt equals characterUpdate over k·dt', () => {
    const solver = solvers[backend];
    const rng = mulberry32(11);
    const n = 257;
    const count = 13;
    const dt = 0.2;
    for (const h of [0.25, filled(n, () => halflife(rng))]) {
      const s = characterState(rng, n);
      const [px, pv, pa] = predicted(solver, s, h, dt, count);
      for (let k = 0; k < count; k++) {
        const u = { x: s.x.slice(), v: s.v.slice(), a: s.a.slice() };
        solver.characterUpdate(u.x, u.v, u.a, s.vGoal, h, k * dt);
        const pick = (p: Float32Array) => Float32Array.from({ length: n }, (_, c) => p[c * count + k]);
        const scale = (j: number) => Float64Array.from({ length: n }, (_, c) => termScales(s, at(h, c), k * dt, c)[j]);
        // Both are float32 evaluations of the same closed form: the parity tolerance bounds each.
        expectWithin(`x, sample ${k}`, pick(px), u.x, scale(0), 2 * PARITY_TOLERANCE);
        expectWithin(`v, sample ${k}`, pick(pv), u.v, scale(1), 2 * PARITY_TOLERANCE);
        expectWithin(`a, sample ${k}`, pick(pa), u.a, scale(2), 2 * PARITY_TOLERANCE);
      }
    }
  });

  it('matches RK4 integration of the velocity spring (step 1e-4 s) to 1e-4', () => {
    const solver = solvers[backend];
    const rng = mulberry32(12);
    const n = 24;
    const count = 9;
    const dt = 0.15;
    const s = characterState(rng, n);
    const h = filled(n, () => logUniform(rng, 0.05, 1));
    const [px, pv, pa] = predicted(solver, s, h, dt, count);
    for (let c = 0; c < n; c++) {
      for (let k = 0; k < count; k++) {
        const [x, v, a] = integrate(s.x[c], s.v[c], s.a[c], s.vGoal[c], h[c], k * dt);
        // RK4's error at step 1e-4 is (y·1e-4)⁵-small (y ≤ 28/s); 1e-4 of the state's magnitude
        // leaves room for the float32 results (6e-8 relative).
        const [sx, sv, sa] = termScales(s, h[c], k * dt, c);
        const o = c * count + k;
        expect(Math.abs(px[o] - x), `x c${c} k${k}`).toBeLessThanOrEqual(1e-4 * sx);
        expect(Math.abs(pv[o] - v), `v c${c} k${k}`).toBeLessThanOrEqual(1e-4 * sv);
        expect(Math.abs(pa[o] - a), `a c${c} k${k}`).toBeLessThanOrEqual(1e-4 * sa);
      }
    }
  });

  it('v and a follow the simple spring toward vGoal (reference.simpleSpringDamper on (v, a))', () => {
    const solver = solvers[backend];
    const rng = mulberry32(13);
    const n = 301;
    const s = characterState(rng, n);
    const h = filled(n, () => halflife(rng));
    const v = s.v.slice();
    const a = s.a.slice();
    reference.simpleSpringDamper(v, a, s.vGoal, h, 0.1);
    const scales = UPDATE.scales({ arrays: s, params: [h], dt: 0.1 }, s);
    solver.characterUpdate(s.x, s.v, s.a, s.vGoal, h, 0.1);
    expectWithin('v', s.v, v, scales.v, PARITY_TOLERANCE);
    expectWithin('a', s.a, a, scales.a, PARITY_TOLERANCE);
  });

  it('dt = 0 leaves the state unchanged; predict sample 0 is the state, at any halflife', () => {
    const solver = solvers[backend];
    const s = characterState(mulberry32(14), 9);
    const before = [Array.from(s.x), Array.from(s.v), Array.from(s.a)];
    solver.characterUpdate(s.x, s.v, s.a, s.vGoal, 0, 0);
    solver.characterUpdate(s.x, s.v, s.a, s.vGoal, 0.3, 0);
    expect([Array.from(s.x), Array.from(s.v), Array.from(s.a)]).toEqual(before);
    for (const h of [0, 0.3]) {
      const [px, pv, pa] = predicted(solver, s, h, 0.1, 5);
      for (let c = 0; c < 9; c++) expect([px[c * 5], pv[c * 5], pa[c * 5]]).toEqual([s.x[c], s.v[c], s.a[c]]);
      solver.characterPredict(px, pv, pa, s.x, s.v, s.a, s.vGoal, h, 0, 5); // dt 0: every sample is the state
      for (let o = 0; o < 9 * 5; o++) expect([px[o], pv[o], pa[o]]).toEqual([s.x[(o / 5) | 0], s.v[(o / 5) | 0], s.a[(o / 5) | 0]]);
    }
  });

  it('halflife 0 is the exact limit: v = vGoal, a = 0, x += vGoal·dt, with no NaN', () => {
    const solver = solvers[backend];
    const s = characterState(mulberry32(15), 11);
    const x0 = s.x.slice();
    const dt = 1 / 60;
    solver.characterUpdate(s.x, s.v, s.a, s.vGoal, 0, dt);
    expectFinite('state', s.x, s.v, s.a);
    expect(Array.from(s.v)).toEqual(Array.from(s.vGoal));
    expect(Array.from(s.a).every((a) => a === 0)).toBe(true);
    for (let i = 0; i < 11; i++) expect(Math.abs(s.x[i] - (x0[i] + s.vGoal[i] * dt))).toBeLessThanOrEqual(1e-6 * (Math.abs(x0[i]) + 1));
    const count = 6;
    const [px, pv, pa] = predicted(solver, s, new Float32Array(11), dt, count);
    expectFinite('predict', px, pv, pa);
    for (let c = 0; c < 11; c++)
      for (let k = 1; k < count; k++) expect([pv[c * count + k], pa[c * count + k] === 0]).toEqual([s.vGoal[c], true]);
  });

  it('a huge halflife (y·dt ~ 1e-8) integrates without cancellation: x + v·dt + a·dt²/2', () => {
    const solver = solvers[backend];
    const s = characterState(mulberry32(16), 13);
    const expected = Float64Array.from(s.x, (x, i) => x + s.v[i] * 0.1 + (s.a[i] * 0.01) / 2);
    const scale = Float64Array.from(s.x, (x, i) => Math.abs(x) + Math.abs(s.v[i]) * 0.1 + Math.abs(s.a[i]) * 0.005);
    solver.characterUpdate(s.x, s.v, s.a, s.vGoal, 1e7, 0.1);
    // The next terms are y·dt ≈ 1e-8 of these: far inside the parity tolerance.
    expectWithin('x', s.x, expected, scale, PARITY_TOLERANCE);
  });

  it('rejects bad arguments, naming them, and writes nothing', () => {
    const solver = solvers[backend];
    const n = 4;
    const [x, v, a, vGoal] = [0, 0, 0, 0].map(() => new Float32Array(n).fill(1));
    const [px, pv, pa] = [0, 0, 0].map(() => new Float32Array(n * 3).fill(2));
    const all = [x, v, a, vGoal, px, pv, pa];
    const bad = rejecter(all);
    bad(() => solver.characterUpdate(x, v, new Float32Array(3), vGoal, 0.1, 0.1), RangeError, 'characterUpdate', 'a');
    bad(() => solver.characterUpdate(x, v, a, null as unknown as Float32Array, 0.1, 0.1), TypeError, 'characterUpdate', 'vGoal');
    bad(() => solver.characterUpdate(x, v, a, vGoal, -0.1, 0.1), RangeError, 'characterUpdate', 'halflife');
    bad(
      () => solver.characterUpdate(x, v, a, vGoal, Float32Array.of(1, 1, 1, Infinity), 0.1),
      RangeError,
      'characterUpdate',
      'halflife[3]',
    );
    bad(() => solver.characterUpdate(x, v, a, vGoal, 0.1, NaN), RangeError, 'characterUpdate', 'dt');
    bad(() => solver.characterPredict(px, pv, pa, x, v, a, vGoal, 0.1, 0.1, 4), RangeError, 'characterPredict', 'px');
    bad(
      () => solver.characterPredict(px, pv, new Float32Array(n * 3 + 1), x, v, a, vGoal, 0.1, 0.1, 3),
      RangeError,
      'characterPredict',
      'pa',
    );
    bad(() => solver.characterPredict(px, pv, pa, x, v, a, vGoal, 0.1, 0.1, 0), RangeError, 'characterPredict', 'count');
    bad(() => solver.characterPredict(px, pv, pa, x, v, a, vGoal, 0.1, 0.1, 2.5), RangeError, 'characterPredict', 'count');
    bad(() => solver.characterPredict(px, pv, pa, x, v, a, vGoal, 0.1, 0.1, 16385), RangeError, 'characterPredict', 'count');
    bad(
      () => solver.characterPredict(px, pv, pa, x, v, a, vGoal, 0.1, 0.1, '3' as unknown as number),
      TypeError,
      'characterPredict',
      'count',
    );
    bad(() => solver.characterPredict(px, px, pa, x, v, a, vGoal, 0.1, 0.1, 3), RangeError, 'characterPredict', 'pv');
    bad(() => solver.characterPredict(px, pv, pa, x, v, a, vGoal, 0.1, -0.1, 3), RangeError, 'characterPredict', 'dt');
  });

  it('a disposed solver throws a TypeError and writes nothing', async () => {
    const solver = await makeSolver(backend);
    solver.dispose();
    const arrays = [0, 0, 0, 0, 0, 0, 0].map(() => new Float32Array(2).fill(3));
    const [x, v, a, vGoal, px, pv, pa] = arrays;
    expectRejected(() => solver.characterUpdate(x, v, a, vGoal, 0.1, 0.1), TypeError, 'characterUpdate', 'disposed', arrays);
    expectRejected(
      () => solver.characterPredict(px, pv, pa, x, v, a, vGoal, 0.1, 0.1, 1),
      TypeError,
      'characterPredict',
      'disposed',
      arrays,
    );
  });
});
