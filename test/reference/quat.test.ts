/**
 * Tests of the float64 quaternion reference (src/reference/quat.ts), the quaternion spring and
 * inertialization kernels (src/reference/quat-spring.ts) and the vector inertialization kernels
 * (src/reference/inertialize.ts). No Node APIs: runs in Node and in a browser.
 */
import { describe, expect, it } from 'vitest';
import {
  abs,
  angle,
  dot,
  fromScaledAngleAxis,
  inv,
  length,
  load3,
  load4,
  mul,
  normalize,
  rotate,
  slerp,
  toScaledAngleAxis,
  type Quat,
  type Vec3,
} from '../../src/reference/quat.js';
import {
  quatDamper,
  quatDecaySpringDamper,
  quatInertializeTransition,
  quatInertializeUpdate,
  quatSimpleSpringDamper,
} from '../../src/reference/quat-spring.js';
import { inertializeTransition, inertializeUpdate, vec3DecaySpringDamper } from '../../src/reference/inertialize.js';
import { mulberry32 } from '../helpers/random.js';

// ---------------------------------------------------------------------------------------------
// helpers

/** Seeded PRNG (mulberry32) so every run sees the same cases. */
const rng = mulberry32;

function uniform(r: () => number, lo: number, hi: number): number {
  return lo + (hi - lo) * r();
}

function randomAxis(r: () => number): Vec3 {
  for (;;) {
    const v: Vec3 = [uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1)];
    const n = Math.hypot(...v);
    if (n > 0.1 && n <= 1) return [v[0] / n, v[1] / n, v[2] / n];
  }
}

/** Uniformly random unit quaternion, either sign of w. */
function randomQuat(r: () => number): Quat {
  for (;;) {
    const q: Quat = [uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1)];
    const n = length(q);
    if (n > 0.1 && n <= 1) return normalize(q);
  }
}

function scale(v: ArrayLike<number>, s: number): Vec3 {
  return [v[0]! * s, v[1]! * s, v[2]! * s];
}

function norm3(v: ArrayLike<number>): number {
  return Math.hypot(v[0]!, v[1]!, v[2]!);
}

function dist3(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

/** Distance between two quaternions as rotations (q and -q are the same rotation). */
function quatDist(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const d = (s: number) => Math.hypot(a[0]! - s * b[0]!, a[1]! - s * b[1]!, a[2]! - s * b[2]!, a[3]! - s * b[3]!);
  return Math.min(d(1), d(-1));
}

/** Rotation matrix (row-major 3×3) of a unit quaternion, from the textbook formula. */
function matrixOf(q: ArrayLike<number>): number[] {
  const [x, y, z, w] = [q[0]!, q[1]!, q[2]!, q[3]!];
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ];
}

/** Closed form of the critically damped scalar oscillator θ'' = -y² θ - 2y θ' (stiffness y², damping 2y). */
function criticalClosedForm(theta0: number, v0: number, y: number, t: number): [theta: number, v: number] {
  // θ(t) = (c1 + c2 t) e^{-yt} with c1 = θ0, c2 = v0 + y θ0 (standard solution for a double root -y)
  const c1 = theta0;
  const c2 = v0 + y * theta0;
  const e = Math.exp(-y * t);
  return [(c1 + c2 * t) * e, (c2 - y * (c1 + c2 * t)) * e];
}

/** y from the halflife, by Holden's definition damping = 4 ln2 / halflife, y = damping / 2. */
function yOf(halflife: number): number {
  return (4 * Math.LN2) / halflife / 2;
}

// ---------------------------------------------------------------------------------------------

