/**
 * Inertialization (inertializeTransition, inertializeUpdate): every backend against the float64
 * vec3 reference (src/reference/inertialize.ts: N vectors packed [x, y, z], halflife per vector),
 * element-wise halflives, continuity, limits and argument checks.
 */
import { describe, expect, it } from 'vitest';
import { SpringMode, type Param, type Solver } from '../../dist/index.js';
import * as core from '../../dist/reference/index.js';
import * as vec3 from '../../dist/reference/inertialize.js';
import {
  ARRAY_KINDS,
  BACKENDS,
  PARITY_STEPS,
  PARITY_TOLERANCE,
  checkParity,
  rejecter,
  expectFinite,
  expectRejected,
  expectWithin,
  filled,
  type ParamMode,
  type ParitySpec,
} from '../helpers/family-harness.js';
import { makeSolver, useSolvers } from '../helpers/backends.js';
import { logUniform, mulberry32, uniform, type Rng } from '../helpers/random.js';

type Inertialize = Pick<Solver, 'inertializeTransition' | 'inertializeUpdate'>;

const solvers = useSolvers();

/** Vectors of the parity runs: 3·6295 = 18885 floats, odd (so not a multiple of 4) and over one copy chunk. */
const VECTORS = 6295;
const N = 3 * VECTORS;

const at = (p: Param, i: number) => (typeof p === 'number' ? p : p[i]);

/**
 * The vec3 reference takes one halflife per vector; the solvers one per element. Parameters are
 * drawn per element with the three of a vector equal, and the reference is given every third.
 */
function forImpl(impl: Inertialize, h: Param): Param {
  if (impl !== (vec3 as unknown as Inertialize) || typeof h === 'number') return h;
  return Float32Array.from({ length: h.length / 3 }, (_, b) => h[3 * b]);
}

function vectorHalflives(rng: Rng, mode: ParamMode): Param {
  if (mode === 'uniform') return Math.fround(logUniform(rng, 0.02, 2));
  const perVector = filled(VECTORS, () => (rng() < 0.02 ? 0 : logUniform(rng, 0.02, 2)));
  return Float32Array.from({ length: N }, (_, i) => perVector[Math.floor(i / 3)]);
}

const offsets = (rng: Rng, n: number): Record<string, Float32Array> => ({
  offX: filled(n, () => uniform(rng, -2, 2)),
  offV: filled(n, () => uniform(rng, -10, 10)),
});
const animation = (rng: Rng, n: number, prefix: string): Record<string, Float32Array> => ({
  [`${prefix}X`]: filled(n, () => uniform(rng, -10, 10)),
  [`${prefix}V`]: filled(n, () => uniform(rng, -20, 20)),
});

const TRANSITION: ParitySpec<Inertialize> = {
  n: N,
  steps: PARITY_STEPS,
  start: (rng, n) => ({ ...offsets(rng, n), ...animation(rng, n, 'src'), ...animation(rng, n, 'dst') }),
  retarget: (rng, s) => Object.assign(s, animation(rng, s.offX.length, 'src'), animation(rng, s.offX.length, 'dst')),
  params: () => [],
  run: (impl, s) => impl.inertializeTransition(s.offX, s.offV, s.srcX, s.srcV, s.dstX, s.dstV),
  outputs: ['offX', 'offV'],
  scales: ({ arrays: s }) => ({
    offX: Float64Array.from(s.offX, (o, i) => Math.abs(o) + Math.abs(s.srcX[i]) + Math.abs(s.dstX[i])),
    offV: Float64Array.from(s.offV, (o, i) => Math.abs(o) + Math.abs(s.srcV[i]) + Math.abs(s.dstV[i])),
  }),
};

/** Magnitudes of the terms of the decayed offset and the output, halflife per element. */
function updateScales(s: Record<string, Float32Array>, h: Param, dt: number) {
  const n = s.offX.length;
  const r = { offX: new Float64Array(n), offV: new Float64Array(n), outX: new Float64Array(n), outV: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const m = core.springTransition(...core.stiffnessAndDamping(SpringMode.Critical, at(h, i), 0), dt);
    const ox = Math.abs(s.offX[i]),
      ov = Math.abs(s.offV[i]);
    r.offX[i] = Math.abs(m.xx) * ox + Math.abs(m.xv) * ov;
    r.offV[i] = Math.abs(m.vx) * ox + Math.abs(m.vv) * ov;
    r.outX[i] = Math.abs(s.inX[i]) + r.offX[i];
    r.outV[i] = Math.abs(s.inV[i]) + r.offV[i];
  }
  return r;
}

