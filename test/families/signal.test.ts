/**
 * Extrapolation, dead blending and the exact tracking spring: every backend against the float64
 * reference, exactness (one step of dt equals two of dt/2), limits and argument checks.
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
import { makeSolver, useSolvers } from '../helpers/backends.js';
import { logUniform, mulberry32, uniform, type Rng } from '../helpers/random.js';

type Signal = Pick<Solver, 'extrapolate' | 'deadBlendingTransition' | 'deadBlendingUpdate' | 'trackingSpringUpdate'>;

const solvers = useSolvers();

const at = (p: Param, i: number) => (typeof p === 'number' ? p : p[i]);
const halflife = (rng: Rng) => logUniform(rng, 0.02, 2);

/** The decay of a velocity over dt with halflife h: v' = e·v, x' = x + c·v (Holden's extrapolate), independently of the kernels. */
function decay(h: number, dt: number): { e: number; c: number } {
  const y = Math.LN2 / h;
  if (y === Infinity) return { e: 0, c: 0 };
  return { e: Math.exp(-y * dt), c: y * dt === 0 ? dt : -Math.expm1(-y * dt) / y };
}

const EXTRAPOLATE: ParitySpec<Signal> = {
  n: PARITY_N,
  steps: PARITY_STEPS,
  start: (rng, n) => ({ x: filled(n, () => uniform(rng, -10, 10)), v: filled(n, () => uniform(rng, -20, 20)) }),
  retarget: (rng, s) => s.v.set(filled(s.v.length, () => uniform(rng, -20, 20))),
  params: (rng, n, mode) => [drawParam(rng, n, mode, 0, () => halflife(rng), 0.02)],
  run: (impl, s, [h], dt) => impl.extrapolate(s.x, s.v, h, dt),
  outputs: ['x', 'v'],
  scales: ({ arrays: s, params: [h], dt }) => ({
    x: Float64Array.from(s.x, (x, i) => Math.abs(x) + decay(at(h, i), dt).c * Math.abs(s.v[i])),
    v: Float64Array.from(s.v, (v, i) => decay(at(h, i), dt).e * Math.abs(v)),
  }),
};

const DEAD_BLENDING_TRANSITION: ParitySpec<Signal> = {
  n: PARITY_N,
  steps: PARITY_STEPS,
  start: (rng, n) => ({
    extX: filled(n, () => uniform(rng, -10, 10)),
    extV: filled(n, () => uniform(rng, -20, 20)),
    extT: filled(n, () => uniform(rng, 0, 1)),
    srcX: filled(n, () => uniform(rng, -10, 10)),
    srcV: filled(n, () => uniform(rng, -20, 20)),
  }),
  retarget: (rng, s) => {
    s.srcX.set(filled(s.srcX.length, () => uniform(rng, -10, 10)));
    s.extT.set(filled(s.extT.length, () => uniform(rng, 0, 1)));
  },
  params: () => [],
  run: (impl, s) => impl.deadBlendingTransition(s.extX, s.extV, s.extT, s.srcX, s.srcV),
  outputs: ['extX', 'extV', 'extT'],
  scales: ({ arrays: s }) => ({
    extX: new Float64Array(s.extX.length),
    extV: new Float64Array(s.extX.length),
    extT: new Float64Array(s.extX.length),
  }), // exact copies
};

