/**
 * Issue 11, defect 2: accepted parameters so large that a float32 intermediate of the SIMD path
 * overflowed (∞, then ∞·0 = NaN) where the float64 reference is finite. Every backend, uniform and
 * per element, n = 5 (four SIMD lanes and the scalar tail), against the float64 reference on the
 * same float32 inputs: non-finite exactly where the reference rounded to float32 is, and otherwise
 * within float32 rounding of the state, the inputs and the result. Values that cannot give a bounded
 * result (quatSlerp's t = 1e30) are rejected with a RangeError that names the method and argument.
 */
import { describe, expect, it } from 'vitest';
import type { Param, Solver } from '../../dist/index.js';
import * as reference from '../../dist/reference/index.js';
import { BACKENDS, useSolvers, LARGE_DT_ON_PURPOSE } from '../helpers/backends.js';

const solvers = useSolvers(4 * 1024 * 1024, LARGE_DT_ON_PURPOSE);
const N = 5;
/** 16 roundings of u = 2^-24: the steps below round each result at most 8 times. */
const RELATIVE = 16 * 2 ** -24;

const fill = (v: number) => new Float32Array(N).fill(v);
/** A parameter as given (uniform) or per element, with lane 1 set to `v` and the others to `other`. */
const param = (mode: 'uniform' | 'per element', v: number, other: number): Param =>
  mode === 'uniform' ? v : Float32Array.from({ length: N }, (_, i) => (i === 1 || i === 4 ? v : other));
const at = (p: Param, i: number) => (typeof p === 'number' ? Math.fround(p) : p[i]);

/** got[i] against the float64 want[i]: the same infinity, or within RELATIVE·(|want| + scale[i]). */
function expectClose(name: string, got: Float32Array, want: Float64Array, scale: (i: number) => number): void {
  for (let i = 0; i < got.length; i++) {
    const w = Math.fround(want[i]);
    if (!Number.isFinite(w)) {
      expect(got[i], `${name}[${i}]`).toBe(w);
      continue;
    }
    expect(Number.isFinite(got[i]), `${name}[${i}] = ${got[i]}, float64 ${want[i]}`).toBe(true);
    expect(Math.abs(got[i] - want[i]), `${name}[${i}] = ${got[i]}, float64 ${want[i]}`).toBeLessThanOrEqual(
      RELATIVE * (Math.abs(want[i]) + scale(i)),
    );
  }
}

describe('pdSpring, pdSpringRigidBody: huge uaf or dampingRatio', () => {
  // [uaf, dampingRatio]: the ζ = 3.4e38 (2ζω·(targetVel − vel) is 3.5e38, past float32,
  // while its product with dt/(1 + dt·2ζω) is 0.5), uaf = 1e30 (ω² = 1e60), and both.
  const PARAMS: [number, number][] = [
    [0.5, 3.4e38],
    [1e30, 0.5],
    [1e30, 1e30],
    [3e19, 0],
  ];
  const INTEGRATORS = ['implicit', 'explicit', 'semi-implicit', 'exact', 'rigid body'] as const;
  const cases = BACKENDS.flatMap((b) =>
    INTEGRATORS.flatMap((k) => PARAMS.flatMap(([w, z]) => (['uniform', 'per element'] as const).map((m) => [b, k, w, z, m] as const))),
  );
  it.each(cases)('%s backend, %s, uaf %s, dampingRatio %s, %s', (backend, integrator, w, z, mode) => {
    const solver = solvers[backend];
    const uaf = param(mode, w, 2);
    const zeta = param(mode, z, 0.7);
    const [pos, vel, targetPos, targetVel] = [fill(-0.106), fill(-0.525), fill(0.402), fill(0.501)];
    const dt = 1 / 60;
    const want = [Float64Array.from(pos), Float64Array.from(vel)];
    for (let i = 0; i < N; i++) {
      const [p, v] = [new Float64Array([pos[i]]), new Float64Array([vel[i]])];
      const rest = [new Float64Array([targetPos[i]]), new Float64Array([targetVel[i]])] as const;
      if (integrator === 'rigid body') reference.pdSpringRigidBody(p, v, ...rest, at(uaf, i), at(zeta, i), dt);
      else reference.pdSpring(p, v, ...rest, at(uaf, i), at(zeta, i), dt, { integrator });
      [want[0][i], want[1][i]] = [p[0], v[0]];
    }
    const before = { pos: Float32Array.from(pos), vel: Float32Array.from(vel) };
    if (integrator === 'rigid body') solver.pdSpringRigidBody(pos, vel, targetPos, targetVel, uaf, zeta, dt);
    else solver.pdSpring(pos, vel, targetPos, targetVel, uaf, zeta, dt, { integrator });
    // The state and inputs: |pos|, |targetPos|, |vel|, |targetVel| (times dt for positions).
    const scale = (i: number) => Math.abs(before.pos[i]) + Math.abs(targetPos[i]) + Math.abs(before.vel[i]) + Math.abs(targetVel[i]);
    expectClose('pos', pos, want[0], scale);
    expectClose('vel', vel, want[1], scale);
  });
});

