// Easing helpers (src/plain/easing.ts): cubic Hermite and Holden's cubic easing against known values
// and their own derivatives; smoothstepSolve against its fit conditions, for mirror symmetry, and
// against a transcription of Holden's smoothstep_solve that shows his asymmetry.
// Runs in Node and in a browser: no Node-only APIs.
import { describe, expect, it } from 'vitest';
import { cubicEasing, hermite, smoothstep, smoothstepSolve } from '../../dist/index.js';

/** Central difference of f at t. */
const diff = (f: (t: number) => number, t: number, h: number) => (f(t + h) - f(t - h)) / (2 * h);

const TS = Array.from({ length: 41 }, (_, k) => -0.5 + k / 20); // −0.5 … 1.5

describe('hermite', () => {
  it('starts at (p0, v0) and ends at (p1, v1) exactly', () => {
    expect(hermite(0, 1.5, -2, 4, 0.25)).toEqual({ x: 1.5, v: -2 });
    expect(hermite(1, 1.5, -2, 4, 0.25)).toEqual({ x: 4, v: 0.25 });
  });

  it('gives the textbook midpoint (p0 + p1)/2 + (v0 − v1)/8, slope 3(p1 − p0)/2 − (v0 + v1)/4', () => {
    // 1.5·… and /8 are exact in binary here, so the values match exactly.
    expect(hermite(0.5, 1, 2, 5, -6)).toEqual({ x: 3 + 1, v: 6 + 1 });
  });

  it('reproduces any cubic from its end values and slopes', () => {
    const c = (t: number) => 1 + t * (2 + t * (-3 + 4 * t)); // 1 + 2t − 3t² + 4t³
    const dc = (t: number) => 2 + t * (-6 + 12 * t);
    for (const t of TS) {
      const { x, v } = hermite(t, c(0), dc(0), c(1), dc(1));
      // Different groupings of the same cubic: rounding ~1e-16 × terms up to ~30 here; 1e-13 is ample.
      expect(Math.abs(x - c(t))).toBeLessThan(1e-13);
      expect(Math.abs(v - dc(t))).toBeLessThan(1e-13);
    }
  });

  it('has v equal to the numerical derivative of x', () => {
    for (const t of TS) {
      const f = (u: number) => hermite(u, -0.3, 4, 2.2, -1).x;
      // Central difference, h = 1e-5: truncation h²·|x'''|/6 = 1e-10·|c3| = 2e-10 (x''' = 6·c3,
      // c3 = −2(p1 − p0) + v0 + v1 = −2), rounding ~1e-16·|x|/h ≈ 1e-10: 1e-7 leaves room.
      expect(Math.abs(diff(f, t, 1e-5) - hermite(t, -0.3, 4, 2.2, -1).v)).toBeLessThan(1e-7);
    }
  });
});

describe("Holden's cubic easing", () => {
  it('is hermite(t, 0, v, g, 0) up to t = 1 and rests on g after', () => {
    for (const t of TS) {
      const expected = t > 1 ? { x: 1.7, v: 0 } : hermite(t, 0, -2, 1.7, 0);
      expect(cubicEasing(t, -2, 1.7)).toEqual(expected);
    }
  });

  it("uses Holden's weights 3t² − 2t³ on g and t³ − 2t² + t on v, and their derivatives", () => {
    for (const t of [-0.25, 0.3, 0.5, 0.9]) {
      const { x, v } = cubicEasing(t, 3, -2);
      // Same polynomials in another grouping: a few ulps of terms ≤ 3; 1e-14 is ample.
      expect(Math.abs(x - ((3 * t * t - 2 * t ** 3) * -2 + (t ** 3 - 2 * t * t + t) * 3))).toBeLessThan(1e-14);
      expect(Math.abs(v - ((6 * t - 6 * t * t) * -2 + (3 * t * t - 4 * t + 1) * 3))).toBeLessThan(1e-14);
    }
  });

  it('is continuous in x and v through t = 1', () => {
    expect(cubicEasing(1, 5, 2)).toEqual({ x: 2, v: 0 });
    expect(cubicEasing(1 + 1e-12, 5, 2)).toEqual({ x: 2, v: 0 });
  });
});