/** Dead blending with a decay halflife (`decayed`) or without. Some elements restart a blend at every step. */
function deadBlendingSpec(decayed: boolean): ParitySpec<Signal> {
  return {
    n: PARITY_N,
    steps: PARITY_STEPS + 2,
    start: (rng, n) => ({
      outX: new Float32Array(n).fill(NaN),
      extX: filled(n, () => uniform(rng, -10, 10)),
      extV: filled(n, () => uniform(rng, -20, 20)),
      extT: filled(n, () => (rng() < 0.5 ? 0 : uniform(rng, 0, 1))),
      inX: filled(n, () => uniform(rng, -10, 10)),
    }),
    retarget: (rng, s) => {
      s.inX.set(filled(s.inX.length, () => uniform(rng, -10, 10)));
      for (let i = 0; i < s.extT.length; i++) if (rng() < 0.2) s.extT[i] = 0;
    },
    params: (rng, n, mode) => [
      drawParam(rng, n, mode, 0, () => uniform(rng, 0, 1), 0.05),
      ...(decayed ? [drawParam(rng, n, mode, 1, () => halflife(rng), 0.02)] : []),
    ],
    dt: (rng) => (rng() < 0.2 ? 0 : uniform(rng, 0, 0.3)),
    run: (impl, s, [blendTime, decayHalflife], dt) =>
      decayed
        ? impl.deadBlendingUpdate(s.outX, s.extX, s.extV, s.extT, s.inX, blendTime, dt, decayHalflife)
        : impl.deadBlendingUpdate(s.outX, s.extX, s.extV, s.extT, s.inX, blendTime, dt),
    outputs: ['outX', 'extX', 'extV', 'extT'],
    scales: ({ arrays: s, params: [, decayHalflife], dt }) => {
      const n = s.extX.length;
      const r = { outX: new Float64Array(n), extX: new Float64Array(n), extV: new Float64Array(n), extT: new Float64Array(n) };
      for (let i = 0; i < n; i++) {
        const { e, c } = decay(decayed ? at(decayHalflife, i) : Infinity, dt);
        r.extX[i] = Math.abs(s.extX[i]) + c * Math.abs(s.extV[i]);
        r.extV[i] = e * Math.abs(s.extV[i]);
        r.outX[i] = r.extX[i] + Math.abs(s.inX[i]); // lerp: (1 − α)·extX + α·inX
        // extT: 0, exact (extT + dt is summed in float64 and rounded once on every backend)
      }
      return r;
    },
  };
}

/** Gains in [0, 1] with some exact 0 and 1. */
const gain = (rng: Rng) => (rng() < 0.1 ? Math.round(rng()) : rng());

const TRACKING: ParitySpec<Signal> = {
  n: PARITY_N,
  steps: PARITY_STEPS,
  start: (rng, n) => ({
    x: filled(n, () => uniform(rng, -10, 10)),
    v: filled(n, () => uniform(rng, -20, 20)),
    a: new Float32Array(n).fill(NaN),
    targetX: filled(n, () => uniform(rng, -10, 10)),
    targetV: filled(n, () => uniform(rng, -20, 20)),
    targetA: filled(n, () => uniform(rng, -50, 50)),
  }),
  retarget: (rng, s) => {
    for (const k of ['targetX', 'targetV', 'targetA'] as const) s[k].set(s[k].map((t) => t * uniform(rng, 0.5, 1.5)));
  },
  params: (rng, n, mode) => [
    drawParam(rng, n, mode, 0, () => gain(rng)),
    drawParam(rng, n, mode, 1, () => gain(rng)),
    drawParam(rng, n, mode, 2, () => gain(rng)),
    rng() < 0.5 ? 1 / 60 : logUniform(rng, 1 / 240, 0.5), // gainDt (a number for both)
  ],
  run: (impl, s, [xGain, vGain, aGain, gainDt], dt) =>
    impl.trackingSpringUpdate(s.x, s.v, s.a, s.targetX, s.targetV, s.targetA, xGain, vGain, aGain, dt, gainDt as number),
  outputs: ['x', 'v', 'a'],
  scales: ({ arrays: s, params: [xGain, vGain, aGain, gainDt], dt }) => {
    const n = s.x.length;
    const r = { x: new Float64Array(n), v: new Float64Array(n), a: new Float64Array(n) };
    const gdt = gainDt as number;
    for (let i = 0; i < n; i++) {
      const xg = at(xGain, i),
        vg = at(vGain, i);
      const t0 = (1 - vg) * (1 - xg);
      const sdq = Math.abs(((vg * (1 - xg)) / gdt) * s.targetV[i]) + Math.abs(at(aGain, i) * t0 * s.targetA[i]);
      const stiffness = xg / (gdt * gdt);
      const damping = (1 - t0) / gdt;
      const m = reference.springTransition(stiffness, damping, dt);
      const P = damping > 0 ? m.xq / damping : (dt * dt) / 2;
      const y = Math.abs(s.x[i]) + Math.abs(s.targetX[i]);
      const sy = Math.abs(m.xx) * y + Math.abs(m.xv) * Math.abs(s.v[i]) + P * sdq;
      r.x[i] = Math.abs(s.targetX[i]) + sy;
      r.v[i] = Math.abs(m.vx) * y + Math.abs(m.vv) * Math.abs(s.v[i]) + Math.abs(m.xv) * sdq;
      r.a[i] = sdq + stiffness * sy + damping * r.v[i];
    }
    return r;
  },
};