describe('timedSpringDamper, velocitySpringDamper: dt or t_goal_future beyond float32', () => {
  // [goal parameter (tGoal or speed), halflife, dt, apprehension]: the dt = 1e39 (v_goal·dt
  // was 0·∞), and apprehension·halflife = 3e39 with speed 0 or 1e-30 (x_diff·t_goal_future).
  const PARAMS: [number, number, number, number][] = [
    [0.5, 0.2, 1e39, 2],
    [0, 0.2, 1e39, 2],
    [0, 10, 1, 3e38],
    [1e-30, 10, 1, 3e38],
  ];
  const METHODS = ['timedSpringDamper', 'velocitySpringDamper'] as const;
  const cases = BACKENDS.flatMap((b) =>
    METHODS.flatMap((f) => PARAMS.flatMap((p) => (['uniform', 'per element'] as const).map((m) => [b, f, ...p, m] as const))),
  );
  it.each(cases)('%s backend, %s(p %s, halflife %s, dt %s, apprehension %s), %s', (backend, method, p0, h0, dt, a0, mode) => {
    const solver = solvers[backend];
    const p = param(mode, p0, 0.25);
    const h = param(mode, h0, 0.3);
    const apprehension = param(mode, a0, 2);
    const [x, v, xi, g] = [fill(1), fill(0.5), fill(2), fill(3)];
    const want = [new Float64Array(N), new Float64Array(N), new Float64Array(N)];
    for (let i = 0; i < N; i++) {
      const s = [new Float64Array([x[i]]), new Float64Array([v[i]]), new Float64Array([xi[i]])] as const;
      // The float64 reference runs on Float64Arrays here, to keep its result unrounded.
      const step = method === 'timedSpringDamper' ? reference.timedSpringDamper : reference.velocitySpringDamper;
      step(
        ...(s as unknown as [Float32Array, Float32Array, Float32Array]),
        new Float64Array([g[i]]) as unknown as Float32Array,
        at(p, i),
        at(h, i),
        dt,
        at(apprehension, i),
      );
      for (let k = 0; k < 3; k++) want[k][i] = s[k][0];
    }
    solver[method](x, v, xi, g, p, h, dt, apprehension);
    const scale = () => 1 + 0.5 + 2 + 3; // |x| + |v| + |xi| + |g| before the step
    expectClose('x', x, want[0], scale);
    expectClose('v', v, want[1], scale);
    expectClose('xi', xi, want[2], scale);
  });
});

describe('quatSlerp: t is bounded', () => {
  const a = Float32Array.from({ length: 4 * N }, (_, k) => [0, 0, 0, 1][k % 4]);
  const b = Float32Array.from({ length: 4 * N }, (_, k) => [0, Math.sin(0.5), 0, Math.cos(0.5)][k % 4]);

  it.each(
    BACKENDS.flatMap(
      (backend) =>
        [
          [backend, 1e30],
          [backend, 1001],
          [backend, new Float32Array([0.5, 2000, 1, 1, 1])],
        ] as const,
    ),
  )('%s backend: t = %s is a RangeError naming quatSlerp and t; nothing is written', (backend, t) => {
    const solver: Solver = solvers[backend];
    const out = new Float32Array(4 * N).fill(7);
    expect(() => solver.quatSlerp(out, a, b, t)).toThrow(RangeError);
    expect(() => solver.quatSlerp(out, a, b, t)).toThrow(
      typeof t === 'number' ? /^quatSlerp: t is .*; it must be ≤ 1000/ : /^quatSlerp: t\[1\] is 2000; it must be ≤ 1000/,
    );
    expect(out).toEqual(new Float32Array(4 * N).fill(7));
  });

  it.each(BACKENDS.map((backend) => [backend] as const))(
    '%s backend: t = 1000, the largest accepted, agrees to 2e-6 + 7e-7·t rad',
    (backend) => {
      // The float32 rounding of b ⊗ a⁻¹ (≤ 4e-7 rad) and of its log (≤ 2.5e-7 rad) multiplied by t
      // (measured 5.5e-7·t over 4,000 random pairs), plus the final product (≤ 2e-6 rad, as for t ≤ 1).
      const solver = solvers[backend];
      const out = new Float32Array(4 * N);
      solver.quatSlerp(out, a, b, 1000);
      const want = new Float64Array(4 * N);
      reference.quatSlerp(want, a, b, 1000);
      for (let i = 0; i < N; i++) {
        let [minus, plus] = [0, 0];
        for (let k = 0; k < 4; k++) {
          minus += (out[4 * i + k] - want[4 * i + k]) ** 2;
          plus += (out[4 * i + k] + want[4 * i + k]) ** 2;
        }
        expect(2 * Math.sqrt(Math.min(minus, plus)), `bone ${i}`).toBeLessThanOrEqual(2e-6 + 7e-7 * 1000);
      }
    },
  );
});