describe('quaternion basics', () => {
  it('mul composes rotations and rotate matches the rotation matrix', () => {
    const r = rng(1);
    for (let n = 0; n < 200; n++) {
      const a = randomQuat(r);
      const b = randomQuat(r);
      const v: Vec3 = [uniform(r, -3, 3), uniform(r, -3, 3), uniform(r, -3, 3)];
      // float64 rounding of a few dozen operations on values of size ~3: 1e-13 is ~500 ulps
      expect(dist3(rotate(mul(a, b), v), rotate(a, rotate(b, v)))).toBeLessThan(1e-13);
      const m = matrixOf(a);
      const mv = [0, 1, 2].map((i) => m[3 * i]! * v[0] + m[3 * i + 1]! * v[1] + m[3 * i + 2]! * v[2]);
      expect(dist3(rotate(a, v), mv)).toBeLessThan(1e-13); // same float64 rounding argument
      // q ⊗ q⁻¹ = identity for unit q, to float64 rounding of unit-size products (1e-15 ≈ 5 ulps)
      expect(quatDist(mul(a, inv(a)), [0, 0, 0, 1])).toBeLessThan(1e-15);
    }
  });

  it('exp/log round trip over the whole ball |v| <= π', () => {
    const r = rng(2);
    for (let n = 0; n < 1000; n++) {
      const v = scale(randomAxis(r), uniform(r, 0, Math.PI));
      // sin/cos/atan2 are accurate to ~1 ulp; values ~π: 1e-14 is ~20 ulps of π
      expect(dist3(toScaledAngleAxis(fromScaledAngleAxis(v)), v)).toBeLessThan(1e-14);
      const q = randomQuat(r);
      // exp(log(q)) = abs(q) (shortest arc representative), unit-size float64 rounding: 1e-15 ≈ 5 ulps
      expect(quatDist(fromScaledAngleAxis(toScaledAngleAxis(q)), abs(q))).toBeLessThan(1e-15);
      expect(fromScaledAngleAxis(toScaledAngleAxis(q))[3]).toBeGreaterThanOrEqual(0);
      // the result of exp is unit length to float64 rounding (≈ 2 ulps)
      expect(Math.abs(length(fromScaledAngleAxis(v)) - 1)).toBeLessThan(1e-15);
    }
  });

  it('keeps full relative precision near identity (atan2 form, series branch)', () => {
    const axis = normalize([0.3, -0.5, 0.8, 0]).slice(0, 3) as Vec3;
    for (const a of [3e-4, 2e-4 * (1 + 1e-12), 2e-4 * (1 - 1e-12), 1e-5, 1e-7, 1e-9, 1e-12, 1e-20, 1e-200, 1e-300]) {
      const q = fromScaledAngleAxis(scale(axis, a));
      // relative float64 rounding on both sides of the series threshold: 1e-15 relative ≈ 5 ulps
      expect(Math.abs(angle(q) - a)).toBeLessThanOrEqual(1e-15 * a);
      expect(dist3(toScaledAngleAxis(q), scale(axis, a))).toBeLessThanOrEqual(1e-15 * a);
      // exp(v/2) against the direct (non-series) formula, fine for a >= 1e-20 where sin(a/2)/a is not 0/0
      if (a >= 1e-20) {
        const k = Math.sin(a / 2) / a;
        expect(Math.abs(q[0] - k * a * axis[0])).toBeLessThanOrEqual(1e-15 * a);
        expect(Math.abs(q[3] - Math.cos(a / 2))).toBeLessThanOrEqual(1e-16);
      }
    }
    // the acos form would return 0 here: w rounds to exactly 1 in float64, but |xyz| still holds the angle
    const tiny: Quat = [5e-10, 0, 0, 1];
    expect(angle(tiny)).toBe(1e-9);
  });

  it('takes the shortest arc when w < 0', () => {
    const axis: Vec3 = [0, 0.6, 0.8];
    const big = (300 * Math.PI) / 180; // a 300° rotation = a -60° rotation
    const q: Quat = [...scale(axis, Math.sin(big / 2)), Math.cos(big / 2)] as Quat;
    expect(q[3]).toBeLessThan(0);
    const v = toScaledAngleAxis(q);
    // float64 rounding of sin/cos/atan2 at angles ~1: 1e-15 ≈ 5 ulps
    expect(dist3(v, scale(axis, -Math.PI / 3))).toBeLessThan(1e-15);
    expect(dist3(toScaledAngleAxis(scale4(q, -1)), v)).toBe(0); // -q is handled identically
    // slerp halfway between a and b with dot(a, b) < 0 goes the short way
    const a: Quat = [0, 0, 0, 1];
    const b = scale4(fromScaledAngleAxis(scale(axis, 1)), -1);
    const h = slerp(a, b, 0.5);
    expect(Math.abs(angle(h) - 0.5)).toBeLessThan(1e-15); // float64 rounding, angles ~1
  });

  it('is well behaved at and around 180°', () => {
    const axis: Vec3 = [0.48, -0.6, 0.64];
    // exactly π: w = 0
    const qpi: Quat = [...axis, 0] as Quat;
    expect(dist3(toScaledAngleAxis(qpi), scale(axis, Math.PI))).toBeLessThan(1e-15); // float64 rounding
    for (const e of [1e-3, 1e-7, 1e-12]) {
      const below = fromScaledAngleAxis(scale(axis, Math.PI - e));
      const above = fromScaledAngleAxis(scale(axis, Math.PI + e)); // w < 0: shortest arc is π - e the other way
      expect(above[3]).toBeLessThan(0);
      // float64 rounding at angles ~π: 1e-14 ≈ 20 ulps of π
      expect(dist3(toScaledAngleAxis(below), scale(axis, Math.PI - e))).toBeLessThan(1e-14);
      expect(dist3(toScaledAngleAxis(above), scale(axis, -(Math.PI - e)))).toBeLessThan(1e-14);
    }
    // the decay spring from nearly 180° converges without NaN, never exceeding the start angle
    const q = Float64Array.from(fromScaledAngleAxis(scale(axis, Math.PI - 1e-9)));
    const w = new Float64Array(3);
    let last = angle(q);
    for (let n = 0; n < 300; n++) {
      quatDecaySpringDamper(q, w, 0.2, 1 / 60);
      const a = angle(q);
      expect(a).toBeLessThanOrEqual(last * (1 + 1e-12)); // float64 relative rounding slack
      last = a;
    }
    expect(last).toBeLessThan(1e-6);
  });
});

