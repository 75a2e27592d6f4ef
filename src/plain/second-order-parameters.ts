/**
 * t3ssel8r's parameterisation of second-order dynamics ("Giving Personality to Procedural
 * Animations using Math", 2022): y + k1·y' + k2·y'' = x + k3·x', with f (Hz), ζ and r.
 * Plain functions for choosing parameters; the model itself is SecondOrderDynamics.
 * @group Second-order
 */

export interface KCoefficients {
  k1: number;
  k2: number;
  k3: number;
}

/**
 * @group Second-order
 */
export interface FzrParameters {
  f: number;
  zeta: number;
  r: number;
}

/**
 * t3ssel8r: k1 = ζ/(πf), k2 = 1/(2πf)², k3 = r·ζ/(2πf).
 * @throws RangeError unless f is finite and > 0 and ζ, r are finite.
 * @example
 * ```ts
 * import { fzrToK } from 'spring-solver';
 * const { k1, k2, k3 } = fzrToK(2, 0.5, 2); // f 2 Hz, ζ 0.5, r 2
 * ```
 * @group Second-order
 */
export function fzrToK(f: number, zeta: number, r: number): KCoefficients {
  if (!(f > 0) || !Number.isFinite(f)) {
    throw new RangeError(`f must be finite and > 0 (k2 = 1/(2πf)² is infinite at f = 0), got ${f}`);
  }
  if (!Number.isFinite(zeta) || !Number.isFinite(r)) {
    throw new RangeError(`zeta and r must be finite, got ${zeta}, ${r}`);
  }
  const w = 2 * Math.PI * f;
  return {
    k1: zeta / (Math.PI * f), // t3ssel8r: k1 = ζ/(πf)
    k2: 1 / (w * w), // t3ssel8r: k2 = 1/(2πf)²
    k3: (r * zeta) / w, // t3ssel8r: k3 = rζ/(2πf)
  };
}

/**
 * Inverse of fzrToK: f = 1/(2π√k2), ζ = k1/(2√k2), r = 2·k3/k1.
 * When k1 = 0 (ζ = 0) r is not determined by (k1, k2, k3): r = 0 is returned if k3 = 0, and a
 * RangeError is thrown if k3 ≠ 0 (no (f, ζ, r) produces it).
 * @throws RangeError unless k2 > 0 and all inputs are finite.
 * @example
 * ```ts
 * import { kToFzr } from 'spring-solver';
 * const { f, zeta, r } = kToFzr(0.04, 0.006, 0.16); // f in Hz
 * ```
 * @group Second-order
 */
export function kToFzr(k1: number, k2: number, k3: number): FzrParameters {
  if (!(k2 > 0) || !Number.isFinite(k2) || !Number.isFinite(k1) || !Number.isFinite(k3)) {
    throw new RangeError(`need k2 > 0 and finite k1, k2, k3, got ${k1}, ${k2}, ${k3}`);
  }
  const sqrtK2 = Math.sqrt(k2);
  const f = 1 / (2 * Math.PI * sqrtK2); // from k2 = 1/(2πf)²
  const zeta = k1 / (2 * sqrtK2); // from k1 = ζ/(πf) = 2ζ·√k2
  let r: number;
  if (k1 !== 0) {
    r = (2 * k3) / k1; // from k3 = rζ/(2πf) = r·k1/2
  } else if (k3 === 0) {
    r = 0;
  } else {
    throw new RangeError(`k1 = 0 (zeta = 0) forces k3 = 0, got k3 = ${k3}`);
  }
  return { f, zeta, r };
}

/**
 * t3ssel8r's critical timestep with his safety factor 0.8:
 *     Tcrit = 0.8·(√(4k2 + k1²) − k1)
 * evaluated as 0.8·4k2/(√(4k2 + k1²) + k1), the same number without the cancellation at large ζ.
 * Semi-implicit Euler with step h is stable iff h < √(4k2 + k1²) − k1 (= Tcrit/0.8) when k1 > 0.
 * @throws RangeError unless k2 > 0 and k1 is finite.
 * @example
 * ```ts
 * import { criticalTimestep, fzrToK } from 'spring-solver';
 * const { k1, k2 } = fzrToK(2, 0.5, 2);
 * const maxDt = criticalTimestep(k1, k2); // s: the largest safe semi-implicit Euler step (with his 0.8 margin)
 * ```
 * @group Second-order
 */
export function criticalTimestep(k1: number, k2: number): number {
  if (!(k2 > 0) || !Number.isFinite(k2) || !Number.isFinite(k1)) {
    throw new RangeError(`need k2 > 0 and finite k1, got ${k1}, ${k2}`);
  }
  return (0.8 * (4 * k2)) / (Math.sqrt(4 * k2 + k1 * k1) + k1);
}
