/**
 * Parity of the quaternion kernels (Solver.quat*) on every backend with the float64 reference
 * (src/reference/quat-spring.ts, quat-batch.ts), on the same float32 inputs, plus their
 * properties: unit outputs, no NaN, shortest arc, decays below 1e-6 rad, continuity across a
 * transition, and the argument checks. No Node APIs: runs in Node and in Chromium.
 *
 * Tolerances. A float32 value carries 2^-24 ≈ 6e-8 relative rounding. A rotation product or
 * rotate in float32 has per-component errors ≤ 7 roundings of unit-size terms (4e-7), i.e. an
 * angle error ≤ 1e-6; the log map's float32 atan2 is within 2.5e-7 of the angle; the SIMD spring
 * does its scalar algebra in float64. So rotations agree to ~1e-6 rad: the 2e-5 rad of the
 * specification leaves a factor 20. Angular velocities (w' = eydt·(w·(1 − y·dt) − j0·y·(y·dt)))
 * agree to 1e-5 of the magnitude of their terms, plus the effect of the log j0's absolute error
 * in float32 (the relative rotation q ⊗ g⁻¹ is rounded to 4e-7 per component, which moves its
 * log by at most 2·4e-7 < 1e-6 rad): eydt·y·(y·dt)·1e-6; and results below float32's smallest
 * normal number (2^-126) may flush to 0.
 */