const UPDATE: ParitySpec<Inertialize> = {
  n: N,
  steps: PARITY_STEPS,
  start: (rng, n) => ({
    ...offsets(rng, n),
    ...animation(rng, n, 'in'),
    outX: new Float32Array(n).fill(NaN),
    outV: new Float32Array(n).fill(NaN),
  }),
  retarget: (rng, s) => Object.assign(s, animation(rng, s.offX.length, 'in')),
  params: (rng, _n, mode) => [vectorHalflives(rng, mode)],
  run: (impl, s, [h], dt) => impl.inertializeUpdate(s.outX, s.outV, s.offX, s.offV, s.inX, s.inV, forImpl(impl, h), dt),
  outputs: ['offX', 'offV', 'outX', 'outV'],
  scales: ({ arrays: s, params: [h], dt }) => updateScales(s, h, dt),
};

const MODES: ParamMode[] = ['uniform', 'perElement']; // one parameter: 'mixed' would be 'perElement'
const PAIRS = BACKENDS.flatMap((b) => ARRAY_KINDS.map((k) => [b, k] as const));
const REFERENCE = vec3 as unknown as Inertialize;

describe('inertialization parity with the float64 vec3 reference', () => {
  it.each(PAIRS)('inertializeTransition: %s backend, %s arrays', (backend, kind) => {
    checkParity(solvers[backend], REFERENCE, kind, 'uniform', 4000, TRANSITION);
  });

  it.each(PAIRS)('inertializeUpdate: %s backend, %s arrays', (backend, kind) => {
    MODES.forEach((mode, m) => checkParity(solvers[backend], REFERENCE, kind, mode, 4100 + m, UPDATE));
  });
});

