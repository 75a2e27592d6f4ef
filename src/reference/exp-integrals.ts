/**
 * Time integrals of a decaying exponential, for u = y·t ≥ 0 (float64 reference):
 *   φ1(u) = ∫₀¹ e^{−u·s} ds   = (1 − e^{−u})/u              (1 at u = 0)
 *   ψ(u)  = ∫₀¹ s·e^{−u·s} ds = (1 − e^{−u} − u·e^{−u})/u²  (1/2 at u = 0)
 * Holden's extrapolate and spring_character_update divide by y and y²:
 * (1 − e^{−y·t})/y = t·φ1(y·t) and (1 − e^{−y·t} − y·t·e^{−y·t})/y² = t²·ψ(y·t), which stay exact
 * as y·t → 0. The wasm kernels (assembly/spring/exp-integrals.ts) use fixed polynomials; this file uses
 * Math.expm1 and a recurrence, so the two are independent.
 */

/** φ1(u) = −expm1(−u)/u. */
export function phi1(u: number): number {
  return u === 0 ? 1 : -Math.expm1(-u) / u;
}

/** Below this u, ψ's direct form cancels (1 − e^{−u}(1 + u) ≈ u²/2) and its series is used. */
const PSI_SERIES_BELOW = 0.5;

/** ψ(u); NaN at u = ∞ (callers handle halflife 0 as a limit). */
export function psi(u: number): number {
  if (u >= PSI_SERIES_BELOW) return (1 - Math.exp(-u) * (1 + u)) / (u * u);
  // ψ(u) = Σₖ (−u)^k / ((k + 2)·k!); at u < 0.5 the term k = 16 is below 1e-20.
  let term = 1; // (−u)^k / k!
  let sum = 0;
  for (let k = 0; k <= 16; k++) {
    sum += term / (k + 2);
    term *= -u / (k + 1);
  }
  return sum;
}
