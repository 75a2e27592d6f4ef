// springEnergy (src/plain/energy.ts): known values, Holden's scale² form, and the physics that
// makes it the spring's energy: conserved without damping, lost at the rate d·v² with it.
// Runs in Node and in a browser: no Node-only APIs.
import { describe, expect, it } from 'vitest';
import { springTransition } from '../../dist/reference/index.js';
import { frequencyToStiffness, halflifeToDamping, springEnergy } from '../../dist/index.js';

/** |a/b − 1|, for relative comparisons. */
const rel = (a: number, b: number) => Math.abs(a / b - 1);

/** Exact state of the spring damper (goal g, goal velocity 0) after time t. */
function advance(x: number, v: number, g: number, frequency: number, halflife: number, t: number) {
  const m = springTransition(frequencyToStiffness(frequency), halflifeToDamping(halflife), t);
  return { x: g + m.xx * (x - g) + m.xv * v, v: m.vx * (x - g) + m.vv * v };
}

describe('springEnergy', () => {
  it('is s·(x − xRest)²/2 + (v − vRest)²/2 with s = (2π·f)²', () => {
    const s = (2 * Math.PI * 1.5) ** 2;
    // A few roundings on each side: 1e-15 relative is a handful of ulps.
    expect(rel(springEnergy(2, 3, 1.5), (s * 4) / 2 + 9 / 2)).toBeLessThan(1e-15);
    expect(rel(springEnergy(5, -1, 1.5, 3, 2), (s * 4) / 2 + 9 / 2)).toBeLessThan(1e-15);
    expect(springEnergy(7, 0, 0)).toBe(0); // frequency 0: no stiffness, no potential energy
    expect(springEnergy(0, 0, 3)).toBe(0);
  });

  it("scales with scale², as Holden's (scale multiplies x − xRest and v − vRest before squaring)", () => {
    const e = springEnergy(200, -30, 2.5, 180, 0);
    // One extra multiply on each of two squared terms: 1e-15 relative is a handful of ulps.
    expect(rel(springEnergy(200, -30, 2.5, 180, 0, 0.01), 1e-4 * e)).toBeLessThan(1e-15);
    expect(rel(springEnergy(200, -30, 2.5, 180, 0, -3), 9 * e)).toBeLessThan(1e-15);
  });

  it('is conserved by an undamped spring (halflife ∞)', () => {
    const g = 0.7;
    const e0 = springEnergy(2, -1, 1.3, g);
    for (const t of [0.01, 0.1, 0.37, 1, 2.9]) {
      const { x, v } = advance(2, -1, g, 1.3, Infinity, t);
      // cos/sin of ω·t to a few ulps, squared and summed: 1e-13 relative. A wrong weighting of
      // either term (s without the /2, say) changes E by O(1) over a quarter period.
      expect(rel(springEnergy(x, v, 1.3, g), e0)).toBeLessThan(1e-13);
    }
  });

  it('is lost at the rate d·v² by a damped spring: dE/dt = −d·v²', () => {
    const [frequency, halflife, g] = [1.1, 0.8, -0.4];
    const d = halflifeToDamping(halflife);
    const h = 1e-5;
    for (const t of [0, 0.2, 0.55, 1.3]) {
      const here = advance(3, 2, g, frequency, halflife, t);
      const ahead = advance(3, 2, g, frequency, halflife, t + h);
      const behind = advance(3, 2, g, frequency, halflife, t - h);
      const rate = (springEnergy(ahead.x, ahead.v, frequency, g) - springEnergy(behind.x, behind.v, frequency, g)) / (2 * h);
      // Central difference: truncation h²·E'''/6 with E''' ≲ E·(d + 2ω)³ ≈ 5e3·E gives ~1e-7·E;
      // rounding ~1e-16·E/h = 1e-11·E. So 1e-6·E, while |dE/dt| is 12 to 970 here.
      const e = springEnergy(here.x, here.v, frequency, g);
      expect(Math.abs(rate + d * here.v * here.v)).toBeLessThan(1e-6 * e);
    }
  });
});