function scale4(q: ArrayLike<number>, s: number): Quat {
  return [q[0]! * s, q[1]! * s, q[2]! * s, q[3]! * s];
}

describe('quatSimpleSpringDamper', () => {
  it('matches the scalar critical spring closed form for a fixed axis', () => {
    const r = rng(3);
    let cases = 0;
    while (cases < 100) {
      const axis = randomAxis(r);
      const goal = randomQuat(r);
      const halflife = uniform(r, 0.05, 1);
      const dt = uniform(r, 1 / 240, 1 / 20);
      const theta0 = uniform(r, -3, 3);
      const v0 = uniform(r, -8, 8);
      const y = yOf(halflife);
      const steps = 120;
      // keep the trajectory inside (-π, π) so the shortest arc never switches branch
      let inside = true;
      for (let s = 0; s <= steps; s++) if (Math.abs(criticalClosedForm(theta0, v0, y, s * dt)[0]) > 3.05) inside = false;
      if (!inside) continue;
      cases++;
      const q = Float64Array.from(mul(fromScaledAngleAxis(scale(axis, theta0)), goal));
      const w = Float64Array.from(scale(axis, v0));
      const g = Float64Array.from(goal);
      for (let s = 1; s <= steps; s++) {
        quatSimpleSpringDamper(q, w, g, halflife, dt);
        const [theta, v] = criticalClosedForm(theta0, v0, y, s * dt);
        const expected = mul(fromScaledAngleAxis(scale(axis, theta)), goal);
        // float64 rounding accumulated over ≤ 120 exact steps (each ~1e-15) plus exp's ~1 ulp: 1e-12 is ample
        expect(quatDist(q, expected)).toBeLessThan(1e-12);
        // velocities reach ~y·π ≈ 45 rad/s: same budget, relative to max(1, |v|)
        expect(dist3(w, scale(axis, v))).toBeLessThan(1e-12 * Math.max(1, Math.abs(v0) + y * Math.PI));
      }
    }
  });

  it('is independent of the step size (exact integration of the log-space spring)', () => {
    // The kernel is an exact critical spring on x = log(q ⊗ g⁻¹) (scaled angle axis) with velocity w,
    // so one step of 0.5 s must equal 50 steps of 0.01 s as long as |x| stays below π (no branch switch).
    const r = rng(4);
    let cases = 0;
    while (cases < 50) {
      const x0 = scale(randomAxis(r), uniform(r, 0, 2.5));
      const w0 = scale(randomAxis(r), uniform(r, 0, 10));
      const y = yOf(0.3);
      let inside = true;
      for (let s = 0; s <= 50; s++) {
        const t = s * 0.01;
        const e = Math.exp(-y * t);
        const xt = [0, 1, 2].map((k) => (x0[k]! + (w0[k]! + y * x0[k]!) * t) * e); // vector closed form
        if (norm3(xt) > 3) inside = false;
      }
      if (!inside) continue;
      cases++;
      const g = Float64Array.from(randomQuat(r));
      const q0 = mul(fromScaledAngleAxis(x0), g);
      const qa = Float64Array.from(q0),
        wa = Float64Array.from(w0);
      const qb = Float64Array.from(q0),
        wb = Float64Array.from(w0);
      quatSimpleSpringDamper(qa, wa, g, 0.3, 0.5);
      for (let s = 0; s < 50; s++) quatSimpleSpringDamper(qb, wb, g, 0.3, 0.01);
      // float64 rounding accumulated over 50 steps (each a few ulps of unit-size values): 1e-12 is ample
      expect(quatDist(qa, qb)).toBeLessThan(1e-12);
      expect(dist3(wa, wb)).toBeLessThan(1e-12 * 10); // velocities ≤ ~10 rad/s: same relative budget
    }
  });

  it('halflife 0 snaps exactly to the goal with zero velocity; dt 0 leaves the state unchanged', () => {
    const r = rng(5);
    const n = 64;
    const q = new Float32Array(4 * n);
    const w = new Float32Array(3 * n);
    const g = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) {
      q.set(scale4(randomQuat(r), i % 2 ? 1 : -1), 4 * i); // include w < 0 inputs
      w.set(scale(randomAxis(r), i % 3 === 0 ? 1e30 : uniform(r, 0, 50)), 3 * i); // including huge velocities
      g.set(randomQuat(r), 4 * i);
    }
    const q0 = q.slice();
    const w0 = w.slice();
    quatSimpleSpringDamper(q, w, g, 0.1, 0);
    expect(q).toEqual(q0);
    expect(w).toEqual(w0);
    quatSimpleSpringDamper(q, w, g, 0, 0); // dt = 0 wins over halflife = 0: no time passes
    expect(q).toEqual(q0);
    expect(w).toEqual(w0);
    quatSimpleSpringDamper(q, w, g, 0, 1 / 60);
    expect(q).toEqual(g);
    expect(Array.from(w).every((x) => x === 0)).toBe(true);
    // per-bone halflife, with 0 and an absurdly small positive value (exp underflows: same limit)
    const hl = new Float32Array(n).map((_, i) => (i % 3 === 0 ? 0 : i % 3 === 1 ? 1e-38 : 0.2));
    q.set(q0);
    w.set(w0);
    quatSimpleSpringDamper(q, w, g, hl, 1 / 60);
    for (let i = 0; i < n; i++) {
      expect(Number.isFinite(q[4 * i]!) && Number.isFinite(w[3 * i]!)).toBe(true);
      if (i % 3 !== 2) {
        expect(Array.from(load4(q, i))).toEqual(Array.from(load4(g, i)));
        expect(Array.from(load3(w, i))).toEqual([0, 0, 0]);
      }
    }
  });

  it('per-bone halflife equals calling bone by bone', () => {
    const r = rng(6);
    const n = 8;
    const q = Float64Array.from({ length: 4 * n }, () => 0);
    const w = Float64Array.from({ length: 3 * n }, () => uniform(r, -5, 5));
    const g = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      q.set(randomQuat(r), 4 * i);
      g.set(randomQuat(r), 4 * i);
    }
    const hl = Float32Array.from({ length: n }, () => uniform(r, 0.05, 0.5));
    const qAll = q.slice(),
      wAll = w.slice();
    quatSimpleSpringDamper(qAll, wAll, g, hl, 1 / 30);
    for (let i = 0; i < n; i++) {
      const qi = q.slice(4 * i, 4 * i + 4),
        wi = w.slice(3 * i, 3 * i + 3);
      quatSimpleSpringDamper(qi, wi, g.slice(4 * i, 4 * i + 4), hl[i]!, 1 / 30);
      expect(Array.from(qi)).toEqual(Array.from(qAll.slice(4 * i, 4 * i + 4))); // same arithmetic: bit exact
      expect(Array.from(wi)).toEqual(Array.from(wAll.slice(3 * i, 3 * i + 3)));
    }
  });
});