describe('smoothstep', () => {
  it('is s·(3t² − 2t³) with velocity s·(6t − 6t²), negative section included, and s after t = 1', () => {
    expect(smoothstep(0.5, 2)).toEqual({ x: 1, v: 3 });
    expect(smoothstep(-0.5, 2)).toEqual({ x: 2, v: -9 }); // 3/4 + 1/4 = 1: back at level s before the start
    expect(smoothstep(1, 2)).toEqual({ x: 2, v: 0 });
    expect(smoothstep(3, 2)).toEqual({ x: 2, v: 0 });
    for (const t of TS.filter((t) => t < 1)) {
      // Central difference as for hermite: x''' = −12s = −24, so truncation ≤ 1e-10·4 and rounding ~1e-11.
      expect(Math.abs(diff((u) => smoothstep(u, 2).x, t, 1e-5) - smoothstep(t, 2).v)).toBeLessThan(1e-7);
    }
  });
});

/**
 * Holden's smoothstep_solve (inertialeasing.c), transcribed in float64 from its description:
 * |v| < 1e-8 ⇒ (0, x); x < 0 ⇒ solve (−x, −v) with the DEFAULT overshoot and eps and negate s;
 * else t0, t1 = (v − 6x ± √max((6x − v)² + 8v², eps)) / 4v, t = t1 if −0.5 > t1 > −(0.5 + overshoot)
 * else t0, and s = v / S'(t), or 0 when |S'(t)| < eps.
 */
function holdenSmoothstepSolve(x: number, v: number, overshoot = 0.05, eps = 1e-8): { t: number; s: number } {
  if (Math.abs(v) < 1e-8) return { t: 0, s: x };
  if (x < 0) {
    const fit = holdenSmoothstepSolve(-x, -v); // overshoot and eps dropped
    return { t: fit.t, s: -fit.s };
  }
  const root = Math.sqrt(Math.max((6 * x - v) ** 2 + 8 * v * v, eps));
  const t0 = (v - 6 * x + root) / (4 * v);
  const t1 = (v - 6 * x - root) / (4 * v);
  const t = -0.5 > t1 && t1 > -(0.5 + overshoot) ? t1 : t0;
  const vt = 6 * t - 6 * t * t;
  return { t, s: Math.abs(vt) < eps ? 0 : v / vt };
}

/** Distances x and velocities v over many scales and both signs, with zeros. */
const MAGNITUDES = [0, 1e-6, 0.003, 0.05, 0.1, 0.37, 1, 2.5, 10, 1e3, 1e6];
const CASES = MAGNITUDES.flatMap((x) =>
  MAGNITUDES.flatMap(
    (v) =>
      [
        [x, v],
        [x, -v],
        [-x, v],
        [-x, -v],
      ] as const,
  ),
);
const OVERSHOOTS = [0, 0.05, 0.3, 2];