describe('core springs: parameters up to float32 limits (a coefficient past 3.4e38)', () => {
  // vx = −s·xv passes float32's largest number while v' stays finite (found by the fuzzing:
  // frequency 3.4e38 gave v = −∞ on SIMD where the float64 result is −6.5e10)
  type Core = 'springDamper' | 'springDamperStiffness' | 'springDamperRatio';
  const CASES: [Core, number, number][] = [
    ['springDamper', 3.4028234663852886e38, 100],
    ['springDamper', 1e20, 1e-3],
    ['springDamperStiffness', 3.4028234663852886e38, 1e-3],
    ['springDamperStiffness', 1e30, 3.4028234663852886e38],
    ['springDamperRatio', 8.4e18, 1.1754943508222875e-38],
    ['springDamperRatio', 1.1754943508222875e-38, 1e-3],
  ];
  const MODES = { springDamper: 0, springDamperStiffness: 1, springDamperRatio: 2 } as const;
  const REFERENCE = {
    springDamper: reference.springDamper,
    springDamperStiffness: reference.springDamperStiffness,
    springDamperRatio: reference.springDamperRatio,
  };
  const cases = BACKENDS.flatMap((b) => CASES.flatMap((c) => (['uniform', 'per element'] as const).map((m) => [b, ...c, m] as const)));
  it.each(cases)('%s backend, %s(%s, %s), %s', (backend, method, p0, p1, mode) => {
    const solver = solvers[backend];
    const a = param(mode, p0, 2);
    const b = param(mode, p1, 0.2);
    const x = Float32Array.from([0.3, 0, -1, 2, 0]);
    const v = Float32Array.from([0, -2, 0.5, 0, 1]);
    const g = Float32Array.from([0, 0, 1, -1, 0]);
    const q = Float32Array.from([0, 0, 0, 0.5, -2]);
    const dt = 1 / 60;
    const [xr, vr] = [Float32Array.from(x), Float32Array.from(v)];
    REFERENCE[method](xr, vr, g, q, a, b, dt);
    const [x0, v0] = [Float32Array.from(x), Float32Array.from(v)];
    solver[method](x, v, g, q, a, b, dt);
    for (let i = 0; i < N; i++) {
      // the core springs' uniform path takes numbers unrounded (docs/DECISIONS.md, Numbers must survive float32)
      const value = (p: Param) => (typeof p === 'number' ? p : p[i]);
      const m = reference.springTransition(...reference.stiffnessAndDamping(MODES[method], value(a), value(b)), dt);
      const y = x0[i] - g[i];
      const mx = Math.abs(g[i]) + Math.abs(m.xx * y) + Math.abs(m.xv * v0[i]) + Math.abs(m.xq * q[i]);
      const mv = Math.abs(m.vx * y) + Math.abs(m.vv * v0[i]) + Math.abs(m.vq * q[i]);
      for (const [name, got, want, mm] of [
        ['x', x[i], xr[i], mx],
        ['v', v[i], vr[i], mv],
      ] as const) {
        if (!Number.isFinite(want)) continue;
        expect(Number.isFinite(got), `${name}[${i}] = ${got}, reference ${want}`).toBe(true);
        expect(Math.abs(got - want), `${name}[${i}] = ${got}, reference ${want}`).toBeLessThanOrEqual(1e-6 * mm + 1e-37);
      }
    }
  });
});
