/**
 * Spring energy, from Daniel Holden's "Spring-It-On" (section "Resonance", `spring_energy`).
 * @module
 */
import { frequencyToStiffness } from './conversions.js';

/**
 * Energy per unit mass of a spring: potential plus kinetic,
 *
 *     E = (s·(scale·(x − xRest))² + (scale·(v − vRest))²) / 2,   s = frequencyToStiffness(frequency).
 *
 * Units: x and xRest in position units (say m), v and vRest in those units per second,
 * frequency in Hz, so s in 1/s² and E in (units/s)² — J/kg when positions are in metres.
 *
 * Source: Holden's `spring_energy`. We keep his form, in which `scale` multiplies the
 * displacement and the velocity *before* squaring, so E scales with scale²: `scale` is a change of
 * position units (his resonance demo passes 0.01 to turn pixels into hundreds of pixels), and an
 * energy in the new units is scale² times the old one. A form with `scale` outside the squares
 * (E linear in scale) would not be Holden's.
 *
 * Corrected: nothing in the formula. Note, though, that this energy weights the potential term
 * by the spring's own stiffness, so it is not the measure that defines resonance here (it grows
 * without bound with frequency when the spring follows a moving goal): see resonantFrequency
 * and docs/resonance.md.
 * @example
 * ```ts
 * import { springEnergy } from 'spring-solver';
 * const e = springEnergy(0.5, 2, 1.5); // x 0.5, v 2 units/s, frequency 1.5 Hz; about a goal at 0
 * ```
 * @group Conversions
 */
export function springEnergy(x: number, v: number, frequency: number, xRest = 0, vRest = 0, scale = 1): number {
  const s = frequencyToStiffness(frequency); // s = (2π·f)², Holden's frequency_to_stiffness
  const y = scale * (x - xRest); // scaled displacement from rest
  const w = scale * (v - vRest); // scaled velocity relative to rest
  return (s * y * y + w * w) / 2; // potential s·y²/2 plus kinetic w²/2 (unit mass), Holden's spring_energy
}
