// resonantFrequency (src/plain/resonance.ts) against a numerical frequency sweep: a spring damper
// driven by a sine goal, solved with the exact transition of the float64 reference, its steady-state
// amplitude measured over a sweep of its frequency parameter. Derivation: docs/resonance.md.
// Runs in Node and in a browser: no Node-only APIs.
import { describe, expect, it } from 'vitest';
import { springTransition } from '../../dist/reference/index.js';
import { halflifeToDamping, frequencyToStiffness, stiffnessToFrequency, resonantFrequency, springEnergy } from '../../dist/index.js';

const TWO_PI = 2 * Math.PI;
/** Goal frequency (Hz), as in Holden's resonance demo. */
const GOAL_FREQUENCY = 2.5;
/** From long (sharp peak, Holden close) to short (broad peak; at 0.05 s Holden's has no real value). */
const HALFLIVES = [2, 1, 0.5, 0.25, 0.1, 0.05];
/** Steps per goal period: the sampled sine is joined by chords and the spring solved exactly for them. */
const STEPS = 1000;

/** Holden's resonant_frequency, transcribed: stiffnessToFrequency(goal stiffness − d²/4). */
function holdenResonantFrequency(goalFrequency: number, halflife: number): number {
  const d = halflifeToDamping(halflife);
  return stiffnessToFrequency(frequencyToStiffness(goalFrequency) - (d * d) / 4);
}

interface SteadyState {
  /** Amplitude of x in the periodic steady state, for a goal of amplitude 1. */
  amplitude: number;
  /** Holden's spring energy (the spring's own stiffness) averaged over one steady period. */
  meanEnergy: number;
}

/**
 * Steady state of `x'' = s·(g − x) − d·v` (Holden's spring damper, goal velocity 0) driven by
 * g = sin(2π·goalFrequency·t). One period maps the state z = (x, v) to M·z + b, M the exact
 * homogeneous transition over the period and b the image of z = 0 under the driven steps; the
 * periodic steady state is the fixed point z = (I − M)⁻¹·b, so no transient has to die out.
 */
function steadyState(frequency: number, halflife: number, goalFrequency = GOAL_FREQUENCY): SteadyState {
  const s = frequencyToStiffness(frequency);
  const d = halflifeToDamping(halflife);
  const period = 1 / goalFrequency;
  const h = period / STEPS;
  const w = TWO_PI * goalFrequency;
  const step = springTransition(s, d, h);
  // One period of steps. Over a step the goal is the chord g0 + q·τ; about the moving goal,
  // y = x − g obeys y'' = s·(0 − y) + d·(−q − y'), the same spring with goal 0 and goal velocity −q.
  const period1 = (x0: number, v0: number, energy: boolean) => {
    let x = x0;
    let v = v0;
    let sum = 0;
    for (let k = 0; k < STEPS; k++) {
      const g0 = Math.sin(w * k * h);
      const g1 = Math.sin(w * (k + 1) * h);
      const q = (g1 - g0) / h;
      const y = x - g0;
      const yv = v - q;
      x = g1 + step.xx * y + step.xv * yv - step.xq * q;
      v = q + step.vx * y + step.vv * yv - step.vq * q;
      if (energy) sum += springEnergy(x, v, frequency);
    }
    return { x, v, meanEnergy: sum / STEPS };
  };
  const b = period1(0, 0, false);
  const M = springTransition(s, d, period);
  const a11 = 1 - M.xx;
  const a12 = -M.xv;
  const a21 = -M.vx;
  const a22 = 1 - M.vv;
  const det = a11 * a22 - a12 * a21;
  const x0 = (a22 * b.x - a12 * b.v) / det;
  const v0 = (a11 * b.v - a21 * b.x) / det;
  // A linear system driven by a sinusoid settles on a sinusoid of the same frequency:
  // x = A·sin(w·t + φ), so A = √(x(0)² + (v(0)/w)²).
  return { amplitude: Math.hypot(x0, v0 / w), meanEnergy: period1(x0, v0, true).meanEnergy };
}

/** Frequency in [lo, hi] (grid step `step`) whose steady-state amplitude is largest. */
function sweepPeak(halflife: number, lo: number, hi: number, step: number): { frequency: number; amplitude: number } {
  let best = { frequency: NaN, amplitude: -Infinity };
  const n = Math.round((hi - lo) / step);
  for (let i = 0; i <= n; i++) {
    const frequency = lo + i * step;
    const { amplitude } = steadyState(frequency, halflife);
    if (amplitude > best.amplitude) best = { frequency, amplitude };
  }
  return best;
}

const COARSE = 0.01; // Hz, over (0, 12]
const FINE = 1e-5; // Hz, within one coarse step either side of the coarse peak