describe('smoothstepSolve', () => {
  it("continues the motion: s·S'(t) = v, and ends on the target: s·(1 − S(t)) = x", () => {
    for (const overshoot of OVERSHOOTS) {
      for (const [x, v] of CASES) {
        const { t, s } = smoothstepSolve(x, v, overshoot);
        if (Math.abs(v) < 1e-8) {
          expect({ t, s }).toEqual({ t: 0, s: x }); // zero velocity: the plain smoothstep from 0 to x
          continue;
        }
        if (x === 0 && overshoot === 0) {
          expect({ t, s }).toEqual({ t: 1, s: 0 }); // moving, on target, no overshoot allowed: stop at once
          continue;
        }
        // Both fit conditions to rounding: a handful of roundings on terms of the size of |x| and
        // |v| (s·S' = v, s·(1 − S) = x), so 1e-13 of the larger leaves a wide margin. 1 − S(t) is
        // taken factored, (1 − t)²(1 + 2t): near the hard stop (t → 1, |s| up to 1e17 here)
        // s − s·S(t) would cancel in this check, not in the fit.
        const tol = 1e-13 * Math.max(Math.abs(x), Math.abs(v));
        expect(Math.abs(smoothstep(t, s).v - v)).toBeLessThanOrEqual(tol);
        expect(Math.abs(s * (1 - t) ** 2 * (1 + 2 * t) - x)).toBeLessThanOrEqual(tol);
        expect(t).toBeGreaterThanOrEqual(-(0.5 + overshoot)); // the overshooting root only within the window
        expect(t).toBeLessThanOrEqual(1);
      }
    }
  });

  it('is mirror-symmetric: (−x, −v) gives the same t and −s', () => {
    for (const overshoot of OVERSHOOTS) {
      for (const [x, v] of CASES) {
        const a = smoothstepSolve(x, v, overshoot);
        const b = smoothstepSolve(-x, -v, overshoot);
        expect(b.t).toBe(a.t);
        expect(b.s + 0).toBe(-a.s + 0); // + 0 turns −0 into 0: toBe tells them apart, a fit does not
      }
    }
  });

  it("shows Holden's is not: the x < 0 branch drops the caller's overshoot", () => {
    // x/v = 0.0889: the negative root is t ≈ −0.6, inside an overshoot window of 0.3 but not of 0.05.
    const [x, v, overshoot] = [0.0889, 1, 0.3];
    const positive = holdenSmoothstepSolve(x, v, overshoot);
    const negative = holdenSmoothstepSolve(-x, -v, overshoot);
    expect(positive.t).toBeCloseTo(-0.6, 3); // root of 2t² + (6·0.0889 − 1)t − 1: −0.6000 to 4 digits
    expect(negative.t).toBeGreaterThan(0); // the mirror took the other root: not the mirror image
    // Ours gives both the overshooting fit (its root formula differs from his by an ulp or so: 1e-14).
    expect(Math.abs(smoothstepSolve(x, v, overshoot).t - positive.t)).toBeLessThan(1e-14);
    expect(Math.abs(smoothstepSolve(-x, -v, overshoot).t - positive.t)).toBeLessThan(1e-14);
  });

  it("shows Holden's is not at x = 0 either, even with the default overshoot", () => {
    // (0, v < 0) is not mirrored and gets the overshooting fit; (0, v > 0) gets t = 1, s = 0.
    expect(holdenSmoothstepSolve(0, -1)).toEqual({ t: -0.5, s: 1 / 4.5 });
    expect(holdenSmoothstepSolve(0, 1)).toEqual({ t: 1, s: 0 }); // its velocity 0 drops v = 1
    // Ours: the overshooting fit, mirrored, which keeps the velocity (S'(−1/2) = −4.5).
    expect(smoothstepSolve(0, -1)).toEqual({ t: -0.5, s: 1 / 4.5 });
    expect(smoothstepSolve(0, 1)).toEqual({ t: -0.5, s: -1 / 4.5 });
  });

  it("agrees with Holden's where his is right (x > 0, default overshoot, x/v in 1e-3 … 1e3, |v| ≥ 1e-3)", () => {
    let compared = 0;
    for (const [x, v] of CASES) {
      // |v| ≥ 1e-3 keeps his discriminant (≥ 8v²) above his absolute floor eps = 1e-8 (see below).
      if (!(x > 0) || Math.abs(v) < 1e-3 || Math.abs(x / v) > 1e3 || Math.abs(x / v) < 1e-3) continue;
      compared++;
      const ours = smoothstepSolve(x, v);
      const his = holdenSmoothstepSolve(x, v);
      // His direct root formula cancels by up to ~(6x/v)² ≈ 4e7 when x ≫ v: 1e-16 × that, and
      // margin, is 1e-8 relative.
      expect(Math.abs(ours.t - his.t)).toBeLessThanOrEqual(1e-8 * Math.abs(his.t));
      expect(Math.abs(ours.s - his.s)).toBeLessThanOrEqual(1e-8 * Math.abs(his.s));
    }
    expect(compared).toBeGreaterThan(60); // the filter left a real sample (both signs of v)
  });

  it("keeps the fit for small x and v, where Holden's floor on the discriminant takes over", () => {
    // (6x − v)² + 8v² = 3.3e-11 < eps = 1e-8: his square root becomes 1e-4 ≫ v, and t0 = 23.75.
    expect(holdenSmoothstepSolve(1e-6, 1e-6).t).toBeCloseTo(23.75, 12);
    const { t, s } = smoothstepSolve(1e-6, 1e-6);
    expect(t).toBeGreaterThan(0);
    expect(t).toBeLessThan(1);
    // Both fit conditions to rounding, as in the fit test (1e-13 of the scale 1e-6).
    expect(Math.abs(smoothstep(t, s).v - 1e-6)).toBeLessThan(1e-19);
    expect(Math.abs(s * (1 - t) ** 2 * (1 + 2 * t) - 1e-6)).toBeLessThan(1e-19);
  });

  it("keeps the fit when x ≫ v, where Holden's cancels to s = 0", () => {
    expect(holdenSmoothstepSolve(1e9, 1).s).toBe(0); // his root cancels to t = 0, then S'(0) = 0 < eps
    const { t, s } = smoothstepSolve(1e9, 1);
    // s ≈ x (t ≈ 1/6e9): both conditions to rounding, as in the fit test (1e-13 of the scale 1e9).
    expect(Math.abs(smoothstep(t, s).v - 1)).toBeLessThan(1e-13 * 1e9);
    expect(Math.abs(s * (1 - t) ** 2 * (1 + 2 * t) - 1e9)).toBeLessThan(1e-13 * 1e9);
  });
});
