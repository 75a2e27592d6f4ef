/**
 * Seeded random numbers and case generators for the tests. Every test draws from its own
 * seeded generator, so a failure reproduces exactly.
 */

/** A random source: uniform floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: a small 32-bit PRNG, good enough for test inputs and fully deterministic. */
export { mulberry32 } from '../../tools/mulberry32.js';

/** Uniform in [lo, hi). */
export function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng();
}

/** Log-uniform in [lo, hi) (lo > 0): every decade equally likely. */
export function logUniform(rng: Rng, lo: number, hi: number): number {
  return lo * Math.exp(Math.log(hi / lo) * rng());
}

/** A whole number in [lo, hi]. */
export function integer(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor((hi - lo + 1) * rng());
}

/** One element of `items`. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

/** n values from `draw`, rounded to float32. */
export function randomArray(n: number, draw: () => number): Float32Array {
  const array = new Float32Array(n);
  for (let i = 0; i < n; i++) array[i] = draw();
  return array;
}

/** Input bounds of the accuracy tests: |x|, |g| ≤ 10 and |v|, |q| ≤ 20. */
export const X_MAX = 10;
export const V_MAX = 20;

/** Fills the state arrays of a spring with x, g in [−10, 10] and v, q in [−20, 20]. */
export function fillState(rng: Rng, x: Float32Array, v: Float32Array | null, g: Float32Array | null, q: Float32Array | null): void {
  for (let i = 0; i < x.length; i++) {
    x[i] = uniform(rng, -X_MAX, X_MAX);
    if (v) v[i] = uniform(rng, -V_MAX, V_MAX);
    if (g) g[i] = uniform(rng, -X_MAX, X_MAX);
    if (q) q[i] = uniform(rng, -V_MAX, V_MAX);
  }
}

/** Time steps of the accuracy tests: 1/240 s to 2 s. */
export const DT_MIN = 1 / 240;
export const DT_MAX = 2;

/** `count` time steps: the two ends of [1/240, 2] first, then log-uniform draws. */
export function timeSteps(rng: Rng, count: number): number[] {
  const steps = [DT_MIN, DT_MAX];
  while (steps.length < count) steps.push(logUniform(rng, DT_MIN, DT_MAX));
  return steps.slice(0, count);
}

/** Damping ratios of the accuracy tests: ζ log-uniform in [0.05, 20]. */
export const ZETA_MIN = 0.05;
export const ZETA_MAX = 20;

export type Regime = 'under' | 'critical' | 'over';

/**
 * A damping ratio ζ for the requested regime: under-damped ζ log-uniform in [0.05, 0.999],
 * exactly critical ζ = 1, over-damped ζ log-uniform in [1.001, 20] (so float32 rounding
 * cannot move a draw to the other side of 1). Without a regime: one draw in eight exactly
 * critical, the rest split evenly, so [0.05, 20] is covered log-uniformly on each side of 1.
 */
export function dampingRatio(rng: Rng, regime?: Regime): number {
  const r = regime ?? (rng() < 0.125 ? 'critical' : rng() < 0.5 ? 'under' : 'over');
  if (r === 'critical') return 1;
  return r === 'under' ? logUniform(rng, ZETA_MIN, 0.999) : logUniform(rng, 1.001, ZETA_MAX);
}

/** The regime of a damping ratio. */
export function regimeOf(zeta: number): Regime {
  return zeta < 1 ? 'under' : zeta > 1 ? 'over' : 'critical';
}

/**
 * Parameters of kernel `fn` (by name) spanning its regimes: ζ from {@link dampingRatio}
 * (one in eight exactly critical), halflives log-uniform in [0.02, 2] s (damper and critical
 * springs: [0.01, 5] s), damping d = m/64 for the stiffness form so that s = d²/4 is exact.
 */
export function springParams(rng: Rng, fn: string): number[] {
  switch (fn) {
    case 'springDamper': {
      const zeta = dampingRatio(rng);
      const h = logUniform(rng, 0.02, 2);
      return [Math.LN2 / (Math.PI * zeta * h), h]; // ζ = ln2/(π·f·h)
    }
    case 'springDamperStiffness': {
      const zeta = dampingRatio(rng);
      const d = integer(rng, 13, 3200) / 64;
      return [(d / (2 * zeta)) ** 2, d];
    }
    case 'springDamperRatio':
      return [dampingRatio(rng), logUniform(rng, 0.02, 2)];
    default:
      return [logUniform(rng, 0.01, 5)];
  }
}