describe('resonantFrequency: the frequency parameter of largest steady-state response', () => {
  const rows = HALFLIVES.map((halflife) => {
    const coarse = sweepPeak(halflife, COARSE, 12, COARSE);
    const fine = sweepPeak(halflife, coarse.frequency - COARSE, coarse.frequency + COARSE, FINE);
    return {
      halflife,
      peak: fine,
      ours: resonantFrequency(GOAL_FREQUENCY, halflife),
      holden: holdenResonantFrequency(GOAL_FREQUENCY, halflife),
    };
  });

  it.each(rows)('halflife $halflife s: the swept peak is at resonantFrequency', ({ halflife, peak, ours }) => {
    // The amplitude is unimodal in frequency (docs/resonance.md), so its true maximum lies within
    // one grid step of the largest sample: the sweep pins the peak to ±FINE.
    expect(Math.abs(peak.frequency - ours)).toBeLessThanOrEqual(FINE);
    // And the peak height is √(1 + Ω²/d²). The chords through the sampled sine carry its fundamental
    // scaled by sinc²(π/STEPS) ≈ 1 − 3.3e-6, the same at every frequency: 1e-5 relative covers it.
    const d = halflifeToDamping(halflife);
    const height = Math.sqrt(1 + (TWO_PI * GOAL_FREQUENCY) ** 2 / (d * d));
    expect(Math.abs(peak.amplitude / height - 1)).toBeLessThan(1e-5);
  });

  it.each(rows)("halflife $halflife s: Holden's formula misses the peak", ({ halflife, peak, ours, holden }) => {
    if (Number.isNaN(holden)) {
      // Holden's stiffness Ω² − d²/4 is negative once d > 2Ω: no real frequency at all.
      expect(halflifeToDamping(halflife)).toBeGreaterThan(2 * TWO_PI * GOAL_FREQUENCY);
      return;
    }
    // Off by more than 100 sweep steps at every halflife tested (0.012 Hz at 2 s, 3.9 Hz at 0.1 s)…
    expect(Math.abs(holden - peak.frequency)).toBeGreaterThan(100 * FINE);
    // …always below the peak, and with a smaller response than ours.
    expect(holden).toBeLessThan(peak.frequency);
    expect(steadyState(holden, halflife).amplitude).toBeLessThan(steadyState(ours, halflife).amplitude);
  });

  it("Holden's own energy measure has no maximum: it grows with the spring's stiffness", () => {
    // Short halflife: the mean energy rises over the whole sweep, with no peak at all.
    let previous = -Infinity;
    for (let frequency = 0.25; frequency <= 12; frequency += 0.25) {
      const { meanEnergy } = steadyState(frequency, 0.1);
      expect(meanEnergy).toBeGreaterThan(previous);
      previous = meanEnergy;
    }
    // Long halflife: a local bump near the goal frequency (the largest value in 2.40 … 2.62 Hz is
    // not at either end), but a stiff spring has more energy still (mean energy → s/4 as s → ∞).
    const window = Array.from({ length: 221 }, (_, i) => steadyState(2.4 + i * 0.001, 2).meanEnergy);
    const top = window.indexOf(Math.max(...window));
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(window.length - 1);
    expect(steadyState(100, 2).meanEnergy).toBeGreaterThan(window[top]!);
  });
});

describe('resonantFrequency: edge cases', () => {
  it('is √(goalFrequency² + (d/2π)²) on ordinary values', () => {
    const d = halflifeToDamping(0.3);
    const viaStiffness = stiffnessToFrequency(frequencyToStiffness(1.7) + d * d); // √(Ω² + d²)/2π
    // The same value by another route of a handful of roundings each: 1e-14 relative is ~50 ulps.
    expect(Math.abs(resonantFrequency(1.7, 0.3) / viaStiffness - 1)).toBeLessThan(1e-14);
  });
  it('halflife Infinity (no damping) gives the goal frequency', () => {
    expect(resonantFrequency(2.5, Infinity)).toBe(2.5);
  });
  it('halflife 0 (infinite damping) gives Infinity', () => {
    expect(resonantFrequency(2.5, 0)).toBe(Infinity);
  });
  it('goal frequency 0 gives the limit d/2π', () => {
    expect(resonantFrequency(0, 0.5)).toBe(halflifeToDamping(0.5) / TWO_PI);
  });
  it('does not overflow for tiny halflives', () => {
    // d = 4·ln2/1e-300 ≈ 2.8e300: d² would overflow to Infinity; hypot(1, d/2π) is d/2π exactly.
    expect(resonantFrequency(1, 1e-300)).toBe(halflifeToDamping(1e-300) / TWO_PI);
  });
  it('negative or NaN arguments give NaN', () => {
    for (const [f, h] of [
      [-1, 1],
      [1, -1],
      [NaN, 1],
      [1, NaN],
    ])
      expect(resonantFrequency(f!, h!)).toBeNaN();
  });
});