import { describe, expect, it } from 'vitest';
import { useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';
import type { Backend, Param, Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { copyFor, release, expectFinite, expectRejected, BACKENDS, ARRAY_KINDS, type ArrayKind } from '../helpers/family-harness.js';
import { mulberry32, uniform, logUniform, type Rng } from '../helpers/random.js';

const { quat } = reference;
type Vec3 = [number, number, number];

const solvers = useSolvers(undefined, LARGE_DT_ON_PURPOSE);

/** Bones per call: ≥ 10,000 cases, not a multiple of 4 (a scalar tail), more than one copy chunk (16384 floats). */
const N = 10_243;
const ROTATION_TOLERANCE = 2e-5; // rad, the specification (see the header for the actual ~1e-6)
const UNIT_TOLERANCE = 1e-5; // | |q| − 1 |: exp and one product in float32 give ≤ 5e-7
const LOG_ERROR = 1e-6; // rad: absolute error of the float32 log j0 (header)
const RELATIVE = 1e-5;
const FLOAT32_MIN_NORMAL = 2 ** -126;
const DTS = [0, 1e-5, 1 / 60, 0.25, 1, 2];

// ---------------------------------------------------------------------------------------------
// Inputs

function randomAxis(rng: Rng): Vec3 {
  for (;;) {
    const v: Vec3 = [uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)];
    const n = Math.hypot(...v);
    if (n > 0.1 && n <= 1) return [v[0] / n, v[1] / n, v[2] / n];
  }
}

/** A uniformly random unit quaternion, either sign of w. */
function randomQuat(rng: Rng): number[] {
  for (;;) {
    const q = [0, 0, 0, 0].map(() => uniform(rng, -1, 1));
    const n = Math.hypot(...q);
    if (n > 0.1 && n <= 1) return q.map((c) => c / n);
  }
}

const scaled = (v: Vec3, s: number): Vec3 => [v[0] * s, v[1] * s, v[2] * s];

interface Cases {
  q: Float32Array;
  w: Float32Array;
  g: Float32Array;
  h: Float32Array;
}

/**
 * Bone i: q random (w < 0 for about half); the goal g differs from q by a random rotation, by 0°
 * (g = q or −q), by π − δ with δ in [4e-6, 1e-4] (within 1e-4 rad of 180°; from 4e-6 up the
 * relative rotation's w ≥ 2e-6 is far above its float32 rounding, 2.4e-7, so both sides agree on
 * the short way) or by a tiny angle; the angular velocity is 0, moderate (≤ 10 rad/s), huge
 * (500 … 1000 rad/s) or tiny; the halflife is in [1e-3, 10] s, or 0 for one bone in 32.
 */
function makeCases(seed: number, n = N): Cases {
  const rng = mulberry32(seed);
  const c: Cases = { q: new Float32Array(4 * n), w: new Float32Array(3 * n), g: new Float32Array(4 * n), h: new Float32Array(n) };
  for (let i = 0; i < n; i++) {
    const q = randomQuat(rng);
    let g: number[];
    switch (i % 8) {
      case 3:
        g = q;
        break;
      case 4:
        g = q.map((x) => -x);
        break;
      case 5:
      case 6: {
        const d = quat.fromScaledAngleAxis(scaled(randomAxis(rng), Math.PI - logUniform(rng, 4e-6, 1e-4)));
        const sign = rng() < 0.5 ? 1 : -1;
        g = quat.mul(q, d).map((x) => sign * x);
        break;
      }
      case 7:
        g = quat.mul(q, quat.fromScaledAngleAxis(scaled(randomAxis(rng), logUniform(rng, 1e-9, 1e-3))));
        break;
      default:
        g = randomQuat(rng);
    }
    c.q.set(q, 4 * i);
    c.g.set(g, 4 * i);
    const kind = (i >> 3) % 4;
    const speed = kind === 0 ? 0 : kind === 1 ? uniform(rng, 0, 10) : kind === 2 ? uniform(rng, 500, 1000) : 1e-3;
    c.w.set(scaled(randomAxis(rng), speed), 3 * i);
    c.h[i] = i % 32 === 31 ? 0 : logUniform(rng, 1e-3, 10);
  }
  return c;
}

// ---------------------------------------------------------------------------------------------
// Checks

/** Largest angle (rad) between the rotations of actual and expected (q and −q equal), and the bone. */
function worstAngle(actual: ArrayLike<number>, expected: ArrayLike<number>): [number, number] {
  let worst = 0;
  let at = -1;
  for (let i = 0; i < expected.length / 4; i++) {
    const a = quat.angle(quat.mul(quat.load4(actual, i), quat.inv(quat.load4(expected, i))));
    if (!(a <= worst)) {
      worst = a;
      at = i;
    }
  }
  return [worst, at];
}

function expectRotations(label: string, actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance = ROTATION_TOLERANCE): void {
  const [worst, at] = worstAngle(actual, expected);
  expect(worst, `${label}: worst angle at bone ${at}`).toBeLessThanOrEqual(tolerance);
}

function expectUnit(label: string, q: Float32Array): void {
  let worst = 0;
  for (let i = 0; i < q.length / 4; i++) worst = Math.max(worst, Math.abs(quat.length(quat.load4(q, i)) - 1));
  expect(worst, `${label}: | |q| − 1 |`).toBeLessThanOrEqual(UNIT_TOLERANCE);
}

/** |actual − expected| ≤ tolerance[i] (per bone, on the vector difference). */
function expectVectors(label: string, actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: (i: number) => number): void {
  let detail = 'ok';
  for (let i = 0; i < expected.length / 3; i++) {
    const error = Math.hypot(
      actual[3 * i] - expected[3 * i],
      actual[3 * i + 1] - expected[3 * i + 1],
      actual[3 * i + 2] - expected[3 * i + 2],
    );
    const allowed = tolerance(i) + FLOAT32_MIN_NORMAL;
    if (!(error <= allowed)) {
      detail = `bone ${i}: got ${Array.from(quat.load3(actual, i))}, expected ${Array.from(quat.load3(expected, i))} ± ${allowed}`;
      break;
    }
  }
  expect(detail, label).toBe('ok');
}

const norm3 = (a: ArrayLike<number>, i: number) => Math.hypot(a[3 * i], a[3 * i + 1], a[3 * i + 2]);
const halflifeAt = (h: Param, i: number) => (typeof h === 'number' ? h : h[i]);

/**
 * Allowed angular velocity error of the spring step for bone i: 1e-5 of |w|·|1 − y·dt| + |j0|·y·(y·dt)
 * (the terms, times eydt) plus the float32 log's absolute error times ∂w'/∂j0 = eydt·y·(y·dt).
 */
function springVelocityTolerance(w: Float32Array, j0: Float64Array, h: Param, dt: number): (i: number) => number {
  return (i) => {
    const hi = halflifeAt(h, i);
    if (hi === 0) return 0; // exactly 0 on both sides
    const y = (2 * Math.LN2) / hi;
    const x = y * dt;
    const e = Math.exp(-x);
    return RELATIVE * e * (norm3(w, i) * Math.abs(1 - x) + norm3(j0, i) * y * x) + e * y * x * LOG_ERROR;
  };
}

/** The float64 log of abs(q ⊗ g⁻¹) per bone (g = null: the log of abs(q)). */
function logs(q: ArrayLike<number>, g: ArrayLike<number> | null): Float64Array {
  const out = new Float64Array((q.length / 4) * 3);
  for (let i = 0; i < q.length / 4; i++) {
    const r = g ? quat.mul(quat.load4(q, i), quat.inv(quat.load4(g, i))) : quat.load4(q, i);
    quat.store3(out, i, quat.toScaledAngleAxis(r));
  }
  return out;
}

const f64 = (a: Float32Array) => Float64Array.from(a);

/** Runs `call` on the solver with arrays copied as `kind`; returns the arrays' contents afterwards. */
function onSolver(solver: Solver, kind: ArrayKind, arrays: Float32Array[], call: (arrays: Float32Array[]) => void): Float32Array[] {
  const copies = arrays.map((a) => copyFor(solver, kind, a));
  call(copies);
  const result = copies.map((a) => a.slice());
  release(solver, kind, copies);
  return result;
}

// ---------------------------------------------------------------------------------------------

describe.each(BACKENDS)('%s backend', (backend: Backend) => {
  describe.each(ARRAY_KINDS)('%s arrays', (kind: ArrayKind) => {
    const halflives = (c: Cases): [string, Param][] => [
      ['per-bone halflife', c.h],
      ['halflife 0.05', Math.fround(0.05)],
    ];

    it('quatSimpleSpringDamper matches the reference (≥ 10,000 cases per dt, dt 0 … 2 s)', () => {
      const c = makeCases(11);
      const j0 = logs(c.q, c.g);
      for (const [label, h] of halflives(c)) {
        for (const dt of DTS) {
          const qr = f64(c.q);
          const wr = f64(c.w);
          reference.quatSimpleSpringDamper(qr, wr, c.g, h, dt);
          const [q, w] = onSolver(solvers[backend], kind, [c.q, c.w], ([q, w]) =>
            solvers[backend].quatSimpleSpringDamper(q, w, c.g, h, dt),
          );
          const name = `${label}, dt ${dt}`;
          expectFinite(name, q, w);
          expectRotations(name, q, qr);
          expectVectors(`${name}: w`, w, wr, springVelocityTolerance(c.w, j0, h, dt));
          if (dt === 0)
            expect(Array.from(q), name).toEqual(Array.from(c.q)); // untouched
          else expectUnit(name, q);
        }
      }
    });

    it('quatDecaySpringDamper matches the reference, on the shortest arc', () => {
      const c = makeCases(12);
      const j0 = logs(c.q, null);
      for (const [label, h] of halflives(c)) {
        for (const dt of DTS) {
          const qr = f64(c.q);
          const wr = f64(c.w);
          reference.quatDecaySpringDamper(qr, wr, h, dt);
          const [q, w] = onSolver(solvers[backend], kind, [c.q, c.w], ([q, w]) => solvers[backend].quatDecaySpringDamper(q, w, h, dt));
          const name = `${label}, dt ${dt}`;
          expectFinite(name, q, w);
          expectRotations(name, q, qr);
          expectVectors(`${name}: w`, w, wr, springVelocityTolerance(c.w, j0, h, dt));
          if (dt > 0) expectUnit(name, q);
        }
      }
    });

    it('quatDamper matches the reference', () => {
      const c = makeCases(13);
      for (const [label, h] of halflives(c)) {
        for (const dt of DTS) {
          const qr = f64(c.q);
          reference.quatDamper(qr, c.g, h, dt);
          const [q] = onSolver(solvers[backend], kind, [c.q], ([q]) => solvers[backend].quatDamper(q, c.g, h, dt));
          expectFinite(`${label}, dt ${dt}`, q);
          expectRotations(`${label}, dt ${dt}`, q, qr);
          if (dt > 0) expectUnit(`${label}, dt ${dt}`, q);
        }
      }
    });

    it('quatInertializeTransition and quatInertializeUpdate match the reference', () => {
      const a = makeCases(14);
      const b = makeCases(15);
      // offsets: a's rotations and velocities; source: b's; destination: a's goals with b's velocities reversed
      const dstW = b.w.map((x) => -x);
      const offQr = f64(a.q);
      const offWr = f64(a.w);
      reference.quatInertializeTransition(offQr, offWr, b.q, b.w, a.g, dstW);
      const [offQ, offW] = onSolver(solvers[backend], kind, [a.q, a.w], ([q, w]) =>
        solvers[backend].quatInertializeTransition(q, w, b.q, b.w, a.g, dstW),
      );
      expectFinite('transition', offQ, offW);
      expectRotations('transition', offQ, offQr);
      expectUnit('transition', offQ);
      // off_w' = off_w + rotate(off_q, src_w) − rotate(off_q', dst_w): three terms, each rounded
      expectVectors('transition: w', offW, offWr, (i) => RELATIVE * (norm3(a.w, i) + norm3(b.w, i) + norm3(dstW, i)));
      // the update, from the same (reference) offsets on both sides
      const off32q = Float32Array.from(offQr);
      const off32w = Float32Array.from(offWr);
      const j0 = logs(off32q, null);
      for (const dt of DTS) {
        const oq = f64(off32q);
        const ow = f64(off32w);
        const outQr = new Float64Array(4 * N);
        const outWr = new Float64Array(3 * N);
        reference.quatInertializeUpdate(outQr, outWr, oq, ow, b.g, b.w, b.h, dt);
        const [outQ, outW, uq, uw] = onSolver(
          solvers[backend],
          kind,
          [new Float32Array(4 * N), new Float32Array(3 * N), off32q, off32w],
          ([outQ, outW, q, w]) => solvers[backend].quatInertializeUpdate(outQ, outW, q, w, b.g, b.w, b.h, dt),
        );
        const name = `update dt ${dt}`;
        expectFinite(name, outQ, outW, uq, uw);
        expectRotations(`${name}: offset`, uq, oq);
        expectRotations(`${name}: output`, outQ, outQr);
        expectUnit(name, outQ);
        const decayTolerance = springVelocityTolerance(off32w, j0, b.h, dt);
        expectVectors(`${name}: offset w`, uw, ow, decayTolerance);
        // out_w = off_w + rotate(off_q, in_w): the offset's error, plus the rotation's (≤ 1e-5 of |in_w|)
        expectVectors(`${name}: output w`, outW, outWr, (i) => decayTolerance(i) + RELATIVE * (norm3(b.w, i) + norm3(ow, i)));
      }
    });

    it('the quaternion helpers match the reference', () => {
      const c = makeCases(16);
      const s = solvers[backend];
      const t = Float32Array.from({ length: N }, (_, i) => (i % 5) / 4); // 0, ¼, ½, ¾, 1
      const v = Float32Array.from({ length: 3 * N }, (_, k) => c.w[k] / 100); // scaled angle axes up to 10 rad
      const check4 = (
        name: string,
        run: (s: Solver, out: Float32Array) => void,
        expected: (out: Float64Array) => void,
        tolerance: number,
      ) => {
        const out = new Float64Array(4 * N);
        expected(out);
        const [actual] = onSolver(s, kind, [new Float32Array(4 * N)], ([o]) => run(s, o));
        expectFinite(name, actual);
        expectRotations(name, actual, out, tolerance);
        return { actual, expected: out };
      };
      // Tolerances: one product, rotate or exp in float32: ≤ 7 roundings per unit-size component,
      // 4e-7 each, so 1e-6 rad; slerp adds the log and a second product: 2e-6 rad.
      check4(
        'quatMul',
        (s, o) => s.quatMul(o, c.q, c.g),
        (o) => reference.quatMul(o, c.q, c.g),
        1e-6,
      );
      check4(
        'quatSlerp',
        (s, o) => s.quatSlerp(o, c.q, c.g, t),
        (o) => reference.quatSlerp(o, c.q, c.g, t),
        2e-6,
      );
      check4(
        'quatSlerp uniform',
        (s, o) => s.quatSlerp(o, c.q, c.g, 0.3),
        (o) => reference.quatSlerp(o, c.q, c.g, Math.fround(0.3)),
        2e-6,
      );
      const exp = check4(
        'quatFromScaledAngleAxis',
        (s, o) => s.quatFromScaledAngleAxis(o, v),
        (o) => reference.quatFromScaledAngleAxis(o, v),
        1e-6,
      );
      if (backend !== 'js') for (let i = 0; i < N; i++) expect(exp.actual[4 * i + 3]).toBeGreaterThanOrEqual(0); // w ≥ 0 (documented)
      const unnormalized = c.q.map((x, k) => x * (1 + ((k >> 2) % 7))); // lengths 1 … 7
      const norm = check4(
        'quatNormalize',
        (s, o) => s.quatNormalize(o, unnormalized),
        (o) => reference.quatNormalize(o, unnormalized),
        1e-6,
      );
      expectUnit('quatNormalize', norm.actual);
      // quatInv and quatAbs only move signs: exact on every backend
      for (const [name, run, ref] of [
        ['quatInv', (s: Solver, o: Float32Array) => s.quatInv(o, c.q), reference.quatInv],
        ['quatAbs', (s: Solver, o: Float32Array) => s.quatAbs(o, c.q), reference.quatAbs],
      ] as const) {
        const expected = new Float32Array(4 * N);
        ref(expected, c.q);
        const [actual] = onSolver(s, kind, [new Float32Array(4 * N)], ([o]) => run(s, o));
        expect(Array.from(actual), name).toEqual(Array.from(expected));
      }
      // quatRotate: 1e-6 of |v| (the rotate's rounding); quatToScaledAngleAxis: 1e-6 absolute
      // (the log: 2.5e-7 relative of an angle ≤ π, plus the input's rounding)
      const rotated = new Float64Array(3 * N);
      reference.quatRotate(rotated, c.q, c.w);
      const [rot] = onSolver(s, kind, [new Float32Array(3 * N)], ([o]) => s.quatRotate(o, c.q, c.w));
      expectVectors('quatRotate', rot, rotated, (i) => 1e-6 * norm3(c.w, i));
      const logged = new Float64Array(3 * N);
      reference.quatToScaledAngleAxis(logged, c.q);
      const [log] = onSolver(s, kind, [new Float32Array(3 * N)], ([o]) => s.quatToScaledAngleAxis(o, c.q));
      expectVectors('quatToScaledAngleAxis', log, logged, () => 1e-6);
      // an input may be the output: in place gives the same as out of place
      const inPlace = onSolver(s, kind, [c.q], ([q]) => s.quatMul(q, q, c.g))[0];
      const apart = onSolver(s, kind, [new Float32Array(4 * N)], ([o]) => s.quatMul(o, c.q, c.g))[0];
      expect(Array.from(inPlace)).toEqual(Array.from(apart));
    });
  });

  it('keeps relative precision near the identity: decays reach below 1e-6 rad (and on to 0)', () => {
    const s = solvers[backend];
    const n = 64;
    const rng = mulberry32(21);
    const q = s.alloc(4 * n);
    const w = s.alloc(3 * n);
    for (let i = 0; i < n; i++) {
      // 0.1 … 3 rad, half of them given with w < 0 (the same rotation)
      const r = quat.fromScaledAngleAxis(scaled(randomAxis(rng), uniform(rng, 0.1, 3)));
      q.set(i % 2 ? r.map((x) => -x) : r, 4 * i);
      w.set(scaled(randomAxis(rng), uniform(rng, 0, 5)), 3 * i);
    }
    const start = Array.from({ length: n }, (_, i) => quat.angle(quat.load4(q, i)));
    let worst = Infinity;
    for (let step = 1; step <= 180; step++) {
      s.quatDecaySpringDamper(q, w, 0.1, 1 / 60);
      worst = 0;
      for (let i = 0; i < n; i++) worst = Math.max(worst, quat.angle(quat.load4(q, i)));
      // shortest arc: one step moves the angle up by at most |w|·dt ≤ 5/60 < 0.1 rad (the long
      // way round from a w < 0 representative would start near 2π − angle instead)
      if (step === 1) for (let i = 0; i < n; i++) expect(quat.angle(quat.load4(q, i))).toBeLessThan(start[i] + 0.1);
    }
    // after 3 s = 30 halflives the exact decay is below 1e-15 of the start; the acos form of the log
    // would stall near 3e-4 rad (w rounds to 1 in float32 below that angle)
    expect(worst).toBeLessThan(1e-6);
    for (let step = 0; step < 300; step++) s.quatDecaySpringDamper(q, w, 0.1, 1 / 60);
    for (let i = 0; i < n; i++) {
      expect(quat.angle(quat.load4(q, i))).toBeLessThan(1e-12); // keeps going: no floor
      expect(norm3(w, i)).toBeLessThan(1e-10);
    }
    s.free(q);
    s.free(w);
  });

  /** `count` copies of a quaternion: four go through the SIMD lanes, the fifth through the scalar tail. */
  const copies = (q: number[], count = 5) => Float32Array.from({ length: 4 * count }, (_, k) => q[k % 4]);

  it('takes the shortest arc for w < 0: a 300° rotation decays as −60°', () => {
    const s = solvers[backend];
    const axis: Vec3 = [0, 0.6, 0.8];
    const big = (300 * Math.PI) / 180;
    const q = copies([...scaled(axis, Math.sin(big / 2)), Math.cos(big / 2)]);
    expect(q[3]).toBeLessThan(0);
    const w = new Float32Array(15);
    s.quatDecaySpringDamper(q, w, 0.5, 0.5); // one halflife from rest
    // critical decay from rest: angle·(1 + y·dt)·e^(−y·dt) with y·dt = 2·ln2 (y = 2 ln2 / halflife)
    const expectedAngle = (Math.PI / 3) * Math.exp(-2 * Math.LN2) * (1 + 2 * Math.LN2);
    for (let i = 0; i < 5; i++) {
      const v = quat.toScaledAngleAxis(quat.load4(q, i));
      // the angle, to the float32 rounding of the spring (1e-6 rad), about −axis: the short way
      expect(Math.abs(quat.angle(quat.load4(q, i)) - expectedAngle)).toBeLessThan(1e-6);
      expect(v[0] * axis[0] + v[1] * axis[1] + v[2] * axis[2]).toBeLessThan(0);
      // moving toward the identity: the angular velocity points along +axis
      expect(w[3 * i] * axis[0] + w[3 * i + 1] * axis[1] + w[3 * i + 2] * axis[2]).toBeGreaterThan(0);
    }
  });

  it('handles exactly 180° (w = 0) without NaN, as the reference does', () => {
    const s = solvers[backend];
    // 180° about x and about a diagonal, exactly representable; goal identity
    for (const axis of [
      [1, 0, 0],
      [0.6, 0, 0.8],
    ]) {
      const q = copies([...axis, 0]);
      const g = copies([0, 0, 0, 1]);
      const w = new Float32Array(15);
      const qr = f64(q);
      const wr = f64(w);
      s.quatSimpleSpringDamper(q, w, g, 0.2, 0.1);
      reference.quatSimpleSpringDamper(qr, wr, g, Math.fround(0.2), 0.1);
      expectFinite('180°', q, w);
      expectRotations('180°', q, qr);
      expectVectors('180°: w', w, wr, (i) => 1e-5 * norm3(wr, i)); // the spring's float32 rounding
    }
  });

  /**
   * The fuzz's counterexamples (test/fuzz/solver.test.ts), reduced to one bone, in five copies
   * (four SIMD lanes and the scalar tail). With tiny quaternions, |xyz|² or a product of two of
   * them underflowed in float32: NaN or ∞ on SIMD where the reference is finite.
   */
  describe('tiny and non-unit quaternions (fuzz counterexamples): finite, and as the reference', () => {
    const copies3 = (v: number[], count = 5) => Float32Array.from({ length: 3 * count }, (_, k) => v[k % 3]);
    /** Per component: the rotation tolerance times |q| (an angle error ε moves a component by ≤ ε·|q|), above subnormal rounding. */
    const expectQuats = (label: string, actual: Float32Array, expected: ArrayLike<number>) => {
      expectFinite(label, actual);
      for (let i = 0; i < actual.length; i++) {
        const size = quat.length(quat.load4(expected, i >> 2));
        expect(Math.abs(actual[i] - expected[i]), `${label}[${i}]: ${actual[i]}, the reference ${expected[i]}`).toBeLessThanOrEqual(
          ROTATION_TOLERANCE * size + 8 * 2 ** -149,
        );
      }
    };
    /** Angular velocities: 1e-5 of the size of the vectors involved (the float32 rounding of their terms). */
    const expectW = (label: string, actual: Float32Array, expected: ArrayLike<number>, ...inputs: Float32Array[]) => {
      expectFinite(label, actual);
      expectVectors(label, actual, expected, (i) => RELATIVE * (norm3(expected, i) + inputs.reduce((sum, a) => sum + norm3(a, i), 0)));
    };

    it('quatNormalize of [0, −2.6e-23, 0, 0] and [1e-30, 2e-30, 3e-30, 4e-30]', () => {
      const s = solvers[backend];
      for (const q of [copies([0, -2.64e-23, 0, 0]), copies([1e-30, 2e-30, 3e-30, 4e-30])]) {
        const out = new Float32Array(q.length);
        const want = new Float64Array(q.length);
        s.quatNormalize(out, q);
        reference.quatNormalize(want, q);
        expectQuats('quatNormalize', out, want);
      }
    });

    it('quatSimpleSpringDamper from [0, 0, 3.5e-28, 0] toward [0, −100, 0, 0]', () => {
      const s = solvers[backend];
      const q = copies([0, 0, 3.5e-28, 0]);
      const w = new Float32Array(15);
      const g = copies([0, -100, 0, 0]);
      const [qr, wr] = [f64(q), f64(w)];
      s.quatSimpleSpringDamper(q, w, g, 1, 0.1);
      reference.quatSimpleSpringDamper(qr, wr, g, 1, 0.1);
      expectQuats('q', q, qr);
      expectW('w', w, wr);
    });

    it('quatDamper from [0, 1.7e-23, 0, 0] toward a non-unit goal', () => {
      const s = solvers[backend];
      const q = copies([0, 1.71621959521678e-23, 0, 0]);
      const g = copies([-5.2516244686273694e-9, -1.2699244568733418e-24, 0, 0.43230685591697693]);
      const qr = f64(q);
      const h = Math.fround(0.00044793926645070314);
      s.quatDamper(q, g, h, 1e-300);
      reference.quatDamper(qr, g, h, 1e-300);
      expectQuats('q', q, qr);
    });

    it('quatInertializeTransition with a tiny offset, and with an offset ⊗ source below float32 that the destination brings back', () => {
      const s = solvers[backend];
      const cases = [
        [
          [-1.397306546185341e-14, 6.792017469281486e-12, 0, 8.216365413558913e-13],
          [7.649924782526796e-8, 0, 2.6111775590245865e-23],
          [0, -2.7674283330662183e-25, 0, 0.00001146215890912572],
          [0, -7.409204959869385, 2.557769621103212e-11],
          [1.0045614513842782e-11, 0, 0, -5.138424558649884e-21],
          [0, 0.00005135025639901869, -1.826960467023574e-16],
        ],
        [
          [0, 1.352356871594864e-24, 0, 0],
          [5.580544947535311e-27, 0, 0],
          [-1.361245460452055e-24, 0, 5.02989325201442e-23, -2.3683712211073525e-22],
          [4.4729788449549e-12, 2.7914709813011947e-15, -1.3407920721167109e-24],
          [-2.5901977841768543e-14, 0, -1.4579499959945679, -999999.4375],
          [5.0155750663805065e-9, -6.162521800365597e-14, 0],
        ],
      ];
      for (const [oq, ow, sq, sw, dq, dw] of cases) {
        const [offQ, offW, srcQ, srcW, dstQ, dstW] = [copies(oq), copies3(ow), copies(sq), copies3(sw), copies(dq), copies3(dw)];
        const [qr, wr] = [f64(offQ), f64(offW)];
        s.quatInertializeTransition(offQ, offW, srcQ, srcW, dstQ, dstW);
        reference.quatInertializeTransition(qr, wr, srcQ, srcW, dstQ, dstW);
        expectQuats('offQ', offQ, qr);
        expectW('offW', offW, wr, srcW, dstW);
      }
    });

    it('quatInertializeUpdate with a tiny offset [7.3e-25, 1.5e-23, 0, 0]', () => {
      const s = solvers[backend];
      const offQ = copies([7.322861676812765e-25, 1.4594354309199348e-23, 0, 0]);
      const offW = copies3([0, -99.99982452392578, 99.99994659423828]);
      const inQ = copies([0, 0, 999998.75, 0]);
      const inW = copies3([1.8421978623551355e-13, 9.277201145081042e-22, -5.0285387832860184e-12]);
      const [outQ, outW] = [new Float32Array(20), new Float32Array(15)];
      const [outQr, outWr, offQr, offWr] = [new Float64Array(20), new Float64Array(15), f64(offQ), f64(offW)];
      const h = Math.fround(0.02860451117157936);
      s.quatInertializeUpdate(outQ, outW, offQ, offW, inQ, inW, h, 1e-6);
      reference.quatInertializeUpdate(outQr, outWr, offQr, offWr, inQ, inW, h, 1e-6);
      expectQuats('offQ', offQ, offQr);
      expectW('offW', offW, offWr);
      expectQuats('outQ', outQ, outQr);
      expectW('outW', outW, outWr, inW);
    });
  });

  it('is continuous across a transition: the output right after equals the output right before', () => {
    const s = solvers[backend];
    const rng = mulberry32(31);
    const n = 1001;
    const c = makeCases(32, n);
    const src = makeCases(33, n);
    // moderate angular velocities here (≤ 5 rad/s): terms ≤ 15 rad/s, whose float32 rounding
    // (3 roundings of 6e-8·15) stays under 3e-6 < 1e-5 absolute
    const clamp = (w: Float32Array) => w.map((x) => Math.max(-5, Math.min(5, x)));
    const offQ = s.alloc(4 * n);
    const offW = s.alloc(3 * n);
    offQ.set(c.q);
    offW.set(clamp(c.w));
    const srcW = clamp(src.w);
    const dstW = srcW.map((x) => x * uniform(rng, -1, 1));
    const before = [new Float32Array(4 * n), new Float32Array(3 * n)];
    const after = [new Float32Array(4 * n), new Float32Array(3 * n)];
    s.quatInertializeUpdate(before[0], before[1], offQ, offW, src.q, srcW, 0.1, 0); // dt = 0: only composes
    s.quatInertializeTransition(offQ, offW, src.q, srcW, src.g, dstW);
    s.quatInertializeUpdate(after[0], after[1], offQ, offW, src.g, dstW, 0.1, 0);
    expectRotations('output rotation', after[0], before[0], 1e-5);
    expectVectors('output angular velocity', after[1], before[1], () => 1e-5);
    // and with huge angular velocities (1e3 rad/s), continuous to 1e-5 of their size
    offW.set(c.w);
    s.quatInertializeUpdate(before[0], before[1], offQ, offW, src.q, src.w, 0.1, 0);
    s.quatInertializeTransition(offQ, offW, src.q, src.w, c.g, c.w);
    s.quatInertializeUpdate(after[0], after[1], offQ, offW, c.g, c.w, 0.1, 0);
    expectRotations('output rotation (huge w)', after[0], before[0], 1e-5);
    expectVectors(
      'output angular velocity (huge w)',
      after[1],
      before[1],
      (i) => 1e-5 * (norm3(offW, i) + norm3(src.w, i) + norm3(c.w, i)),
    );
    s.free(offQ);
    s.free(offW);
  });
});

// ---------------------------------------------------------------------------------------------
// Argument checks: TypeError / RangeError naming the method and the argument; nothing written.

describe.each(BACKENDS)('%s backend: rejected calls', (backend: Backend) => {
  const n = 6;
  const arrays = () => {
    const c = makeCases(41, n);
    return { q: c.q, w: c.w, g: c.g };
  };

  it('wrong types and lengths', () => {
    const s = solvers[backend];
    const { q, w, g } = arrays();
    const all = [q, w, g];
    expectRejected(
      () => s.quatSimpleSpringDamper([0, 0, 0, 1] as unknown as Float32Array, w, g, 0.1, 0.1),
      TypeError,
      'quatSimpleSpringDamper',
      'q',
      all,
    );
    expectRejected(
      () => s.quatSimpleSpringDamper(q, new Float64Array(3 * n) as unknown as Float32Array, g, 0.1, 0.1),
      TypeError,
      'quatSimpleSpringDamper',
      'w',
      all,
    );
    expectRejected(() => s.quatSimpleSpringDamper(q, w.subarray(3), g, 0.1, 0.1), RangeError, 'quatSimpleSpringDamper', 'w', all);
    expectRejected(() => s.quatSimpleSpringDamper(q, w, g.subarray(4), 0.1, 0.1), RangeError, 'quatSimpleSpringDamper', 'qGoal', all);
    expectRejected(() => s.quatDecaySpringDamper(q.subarray(1), w, 0.1, 0.1), RangeError, 'quatDecaySpringDamper', 'q', all);
    expectRejected(() => s.quatDamper(q, w, 0.1, 0.1), RangeError, 'quatDamper', 'qGoal', all);
    expectRejected(() => s.quatInertializeTransition(q, w, g, w.subarray(3), g, w), RangeError, 'quatInertializeTransition', 'srcW', all);
    expectRejected(() => s.quatInertializeUpdate(g, w, q, w, g, w, 0.1, 0.1), RangeError, 'quatInertializeUpdate', 'outW', all);
    expectRejected(() => s.quatRotate(w, q, w.subarray(3)), RangeError, 'quatRotate', 'v', all);
    expectRejected(() => s.quatMul(q, g, null as unknown as Float32Array), TypeError, 'quatMul', 'b', all);
  });

  it('NaN, negative or mis-sized halflife, negative dt, negative slerp amount', () => {
    const s = solvers[backend];
    const { q, w, g } = arrays();
    const h = new Float32Array(n).fill(0.1);
    const all = [q, w, g, h];
    expectRejected(() => s.quatSimpleSpringDamper(q, w, g, NaN, 0.1), RangeError, 'quatSimpleSpringDamper', 'halflife', all);
    expectRejected(() => s.quatDecaySpringDamper(q, w, -1, 0.1), RangeError, 'quatDecaySpringDamper', 'halflife', all);
    h[3] = NaN;
    expectRejected(() => s.quatDamper(q, g, h, 0.1), RangeError, 'quatDamper', 'halflife[3]', all);
    h[3] = 0.1;
    expectRejected(
      () => s.quatInertializeUpdate(new Float32Array(4 * n), new Float32Array(3 * n), q, w, g, w.slice(), h.subarray(1), 0.1),
      RangeError,
      'quatInertializeUpdate',
      'halflife',
      all,
    );
    expectRejected(() => s.quatDecaySpringDamper(q, w, 0.1, -1 / 60), RangeError, 'quatDecaySpringDamper', 'dt', all);
    expectRejected(() => s.quatDecaySpringDamper(q, w, 0.1, '0.1' as unknown as number), TypeError, 'quatDecaySpringDamper', 'dt', all);
    expectRejected(() => s.quatSlerp(new Float32Array(4 * n), q, g, -0.5), RangeError, 'quatSlerp', 't', all);
  });

  it('a disposed solver', async () => {
    const { createSolver } = await import('../../dist/index.js');
    const s = await createSolver({ backend });
    const { q, w, g } = arrays();
    s.dispose();
    expectRejected(() => s.quatDecaySpringDamper(q, w, 0.1, 0.1), TypeError, 'quatDecaySpringDamper', 'disposed', [q, w, g]);
    expectRejected(() => s.quatMul(q, q, g), TypeError, 'quatMul', 'disposed', [q, w, g]);
  });
});