describe.each(BACKENDS)('inertialization on %s', (backend) => {
  it('halflives differing within a vector: each element is its own decay spring', () => {
    const solver = solvers[backend];
    const rng = mulberry32(41);
    const n = 1001;
    const s = { ...offsets(rng, n), ...animation(rng, n, 'in') };
    const h = filled(n, () => (rng() < 0.05 ? 0 : logUniform(rng, 0.02, 2)));
    const dt = 0.05;
    // The reference per element: element i as the vector (offX[i], 0, 0) with halflife h[i].
    const ox = new Float32Array(3 * n),
      ov = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) [ox[3 * i], ov[3 * i]] = [s.offX[i], s.offV[i]];
    vec3.vec3DecaySpringDamper(ox, ov, h, dt);
    const expected = {
      offX: Float32Array.from({ length: n }, (_, i) => ox[3 * i]),
      offV: Float32Array.from({ length: n }, (_, i) => ov[3 * i]),
    };
    const scales = updateScales(s, h, dt);
    const outX = new Float32Array(n),
      outV = new Float32Array(n);
    solver.inertializeUpdate(outX, outV, s.offX, s.offV, s.inX, s.inV, h, dt);
    expectWithin('offX', s.offX, expected.offX, scales.offX, PARITY_TOLERANCE);
    expectWithin('offV', s.offV, expected.offV, scales.offV, PARITY_TOLERANCE);
    expectWithin(
      'outX',
      outX,
      s.inX.map((x, i) => x + expected.offX[i]),
      scales.outX,
      PARITY_TOLERANCE,
    );
    expectWithin(
      'outV',
      outV,
      s.inV.map((v, i) => v + expected.offV[i]),
      scales.outV,
      PARITY_TOLERANCE,
    );
  });

  it('a transition keeps the output continuous: dst + off after equals src + off before', () => {
    const solver = solvers[backend];
    const rng = mulberry32(42);
    const n = 99;
    const s = { ...offsets(rng, n), ...animation(rng, n, 'src'), ...animation(rng, n, 'dst') };
    const before = { x: s.srcX.map((x, i) => x + s.offX[i]), v: s.srcV.map((v, i) => v + s.offV[i]) };
    solver.inertializeTransition(s.offX, s.offV, s.srcX, s.srcV, s.dstX, s.dstV);
    const outX = new Float32Array(n),
      outV = new Float32Array(n);
    solver.inertializeUpdate(outX, outV, s.offX, s.offV, s.dstX, s.dstV, 0.1, 0); // dt 0: out = dst + off
    // Four float32 roundings (src + off before; off − dst, dst + off after) of sums whose terms
    // add up to at most 22 for x (|src|, |dst| ≤ 10, |off| ≤ 2) and 50 for v: 4 ulp is
    // 4·2^-19 ≈ 7.6e-6 (x) and 4·2^-18 ≈ 1.5e-5 (v).
    for (let i = 0; i < n; i++) {
      expect(Math.abs(outX[i] - before.x[i])).toBeLessThanOrEqual(4 * 2 ** -19);
      expect(Math.abs(outV[i] - before.v[i])).toBeLessThanOrEqual(4 * 2 ** -18);
    }
  });

  it('dt = 0 keeps the offset (out = in + off); halflife 0 clears it (out = in) with no NaN', () => {
    const solver = solvers[backend];
    const rng = mulberry32(43);
    const n = 37;
    const s = { ...offsets(rng, n), ...animation(rng, n, 'in') };
    const kept = [Array.from(s.offX), Array.from(s.offV)];
    const outX = new Float32Array(n),
      outV = new Float32Array(n);
    solver.inertializeUpdate(outX, outV, s.offX, s.offV, s.inX, s.inV, 0, 0);
    expect([Array.from(s.offX), Array.from(s.offV)]).toEqual(kept);
    expect(Array.from(outX)).toEqual(Array.from(s.inX, (x, i) => Math.fround(x + s.offX[i])));
    solver.inertializeUpdate(outX, outV, s.offX, s.offV, s.inX, s.inV, 0, 1 / 60);
    expectFinite('halflife 0', outX, outV, s.offX, s.offV);
    expect(Array.from(s.offX).every((o) => o === 0) && Array.from(s.offV).every((o) => o === 0)).toBe(true);
    expect([Array.from(outX), Array.from(outV)]).toEqual([Array.from(s.inX), Array.from(s.inV)]);
  });

  it('outX may be the very array inX (updated in place)', () => {
    const solver = solvers[backend];
    const rng = mulberry32(44);
    const s = { ...offsets(rng, 21), ...animation(rng, 21, 'in') };
    const copy = { offX: s.offX.slice(), offV: s.offV.slice(), inX: s.inX.slice(), inV: s.inV.slice() };
    const outX = new Float32Array(21),
      outV = new Float32Array(21);
    solver.inertializeUpdate(outX, outV, copy.offX, copy.offV, copy.inX, copy.inV, 0.2, 0.1);
    solver.inertializeUpdate(s.inX, s.inV, s.offX, s.offV, s.inX, s.inV, 0.2, 0.1);
    expect([Array.from(s.inX), Array.from(s.inV)]).toEqual([Array.from(outX), Array.from(outV)]);
  });

  it('rejects bad arguments, naming them, and writes nothing', () => {
    const solver = solvers[backend];
    const all = [0, 1, 2, 3, 4, 5].map(() => new Float32Array(6).fill(1));
    const [a, b, c, d, e, f] = all;
    const bad = rejecter(all);
    bad(() => solver.inertializeTransition(a, b, c, d, e, new Float32Array(5)), RangeError, 'inertializeTransition', 'dstV');
    bad(
      () => solver.inertializeTransition(a, b, c, d, new Float64Array(6) as unknown as Float32Array, f),
      TypeError,
      'inertializeTransition',
      'dstX',
    );
    bad(() => solver.inertializeTransition(a, a, c, d, e, f), RangeError, 'inertializeTransition', 'offV');
    bad(() => solver.inertializeUpdate(a, b, c, d, e, f, -1, 0.1), RangeError, 'inertializeUpdate', 'halflife');
    bad(() => solver.inertializeUpdate(a, b, c, d, e, f, new Float32Array(2), 0.1), RangeError, 'inertializeUpdate', 'halflife');
    bad(() => solver.inertializeUpdate(a, b, c, d, e, f, 0.1, Infinity), RangeError, 'inertializeUpdate', 'dt');
    bad(() => solver.inertializeUpdate(a, b, a, d, e, f, 0.1, 0.1), RangeError, 'inertializeUpdate', 'offX');
    bad(() => solver.inertializeUpdate(a, b, c, d, e.subarray(1), f, 0.1, 0.1), RangeError, 'inertializeUpdate', 'inX');
  });

  it('a disposed solver throws a TypeError and writes nothing', async () => {
    const disposed = await makeSolver(backend);
    disposed.dispose();
    const all = [0, 1, 2, 3, 4, 5].map(() => new Float32Array(3).fill(1));
    const [a, b, c, d, e, f] = all;
    expectRejected(() => disposed.inertializeTransition(a, b, c, d, e, f), TypeError, 'inertializeTransition', 'disposed', all);
    expectRejected(() => disposed.inertializeUpdate(a, b, c, d, e, f, 0.1, 0.1), TypeError, 'inertializeUpdate', 'disposed', all);
  });
});
