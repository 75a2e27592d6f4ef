/**
 * The synchronous helpers of spring-solver/three against the float64 reference: Holden's closed
 * form of the critical spring, the reference quaternion spring, and exactness under dt splitting
 * (one step of dt equals two of dt/2, up to float64 rounding of the state's scale).
 */
import { describe, expect, it, vi } from 'vitest';
import { Euler, Quaternion, Vector3 } from 'three';
import { quatSimpleSpringDamper } from '../../dist/reference/index.js';
import {
  damper,
  damper3,
  damperQuat,
  resetSpring,
  spring,
  spring3,
  springAngle,
  springEuler,
  springQuat,
  springVelocity,
} from '../../dist/three/index.js';
import { mulberry32, uniform } from '../helpers/random.js';

const EPS = 2 ** -52;
/** Closed form of the critical spring (Spring-It-On): x = g + (j0 + j1·t)·e^{−y t}, j0 = x0 − g, j1 = v0 + j0·y, y = 2 ln2 / h. */
function critical(x0: number, v0: number, g: number, h: number, t: number): [number, number] {
  const y = (2 * Math.LN2) / h;
  const j0 = x0 - g,
    j1 = v0 + j0 * y,
    e = Math.exp(-y * t);
  return [g + (j0 + j1 * t) * e, (v0 - j1 * y * t) * e];
}

describe('spring3, spring, springAngle', () => {
  it('spring3 steps match the closed form, and velocity is kept', () => {
    const rng = mulberry32(3);
    for (let trial = 0; trial < 50; trial++) {
      const h = uniform(rng, 0.02, 1),
        dt = uniform(rng, 0.001, 0.2);
      const p = new Vector3(uniform(rng, -10, 10), uniform(rng, -10, 10), uniform(rng, -10, 10));
      const g = new Vector3(uniform(rng, -10, 10), uniform(rng, -10, 10), uniform(rng, -10, 10));
      const x0 = p.toArray();
      spring3(p, g, h, dt);
      const v1 = springVelocity(p);
      spring3(p, g, h, dt);
      for (let c = 0; c < 3; c++) {
        const [xa, va] = critical(x0[c], 0, g.getComponent(c), h, dt);
        const [xb, vb] = critical(xa, va, g.getComponent(c), h, dt);
        const scale = 20 * (1 + dt / h);
        expect(Math.abs(v1[c] - va)).toBeLessThanOrEqual((64 * EPS * scale) / h);
        expect(Math.abs(p.getComponent(c) - xb)).toBeLessThanOrEqual(64 * EPS * scale);
        expect(Math.abs(springVelocity(p)[c] - vb)).toBeLessThanOrEqual((64 * EPS * scale) / h);
      }
    }
  });

  it('one step of dt equals two of dt/2 (with and without max speed)', () => {
    const rng = mulberry32(4);
    for (let trial = 0; trial < 50; trial++) {
      const h = uniform(rng, 0.02, 1),
        dt = uniform(rng, 0.01, 0.5);
      const maxSpeed = trial % 2 ? uniform(rng, 1, 30) : Infinity;
      const start = new Vector3(uniform(rng, -10, 10), uniform(rng, -10, 10), uniform(rng, -10, 10));
      const g = new Vector3(uniform(rng, -10, 10), uniform(rng, -10, 10), uniform(rng, -10, 10));
      const a = start.clone(),
        b = start.clone();
      for (let frame = 0; frame < 8; frame++) {
        spring3(a, g, h, dt, maxSpeed);
        spring3(b, g, h, dt / 2, maxSpeed);
        spring3(b, g, h, dt / 2, maxSpeed);
        const scale = 40 + (Number.isFinite(maxSpeed) ? maxSpeed * dt : 0);
        for (let c = 0; c < 3; c++) {
          expect(Math.abs(a.getComponent(c) - b.getComponent(c)), `trial ${trial} frame ${frame}`).toBeLessThanOrEqual(256 * EPS * scale);
          expect(Math.abs(springVelocity(a)[c] - springVelocity(b)[c])).toBeLessThanOrEqual((256 * EPS * scale) / h);
        }
      }
    }
  });

  it('max speed: the value converges, its speed stays within the critical overshoot of the limit', () => {
    const p = new Vector3(0, 0, 0);
    const g = new Vector3(30, 40, 0); // 50 units away
    const maxSpeed = 5;
    let fastest = 0;
    for (let frame = 0; frame < 60 * 20; frame++) {
      spring3(p, g, 0.1, 1 / 60, maxSpeed);
      const [vx, vy, vz] = springVelocity(p);
      fastest = Math.max(fastest, Math.hypot(vx, vy, vz));
      if (frame === 60 * 5) expect(p.length()).toBeGreaterThan(maxSpeed * 4); // moving at about maxSpeed
    }
    expect(fastest).toBeGreaterThan(maxSpeed * 0.99);
    expect(fastest).toBeLessThanOrEqual(maxSpeed * (1 + Math.exp(-2)) + 1e-9);
    expect(p.distanceTo(g)).toBeLessThan(1e-6);
    // Without a limit the same spring is far faster.
    const free = new Vector3();
    spring3(free, g, 0.1, 1 / 60);
    spring3(free, g, 0.1, 1 / 60);
    expect(Math.hypot(...springVelocity(free))).toBeGreaterThan(maxSpeed * 10);
  });

  it('spring on a number property matches the closed form; springAngle turns the short way', () => {
    const o = { t: 1 };
    spring(o, 't', 4, 0.3, 0.05);
    expect(Math.abs(o.t - critical(1, 0, 4, 0.3, 0.05)[0])).toBeLessThanOrEqual(1e-14);
    const a = { yaw: 3.0 };
    springAngle(a, 'yaw', -3.0, 0.2, 0.05); // −3.0 ≡ 2π − 3.0 ≈ 3.283: up, through π
    expect(a.yaw).toBeGreaterThan(3.0);
    expect(Math.abs(a.yaw - critical(3.0, 0, 2 * Math.PI - 3.0, 0.2, 0.05)[0])).toBeLessThanOrEqual(1e-14);
    for (let i = 0; i < 200; i++) springAngle(a, 'yaw', -3.0, 0.2, 0.05);
    expect(Math.abs(a.yaw - (2 * Math.PI - 3.0))).toBeLessThan(1e-9);
    const e = new Euler(0.1, 3.1, -3.1);
    // dt 10 s (50 halflives: at the goal) on purpose, so the helpers' once-per-file large-dt warning is said here
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    springEuler(e, new Euler(0.2, -3.1, 3.1), 0.2, 10);
    expect(warn.mock.calls).toEqual([[expect.stringMatching(/^spring-solver: springEuler got dt = 10; dt is in seconds /)]]);
    warn.mockRestore();
    expect(e.y).toBeCloseTo(2 * Math.PI - 3.1, 9);
    expect(e.z).toBeCloseTo(-2 * Math.PI + 3.1, 9);
    expect(e.x).toBeCloseTo(0.2, 9);
  });

  it('springAngle with max speed is exact under dt splitting', () => {
    const a = { r: 2.5 },
      b = { r: 2.5 };
    for (let frame = 0; frame < 30; frame++) {
      springAngle(a, 'r', -2.9, 0.15, 0.04, 2);
      springAngle(b, 'r', -2.9, 0.15, 0.02, 2);
      springAngle(b, 'r', -2.9, 0.15, 0.02, 2);
      expect(Math.abs(a.r - b.r)).toBeLessThanOrEqual(1e-13);
    }
    expect(a.r).toBeGreaterThan(2.5);
  });

  it('resetSpring forgets the velocity; bad input throws and writes nothing', () => {
    const p = new Vector3(1, 2, 3);
    spring3(p, new Vector3(), 0.2, 0.1);
    expect(springVelocity(p)[0]).not.toBe(0);
    resetSpring(p);
    expect(springVelocity(p)).toEqual([0, 0, 0]);
    const before = p.toArray();
    expect(() => spring3(p, new Vector3(), -1, 0.1)).toThrow(/spring3: halflife is -1; it must be finite and ≥ 0/);
    expect(() => spring3(p, new Vector3(NaN, 0, 0), 0.1, 0.1)).toThrow(/spring3: target holds NaN/);
    expect(() => spring3(p, new Vector3(), 0.1, 0.1, 0)).toThrow(/spring3: maxSpeed is 0/);
    expect(() => spring({ a: 1 }, 'a', 0, 0.1, -0.1)).toThrow(/spring: dt is -0.1/);
    expect(() => springEuler(new Euler(0, 0, 0, 'XYZ'), new Euler(0, 0, 0, 'ZYX'), 0.1, 0.1)).toThrow(/springEuler: target.order/);
    expect(p.toArray()).toEqual(before);
  });
});

