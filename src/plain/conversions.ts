/**
 * Parameter conversions from Daniel Holden's "Spring-It-On".
 * All functions are plain float64 maths on numbers.
 * Units: halflife and lag in seconds, frequency in Hz, stiffness in 1/s², damping in 1/s.
 * @module
 */

const LN2 = Math.LN2;

/**
 * Damping `d = 4·ln2 / halflife` (1/s) of a spring whose envelope halves every `halflife` seconds. Holden, "Spring-It-On".
 * @example
 * ```ts
 * import { halflifeToDamping } from 'spring-solver';
 * const d = halflifeToDamping(0.2); // halflife 0.2 s; 1/s: 4·ln2/0.2 ≈ 13.9
 * ```
 * @group Conversions
 */
export function halflifeToDamping(halflife: number): number {
  return (4 * LN2) / halflife;
}

/**
 * Inverse of {@link halflifeToDamping}: `halflife = 4·ln2 / damping` (s).
 * @example
 * ```ts
 * import { dampingToHalflife } from 'spring-solver';
 * const halflife = dampingToHalflife(13.86); // damping 13.86 1/s; s, about 0.2
 * ```
 * @group Conversions
 */
export function dampingToHalflife(damping: number): number {
  return (4 * LN2) / damping;
}

/**
 * Stiffness `s = (2π·frequency)²` (1/s²) from a frequency in Hz. Holden, "Spring-It-On".
 * @example
 * ```ts
 * import { frequencyToStiffness } from 'spring-solver';
 * const s = frequencyToStiffness(2); // 2 Hz; 1/s²: (2π·2)²
 * ```
 * @group Conversions
 */
export function frequencyToStiffness(frequency: number): number {
  return (2 * Math.PI * frequency) ** 2;
}

/**
 * Inverse of {@link frequencyToStiffness}: `frequency = √s / 2π` (Hz).
 * @example
 * ```ts
 * import { stiffnessToFrequency } from 'spring-solver';
 * const f = stiffnessToFrequency(158); // stiffness 158 1/s²; Hz, about 2
 * ```
 * @group Conversions
 */
export function stiffnessToFrequency(stiffness: number): number {
  return Math.sqrt(stiffness) / (2 * Math.PI);
}

/**
 * The halflife (s) that makes a spring of this frequency (Hz) critically damped: `d = 2·√s`.
 * @example
 * ```ts
 * import { criticalHalflife } from 'spring-solver';
 * const halflife = criticalHalflife(2); // frequency 2 Hz; s: the halflife that makes it critical
 * ```
 * @group Conversions
 */
export function criticalHalflife(frequency: number): number {
  return dampingToHalflife(2 * Math.sqrt(frequencyToStiffness(frequency)));
}

/**
 * The frequency (Hz) that makes a spring of this halflife (s) critically damped: `s = d²/4`.
 * @example
 * ```ts
 * import { criticalFrequency } from 'spring-solver';
 * const f = criticalFrequency(0.2); // halflife 0.2 s; Hz: the frequency that makes it critical
 * ```
 * @group Conversions
 */
export function criticalFrequency(halflife: number): number {
  return stiffnessToFrequency(halflifeToDamping(halflife) ** 2 / 4);
}

/**
 * Stiffness giving damping ratio `ratio` for this damping: from `d = 2·ratio·√s`, `s = (d / 2·ratio)²`.
 * @example
 * ```ts
 * import { dampingRatioToStiffness } from 'spring-solver';
 * const s = dampingRatioToStiffness(0.5, 13.9); // ζ 0.5, damping 13.9 1/s; 1/s²
 * ```
 * @group Conversions
 */
export function dampingRatioToStiffness(ratio: number, damping: number): number {
  return (damping / (2 * ratio)) ** 2;
}

/**
 * Damping giving damping ratio `ratio` for this stiffness: `d = 2·ratio·√s`.
 * @example
 * ```ts
 * import { dampingRatioToDamping } from 'spring-solver';
 * const d = dampingRatioToDamping(0.5, 158); // ζ 0.5, stiffness 158 1/s²; 1/s
 * ```
 * @group Conversions
 */
export function dampingRatioToDamping(ratio: number, stiffness: number): number {
  return 2 * ratio * Math.sqrt(stiffness);
}

/**
 * Lag (s) of a damper that follows a constant-velocity goal: `lag = halflife / ln2`.
 * @example
 * ```ts
 * import { halflifeToLag } from 'spring-solver';
 * const lag = halflifeToLag(0.2); // halflife 0.2 s → how many seconds a damper trails a goal moving at constant speed
 * ```
 * @group Conversions
 */
export function halflifeToLag(halflife: number): number {
  return halflife / LN2;
}

/**
 * Inverse of {@link halflifeToLag}: `halflife = lag·ln2`.
 * @example
 * ```ts
 * import { lagToHalflife } from 'spring-solver';
 * const halflife = lagToHalflife(0.1); // lag 0.1 s → halflife in s
 * ```
 * @group Conversions
 */
export function lagToHalflife(lag: number): number {
  return lag * LN2;
}

/**
 * Holden's rational approximation of `exp(−x)` for x ≥ 0: `1 / (1 + x + 0.48x² + 0.235x³)`.
 * Exported for users who want his exact behaviour; the kernels use true exp.
 * @example
 * ```ts
 * import { fastNegexp } from 'spring-solver';
 * const e = fastNegexp(0.5); // ≈ Math.exp(-0.5)
 * ```
 * @group Conversions
 */
export function fastNegexp(x: number): number {
  return 1 / (1 + x + 0.48 * x * x + 0.235 * x * x * x);
}

/**
 * Holden's polynomial approximation of `atan(x)`:
 * `π/4·z − z·(z − 1)·(0.2447 + 0.0663·z)` on z = |x| ≤ 1, reflected through π/2 − atan(1/z) above 1.
 * Exported for users who want his exact behaviour; the kernels use true trig.
 * @example
 * ```ts
 * import { fastAtan } from 'spring-solver';
 * const a = fastAtan(1); // ≈ π/4 rad
 * ```
 * @group Conversions
 */
export function fastAtan(x: number): number {
  const z = Math.abs(x);
  const w = z > 1 ? 1 / z : z;
  const y = (Math.PI / 4) * w - w * (w - 1) * (0.2447 + 0.0663 * w);
  return Math.sign(x) * (z > 1 ? Math.PI / 2 - y : y);
}
