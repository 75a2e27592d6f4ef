/**
 * The spring frequency that resonates with a goal oscillating at a given frequency.
 * Derivation and numbers: docs/resonance.md.
 * @module
 */
import { halflifeToDamping } from './conversions.js';

/**
 * The `frequency` (Hz) to give a spring damper of this `halflife` (s) so that its steady-state
 * response to a goal oscillating at `goalFrequency` (Hz) is largest.
 *
 * Precisely: the spring is Holden's spring damper `x'' = s·(g − x) − d·v` (goal velocity 0, as
 * in his resonance demo) with `s = (2π·frequency)²` and `d = 4·ln2/halflife`, driven by
 * `g(t) = G·sin(Ω·t)`, `Ω = 2π·goalFrequency`. Its steady state is `x = G·|H|·sin(Ω·t + φ)` with
 * `|H|² = s² / ((s − Ω²)² + d²·Ω²)`, and over s > 0 that has one maximum, at
 *
 *     s = Ω² + d²,   i.e.   frequency = √(goalFrequency² + (d / 2π)²),
 *
 * where `|H| = √(1 + Ω²/d²)`. The amplitude of x, the amplitude of v (Ω·|H|·G) and any energy
 * measured with a stiffness that does not change along the sweep all peak there.
 *
 * Source: Holden, "Spring-It-On", `resonant_frequency`. Corrected: he returns
 * `√(Ω² − d²/4) / 2π` — the goal frequency taken as the spring's damped natural frequency
 * `√(s − d²/4)` — which is the free-oscillation frequency, not the frequency of the largest forced
 * response: it lies below the peak (by about 5·d²/(32π²·goalFrequency) Hz when d ≪ Ω) and
 * is not real at all once `d > 2Ω`. Ours lies at or above goalFrequency and is always real.
 *
 * Edge cases: halflife = Infinity (d = 0) gives goalFrequency itself (the undamped peak, where
 * the amplitude is unbounded); halflife = 0 (d = ∞) gives Infinity; goalFrequency = 0 (a still
 * goal, where every frequency gives |H| = 1) gives d/2π, the limit as goalFrequency → 0.
 * A negative or NaN argument gives NaN.
 * @example
 * ```ts
 * import { resonantFrequency } from 'spring-solver';
 * const f = resonantFrequency(2, 0.3); // goal frequency 2 Hz, halflife 0.3 s; Hz
 * ```
 * @group Conversions
 */
export function resonantFrequency(goalFrequency: number, halflife: number): number {
  if (!(goalFrequency >= 0) || !(halflife >= 0)) return NaN;
  const d = halflifeToDamping(halflife); // d = 4·ln2/halflife, Holden's halflife_to_damping
  // s = Ω² + d² (docs/resonance.md) in Hz: √(s)/2π = hypot(Ω/2π, d/2π); hypot avoids overflow of d².
  return Math.hypot(goalFrequency, d / (2 * Math.PI));
}