const SPECS: [string, ParitySpec<Signal>][] = [
  ['extrapolate', EXTRAPOLATE],
  ['deadBlendingTransition', DEAD_BLENDING_TRANSITION],
  ['deadBlendingUpdate (decayHalflife)', deadBlendingSpec(true)],
  ['deadBlendingUpdate (no decay)', deadBlendingSpec(false)],
  ['trackingSpringUpdate', TRACKING],
];

describe.each(SPECS)('%s parity with the float64 reference', (name, spec) => {
  it.each(BACKENDS.flatMap((b) => ARRAY_KINDS.map((k) => [b, k] as const)))('%s backend, %s arrays', (backend, kind) => {
    PARAM_MODES.forEach((mode, m) => checkParity(solvers[backend], reference, kind, mode, 5000 + 10 * name.length + m, spec));
  });
});

describe.each(BACKENDS)('signal followers on %s', (backend) => {
  it('extrapolate is exact: one step of dt equals two of dt/2; halflife 0 stops, dt 0 keeps', () => {
    const solver = solvers[backend];
    const rng = mulberry32(51);
    const n = 203;
    const x = filled(n, () => uniform(rng, -10, 10)),
      v = filled(n, () => uniform(rng, -20, 20));
    const h = filled(n, () => halflife(rng));
    const [x2, v2] = [x.slice(), v.slice()];
    const scales = EXTRAPOLATE.scales({ arrays: { x, v }, params: [h], dt: 0.4 }, { x, v });
    solver.extrapolate(x, v, h, 0.4);
    solver.extrapolate(x2, v2, h, 0.2);
    solver.extrapolate(x2, v2, h, 0.2);
    // Two float32 steps against one: twice the parity tolerance of the terms.
    expectWithin('x', x2, x, scales.x, 2 * PARITY_TOLERANCE);
    expectWithin(
      'v',
      v2,
      v,
      Float64Array.from(v, (value) => Math.abs(value) + 1e-30),
      2 * PARITY_TOLERANCE,
    );
    const before = [Array.from(x), Array.from(v)];
    solver.extrapolate(x, v, 0.3, 0);
    expect([Array.from(x), Array.from(v)]).toEqual(before);
    solver.extrapolate(x, v, 0, 1 / 60);
    expect(Array.from(x)).toEqual(before[0]);
    expect(Array.from(v).every((value) => value === 0)).toBe(true);
  });

  it('dead blending: blendTime 0 outputs inX; a finished blend outputs inX and keeps its state', () => {
    const solver = solvers[backend];
    const rng = mulberry32(52);
    const n = 45;
    const [extX, extV, srcX, srcV, inX] = [0, 0, 0, 0, 0].map(() => filled(n, () => uniform(rng, -10, 10)));
    const extT = new Float32Array(n);
    const outX = new Float32Array(n);
    solver.deadBlendingTransition(extX, extV, extT, srcX, srcV);
    expect([Array.from(extX), Array.from(extV), Array.from(extT)]).toEqual([Array.from(srcX), Array.from(srcV), new Array(n).fill(0)]);
    solver.deadBlendingUpdate(outX, extX, extV, extT, inX, 0, 1 / 60);
    expect(Array.from(outX)).toEqual(Array.from(inX));
    // A 0.25 s blend at 60 Hz: 15 steps blend, then the output is inX and the state stays.
    const steps: number[] = [];
    for (let k = 0; k < 20; k++) {
      solver.deadBlendingUpdate(outX, extX, extV, extT, inX, 0.25, 1 / 60, 0.1);
      expectFinite(`step ${k}`, outX, extX, extV, extT);
      steps.push(extT[0]);
    }
    expect(Array.from(outX)).toEqual(Array.from(inX));
    expect(steps[16]).toBe(steps[19]); // stopped at ≥ blendTime
    expect(steps[19]).toBeGreaterThanOrEqual(0.25);
  });

  it('dead blending starts at the source and without decay extrapolates x += v·dt', () => {
    const solver = solvers[backend];
    const rng = mulberry32(53);
    const n = 33;
    const [srcX, srcV, inX] = [0, 0, 0].map(() => filled(n, () => uniform(rng, -10, 10)));
    const [extX, extV, extT, outX] = [0, 0, 0, 0].map(() => new Float32Array(n));
    solver.deadBlendingTransition(extX, extV, extT, srcX, srcV);
    solver.deadBlendingUpdate(outX, extX, extV, extT, inX, 1, 0.01);
    const alpha = 0.01 ** 2 * (3 - 2 * 0.01); // smoothstep(0.01)
    for (let i = 0; i < n; i++) {
      const extrapolated = srcX[i] + srcV[i] * 0.01;
      expect(Math.abs(extX[i] - extrapolated)).toBeLessThanOrEqual(2e-6 * 11); // float32 of terms ≤ 11: a few ulp
      expect(extV[i]).toBe(srcV[i]);
      expect(Math.abs(outX[i] - ((1 - alpha) * extrapolated + alpha * inX[i]))).toBeLessThanOrEqual(2e-6 * 21);
    }
  });

  it('dead blending: decayHalflife 0 stops the extrapolation (extV = 0, extX kept), with no NaN', () => {
    const solver = solvers[backend];
    const rng = mulberry32(54);
    const n = 17;
    const [extX, extV, inX] = [0, 0, 0].map(() => filled(n, () => uniform(rng, -10, 10)));
    const extT = new Float32Array(n);
    const outX = new Float32Array(n);
    const kept = Array.from(extX);
    solver.deadBlendingUpdate(outX, extX, extV, extT, inX, 0.5, 0.1, 0);
    expect(Array.from(extX)).toEqual(kept);
    expect(Array.from(extV).every((value) => value === 0)).toBe(true);
    expectFinite('outX', outX);
  });

  it('the tracking spring is exact: one step of dt equals two of dt/2 (fixed target)', () => {
    const solver = solvers[backend];
    const rng = mulberry32(55);
    const n = 301;
    const s = TRACKING.start(rng, n);
    const gains = [filled(n, () => gain(rng)), filled(n, () => gain(rng)), filled(n, () => gain(rng))];
    const half = { x: s.x.slice(), v: s.v.slice(), a: s.a.slice() };
    const scales = TRACKING.scales({ arrays: s, params: [...gains, 1 / 60], dt: 0.1 }, s);
    solver.trackingSpringUpdate(s.x, s.v, s.a, s.targetX, s.targetV, s.targetA, gains[0], gains[1], gains[2], 0.1, 1 / 60);
    for (let k = 0; k < 2; k++) {
      solver.trackingSpringUpdate(half.x, half.v, half.a, s.targetX, s.targetV, s.targetA, gains[0], gains[1], gains[2], 0.05, 1 / 60);
    }
    // Two float32 steps against one: a few times the parity tolerance of the terms.
    for (const k of ['x', 'v', 'a'] as const) expectWithin(k, half[k], s[k], scales[k], 4 * PARITY_TOLERANCE);
  });

  it('tracking with zero gains coasts exactly (x += v·dt, a = 0); zero stiffness is the exact damped limit', () => {
    const solver = solvers[backend];
    const rng = mulberry32(56);
    const n = 29;
    const s = TRACKING.start(rng, n);
    const x0 = s.x.slice(),
      v0 = s.v.slice();
    const dt = 0.2;
    solver.trackingSpringUpdate(s.x, s.v, s.a, s.targetX, s.targetV, s.targetA, 0, 0, 0, dt, 1 / 60);
    expectFinite('zero gains', s.x, s.v, s.a);
    expect(Array.from(s.v)).toEqual(Array.from(v0));
    expect(Array.from(s.a).every((a) => a === 0)).toBe(true);
    for (let i = 0; i < n; i++)
      expect(Math.abs(s.x[i] - (x0[i] + v0[i] * dt))).toBeLessThanOrEqual(1e-6 * (Math.abs(x0[i]) + Math.abs(v0[i]) * dt));

    // xGain 0: no stiffness; v relaxes to q = d·q/d at rate d = vGain/gainDt, x integrates v.
    const gainDt = 0.1,
      vGain = 0.4,
      aGain = 0.7;
    const t = TRACKING.start(rng, n);
    const x1 = t.x.slice(),
      v1 = t.v.slice();
    solver.trackingSpringUpdate(t.x, t.v, t.a, t.targetX, t.targetV, t.targetA, 0, vGain, aGain, dt, gainDt);
    expectFinite('zero stiffness', t.x, t.v, t.a);
    const d = vGain / gainDt;
    for (let i = 0; i < n; i++) {
      const q = ((vGain / gainDt) * t.targetV[i] + aGain * (1 - vGain) * t.targetA[i]) / d;
      const e = Math.exp(-d * dt);
      const v = q + (v1[i] - q) * e;
      const x = x1[i] + q * dt + ((v1[i] - q) * (1 - e)) / d;
      const scale = Math.abs(x1[i]) + (Math.abs(q) + Math.abs(v1[i])) * dt;
      expect(Math.abs(t.x[i] - x), `x ${i}`).toBeLessThanOrEqual(PARITY_TOLERANCE * scale);
      expect(Math.abs(t.v[i] - v), `v ${i}`).toBeLessThanOrEqual(PARITY_TOLERANCE * (Math.abs(q) + Math.abs(v1[i])));
      expect(Math.abs(t.a[i] - d * (q - v)), `a ${i}`).toBeLessThanOrEqual(PARITY_TOLERANCE * d * (Math.abs(q) + Math.abs(v1[i])));
    }
  });

  it('rejects bad arguments, naming them, and writes nothing', () => {
    const solver = solvers[backend];
    const all = [0, 1, 2, 3, 4, 5].map(() => new Float32Array(7).fill(0.5));
    const [a, b, c, d, e, f] = all;
    const bad = rejecter(all);
    bad(() => solver.extrapolate(a, b, -0.1, 0.1), RangeError, 'extrapolate', 'halflife');
    bad(() => solver.extrapolate(a, new Float32Array(8), 0.1, 0.1), RangeError, 'extrapolate', 'v');
    bad(() => solver.extrapolate(a, b, 0.1, -0.1), RangeError, 'extrapolate', 'dt');
    bad(() => solver.deadBlendingTransition(a, b, c, d, 'e' as unknown as Float32Array), TypeError, 'deadBlendingTransition', 'srcV');
    bad(() => solver.deadBlendingTransition(a, b, b, d, e), RangeError, 'deadBlendingTransition', 'extT');
    bad(() => solver.deadBlendingUpdate(a, b, c, d, e, NaN, 0.1), RangeError, 'deadBlendingUpdate', 'blendTime');
    bad(() => solver.deadBlendingUpdate(a, b, c, d, e, 1, 0.1, -1), RangeError, 'deadBlendingUpdate', 'decayHalflife');
    bad(() => solver.deadBlendingUpdate(a, b, c, d, e, 1, 0.1, Float32Array.of(1)), RangeError, 'deadBlendingUpdate', 'decayHalflife');
    bad(() => solver.deadBlendingUpdate(a, b, c, new Float32Array(6), e, 1, 0.1), RangeError, 'deadBlendingUpdate', 'extT');
    bad(() => solver.trackingSpringUpdate(a, b, c, d, e, f, 1.5, 0.5, 0.5, 0.1, 0.1), RangeError, 'trackingSpringUpdate', 'xGain');
    bad(
      () => solver.trackingSpringUpdate(a, b, c, d, e, f, 0.5, Float32Array.of(0, 0, 0, 2, 0, 0, 0), 0.5, 0.1, 0.1),
      RangeError,
      'trackingSpringUpdate',
      'vGain[3]',
    );
    bad(() => solver.trackingSpringUpdate(a, b, c, d, e, f, 0.5, 0.5, -0.5, 0.1, 0.1), RangeError, 'trackingSpringUpdate', 'aGain');
    bad(() => solver.trackingSpringUpdate(a, b, c, d, e, f, 0.5, 0.5, 0.5, 0.1, 0), RangeError, 'trackingSpringUpdate', 'gainDt');
    bad(
      () => solver.trackingSpringUpdate(a, b, c, d, e, f, 0.5, 0.5, 0.5, 0.1, undefined as unknown as number),
      TypeError,
      'trackingSpringUpdate',
      'gainDt',
    );
    bad(() => solver.trackingSpringUpdate(a, b, a, d, e, f, 0.5, 0.5, 0.5, 0.1, 0.1), RangeError, 'trackingSpringUpdate', 'a');
  });

  it('a disposed solver throws a TypeError and writes nothing', async () => {
    const disposed = await makeSolver(backend);
    disposed.dispose();
    const all = [0, 1, 2, 3, 4, 5].map(() => new Float32Array(3).fill(1));
    const [a, b, c, d, e, f] = all;
    const gone = (call: () => void, method: string) => expectRejected(call, TypeError, method, 'disposed', all);
    gone(() => disposed.extrapolate(a, b, 0.1, 0.1), 'extrapolate');
    gone(() => disposed.deadBlendingTransition(a, b, c, d, e), 'deadBlendingTransition');
    gone(() => disposed.deadBlendingUpdate(a, b, c, d, e, 1, 0.1), 'deadBlendingUpdate');
    gone(() => disposed.trackingSpringUpdate(a, b, c, d, e, f, 0.5, 0.5, 0.5, 0.1, 0.1), 'trackingSpringUpdate');
  });
});
