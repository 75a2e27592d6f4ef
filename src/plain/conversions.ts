/**
 * Parameter conversions from Daniel Holden's "Spring-It-On".
 * All functions are plain float64 maths on numbers.
 * Units: halflife and lag in seconds, frequency in Hz, stiffness in 1/s², damping in 1/s.
 * @module
 */

const LN2 = Math.LN2;

/** Damping `d = 4·ln2 / halflife` (1/s) of a spring whose envelope halves every `halflife` seconds. Holden, "Spring-It-On". */
export function halflifeToDamping(halflife: number): number {
  return (4 * LN2) / halflife;
}

/** Inverse of {@link halflifeToDamping}: `halflife = 4·ln2 / damping` (s). */
export function dampingToHalflife(damping: number): number {
  return (4 * LN2) / damping;
}

/** Stiffness `s = (2π·frequency)²` (1/s²) from a frequency in Hz. Holden, "Spring-It-On". */
export function frequencyToStiffness(frequency: number): number {
  return (2 * Math.PI * frequency) ** 2;
}

/** Inverse of {@link frequencyToStiffness}: `frequency = √s / 2π` (Hz). */
export function stiffnessToFrequency(stiffness: number): number {
  return Math.sqrt(stiffness) / (2 * Math.PI);
}

/** The halflife (s) that makes a spring of this frequency (Hz) critically damped: `d = 2·√s`. */
export function criticalHalflife(frequency: number): number {
  return dampingToHalflife(2 * Math.sqrt(frequencyToStiffness(frequency)));
}

/** The frequency (Hz) that makes a spring of this halflife (s) critically damped: `s = d²/4`. */
export function criticalFrequency(halflife: number): number {
  return stiffnessToFrequency(halflifeToDamping(halflife) ** 2 / 4);
}

/** Stiffness giving damping ratio `ratio` for this damping: from `d = 2·ratio·√s`, `s = (d / 2·ratio)²`. */
export function dampingRatioToStiffness(ratio: number, damping: number): number {
  return (damping / (2 * ratio)) ** 2;
}

/** Damping giving damping ratio `ratio` for this stiffness: `d = 2·ratio·√s`. */
export function dampingRatioToDamping(ratio: number, stiffness: number): number {
  return 2 * ratio * Math.sqrt(stiffness);
}

/** Lag (s) of a damper that follows a constant-velocity goal: `lag = halflife / ln2`. */
export function halflifeToLag(halflife: number): number {
  return halflife / LN2;
}

/** Inverse of {@link halflifeToLag}: `halflife = lag·ln2`. */
export function lagToHalflife(lag: number): number {
  return lag * LN2;
}

/**
 * Holden's rational approximation of `exp(−x)` for x ≥ 0: `1 / (1 + x + 0.48x² + 0.235x³)`.
 * Exported for users who want his exact behaviour; the kernels use true exp.
 */
export function fastNegexp(x: number): number {
  return 1 / (1 + x + 0.48 * x * x + 0.235 * x * x * x);
}

/**
 * Holden's polynomial approximation of `atan(x)`:
 * `π/4·z − z·(z − 1)·(0.2447 + 0.0663·z)` on z = |x| ≤ 1, reflected through π/2 − atan(1/z) above 1.
 * Exported for users who want his exact behaviour; the kernels use true trig.
 */
export function fastAtan(x: number): number {
  const z = Math.abs(x);
  const w = z > 1 ? 1 / z : z;
  const y = (Math.PI / 4) * w - w * (w - 1) * (0.2447 + 0.0663 * w);
  return Math.sign(x) * (z > 1 ? Math.PI / 2 - y : y);
}