describe('springQuat and the dampers', () => {
  const randomQuat = (rng: () => number) =>
    new Quaternion(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)).normalize();

  it('springQuat matches the reference quaternion spring and splits exactly', () => {
    const rng = mulberry32(9);
    for (let trial = 0; trial < 40; trial++) {
      const h = uniform(rng, 0.05, 0.8),
        dt = uniform(rng, 0.005, 0.1);
      const q = randomQuat(rng),
        g = randomQuat(rng);
      const ref = new Float64Array(q.toArray()),
        w = new Float64Array(3);
      const a = q.clone(),
        b = q.clone();
      for (let frame = 0; frame < 5; frame++) {
        springQuat(a, g, h, dt);
        quatSimpleSpringDamper(ref, w, g.toArray(), h, dt);
        springQuat(b, g, h, dt / 2);
        springQuat(b, g, h, dt / 2);
        for (let c = 0; c < 4; c++) {
          expect(Math.abs(a.toArray()[c] - ref[c])).toBeLessThanOrEqual(16 * EPS);
          expect(Math.abs(a.toArray()[c] - b.toArray()[c]), `trial ${trial}`).toBeLessThanOrEqual(1e-12);
        }
        for (let c = 0; c < 3; c++) expect(Math.abs(springVelocity(a)[c] - w[c])).toBeLessThanOrEqual(1e-12 / h);
      }
    }
  });

  it('dampers: closed form, and exact under dt splitting', () => {
    expect(damper(10, 0, 0.5, 0.5)).toBeCloseTo(5, 14);
    expect(Math.abs(damper(damper(3, 7, 0.2, 0.05), 7, 0.2, 0.05) - damper(3, 7, 0.2, 0.1))).toBeLessThanOrEqual(8 * EPS * 7);
    const v = new Vector3(4, 0, -4);
    damper3(v, new Vector3(0, 2, 0), 1, 1);
    expect(v.toArray()).toEqual([2, 1, -2]);
    const rng = mulberry32(2);
    const q = randomQuat(rng),
      g = randomQuat(rng);
    const a = q.clone(),
      b = q.clone();
    damperQuat(a, g, 0.3, 0.1);
    damperQuat(b, g, 0.3, 0.05);
    damperQuat(b, g, 0.3, 0.05);
    for (let c = 0; c < 4; c++) expect(Math.abs(a.toArray()[c] - b.toArray()[c])).toBeLessThanOrEqual(1e-13);
    expect(a.angleTo(g)).toBeCloseTo(q.angleTo(g) * Math.exp((-Math.LN2 * 0.1) / 0.3), 9);
  });
});
