// piecewiseInterpolation (src/plain/interpolation.ts): known values, v = dx/dt by numerical
// differentiation, Holden's original velocity shown wrong, end and edge cases.
// Runs in Node and in a browser: no Node-only APIs.
import { describe, expect, it } from 'vitest';
import { piecewiseInterpolation } from '../../dist/index.js';

const POINTS = [0, 2, 1, 5, -3, -2.5, 4]; // n = 7: point i at t = i/6

/** Holden's velocity, transcribed: (points[i0] − points[i1]) / n, with his clamp of both indices to n − 1. */
function holdenVelocity(t: number, points: number[]): number {
  const n = points.length;
  const u = t * (n - 1);
  const i0 = Math.min(Math.floor(u), n - 1);
  const i1 = Math.min(i0 + 1, n - 1);
  return (points[i0]! - points[i1]!) / n;
}

/** Central difference of x over t. */
function dxdt(t: number, points: ArrayLike<number>, h: number): number {
  return (piecewiseInterpolation(t + h, points).x - piecewiseInterpolation(t - h, points).x) / (2 * h);
}

// Sample points away from the knots i/6 by more than H, so both differences stay on one segment.
const SAMPLES = Array.from({ length: 60 }, (_, k) => (k + 0.5) / 60);
const H = 1e-7;

describe('piecewiseInterpolation', () => {
  it('gives the points at the knots and the segment slope times (n − 1)', () => {
    const pts = [0, 2, 1, 5];
    expect(piecewiseInterpolation(0, pts)).toEqual({ x: 0, v: 6 }); // (2 − 0)·3
    expect(piecewiseInterpolation(1 / 3, pts)).toEqual({ x: 2, v: -3 }); // start of segment 1: (1 − 2)·3
    expect(piecewiseInterpolation(0.5, pts)).toEqual({ x: 1.5, v: -3 }); // halfway along segment 1
    expect(piecewiseInterpolation(1, pts)).toEqual({ x: 5, v: 12 }); // end: last segment's slope (5 − 1)·3
  });

  it('has v equal to the numerical derivative dx/dt', () => {
    for (const t of SAMPLES) {
      const { v } = piecewiseInterpolation(t, POINTS);
      // x is linear on the segment, so the difference is exact but for rounding of x (~1e-16·|x|,
      // |x| ≤ 5) divided by 2H: ~1e-9. 1e-6 absolute leaves room; slopes here are 3 to 48.
      expect(Math.abs(dxdt(t, POINTS, H) - v)).toBeLessThan(1e-6);
    }
  });

  it("shows Holden's velocity is not dx/dt (reversed sign, divided by n)", () => {
    let worst = 0;
    for (const t of SAMPLES) {
      const numerical = dxdt(t, POINTS, H);
      // His value is −numerical/(n·(n − 1)) = −numerical/42 (1e-6 covers the difference's rounding, as above).
      expect(Math.abs(holdenVelocity(t, POINTS) + numerical / 42)).toBeLessThan(1e-6);
      worst = Math.max(worst, Math.abs(holdenVelocity(t, POINTS) - numerical));
    }
    expect(worst).toBeGreaterThan(40); // off by tens of units per unit t: not a rounding matter
  });

  it('reads a Float32Array as the float64 values of its entries', () => {
    const f32 = Float32Array.from([0.1, 0.7, -0.3]);
    const f64 = Array.from(f32);
    for (const t of [0, 0.13, 0.5, 0.77, 1]) expect(piecewiseInterpolation(t, f32)).toEqual(piecewiseInterpolation(t, f64));
  });

  it('extends the end segments outside [0, 1], keeping v = dx/dt', () => {
    const pts = [1, 3, 2];
    expect(piecewiseInterpolation(-0.5, pts)).toEqual({ x: -1, v: 4 }); // u = −1: 1 + (−1)·(3 − 1) on the first segment
    expect(piecewiseInterpolation(1.5, pts)).toEqual({ x: 1, v: -2 }); // u = 3: 2 + 1·(2 − 3) on the last
    for (const t of [-0.7, 1.3]) expect(Math.abs(dxdt(t, pts, H) - piecewiseInterpolation(t, pts).v)).toBeLessThan(1e-6);
  });

  it('handles one point (constant) and rejects none', () => {
    expect(piecewiseInterpolation(0.4, [7])).toEqual({ x: 7, v: 0 });
    expect(() => piecewiseInterpolation(0.4, [])).toThrow(RangeError);
  });
});
