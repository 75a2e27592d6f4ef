/**
 * The conversions and approximations that had no test of their own: Holden's fast_negexp and
 * fast_atan (measured error bounds, shape), and the damper's lag (from a simulated exact damper
 * following a moving goal, not from the lag formula).
 */
import { describe, expect, it } from 'vitest';
import { fastAtan, fastNegexp, halflifeToLag, lagToHalflife } from '../../dist/index.js';

/** max over x in [from, to) sampled every `step` of f(x). */
function maxOver(from: number, to: number, step: number, f: (x: number) => number): number {
  let max = 0;
  for (let x = from; x < to; x += step) max = Math.max(max, f(x));
  return max;
}

describe('fastNegexp (Holden: 1 / (1 + x + 0.48x² + 0.235x³))', () => {
  it('is exact at 0 and decreases to 0', () => {
    expect(fastNegexp(0)).toBe(1);
    let previous = 1;
    for (let x = 0.01; x < 100; x *= 1.1) {
      const y = fastNegexp(x);
      expect(y).toBeLessThan(previous);
      expect(y).toBeGreaterThan(0);
      previous = y;
    }
    expect(fastNegexp(1e6)).toBeLessThan(1e-17);
  });

  it('stays within its measured error of exp(−x): 1.9e-2 absolute (near x = 3.3), 1.3e-3 relative on [0, 1]', () => {
    const absolute = maxOver(0, 50, 1e-3, (x) => Math.abs(fastNegexp(x) - Math.exp(-x)));
    expect(absolute).toBeGreaterThan(0.018);
    expect(absolute).toBeLessThan(0.019);
    const relative = maxOver(0, 1, 1e-4, (x) => Math.abs(fastNegexp(x) / Math.exp(-x) - 1));
    expect(relative).toBeLessThan(1.3e-3);
  });
});

describe('fastAtan (Holden: π/4·z − z·(z − 1)·(0.2447 + 0.0663·z), reflected above 1)', () => {
  it('is odd, exact at 0 and ±1, and tends to ±π/2', () => {
    for (const x of [0.1, 0.5, 1, 2, 10]) expect(fastAtan(-x)).toBe(-fastAtan(x));
    expect(fastAtan(0)).toBe(0);
    expect(fastAtan(1)).toBeCloseTo(Math.PI / 4, 15);
    expect(fastAtan(1e12)).toBeCloseTo(Math.PI / 2, 11);
  });

  it('is continuous where the reflection starts (|x| = 1)', () => {
    expect(Math.abs(fastAtan(1 + 1e-9) - fastAtan(1 - 1e-9))).toBeLessThan(1e-8);
  });

  it('stays within its measured error of atan: 1.6e-3 absolute', () => {
    const error = maxOver(-100, 100, 1e-3, (x) => Math.abs(fastAtan(x) - Math.atan(x)));
    expect(error).toBeGreaterThan(1.4e-3);
    expect(error).toBeLessThan(1.6e-3);
  });
});

describe('halflifeToLag and lagToHalflife', () => {
  it('give the distance (in seconds of goal motion) by which a damper trails a goal moving at constant speed', () => {
    for (const halflife of [0.05, 0.2, 1]) {
      const dt = 1e-4;
      const speed = 3;
      const decay = Math.exp((-Math.LN2 * dt) / halflife); // Holden's damper_exact
      let x = 0;
      let g = 0;
      // Run for 40 halflives, so the start has decayed by 2^-40.
      for (let t = 0; t < 40 * halflife; t += dt) {
        g += speed * dt;
        x = g + (x - g) * decay;
      }
      const lag = (g - x) / speed;
      // The exact step lags by dt·e^{−λdt}/(1 − e^{−λdt}) = 1/λ − dt/2 + O(dt²), λ = ln2/halflife.
      expect(Math.abs(lag + dt / 2 - halflifeToLag(halflife))).toBeLessThan(1e-6);
    }
  });

  it('are inverse to each other', () => {
    for (const h of [1e-3, 0.1, 1, 7.5]) {
      expect(lagToHalflife(halflifeToLag(h))).toBeCloseTo(h, 14);
      expect(halflifeToLag(lagToHalflife(h))).toBeCloseTo(h, 14);
    }
  });
});