describe('quatDecaySpringDamper', () => {
  it('decays from 0.1 rad below 1e-6 rad with float32 storage and does not stall', () => {
    const axis: Vec3 = [0.6, 0, 0.8];
    const halflife = 0.1;
    const dt = 1 / 60;
    const theta0 = 0.1;
    const y = yOf(halflife);
    const q = Float32Array.from(fromScaledAngleAxis(scale(axis, theta0)));
    const w = new Float32Array(3);
    let last = angle(q);
    let reached = -1;
    for (let s = 1; s <= 300; s++) {
      quatDecaySpringDamper(q, w, halflife, dt);
      const a = angle(q);
      const [theta] = criticalClosedForm(theta0, 0, y, s * dt);
      // float32 storage rounds q and w by ≤ 2⁻²⁴ relative each step; 300 steps: ≤ 300 · 2 · 6e-8 ≈ 4e-5
      expect(Math.abs(a - theta)).toBeLessThanOrEqual(4e-5 * theta);
      expect(a).toBeLessThan(last); // strictly decreasing: no stall, no snap (a stalled acos form would stay constant)
      last = a;
      if (reached < 0 && a < 1e-6) reached = s;
    }
    // closed form: θ0 (1 + y t) e^{-y t} < 1e-6 first at y t ≈ 14.5, i.e. t ≈ 1.05 s ≈ 63 steps
    expect(reached).toBeGreaterThan(55);
    expect(reached).toBeLessThan(70);
    expect(last).toBeLessThan(1e-25); // after 5 s: θ ≈ 0.1 · 70 · e^{-69} ≈ 6e-30, still tracked
  });

  it('never increases the angle when starting at rest or moving toward identity no faster than y', () => {
    const r = rng(7);
    for (let n = 0; n < 300; n++) {
      const axis = randomAxis(r);
      const theta0 = uniform(r, 1e-6, Math.PI - 1e-6);
      const halflife = uniform(r, 0.02, 1);
      const dt = uniform(r, 1 / 240, 1 / 10);
      const y = yOf(halflife);
      // v0 = -k θ0 with k in [0, y]: θ(t) = θ0 (1 + (y - k) t) e^{-yt} has θ' = -θ0 e^{-yt}(k + y(y - k)t) ≤ 0
      const k = n % 4 === 0 ? 0 : uniform(r, 0, y);
      const q = Float64Array.from(scale4(fromScaledAngleAxis(scale(axis, theta0)), n % 2 ? -1 : 1)); // both signs
      const w = Float64Array.from(scale(axis, -k * theta0));
      let last = angle(q);
      for (let s = 0; s < 100; s++) {
        quatDecaySpringDamper(q, w, halflife, dt);
        const a = angle(q);
        expect(a).toBeLessThanOrEqual(last * (1 + 1e-13)); // float64 relative rounding slack (~500 ulps)
        last = a;
      }
    }
  });

  it('takes the shortest arc (w < 0 input decays like its positive twin)', () => {
    const axis: Vec3 = [0, 1, 0];
    const qPos = Float64Array.from(fromScaledAngleAxis(scale(axis, 2.5)));
    const qNeg = Float64Array.from(scale4(qPos, -1));
    const wPos = Float64Array.from([0.3, -1, 2]);
    const wNeg = wPos.slice();
    quatDecaySpringDamper(qPos, wPos, 0.2, 0.05);
    quatDecaySpringDamper(qNeg, wNeg, 0.2, 0.05);
    expect(Array.from(qNeg)).toEqual(Array.from(qPos)); // abs() makes both inputs identical
    expect(Array.from(wNeg)).toEqual(Array.from(wPos));
    // without abs the -q input would be treated as a 2π - 2.5 rotation and move away from identity
    expect(angle(qPos)).toBeLessThan(2.5);
  });

  it('halflife 0 gives identity and zero velocity; dt 0 leaves the state unchanged', () => {
    const q = Float32Array.from([0.5, -0.5, 0.5, -0.5, 0, 0, 0.6, 0.8]);
    const w = Float32Array.from([1e30, -3, 4, 0, 0, 7]);
    const q0 = q.slice(),
      w0 = w.slice();
    quatDecaySpringDamper(q, w, 0, 0);
    expect(q).toEqual(q0);
    expect(w).toEqual(w0);
    quatDecaySpringDamper(q, w, 0, 0.1);
    expect(Array.from(q)).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    expect(Array.from(w)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('quatDamper', () => {
  it('halves the angle to the goal after one halflife (fixed axis) and snaps at halflife 0', () => {
    const r = rng(8);
    for (let n = 0; n < 100; n++) {
      const axis = randomAxis(r);
      const g = randomQuat(r);
      const theta0 = uniform(r, -3, 3);
      const halflife = uniform(r, 0.05, 1);
      const q = Float64Array.from(scale4(mul(fromScaledAngleAxis(scale(axis, theta0)), g), n % 2 ? 1 : -1));
      for (let s = 0; s < 4; s++) quatDamper(q, g, halflife, halflife / 4);
      // angle(q ⊗ g⁻¹) = θ0 · exp(-ln2 · t / halflife) = θ0 / 2; float64 rounding over 4 steps: 1e-14
      expect(quatDist(q, mul(fromScaledAngleAxis(scale(axis, theta0 / 2)), g))).toBeLessThan(1e-14);
    }
    const q = Float32Array.from([0, 0, 0.6, -0.8]);
    const g = Float32Array.from([0.6, 0, 0, 0.8]);
    quatDamper(q, g, 0.1, 0);
    expect(Array.from(q)).toEqual(Array.from(Float32Array.from([0, 0, 0.6, -0.8])));
    quatDamper(q, g, 0, 0.1);
    expect(q).toEqual(g);
  });
});

describe('quaternion inertialization', () => {
  it('the output angular velocity is the derivative of the output rotation (parent frame)', () => {
    const r = rng(9);
    for (let n = 0; n < 200; n++) {
      const offQ = randomQuat(r),
        inQ = randomQuat(r);
      const offW = scale(randomAxis(r), uniform(r, 0, 5));
      const inW = scale(randomAxis(r), uniform(r, 0, 5));
      const outQ = new Float64Array(4),
        outW = new Float64Array(3);
      quatInertializeUpdate(outQ, outW, Float64Array.from(offQ), Float64Array.from(offW), inQ, inW, 0.1, 0);
      // advance the offset's rotation vector by its rate (offW: r(t) = log(offQ) + t·offW) and the
      // input by its angular velocity (dq/dt = ½ ω ⊗ q) for ±ε, take a central difference
      const eps = 1e-5;
      const r0 = toScaledAngleAxis(offQ);
      const offsetAt = (t: number) => fromScaledAngleAxis([r0[0] + t * offW[0]!, r0[1] + t * offW[1]!, r0[2] + t * offW[2]!]);
      const at = (t: number) => mul(offsetAt(t), mul(fromScaledAngleAxis(scale(inW, t)), inQ));
      const fd = scale(toScaledAngleAxis(mul(at(eps), inv(at(-eps)))), 1 / (2 * eps));
      // central difference truncation O(ε² |ω|³) ≈ 1e-10 · 1000 = 1e-7, rounding ≈ 1e-16 / 1e-5 = 1e-11
      expect(dist3(fd, outW)).toBeLessThan(1e-6);
    }
  });

  it('transition keeps output rotation and angular velocity continuous (1000 random cases)', () => {
    const r = rng(10);
    const n = 1000;
    const offQ = new Float64Array(4 * n),
      offW = new Float64Array(3 * n);
    const srcQ = new Float64Array(4 * n),
      srcW = new Float64Array(3 * n);
    const dstQ = new Float64Array(4 * n),
      dstW = new Float64Array(3 * n);
    let maxW = 0;
    for (let i = 0; i < n; i++) {
      // random signs (w < 0 included) and angular velocities from 0 to 1e5 rad/s
      const mag = () => (r() < 0.3 ? 10 ** uniform(r, 2, 5) : uniform(r, 0, 10));
      offQ.set(randomQuat(r), 4 * i);
      srcQ.set(randomQuat(r), 4 * i);
      dstQ.set(randomQuat(r), 4 * i);
      offW.set(scale(randomAxis(r), mag()), 3 * i);
      srcW.set(scale(randomAxis(r), mag()), 3 * i);
      dstW.set(scale(randomAxis(r), mag()), 3 * i);
    }
    const beforeQ = new Float64Array(4 * n),
      beforeW = new Float64Array(3 * n);
    quatInertializeUpdate(beforeQ, beforeW, offQ, offW, srcQ, srcW, 0.1, 0); // dt = 0: offsets unchanged
    const oldOffQ = offQ.slice(),
      oldOffW = offW.slice();
    quatInertializeTransition(offQ, offW, srcQ, srcW, dstQ, dstW);
    const afterQ = new Float64Array(4 * n),
      afterW = new Float64Array(3 * n);
    quatInertializeUpdate(afterQ, afterW, offQ, offW, dstQ, dstW, 0.1, 0);
    let uncorrectedJump = 0;
    for (let i = 0; i < n; i++) {
      expect(load4(offQ, i)[3]).toBeGreaterThanOrEqual(0); // offset stored on the shortest arc
      // unit-size float64 products, a handful of roundings: 1e-9 leaves > 1e6 ulps of margin
      expect(quatDist(load4(afterQ, i), load4(beforeQ, i))).toBeLessThan(1e-9);
      // |ω| ≤ ~3e5 rad/s: float64 rounding ≈ 10 ops · 2.2e-16 · 3e5 ≈ 7e-10 < 1e-9
      expect(dist3(load3(afterW, i), load3(beforeW, i))).toBeLessThan(1e-9);
      maxW = Math.max(maxW, norm3(load3(beforeW, i)));
      // the original Motion-Matching offset velocity, offW + srcW - dstW, would make the output jump
      const w = load3(oldOffW, i);
      const s = load3(srcW, i);
      const d = load3(dstW, i);
      const uncorrected: Vec3 = [w[0] + s[0] - d[0], w[1] + s[1] - d[1], w[2] + s[2] - d[2]];
      const out = rotate(load4(offQ, i), d);
      uncorrectedJump = Math.max(
        uncorrectedJump,
        dist3([uncorrected[0] + out[0], uncorrected[1] + out[1], uncorrected[2] + out[2]], load3(beforeW, i)),
      );
    }
    expect(maxW).toBeGreaterThan(1e4); // the huge-velocity cases were really exercised
    expect(uncorrectedJump).toBeGreaterThan(1); // and the correction is not a no-op
    expect(oldOffQ).not.toEqual(offQ);
  });

  it('update decays the offset toward identity and outputs offQ ⊗ inQ', () => {
    const r = rng(11);
    const offQ = Float64Array.from(fromScaledAngleAxis([0.4, -0.2, 0.1]));
    const offW = Float64Array.from([1, 2, -1]);
    const inQ = Float64Array.from(randomQuat(r));
    const inW = Float64Array.from([0.5, 0, 0]);
    const outQ = new Float64Array(4),
      outW = new Float64Array(3);
    const refQ = offQ.slice(),
      refW = offW.slice();
    quatInertializeUpdate(outQ, outW, offQ, offW, inQ, inW, 0.15, 1 / 60);
    quatDecaySpringDamper(refQ, refW, 0.15, 1 / 60);
    expect(Array.from(offQ)).toEqual(Array.from(refQ)); // the same decay call: bit exact
    expect(Array.from(offW)).toEqual(Array.from(refW));
    expect(quatDist(outQ, mul(refQ, inQ))).toBe(0);
    for (let s = 0; s < 600; s++) quatInertializeUpdate(outQ, outW, offQ, offW, inQ, inW, 0.15, 1 / 60);
    // after 10 s = 67 halflives the offset is gone: output = input to float64 rounding (1e-12 generous)
    expect(quatDist(outQ, inQ)).toBeLessThan(1e-12);
    expect(dist3(outW, inW)).toBeLessThan(1e-12); // offW → 0 and rotate(identity, inW) = inW
  });
});

describe('vector inertialization', () => {
  it('vec3DecaySpringDamper matches the scalar critical closed form', () => {
    const r = rng(12);
    for (let n = 0; n < 50; n++) {
      const x0 = [uniform(r, -5, 5), uniform(r, -5, 5), uniform(r, -5, 5)];
      const v0 = [uniform(r, -20, 20), uniform(r, -20, 20), uniform(r, -20, 20)];
      const halflife = uniform(r, 0.05, 1);
      const dt = uniform(r, 1 / 240, 1 / 20);
      const x = Float64Array.from(x0),
        v = Float64Array.from(v0);
      for (let s = 1; s <= 100; s++) {
        vec3DecaySpringDamper(x, v, [halflife], dt);
        for (let k = 0; k < 3; k++) {
          const [ex, ev] = criticalClosedForm(x0[k]!, v0[k]!, yOf(halflife), s * dt);
          // float64 rounding over ≤ 100 exact steps of values ≤ ~100: 1e-12 absolute is ample
          expect(Math.abs(x[k]! - ex)).toBeLessThan(1e-12);
          expect(Math.abs(v[k]! - ev)).toBeLessThan(1e-12);
        }
      }
    }
    const x = Float32Array.from([1, 2, 3]),
      v = Float32Array.from([4, 5, 6]);
    vec3DecaySpringDamper(x, v, 0, 0);
    expect(Array.from(x)).toEqual([1, 2, 3]);
    vec3DecaySpringDamper(x, v, 0, 0.1);
    expect(Array.from(x)).toEqual([0, 0, 0]);
    expect(Array.from(v)).toEqual([0, 0, 0]);
  });

  it('transition keeps position and velocity continuous, update adds the decaying offset', () => {
    const r = rng(13);
    const n = 100;
    const rand = (len: number, a: number) => Float64Array.from({ length: len }, () => uniform(r, -a, a));
    const offX = rand(3 * n, 1),
      offV = rand(3 * n, 1);
    const srcX = rand(3 * n, 100),
      srcV = rand(3 * n, 1e4);
    const dstX = rand(3 * n, 100),
      dstV = rand(3 * n, 1e4);
    const bx = new Float64Array(3 * n),
      bv = new Float64Array(3 * n);
    inertializeUpdate(bx, bv, offX, offV, srcX, srcV, 0.1, 0);
    inertializeTransition(offX, offV, srcX, srcV, dstX, dstV);
    const ax = new Float64Array(3 * n),
      av = new Float64Array(3 * n);
    inertializeUpdate(ax, av, offX, offV, dstX, dstV, 0.1, 0);
    for (let k = 0; k < 3 * n; k++) {
      // (off + src - dst) + dst vs off + src: three roundings of values ≤ ~2e4 ≈ 1e-11, so 1e-9 has 100× margin
      expect(Math.abs(ax[k]! - bx[k]!)).toBeLessThan(1e-9);
      expect(Math.abs(av[k]! - bv[k]!)).toBeLessThan(1e-9);
    }
    const decayed = offX.slice(),
      decayedV = offV.slice();
    vec3DecaySpringDamper(decayed, decayedV, 0.1, 1 / 60);
    inertializeUpdate(ax, av, offX, offV, dstX, dstV, 0.1, 1 / 60);
    for (let k = 0; k < 3 * n; k++) {
      expect(offX[k]).toBe(decayed[k]); // same decay arithmetic: bit exact
      expect(ax[k]).toBe(dstX[k]! + decayed[k]!);
      expect(av[k]).toBe(dstV[k]! + decayedV[k]!);
    }
  });
});

describe('dot and slerp', () => {
  it('slerp hits both ends and moves at constant angular rate', () => {
    const r = rng(14);
    for (let n = 0; n < 100; n++) {
      const a = randomQuat(r),
        b = randomQuat(r);
      const total = angle(mul(b, inv(a)));
      // float64 rounding of unit-size quaternions: 1e-14
      expect(quatDist(slerp(a, b, 0), a)).toBeLessThan(1e-14);
      expect(quatDist(slerp(a, b, 1), b)).toBeLessThan(1e-14);
      const t = r();
      const m = slerp(a, b, t);
      expect(Math.abs(angle(mul(m, inv(a))) - t * total)).toBeLessThan(1e-13);
      expect(Math.abs(angle(mul(b, inv(m))) - (1 - t) * total)).toBeLessThan(1e-13);
      expect(dot(m, a)).toBeGreaterThan(0); // the result stays in a's hemisphere (angle ≤ π/2 in 4D)
    }
  });
});
